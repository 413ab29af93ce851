"""'What exit status does X return when Y?': the status a sentence gives under the condition asked.

Shells and command-line tools state exit statuses in prose: "If the attempt times out, status 2
is returned.", "If job represents an unknown job, a warning is printed and the exit status is
127.", "A return status of 2 indicates a timeout", "return 3 with a warning". A question asking
for a status (an exit or return status) is answered by a number from 0 to 255 that such a
sentence gives as a status - after "status", "return", "exits with", or before "is returned" -
never an amount ("returns 512 bytes"). The sentence must be about what the question asks the
status of (half of those words in it or its term, or all of them in its heading: "the . builtin"
under "Shell Builtin Commands") and state the condition asked under: half of its words and two
at least, negated as the question's is ("if file was found" is not "when it is not found"). A
sentence listing several statuses ("The exit status is 0 if ..., 1 if it is zero, and 2 if an
error occurred") answers with the one whose own clause states the condition; none, or more
than one, answers nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, overlap, own_quote, sentences_of, stems
from ._doc_questions import DocQuestion

# A status given as one: "status 2", "the exit status is 127", "a return status of 2", "return 3",
# "exits with code 1", "2 is returned"; not a quantity ("returns 512 bytes", "return 1.5").
_NOT_AMOUNT: Final = r"(?![\w.,]\d|\.\d|%| ?(?:bytes?|seconds?|ms|characters?|lines?|times)\b)"
_GIVEN: Final = re.compile(
    r"(?i)\b(?:(?:exit|return) status (?:is|of|will be) |status (?:of )?|returns? (?:with )?(?:a )?"
    r"(?:status (?:of )?)?|exits? with (?:(?:a )?(?:status|code) )?)(\d{1,3})\b"
    + _NOT_AMOUNT
    + r"|\b(\d{1,3}) (?:is|will be) returned\b"
)
# The statuses a list goes on with: "the exit status is 0 if ..., 1 if it is zero, and 2 if ...".
_LISTED: Final = re.compile(r"(?:,| and| or)+ (\d{1,3}) if\b")
_MAX_STATUS: Final = 255
# Words that ask for a status, not what it is the status of.
_ASKING: Final = frozenset(stems("what which exit return returns status code value does do give"))
_FIT: Final = 0.5
_FRAME: Final = stems("no not given set specified is are the a an")
_NEGATION: Final = re.compile(r"(?i)\b(?:not|no|never|cannot|unknown|non-?\w+)\b|n't\b")
# Where one status's clause ends and the next begins.
_CLAUSE: Final = re.compile(r";|, (?:and |or |but |while )?|\belse\b")


def status_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The status each sentence about what the question asks gives under the asked condition."""
    said = replace(q, words=tuple(w for w in q.words if w not in _ASKING))
    asked_under = re.split(
        r"\b(?:when|if|unless|once|after|on|indicates?|means?|signals?)\b", q.text, maxsplit=1
    )
    if not said.words or len(asked_under) < 2:
        return  # a status is the status of something, under some condition
    under = stems(asked_under[1])
    condition = replace(q, words=tuple(w for w in said.words if w in under and w not in _FRAME))
    subject = replace(q, words=tuple(w for w in said.words if w not in under))
    negated = _NEGATION.search(asked_under[1]) is not None
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        given = _statuses(text)
        if not given or not about(line, text, q):
            continue
        around = (*line.terms[-1:], *line.headings[-1:])
        if not _about_subject(subject, text, line.terms[-1:], line.headings[-1:]):
            continue  # "return status 2, compared with status 1 for a file not found": another command's
        # One status: the whole sentence states its condition ("If the attempt times out, status 2 is
        # returned."); several: each its own clause ("... is 127; if file was found ... is 126", "0 if
        # ..., 1 if it is zero, and 2 if an error occurred").
        spans = [(0, len(text))] if len(given) == 1 else _clauses(text)
        fitting: set[str] = set()
        for start, end in spans:
            inside = [status for at, status in given if start <= at < end]
            if len(inside) == 1 and _stated(condition, negated, text[start:end], around):
                fitting.add(inside[0])
        if len(fitting) == 1:
            score = 1.0 + overlap(said, text, *around)
            yield DocCandidate(
                page.url, fitting.pop(), own_quote(page, line, sentence), score, "the status given"
            )


def _clauses(text: str) -> list[tuple[int, int]]:
    """Where each clause of `text` starts and ends (`_CLAUSE` separates them)."""
    cuts = [0, *(at for m in _CLAUSE.finditer(text) for at in (m.start(), m.end())), len(text)]
    return list(zip(cuts[::2], cuts[1::2], strict=True))


def _about_subject(subject: DocQuestion, text: str, term: Sequence[str], heading: Sequence[str]) -> bool:
    """Whether the sentence is about what the question asks the status of: half of its words in the
    sentence or its term, or all of them in the heading ("the . builtin" under "Shell Builtin Commands")."""
    if not subject.words:
        return True
    return overlap(subject, text, *term) >= _FIT or overlap(subject, *heading) == 1.0


def _statuses(text: str) -> list[tuple[int, str]]:
    """Each status `text` gives, with where it stands, in order."""
    found: list[tuple[int, str]] = []
    for match in _GIVEN.finditer(text):
        group = 1 if match.group(1) is not None else 2
        found.append((match.start(group), match.group(group)))
        for listed in _LISTED.finditer(text, match.end()):
            found.append((listed.start(1), listed.group(1)))
    unique = sorted(dict(found).items())
    return [(at, status) for at, status in unique if int(status) <= _MAX_STATUS]


def _stated(condition: DocQuestion, negated: bool, clause: str, around: Sequence[str]) -> bool:
    """Whether `clause` states the condition asked under: half its words, negated as the question's is
    ("if file was found but ..." is not "when the file is not found")."""
    if (_NEGATION.search(clause) is not None) != negated:
        return False
    # Half of its words, and two at least: "an error occurred" is not stated by "a syntax error".
    held = overlap(condition, clause, *around) * len(condition.words)
    return held >= max(_FIT * len(condition.words), min(2, len(condition.words)))
