"""The `calculate` tool: named operations over cited measurements, answered from the log (docs/evidence.md).

A request is the action's input, JSON `{"operation": ..., "inputs": [premise, ...]}`. Each
input is a premise (runtime/_premises.py) that must select a cell or CSV value of a
source admitted as a `measurement`; the operation is one of a fixed table of functions. No
expression is ever evaluated as code, nothing is dispatched, and the answer depends only on
the request and the folded state, so `check` derives it again identically.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Final, Literal, TypeAlias, get_args

from citeloop.events import (
    Calculation,
    CalculationOp,
    CellLocator,
    CsvLocator,
    Measurement,
    ToolError,
)

from ._measurements import read_measurement
from ._premises import PremiseCode, PremiseError, resolve_premise
from ._state import RunState

# The tool's name in a run's tool table: a run that admitted a table offers it (docs/evidence.md).
CALCULATE_TOOL: Final = "calculate"

# The refusal codes: a premise's (`PremiseCode`: an input that does not resolve or is not a
# measurement) and the tool's own. docs/evidence.md ("The calculate tool") gives the order
# they are checked in.
CalculateCode: TypeAlias = Literal[
    PremiseCode, "unknown_operation", "arity", "mixed_quantities", "division_by_zero"
]
CALCULATE_CODES: Final[tuple[CalculateCode, ...]] = get_args(CalculateCode)

OPERATIONS: Final[tuple[CalculationOp, ...]] = get_args(CalculationOp)
_BY_NAME: Final[dict[str, CalculationOp]] = {operation: operation for operation in OPERATIONS}
PAIRWISE: Final = frozenset({"difference", "ratio", "compare"})
_REQUEST_KEYS: Final = frozenset({"operation", "inputs"})

Result: TypeAlias = float | str


def _mean(values: Sequence[float]) -> float:
    try:
        return math.fsum(values) / len(values)
    except OverflowError:  # the sum of large values overflows though their mean does not
        return math.fsum(value / len(values) for value in values)


def _compare(first: float, second: float) -> str:
    return "greater" if first > second else "less" if first < second else "equal"


# Each operation over the inputs' values (in request order). Pairwise ones see exactly two. Public:
# the claims gate recomputes a recorded calculation with this same table (runtime/_claims.py).
APPLY: Final[dict[str, Callable[[Sequence[float]], Result]]] = {
    "sum": math.fsum,
    "mean": _mean,
    "min": min,
    "max": max,
    "difference": lambda values: values[0] - values[1],
    "ratio": lambda values: values[0] / values[1],
    "compare": lambda values: _compare(values[0], values[1]),
}


# The version of this tool's rules, recorded on every calculation (`Calculation.rules`) and
# compared by `check`: bump it only when what an operation gives, or refuses, changes (an
# operation's arithmetic, the refusal codes or their order, the missing-value rule), so a
# stored calculation stays what today's tool derives across upgrades that leave them alone.
CALCULATE_RULES: Final = 1


def citeloop_version() -> str:
    """The installed citeloop's version (no longer recorded on a calculation: `CALCULATE_RULES` is)."""
    try:
        return version("citeloop")
    except PackageNotFoundError:  # pragma: no cover - a source checkout that was never installed
        return "0"


def calculate(request: str, state: RunState, step: int) -> Calculation | ToolError:
    """The `calculate` tool's observation for `request` at `step`: a `Calculation` or a refusal.

    The calculation's id is `calc:<step>`; it records the inputs as `Measurement`s with
    their locators, the unit (none for a ratio: one unit divides out), the missing-value
    rule (refuse: a missing value is never read as zero) and the version of the tool's rules
    (`CALCULATE_RULES`).
    """
    parsed = _parse(request)
    if isinstance(parsed, ToolError):
        return parsed
    operation, premises = parsed
    measurements: list[Measurement] = []
    for number, premise in enumerate(premises, start=1):
        measured = _measurement(premise, state)
        if isinstance(measured, ToolError):
            return measured.model_copy(update={"message": f"input {number}: {measured.message}"})
        measurements.append(measured)
    units = sorted({item.unit for item in measurements})
    if len(units) > 1:
        return _refuse("mixed_units", f"the inputs are in different units: {', '.join(map(repr, units))}")
    quantities = sorted({item.quantity for item in measurements})
    if len(quantities) > 1:
        return _refuse(
            "mixed_quantities", f"the inputs measure different quantities: {', '.join(map(repr, quantities))}"
        )
    values = [item.value for item in measurements]
    if operation == "ratio" and values[1] == 0:
        return _refuse("division_by_zero", "the ratio's second input is zero")
    try:
        result = APPLY[operation](values)
    except OverflowError:
        result = math.inf
    if isinstance(result, float) and not math.isfinite(result):
        return _refuse("non_finite", f"the {operation} of these inputs is not a finite number")
    return Calculation(
        id=f"calc:{step}",
        operation=operation,
        inputs=tuple(measurements),
        unit="" if operation == "ratio" else units[0],
        result=result,
        rules=CALCULATE_RULES,
    )


def _refuse(code: CalculateCode, message: str) -> ToolError:
    return ToolError(code=code, message=message)


def _parse(request: str) -> tuple[CalculationOp, list[object]] | ToolError:
    try:
        decoded = json.loads(request)
    except ValueError as error:
        return _refuse("bad_input", f"the input is not JSON: {error}")
    if not isinstance(decoded, dict) or set(decoded) != _REQUEST_KEYS:
        return _refuse("bad_input", 'the input must be an object with exactly "operation" and "inputs"')
    operation, inputs = decoded["operation"], decoded["inputs"]
    if not isinstance(operation, str) or not isinstance(inputs, list):
        return _refuse("bad_input", '"operation" must be a string and "inputs" a list')
    named = _BY_NAME.get(operation)
    if named is None:
        return _refuse(
            "unknown_operation", f"no operation {operation!r}; operations: {', '.join(OPERATIONS)}"
        )
    if named in PAIRWISE and len(inputs) != 2:
        return _refuse("arity", f"{named} takes exactly 2 inputs, got {len(inputs)}")
    if not inputs:
        return _refuse("arity", f"{named} takes at least 1 input")
    return named, inputs


def _measurement(premise: object, state: RunState) -> Measurement | ToolError:
    resolved = resolve_premise(premise, state)
    if isinstance(resolved, PremiseError):
        return _refuse(resolved.code, resolved.detail)
    locator = resolved.locator
    if not isinstance(locator, CellLocator | CsvLocator):
        what = resolved.calculation if locator is None else f"a {locator.kind} span of {locator.source}"
        return _refuse("not_a_measurement", f"{what} is not a cell or CSV value of a measurement source")
    source = state.sources[locator.source]
    if source.evidence_class != "measurement":
        return _refuse(
            "not_a_measurement",
            f"{locator.source} was admitted as {source.evidence_class}, not measurement: "
            "its values are not measurements",
        )
    measured = read_measurement(locator, source)
    if isinstance(measured, PremiseError):
        return _refuse(measured.code, measured.detail)
    return measured
