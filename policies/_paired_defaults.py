"""Defaults paired with their names in one sentence that states several.

By "respectively": "A and B ... are 50 and 3, respectively". Manuals state several defaults this
way ("default_delivery_slot_discount and default_delivery_slot_loan, whose values are by default
50 and 3, respectively"). The asked name's value is the one at its place in the list of values,
read only when the names listed nearest before the values are as many as the values and hold the
asked name exactly once.
A unit written once after the last value ("5 and 10 seconds") belongs to every bare number.
By each name's own verb: "mean defaults to 0.0 and stddev defaults to 1.0", or one verb for all ("A
defaults to 4 million, B to 120 million, and C to 350 million"): the asked one's.
"""

from __future__ import annotations

import re
from typing import Final

from ._doc_match import NUMBER, UNIT, VALUE, names
from ._doc_questions import DocQuestion
from ._doc_returns import trim
from ._sentences import stem

_ITEM: Final = rf"(?:{NUMBER}(?:\s?{UNIT}(?![\w]))?|[^\s,;()]+)"
_VALUES: Final = re.compile(rf"({_ITEM}(?:,\s+{_ITEM})*),?\s+and\s+({_ITEM}),?\s+respectively\b")
_NAME: Final = r"[A-Za-z_][\w.-]*\w"
_NAMES: Final = re.compile(rf"({_NAME}(?:,\s+{_NAME})*),?\s+and\s+({_NAME})")
_BARE_NUMBER: Final = re.compile(rf"{NUMBER}")
_UNIT_AFTER: Final = re.compile(rf"^({NUMBER})\s?({UNIT})$")


def respective_value(text: str, identifier: str) -> str | None:
    """The value `text` pairs with `identifier` by "respectively", or None where it pairs none."""
    values_at = _VALUES.search(text)
    if values_at is None:
        return None
    # (a number's pattern takes a comma after it too: "3, respectively")
    values = [v.rstrip(",.") for v in (*re.split(r",\s+", values_at.group(1)), values_at.group(2))]
    nearest = None
    for listed in _NAMES.finditer(text, 0, values_at.start()):
        nearest = listed
    if nearest is None:
        return None
    names = [*re.split(r",\s+", nearest.group(1)), nearest.group(2)]
    wanted = identifier.casefold()
    places = [i for i, name in enumerate(names) if name.casefold() == wanted]
    if len(names) != len(values) or len(places) != 1:
        return None
    value = values[places[0]]
    last_unit = _UNIT_AFTER.match(values[-1])
    if last_unit is not None and _BARE_NUMBER.fullmatch(value):
        value = f"{value} {last_unit.group(2)}"
    return value


# "mean defaults to 0.0": a default with a one-word subject.
_SUBJECT_DEFAULTS: Final = re.compile(rf"\b([A-Za-z_][\w.]*) defaults? to {VALUE}")
# "A defaults to 4 million, B to 120 million, and C to 350 million": the verb said once.
_ELIDED: Final = re.compile(rf"(?:,\s+(?:and\s+)?|\s+and\s+)([A-Za-z_][\w.]*) to {VALUE}")


def subject_default(text: str, q: DocQuestion) -> str | None:
    """Where `text` gives several one-word subjects each its "defaults to" (said or elided): the value
    of the one `q` asks about, "" when it asks about none of them or several, None when `text` gives
    fewer than two."""
    subjects = list(_SUBJECT_DEFAULTS.finditer(text))
    if len(subjects) == 1:
        subjects += list(_ELIDED.finditer(text, subjects[0].end()))
    if len(subjects) < 2:
        return None
    own = [m for m in subjects if _asked_subject(m.group(1), q)]
    return trim(own[0].group(2)) if len(own) == 1 else ""


def _asked_subject(subject: str, q: DocQuestion) -> bool:
    """Whether a one-word subject is what `q` asks about (one of its words, or its code)."""
    folded = subject.casefold()
    return stem(folded) in q.words or any(names(i)[0] == folded for i in q.identifiers)
