"""What a measurement claim must say of its cells: each value, its row and quantity; and what contradicts it.

Shared by the `measurement`, `comparison` and `calculation` methods (runtime/_claims.py,
runtime/_claim_calculation.py; docs/evidence.md, "Claims").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeAlias

from citeloop.events import (
    CellLocator,
    ClaimPremise,
    CsvLocator,
    CsvRepresentation,
    Measurement,
    SupportVerdict,
    WorkbookRepresentation,
)

from ._claim_text import (
    as_decimal,
    canonical_unit,
    names_quantity,
    names_row,
    shown,
    stated_numbers,
    stated_unit,
)
from ._measurements import read_measurement
from ._premise_error import PremiseError
from ._premises import resolve_premise
from ._quantities import fold_text
from ._sheets import column_letters
from ._state import RunState

Outcome: TypeAlias = tuple[SupportVerdict, str]


def measures_of(premises: Sequence[ClaimPremise], state: RunState) -> list[Measurement] | str:
    """Each premise read as a measurement, or why one cannot be."""
    found: list[Measurement] = []
    for number, premise in enumerate(premises, start=1):
        locator = premise.locator
        if not isinstance(locator, CellLocator | CsvLocator):
            kind = "a calculation" if locator is None else "a quote"
            return f"premise {number} is {kind}: a measurement is read from a workbook or CSV value"
        source = state.sources[locator.source]  # resolved: the source was admitted
        measured = read_measurement(locator, source)
        if isinstance(measured, PremiseError):
            return f"premise {number}: {measured.code}: {measured.detail}"
        found.append(measured)
    return found


def numbers_problem(text: str, measures: Sequence[Measurement], *, every: bool) -> Outcome | None:
    """Whether the numbers `text` states are the measurements' values in their units (`every`: all stated)."""
    units = {canonical_unit(measure.unit) for measure in measures}
    rows = [measure.locator.row_header for measure in measures]
    stated = stated_numbers(text, leave_out=rows)
    values = [(as_decimal(measure.value), canonical_unit(measure.unit), measure) for measure in measures]
    for number in stated:
        unit = stated_unit(number, units)
        same = [measure for value, _, measure in values if value == number.value]
        if unit is None:
            if same:
                return "unsupported", f"states {number.text} without its unit {same[0].unit!r}"
            return "unsupported", f"states {number.text}, which no premise gives"
        if unit not in units:
            said = ", ".join(sorted(units))
            return (
                "unsupported",
                f"states {number.text}; the premises are in {said}: units are never converted",
            )
        if not any(value == number.value and their == unit for value, their, _ in values):
            given = " and ".join(shown(measure.value, measure.unit) for measure in measures)
            return "contradicted", f"states {number.text}; the premises give {given}"
    if every:
        for index, (value, unit, measure) in enumerate(values, start=1):
            if not any(n.value == value and stated_unit(n, units) == unit for n in stated):
                return (
                    "unsupported",
                    f"does not state premise {index}'s value {shown(measure.value, measure.unit)}",
                )
    return None


def _same_row_and_quantity(measure: Measurement, state: RunState) -> Iterator[Measurement]:
    """Measurements any admitted table gives the same row (by its header) and quantity, but for the
    measurement's own cell: another sheet or row of its own workbook (a retest) as much as another file."""
    row_name = fold_text(measure.locator.row_header)
    for source in state.sources.values():
        if source.evidence_class != "measurement":
            continue
        representation = source.representation
        premises: list[dict[str, object]] = []
        if isinstance(representation, WorkbookRepresentation):
            for sheet in representation.sheets:
                for row_number, row in enumerate(sheet.rows[1:], start=2):
                    if row and fold_text(str(row[0] or "")) == row_name:
                        premises += [
                            {
                                "source": source.id,
                                "sheet": sheet.name,
                                "cell": f"{column_letters(c)}{row_number}",
                            }
                            for c in range(2, len(row) + 1)
                        ]
        elif isinstance(representation, CsvRepresentation) and representation.rows:
            header = representation.rows[0]
            for row_number, values in enumerate(representation.rows[1:], start=1):
                if values and fold_text(values[0]) == row_name:
                    premises += [
                        {"source": source.id, "row": row_number, "column": name} for name in header[1:]
                    ]
        for premise in premises:
            resolved = resolve_premise(premise, state)
            if isinstance(resolved, PremiseError) or not isinstance(
                resolved.locator, CellLocator | CsvLocator
            ):
                continue
            if _same_place(resolved.locator, measure.locator):
                continue
            other = read_measurement(resolved.locator, source)
            if isinstance(other, Measurement) and other.quantity == measure.quantity:
                yield other


def _same_place(one: object, other: CellLocator | CsvLocator) -> bool:
    """Whether two locators select the same cell or CSV value of the same source."""
    if isinstance(one, CellLocator) and isinstance(other, CellLocator):
        same = (one.sheet.casefold(), one.cell.upper()) == (other.sheet.casefold(), other.cell.upper())
        return one.source == other.source and same
    if isinstance(one, CsvLocator) and isinstance(other, CsvLocator):
        return (one.source, one.row, one.column) == (other.source, other.row, other.column)
    return False


def contradiction_of(measures: Sequence[Measurement], state: RunState) -> str | None:
    for measure in measures:
        for other in _same_row_and_quantity(measure, state):
            same_unit = canonical_unit(other.unit) == canonical_unit(measure.unit)
            if same_unit and as_decimal(other.value) != as_decimal(measure.value):
                row, quantity = measure.locator.row_header, measure.quantity
                where = other.locator.source
                if where == measure.locator.source:
                    where = f"{where} ({_place(other.locator)})"
                return (
                    f"{where} gives {row}'s {quantity} as {shown(other.value, other.unit)}, "
                    f"not {shown(measure.value, measure.unit)}"
                )
    return None


def _place(locator: CellLocator | CsvLocator) -> str:
    if isinstance(locator, CellLocator):
        return f"{locator.sheet}!{locator.cell}"
    return f"row {locator.row} {locator.column!r}"


def unnamed_row(text: str, measures: Sequence[Measurement], what: str = "premise") -> str | None:
    """Why `text` does not say whose values it states: a premise's row header (with a letter) it never names.

    Without this, one row's value could be told as another's ("prototype B ran 9 h" on A's cell).
    A row is named by its header ("prototype A's") or by each of its words, labels as written
    ("prototypes A and B"; `names_row`).
    """
    for index, measure in enumerate(measures, start=1):
        row = measure.locator.row_header
        if any(char.isalpha() for char in row) and not names_row(text, row):
            return f"does not name {what} {index}'s row {row!r}: whose value it is stays unsaid"
    return None


def unnamed_quantity(text: str, measures: Sequence[Measurement], what: str = "premise") -> str | None:
    """Why `text` does not say what its values measure: the quantity of a premise's column it never names.

    Without this, a value under "Charge time (h)" could be told as a runtime.
    """
    for index, measure in enumerate(measures, start=1):
        if not names_quantity(text, measure.quantity):
            column = _column_of(measure.locator)
            return (
                f"does not name {what} {index}'s quantity {measure.quantity!r} (its column {column!r}): "
                "what the value measures stays unsaid"
            )
    return None


def _column_of(locator: CellLocator | CsvLocator) -> str:
    return locator.column_header if isinstance(locator, CellLocator) else locator.column
