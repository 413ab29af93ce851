"""'Which status code ...?': the one response code a sentence stating the asked condition gives.

Server manuals state codes in prose: "If the size in a request exceeds the configured value,
the 413 (Request Entity Too Large) error is returned to the client.", "By default an HTTP 403
error is returned.", "the daemon rejects them with a 421 response". A question asking for a
status, response, error, reply or SMTP code is answered by a three-digit code (100-599) that
such a sentence gives as a code: beside one of those words, a verb of sending it ("returns 503",
"is sent"), or a bracketed reason after it ("413 (Request Entity Too Large)"), never an amount
("512 bytes", "500 ms"). The sentence (with the term or heading it sits under) must hold half
of what the question says besides asking for a code (and half of the condition it asks under),
name the code the question names, and give one code only: "301 or 302" leaves the choice open,
so it answers nothing. An exit or return status ("What exit status does wait return ...?") is
`_doc_status`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, overlap, own_quote, sentences_of, stems
from ._doc_questions import DocQuestion
from ._doc_status import status_candidates

_CODE: Final = re.compile(r"(?<![\w.,$-])([1-5]\d\d)(?![\w.,]\d|\w)")
# The code given as one: a word naming codes or a verb sending one before it, or after it a
# reason in brackets or a word naming it ("413 (Request Entity Too Large)", "403 error").
_BEFORE: Final = re.compile(
    r"(?i)\b(?:codes?|status|error|response|reply|HTTP|SMTP|returns?|returned|sends?|sent|gives?|issues?|with)"
    r"(?: [\w\"'\u201c\u201d]+){0,2} \(?$"  # ('Returns a "Gone" status (410)')
)
_AFTER: Final = re.compile(
    # ("a 408 REQUEST TIME OUT error is sent": the reason in capitals before the word)
    r"(?i)^(?: \([A-Z][^()]{2,40}\)|(?-i:(?: [A-Z][A-Z-]+){0,4}) (?:error|status|response|reply|code)\b"
    r"|\s*[\"\u201c][A-Z])"
)
# Words that ask for a code, not what it is the code of.
_ASKING: Final = frozenset(
    stems("what which code codes status http smtp response error reply")
    | stems("return returns returned sent send get give")
)
_FIT: Final = 0.5
_QUOTED_NAMED: Final = 0.5
# A line of a list of values, each a word and a colon ("on: issues a 302 redirection ..."): what the
# line says is that value's.
_VALUE_LABEL: Final = re.compile(r"([a-z][\w-]*): ")
# Words that frame a condition without saying which one.
_FRAME: Final = stems("no not given set specified default is are")


def code_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The code each sentence holding half of what the question says gives as a code, if one only."""
    if q.noun == "status":
        yield from status_candidates(q, pages)  # an exit status, not a response code
        return
    said = replace(q, words=tuple(w for w in q.words if w not in _ASKING))
    if not said.words:
        return
    # The condition asked under ("when no timeout parameter is given") must be half stated too: "If no
    # status argument is given, ... (HTTP status 302)" shares only its frame.
    asked_under = re.split(r"\b(?:when|if|unless|once|after)\b", q.text, maxsplit=1)
    under = stems(asked_under[1]) if len(asked_under) > 1 else set()
    condition = replace(q, words=tuple(w for w in said.words if w in under and w not in _FRAME))
    asked_words = set(re.findall(r"[\w-]+", q.text.casefold()))
    quoted = re.findall(r"[\"\u201c]([^\"\u201d]{1,40})[\"\u201d]", q.text)
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if not _CODE.search(text) or not about(line, text, q):
            continue
        label = _VALUE_LABEL.match(text)
        if label is not None and label.group(1).casefold() not in asked_words:
            continue  # "permanent: issues a 301 ...", asked of "DirectoryIndexRedirect on": another value's
        given = {m.group(1) for m in _CODE.finditer(text) if _as_code(text, m)}
        if len(given) != 1:
            continue
        fit = overlap(said, text, *line.terms[-1:], *line.headings[-1:])
        stated = overlap(condition, text, *line.terms[-1:], *line.headings[-1:]) if condition.words else 1.0
        if fit >= _FIT and stated >= _FIT:
            code = given.pop()
            quote = own_quote(page, line, sentence)
            # 'a Redirect with the "gone" status': the sentence saying the value quoted is that value's.
            named = any(
                re.search(rf"(?i)\b{re.escape(v)}\b", " ".join((text, *line.terms[-1:]))) for v in quoted
            )
            score = 1.0 + fit + (_QUOTED_NAMED if named else 0.0)
            yield DocCandidate(page.url, code, quote, score, "the code the sentence gives")


def _as_code(text: str, match: re.Match[str]) -> bool:
    return bool(_BEFORE.search(text[: match.start()]) or _AFTER.match(text[match.end() :]))
