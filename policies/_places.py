"""Places that answer "where" and "in what city ...?" questions (split out of `_short_answer`).

A place follows a preposition of place ("born in 1968 in Braga"); a month is no place; the place
asked by its noun is the one the text calls so or the first (a city) or last (a country) after
such a preposition, never a country or a state for a city (`_regions`). Asked where someone was
born, the sentence must say "born", and the place is one it names after that word: "Harry Prowell
(10 July 1936 - 27 June 2000) ... represented Guyana in the Marathon at the 1968 Summer Olympics in
Mexico City" says where he ran, not where he was born.
"""

from __future__ import annotations

import re
from typing import Final

from ._extractive_score import CONNECTORS
from ._questions import PLACE_NOUNS, Question, is_month
from ._regions import NOT_CITIES
from ._sentences import words

_BORN: Final = re.compile(r"\bborn\b", re.IGNORECASE)
_LOCATIVE: Final = frozenset({"in", "at", "near", "from", "on", "outside", "inside", "across"})


def where_answer(question: Question, text: str, positions: list[tuple[int, str]]) -> str | None:
    """The place in `text` (its capitalized runs at `positions`, token indices) answering `question`."""
    tokens = words(text)
    # Code is no place: "(... the relevant Logger.propagate attributes)" says where no message goes.
    positions = [(i, span) for i, span in positions if not re.search(r"\w\.\w|_", span)]
    born_asked = _BORN.search(question.text) is not None
    if born_asked:
        born = next((i for i, token in enumerate(tokens) if token.casefold() == "born"), None)
        if born is None:
            return None  # a sentence not saying "born" says no birthplace
        positions = [(i, span) for i, span in positions if i > born]
    # The first capitalized word of the sentence may be a nationality ("a Portuguese businessman").
    placed = [span for i, span in positions if i > 0 and tokens[i - 1].casefold() in _LOCATIVE]
    noun = _PLACE_NOUN.search(question.text)
    if noun is not None:
        return _place_of_kind(noun.group(1).casefold(), text, positions)
    # A month is no place; and a birthplace is written after "in" or "at": "Scott Sidney (July 1872 -
    # December 20, 1928), born Harry Wilbur Siggins, ..." says no place (only a month, a name).
    unplaced = [span for _, span in positions if not is_month(span.split()[0])]
    if not placed and (not unplaced or born_asked):
        return None
    return as_written((placed or unplaced)[0], text, commas=True)


def as_written(run: str, text: str, commas: bool = False) -> str | None:
    """The longest leading part of a capitalized `run` that `text` writes as is: a run read across
    punctuation ("Tenerife (Canary Islands, Spain)" read as "Tenerife Canary Islands Spain") is not
    a span of the text, its first words are. With `commas`, a place keeps the larger one a comma
    adds ("Paris, Texas" is not Paris)."""
    parts = run.split(" ")
    while parts and _written(parts, text, commas) is None:
        parts.pop()
    written = _written(parts, text, commas) if parts else None
    if written is not None and written != " ".join(parts):
        return written
    while parts and parts[-1] in CONNECTORS:
        parts.pop()
    return " ".join(parts) or None


def _written(parts: list[str], text: str, commas: bool) -> str | None:
    """How `text` writes the words `parts` in a row: with spaces, or (`commas`) also with commas."""
    joined = " ".join(parts)
    if joined in text:
        return joined
    if not commas:
        return None
    # "Paris, Texas." but not "Porto, Ines Duarte in Lisbon": the larger place ends its clause.
    found = re.search(r",?\s+".join(re.escape(part) for part in parts) + r"(?=\s*[.,;:)]|\s*$)", text)
    return found.group(0) if found is not None else None


_PLACE_NOUN: Final = re.compile(
    rf"\b(?:in|at|from|near) (?:what|which) ({'|'.join(sorted(PLACE_NOUNS))})\b", re.IGNORECASE
)
_LARGER_PLACES: Final = frozenset({"country", "state", "county", "province"})
_SETTLEMENTS: Final = frozenset({"city", "town", "village"})


def _place_of_kind(noun: str, text: str, positions: list[tuple[int, str]]) -> str | None:
    """The place answering "in what <noun> ...?": one the text calls so ("the state of Ohio"), else,
    after a preposition of place ("in the United Kingdom" too), the last for a country or state (a
    chain of places grows: "at Kell Farm near Braga in Portugal") and the first for a city or town.
    Never a capitalized word after no such preposition ("a Portuguese engineer" names no country)."""
    tokens = [t.casefold() for t in words(text)]
    called = [run for i, run in positions if i >= 2 and tokens[i - 2 : i] == [noun, "of"]]
    if called:
        return as_written(called[0], text, commas=True)
    placed = [
        run
        for i, run in positions
        if i > 0
        and (tokens[i - 1] in _LOCATIVE or (tokens[i - 1] == "the" and i > 1 and tokens[i - 2] in _LOCATIVE))
        and not (noun in _SETTLEMENTS and run.removeprefix("the ") in NOT_CITIES)  # ("born in Ohio": no city)
    ]
    if not placed:
        return None
    return as_written(placed[-1] if noun in _LARGER_PLACES else placed[0], text, commas=True)
