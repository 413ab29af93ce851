"""'What values may X take?': the list of values a sentence about X says it accepts.

A manual states the values a setting accepts in a few fixed ways: "Valid values are Never, Always
and PreserveNewest.", "The value must be either arm64 or x86_64.", "Set to FIXED or FREE to
indicate the Fortran source layout." The answer is the whole list as the sentence writes it
(two items or more), from a sentence about X: naming it, or under its term, heading or page. A
list of words the prose uses ("set to the file and the line") is none: no item may be a
function word, and the list must end the clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, overlap, page_subject, sentences_of
from ._doc_questions import DocQuestion
from ._questions import STOPWORDS

# One value: quoted, or a token ("PreserveNewest", "x86_64", "1", "-1").
_ITEM: Final = r"(?:\"[^\"]{1,30}\"|'[^']{1,30}'|-?[\w.+]*\w)"
# Two or more values, the last after "or" / "and": "Never, Always and PreserveNewest", "1, True, or ON".
_LIST: Final = rf"({_ITEM}(?:, {_ITEM})*,? (?:or|and) {_ITEM})"
# Where the list must end: the sentence or its clause ("... or ON to enable output on failure").
_END: Final = r"(?=\s*(?:[.;:]|$)|,? (?:to|for|inclusive|respectively)\b| \()"
_FORMS: Final = (
    # "Valid values are Never, Always and PreserveNewest."
    re.compile(
        r"\b(?:[Vv]alid|[Aa]llowed|[Pp]ossible|[Pp]ermitted|[Aa]ccepted|[Ss]upported|[Ll]egal) values"
        rf" (?:are|include)(?: one of)?:? {_LIST}{_END}"
    ),
    # "The value must be either arm64 or x86_64."
    re.compile(rf"\b[Tt]he value (?:must|can|may|should) be (?:either |one of )?{_LIST}{_END}"),
    # "Set to FIXED or FREE to indicate ...", "Set the value to 1, True, or ON to enable ..."
    re.compile(
        r"^(?:[Ii]t )?(?:(?:may|can|must) be )?[Ss]et (?:the value |it )?to (?:either |one of )?"
        rf"{_LIST}{_END}"
    ),
)
_WORDS: Final = re.compile(r"[A-Za-z]+")


def allowed_values(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The list of values a sentence about the question's setting says it accepts."""
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if not about(line, text, q):
            continue
        for form in _FORMS:
            match = form.search(text)
            if match is None or not _values(match.group(1)):
                continue
            context = (page_subject(page), *line.terms[-1:], *line.headings[-1:])
            score = 1.5 + overlap(q, text, *context)
            yield DocCandidate(page.url, match.group(1), text, score, "the values the sentence allows")
            break


def _values(listed: str) -> bool:
    """Whether every item of a list reads as a value, not as a function word of the prose."""
    items = re.split(r",? (?:or|and) |, ", listed)
    return all(not (_WORDS.fullmatch(item) and item.casefold() in STOPWORDS) for item in items)
