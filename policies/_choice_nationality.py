"""A choice by nationality: "Which of these two filmmakers is Scottish, A or B?", "Which of these rock
bands comes from Canada, A or B?".

The nationality asked is a nationality word of the question ("Scottish") or a country it names whose
name begins the one nationality word sharing its first five letters ("Canada" -> "Canadian"). Each
offered name's page states its nationality in its opening sentence (`_stated_values.nationalities`,
the reader of `same-value`); the name whose page states the one asked wins, when the other page
states another nationality - not the same one, none, one it cannot read, nor a whole or part of the
one asked ("British" against "Scottish": both may be true).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from citeloop.events import Page

from ._nationalities import NATIONALITIES, WHOLES
from ._same_value import value_sentence
from ._stated_values import UNREAD, nationalities

# Capitalized words of a question that may name a nationality or a country.
_CAPITALIZED: Final = re.compile(r"\b[A-Z][a-z]{3,}\b")


def asked_nationality(question: str, names: Sequence[str] = ()) -> str | None:
    """The nationality a choice question asks for, or None when it names none (or more than one); the
    offered `names` are left out ("Michael Jordan" names no Jordanian)."""
    for name in names:
        question = question.replace(name, " ")
    found: set[str] = set()
    for word in _CAPITALIZED.findall(question):
        folded = word.casefold()
        if folded in NATIONALITIES:
            found.add(NATIONALITIES[folded])
            continue
        country = {name for key, name in NATIONALITIES.items() if len(folded) >= 5 and key[:5] == folded[:5]}
        if len(country) == 1:
            found |= country
    return found.pop() if len(found) == 1 else None


def nationality_choice(
    question: str, names: Sequence[str], pages: Sequence[Page]
) -> tuple[int, tuple[str, str]] | None:
    """Which of the two pages (0 or 1) of the offered `names` states the nationality asked while the
    other states another, with the two quotes; None when that does not settle it."""
    asked = asked_nationality(question, names)
    if asked is None:
        return None
    opening = [value_sentence(page.body, "nationality") for page in pages]
    if opening[0] is None or opening[1] is None:
        return None
    stated = [nationalities(sentence.text) for sentence in opening if sentence is not None]
    if any(not values or UNREAD in values for values in stated):
        return None
    holds = [asked in values for values in stated]
    if holds[0] == holds[1]:
        return None
    won = 0 if holds[0] else 1
    if any(_whole_or_part(asked, other) for other in stated[1 - won]):
        return None
    return won, (opening[0].text, opening[1].text)


def _whole_or_part(asked: str, other: str) -> bool:
    return other in WHOLES.get(asked, frozenset()) or asked in WHOLES.get(other, frozenset())
