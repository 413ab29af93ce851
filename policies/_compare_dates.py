"""Dates in comparisons (`_compare`): a date's sort key, and the year a page gives for when its subject
began ("formed in 2001", "fought on 4 July 1610", "(founded 1944)", "is a 1999 film")."""

from __future__ import annotations

import re
from typing import Final

from ._sentences import stem, words

_MONTHS: Final = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
)  # fmt: skip
_ORIGIN_WORDS: Final = (
    "formed", "founded", "established", "released", "published", "created", "built", "opened", "launched",
    "began", "started", "fought", "occurred", "debuted", "premiered", "written", "composed", "produced",
    "introduced", "designed", "invented", "aired", "issued", "discovered", "held", "signed",
)  # fmt: skip
_ORIGIN_VERBS: Final = frozenset(stem(word) for word in _ORIGIN_WORDS)
YEAR: Final = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


def date_key(text: str) -> tuple[int, ...] | None:
    """(year,) or (year, month, day) of "14 August 1965", "August 14, 1965" or "1965"."""
    tokens = text.replace(",", " ").split()
    year = next((int(t) for t in tokens if t.isdigit() and len(t) >= 3), None)
    if year is None:
        return None
    month = next((_MONTHS.index(t.casefold()) + 1 for t in tokens if t.casefold() in _MONTHS), None)
    day = next((int(t) for t in tokens if t.isdigit() and len(t) <= 2), None)
    return (year, month, day) if month is not None and day is not None else (year,)


def origin_year(sentence: str, *, opening: bool) -> int | None:
    """The year a sentence gives for when its subject began (`_compare`'s docstring gives the three
    places; the first two only in the page's opening sentence, the third in its first three)."""
    if opening:
        bracket = re.match(r"^[^()]{1,80}?\(([^()]*)\)", sentence)
        if bracket is not None:
            years = YEAR.findall(bracket.group(1))
            if years:
                return int(years[0])
        after = re.search(r"\b(?:is|was|are|were) an? (?:\w+ )?(1[0-9]{3}|20[0-9]{2})\b", sentence)
        if after is not None:
            return int(after.group(1))
    tokens = words(sentence)
    for index, token in enumerate(tokens):
        # "formed in 2001", "fought on 4 July 1610"
        key = date_key(" ".join(tokens[index - 2 : index + 1])) if index >= 3 else None
        dated = key is not None and len(key) == 3 and tokens[index - 3].casefold() == "on"
        if not (YEAR.fullmatch(token) and index >= 1 and (tokens[index - 1].casefold() == "in" or dated)):
            continue
        if any(stem(t) in _ORIGIN_VERBS for t in tokens[max(0, index - 12) : index - 1]):
            return int(token)
    return None
