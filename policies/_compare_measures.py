"""Comparisons by a measure each page states with its unit: "Which is longer, A or B?", "Which peak
rises higher above sea level, A or B?".

The value is the one amount in a unit of the measure that a page's opening sentences mark as it
(`_amounts.measured`: "7.8 km long", "8080 m above sea level"), converted to one unit so that "4 mi"
and "6 km" compare. Refused, not guessed: no such amount on either page, two different ones on one
page, or a length on one page and a duration on the other.
"""

from __future__ import annotations

import re
from typing import Final

from ._amounts import measured
from ._sentences import Sentence

# The comparative asked and the measure it reads: "longer" a length or a duration, "higher" a height.
_ASKED: Final = re.compile(r"\b(?P<word>longer|shorter|taller|higher|lower)\b")
_MEASURE: Final = {"longer": "long", "shorter": "long", "taller": "tall", "higher": "high", "lower": "high"}
# Each unit in its family's base unit (metres, seconds).
_UNITS: Final = {
    "m": ("length", 1.0), "metres": ("length", 1.0), "meters": ("length", 1.0), "cm": ("length", 0.01),
    "km": ("length", 1000.0), "kilometres": ("length", 1000.0), "kilometers": ("length", 1000.0),
    "ft": ("length", 0.3048), "feet": ("length", 0.3048), "mi": ("length", 1609.344),
    "miles": ("length", 1609.344), "yards": ("length", 0.9144), "inches": ("length", 0.0254),
    "seconds": ("time", 1.0), "minutes": ("time", 60.0), "hours": ("time", 3600.0),
    "days": ("time", 86400.0), "weeks": ("time", 604800.0), "months": ("time", 2629800.0),
    "years": ("time", 31557600.0), "decades": ("time", 315576000.0),
}  # fmt: skip
# How far into a page a measure may be read: its opening sentences.
OPENING_SENTENCES: Final = 3


def asked_measure(head: str) -> tuple[str, bool] | None:
    """The measure a comparison's words ask for, and whether the smaller value wins; None if none."""
    asked = _ASKED.search(head)
    if asked is None:
        return None
    word = asked.group("word")
    return _MEASURE[word], word in ("shorter", "lower")


def measure_of(sentences: list[Sentence], measure: str) -> tuple[str, float, int] | None:
    """The family, the value in the family's base unit and the sentence index of the one amount of the
    measure the opening sentences state; None when none or several different ones."""
    found: dict[tuple[str, float], int] = {}
    for index, sentence in enumerate(sentences[:OPENING_SENTENCES]):
        amount = measured(sentence.text, measure)
        converted = _converted(amount) if amount is not None else None
        if converted is not None:
            found.setdefault(converted, index)
    if len(found) != 1:
        return None
    (((family, value), index),) = found.items()
    return family, value, index


def _converted(amount: str) -> tuple[str, float] | None:
    match = re.fullmatch(r"(\d[\d,]*(?:\.\d+)?)\s?([A-Za-z]+)", amount.strip())
    if match is None or match.group(2).casefold() not in _UNITS:
        return None
    family, factor = _UNITS[match.group(2).casefold()]
    return family, round(float(match.group(1).replace(",", "")) * factor, 3)
