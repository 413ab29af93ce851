"""Measurements: a cell or CSV value read as a number with its quantity, unit and observation time.

Split out of runtime/_premises.py, which locates premises; this module reads what a located
cell or CSV value means (docs/evidence.md, "Measurements"). Every failure is a
`PremiseError` value, never an exception; its code doubles as the `calculate` tool's refusal.
"""

from __future__ import annotations

import math
import re
from typing import Final, TypeAlias

from citeloop.events import (
    AdmittedSource,
    CellLocator,
    CellValue,
    CsvLocator,
    CsvRepresentation,
    Measurement,
    WorkbookRepresentation,
)

from ._locator_check import place_of, verify_locator
from ._premise_error import PremiseError
from ._quantities import fold_text
from ._sheets import cell_position, cell_text, cell_value, find_sheet
from ._state import RunState
from ._text import normalize_ws

_HEADED_UNIT: Final = re.compile(r"(.*?)\s*(?:\(([^()]*)\)|\[([^\[\]]*)\])")
_UNIT_COLUMNS: Final = frozenset({"unit", "units"})
_OBSERVED_COLUMNS: Final = (
    "observed",
    "observed at",
    "observed_at",
    "measured at",
    "measured_at",
    "observation time",
    "date",
)
# One number, with commas only as thousands separators, then optionally a unit with no digit in it.
_NUMBER: Final = re.compile(
    r"(?P<number>[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?)"
    r"(?:\s*(?P<unit>[^\d\s][^\d]*))?"
)
_NON_FINITE: Final = frozenset({"nan", "inf", "infinity"})
# A column whose header names one of these words holds what was wanted or declared, not what
# was measured: "Target runtime (h)" is a goal, never a measurement (docs/evidence.md).
NOT_MEASURED: Final = frozenset(
    {
        "target", "targets", "goal", "goals", "spec", "specs", "specification", "specified",
        "required", "requirement", "planned", "expected", "nominal", "rated", "design", "budget",
    }
)  # fmt: skip


def read_measurement(locator: CellLocator | CsvLocator, source: AdmittedSource) -> Measurement | PremiseError:
    """The value a cell or CSV locator selects in `source`, read as a measurement (docs/evidence.md).

    The value is read from the admitted representation (the locator must still select it):
    a numeric cell, or text that is exactly one number, optionally followed by its unit.
    Quantity and unit come from the column header (`Runtime (h)`, `Runtime [h]`) or a `unit`
    column in the row; the observation time from an `observed`/`date`-like column in the
    row. A column headed as a target, goal or spec (`NOT_MEASURED`) is `not_a_measurement`.
    The measurement carries the source's evidence class: a declaration read this way
    stays a declaration, and the caller decides what that may establish.
    """
    located = _row_of(locator, source)
    if isinstance(located, PremiseError):
        return located
    header, row, column = located
    value = cell_value(row, column)
    heading = cell_text(cell_value(header, column))
    quantity, unit = _quantity_unit(heading, header, row, column)
    aimed = [word for word in re.findall(r"[^\W\d_]+", fold_text(heading)) if word in NOT_MEASURED]
    if aimed:
        return PremiseError(
            "not_a_measurement",
            f"{place_of(locator)} sits under {heading!r}: a {aimed[0]} is not a measurement",
        )
    number = _number(value, unit, place_of(locator))
    if isinstance(number, PremiseError):
        return number
    amount, unit = number
    return Measurement(
        locator=locator,
        value=amount,
        unit=unit,
        quantity=quantity,
        observed_at=_observed_at(header, row, column),
        evidence_class=source.evidence_class,
    )


Row: TypeAlias = tuple[CellValue, ...]


def _row_of(locator: CellLocator | CsvLocator, source: AdmittedSource) -> tuple[Row, Row, int] | PremiseError:
    """`(header row, the locator's row, its column index)`, after checking the locator against `source`."""
    if locator.source != source.id:
        return PremiseError("bad_locator", f"{place_of(locator)} is not a locator into {source.id}")
    state = RunState(sources={source.id: source})
    difference = verify_locator(locator, state)
    if difference is not None:
        return PremiseError("bad_locator", difference)
    representation = source.representation
    if isinstance(locator, CellLocator):
        assert isinstance(representation, WorkbookRepresentation)
        sheet = find_sheet(representation, locator.sheet, source.id)
        assert not isinstance(sheet, PremiseError)
        position = cell_position(sheet, locator.cell)
        assert not isinstance(position, PremiseError)
        row, column = position
        return sheet.rows[0], sheet.rows[row], column
    assert isinstance(representation, CsvRepresentation)
    header = representation.rows[0]
    return header, representation.rows[locator.row], header.index(locator.column)


def _quantity_unit(heading: str, header: Row, row: Row, column: int) -> tuple[str, str]:
    match = _HEADED_UNIT.fullmatch(heading.strip())
    if match is not None:
        unit = match[2] if match[2] is not None else match[3]
        return normalize_ws(match[1]).casefold(), normalize_ws(unit)
    unit = ""
    for index, name in enumerate(header):
        if index != column and normalize_ws(cell_text(name)).casefold() in _UNIT_COLUMNS:
            unit = normalize_ws(cell_text(cell_value(row, index)))
            break
    return normalize_ws(heading).casefold(), unit


def _observed_at(header: Row, row: Row, column: int) -> str | None:
    names = [normalize_ws(cell_text(name)).casefold() for name in header]
    for wanted in _OBSERVED_COLUMNS:
        for index, name in enumerate(names):
            if name == wanted and index != column:
                observed = cell_text(cell_value(row, index)).strip()
                return observed or None
    return None


def _number(value: CellValue, unit: str, where: str) -> tuple[float, str] | PremiseError:
    """`(number, unit)` of a cell value; a unit written after a number must be the column's."""
    if value is None:
        return PremiseError("missing_value", f"{where} is empty: a missing value is never read as zero")
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:
            return PremiseError("non_finite", f"{where} holds {value}, too large for a float")
        if not math.isfinite(number):
            return PremiseError("non_finite", f"{where} holds {value!r}")
        return number, unit
    text = normalize_ws(value)
    if not text:
        return PremiseError("missing_value", f"{where} is empty: a missing value is never read as zero")
    if text.lstrip("+-").casefold() in _NON_FINITE:
        return PremiseError("non_finite", f"{where} holds {text!r}")
    match = _NUMBER.fullmatch(text)
    if match is None:
        return PremiseError("not_a_number", f"{where} holds {text!r}, not one number")
    number = float(match["number"].replace(",", ""))
    if not math.isfinite(number):
        return PremiseError("non_finite", f"{where} holds {text!r}, beyond a finite float")
    written = normalize_ws(match["unit"] or "")
    if written and unit and written.casefold() != unit.casefold():
        return PremiseError("mixed_units", f"{where} holds {text!r} in a column in {unit!r}")
    return number, unit or written
