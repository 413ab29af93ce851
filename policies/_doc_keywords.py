"""'Which <noun>' answered by a keyword beside the noun: "A RESERVED lock will be acquired when ...".

A manual names a kind of thing that is not code (a lock, a datatype, a journal mode) by a
keyword in capitals right before or after the noun: "a RESERVED lock", "datatype ANY". For
"Which lock does SQLite acquire when the first INSERT ... runs?" that keyword is the answer,
from a sentence that holds most of the question's words (`FIT`). Refused: a keyword the
question itself writes ("INSERT"), the product every opened page names, and a sentence that
puts two different keywords beside the noun ("a SHARED lock or a RESERVED lock").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, on_every_page, overlap, sentences_of
from ._doc_questions import DocQuestion
from ._sentences import stem

# The share of the question's words (the noun aside) the sentence and its heading must hold.
FIT: Final = 0.6
_KEYWORD: Final = r"((?:[A-Z][A-Z0-9_]+ )*[A-Z][A-Z0-9_]+)"


def keyword_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    if q.noun is None:
        return
    noun = re.escape(q.noun)
    beside = (
        re.compile(rf"(?<![\w-]){_KEYWORD} (?i:{noun})s?\b"),
        re.compile(rf"\b(?i:{noun})s? {_KEYWORD}(?![\w-])"),
    )
    asked = {word.casefold() for word in re.findall(r"\w+", q.text)}
    on = _ON_OBJECT.search(q.text)
    asked_on = on.group(1).casefold() if on is not None else None
    # A command the question names in capitals, of several words ("TRANSFER TO"), is named whole where
    # the answer is: not "TRANSFER FROM", whose "from" the question's words would not tell apart.
    commands = re.findall(r"\b[A-Z]{2,}(?: [A-Z]{2,})+\b", q.text)
    described = replace(q, words=tuple(w for w in q.words if w not in _TAKING))
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        fit = overlap(described, text, *line.headings[-1:])
        if fit < FIT or not all(re.search(rf"(?<![\w-]){c}(?![\w-])", text) for c in commands):
            continue
        if _another_command(text, q.text):
            continue  # "REBUILD ONLINE takes ...": not what a plain REBUILD takes
        found = {
            match.group(1)
            for pattern in beside
            for match in pattern.finditer(text)
            if not any(word.casefold() in asked for word in match.group(1).split())
            # the product every opened page names ("SQLITE"), a single word; a lock's name ("ACCESS
            # SHARE") may be on every page of a manual's commands and still be the answer
            and not (" " not in match.group(1) and on_every_page(match.group(1), pages))
            and not _on_another(text, match.end(), asked_on)
        }
        if len(found) == 1:
            (keyword,) = found
            yield DocCandidate(page.url, keyword, text, 1.0 + fit, f"the keyword beside {q.noun!r}")


# How a question says a lock is taken: not what it is about.
_TAKING: Final = frozenset(
    stem(w) for w in ("take", "takes", "acquire", "acquires", "obtain", "hold", "use", "need")
)
# What a lock (or any keyword's noun) is taken on: "on the widget", "on the underlying table".
_ON_OBJECT: Final = re.compile(r"\bon (?:the |an? )?(?:[\w'-]+ ){0,2}?([\w-]+)\s*\??$", re.IGNORECASE)
_ON_AFTER: Final = re.compile(r"\s+on (?:the |an? )?((?:[\w-]+ ?){1,4})", re.IGNORECASE)


def _on_another(text: str, end: int, asked_on: str | None) -> bool:
    """Whether the keyword ending at `end` is said of another object than the question's ("a SHARE ROW
    EXCLUSIVE lock on the underlying table", asked of the lock on the widget)."""
    if asked_on is None:
        return False
    said = _ON_AFTER.match(text, end)
    return said is not None and stem(asked_on) not in {stem(w) for w in said.group(1).casefold().split()}


# The command a sentence opens with, in capitals: "REBUILD ONLINE takes ...", "Plain COMPACT acquires ...".
_SUBJECT_COMMAND: Final = re.compile(r"^(?:Plain |A |An |The )?([A-Z]{2,}(?: [A-Z]{2,})*) [a-z]")


def _another_command(text: str, question: str) -> bool:
    """Whether the sentence's subject is a longer command than the one the question names: a variant
    ("REBUILD ONLINE") the question ("a standard REBUILD") does not ask about."""
    subject = _SUBJECT_COMMAND.match(text)
    if subject is None:
        return False
    asked = set(re.findall(r"\b[A-Z]{2,}\b", question))
    words = subject.group(1).split()
    return bool(asked & set(words)) and not set(words) <= asked
