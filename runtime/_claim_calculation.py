"""The `calculation` method: a claim tied to its calculation, and its result as stated (docs/evidence.md).

A calculation claim rests on one `calc:<step>` premise. The recorded result is recomputed from
the recorded inputs with the `calculate` tool's own table, and the text must name the
operation, the inputs' rows (in order, for a pairwise operation) and quantity.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from citeloop.events import Calculation, ClaimPremise

from ._calculate import APPLY, PAIRWISE
from ._claim_rows import Outcome, unnamed_quantity, unnamed_row
from ._claim_text import (
    OPERATION_WORDS,
    Stated,
    as_decimal,
    canonical_unit,
    direction_of,
    first_place,
    named_operations,
    rounds_to,
    shown,
    stated_numbers,
    stated_unit,
)
from ._quantities import fold_text
from ._state import RunState

_COMPARED: Final = {"greater": 1, "less": -1, "equal": 0}


def _misstated_input(stated: Sequence[Stated], calc: Calculation, units: set[str]) -> str | None:
    """A number in the calculation's unit that is neither its result nor one of its inputs' values.

    A claim stating the right mean of wrongly quoted inputs ("the mean of 9 h and 7 h is 8.25 h")
    tells its reader something the calculation did not use.
    """
    unit = canonical_unit(calc.unit)
    inputs = {as_decimal(measure.value) for measure in calc.inputs}
    for number in stated:
        if unit and stated_unit(number, units) != unit:
            continue
        if number.value not in inputs and not rounds_to(float(calc.result), number):
            given = " and ".join(shown(measure.value, measure.unit) for measure in calc.inputs)
            return f"states {number.text}, which is neither {calc.id}'s result nor an input ({given})"
    return None


def judge_calculation(
    text: str, claim: Mapping[str, Any], premises: Sequence[ClaimPremise], state: RunState
) -> Outcome:
    if len(premises) != 1 or premises[0].calculation is None:
        return "unsupported", "a calculation claim rests on exactly one calc:<step> premise"
    calc: Calculation = state.calculations[premises[0].calculation]
    untied = _untied(text, calc)
    if untied is not None:
        return untied
    if isinstance(calc.result, str):
        direction = direction_of(fold_text(text))
        if direction is None:
            return "unsupported", f"does not state the comparison's result ({calc.result})"
        if direction[0] != _COMPARED.get(calc.result):
            return "contradicted", f"says {direction[1]!r}; {calc.id} found the first input {calc.result}"
        return "supported", f"{direction[1]!r} agrees with {calc.id} ({calc.result})"
    result, unit = calc.result, canonical_unit(calc.unit)
    if not math.isfinite(result):
        return "unsupported", f"{calc.id}'s result is not finite"
    units = {unit} if unit else set()
    stated = stated_numbers(text, leave_out=[m.locator.row_header for m in calc.inputs])
    said = shown(result, calc.unit)
    for number in stated:
        if unit and stated_unit(number, units) != unit:
            continue
        if rounds_to(result, number):
            wrong = _misstated_input(stated, calc, units)
            if wrong is not None:
                return "contradicted", wrong
            return "supported", f"states {calc.id}'s {calc.operation}, {said}"
    for number in stated:
        if (stated_unit(number, units) or "") == unit:
            return "contradicted", f"states {number.text}; {calc.id}'s {calc.operation} is {said}"
    for number in stated:
        if stated_unit(number, units) is not None:
            return (
                "unsupported",
                f"states {number.text}; {calc.id} is in {calc.unit!r}: units are never converted",
            )
        if rounds_to(result, number):
            return "unsupported", f"states {number.text} without its unit {calc.unit!r}"
    return "unsupported", f"does not state {calc.id}'s result {said}"


def _recomputed(calc: Calculation) -> float | str | None:
    """The calculation's result computed again from its recorded inputs with `calculate`'s own table."""
    values = [measure.value for measure in calc.inputs]
    try:
        return APPLY[calc.operation](values)
    except (ArithmeticError, IndexError, KeyError, ValueError):
        return None


def _untied(text: str, calc: Calculation) -> Outcome | None:
    """Why a calculation claim is not tied to its calculation, or None (docs/evidence.md, "Claims").

    The recorded result must be its operation over its inputs, recomputed; the text must name
    the operation (`OPERATION_WORDS`; a `compare` by its direction word), no other one, each
    input's row and quantity, and for a pairwise operation the rows in the inputs' order.
    """
    again = _recomputed(calc)
    same = again == calc.result or (
        isinstance(again, float)
        and isinstance(calc.result, float)
        and math.isclose(again, calc.result, rel_tol=1e-12)
    )
    if not same:
        redone = (
            "nothing" if again is None else shown(again, calc.unit) if isinstance(again, float) else again
        )
        recorded = calc.result if isinstance(calc.result, str) else shown(calc.result, calc.unit)
        return "contradicted", (
            f"{calc.id} records {recorded}, but the {calc.operation} of its inputs is {redone}"
        )
    if calc.operation != "compare":
        named = named_operations(text)
        if calc.operation not in named:
            words = ", ".join(repr(word) for word in OPERATION_WORDS[calc.operation])
            return (
                "unsupported",
                f"does not name {calc.id}'s operation, the {calc.operation} (one of {words})",
            )
        others = [operation for operation in named if operation != calc.operation]
        if others:
            return "unsupported", f"names the {others[0]}, but {calc.id} is the {calc.operation}"
    unnamed = unnamed_row(text, calc.inputs, "input") or unnamed_quantity(text, calc.inputs, "input")
    if unnamed is not None:
        return "unsupported", unnamed
    if calc.operation in PAIRWISE:
        first, second = (measure.locator.row_header for measure in calc.inputs)
        one, other = first_place(text, first), first_place(text, second)
        if fold_text(first) != fold_text(second) and one is not None and other is not None and other < one:
            return "unsupported", (
                f"names {second!r} before {first!r}; {calc.id}'s {calc.operation} takes {first!r} first"
            )
    return None
