"""How a claim states numbers, units and directions: read from its folded text (docs/evidence.md, "Claims").

Numbers are compared as decimals in the premises' own unit: "9 h" for a 9 under "Runtime
(h)", "hours" is "h", and nothing is ever converted. A unit is a known one (runtime/_quantities.py)
or one the premises use themselves ("Wh").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Final, NamedTuple

from ._quantities import UNITS, find_dates, fold_text

_GREATER: Final = ("longer", "more", "higher", "greater", "larger", "exceeds", "exceed")
_LESS: Final = ("shorter", "less", "fewer", "lower", "smaller")
_EQUAL: Final = ("equal", "equals", "the same as", "as long as")

_ISO_DATE: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?"
)
_STATED: Final = re.compile(
    r"(?<![\w.,])(?P<number>-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?!\d|[.,]\d)"
    r"(?:\s?(?P<word>%|[^\W\d_]+))?"
)


class Stated(NamedTuple):
    """A number a text states: its value, its decimal places, the word right after it, as written."""

    value: Decimal
    places: int
    word: str | None
    text: str


def canonical_unit(unit: str) -> str:
    """A unit in one spelling: "hours" and "h" are "h"; an unknown unit stays as written (folded)."""
    folded = fold_text(unit)
    return UNITS.get(folded, folded)


def stated_numbers(text: str, *, leave_out: Sequence[str] = ()) -> list[Stated]:
    """The numbers of `text` (folded; dates and the `leave_out` phrases, such as row names, removed).

    A date is an ISO date or time, or any form `find_dates` reads ("2 March 2026", "March 2,
    2026"): its day and year are not quantities a claim states.
    """
    folded = _ISO_DATE.sub(" ", fold_text(text))
    for date in reversed(find_dates(folded)):
        folded = folded[: date.start] + " " + folded[date.end :]
    for phrase in leave_out:
        if phrase:
            folded = re.sub(rf"(?<!\w){re.escape(fold_text(phrase))}(?!\w)", " ", folded)
    found: list[Stated] = []
    for match in _STATED.finditer(folded):
        number = match["number"]
        value = Decimal(number.replace(",", ""))
        places = len(number.partition(".")[2])
        found.append(Stated(value, places, match["word"], match.group(0).strip()))
    return found


def stated_unit(stated: Stated, known: set[str]) -> str | None:
    """The unit a stated number carries: a known unit, or one of the premises' own (`known`)."""
    if stated.word is None:
        return None
    unit = canonical_unit(stated.word)
    return unit if stated.word in UNITS or unit in known else None


def as_decimal(value: float) -> Decimal:
    return Decimal(repr(value))


def shown(value: float, unit: str) -> str:
    return f"{value:g} {unit}".strip()


def rounds_to(result: float, number: Stated) -> bool:
    """Whether `number` is `result` written with :g, or rounded to the places it states."""
    exact = as_decimal(result)
    try:
        if number.value == Decimal(format(result, "g")):
            return True
        step = Decimal(1).scaleb(-number.places)
        return any(
            exact.quantize(step, rounding=mode) == number.value for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN)
        )
    except InvalidOperation:
        return False


def direction_of(folded: str) -> tuple[int, str] | None:
    """The first direction word of a claim: +1 greater, -1 less, 0 equal, with the word."""
    found: list[tuple[int, int, str]] = []
    for sign, words in ((1, _GREATER), (-1, _LESS), (0, _EQUAL)):
        for word in words:
            match = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", folded)
            if match is not None:
                found.append((match.start(), sign, word))
    if not found:
        return None
    _, sign, word = min(found)
    return sign, word
