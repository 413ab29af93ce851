"""Sheets and CSV columns: A1 references, sheet lookup, CSV header columns.

The coordinate rules of docs/evidence.md, "Locators", for workbook and CSV premises:
a cell is A1 notation in either case inside the sheet's used range, a sheet name or a CSV
column matches exactly or else case-insensitively when that match is unique. Split out of
runtime/_premises.py, which resolves premises with them; runtime/_measurements.py reads
located values with them. Every failure is a `PremiseError` value, never an exception.
"""

from __future__ import annotations

import re
from typing import Final

from citeloop.events import CellValue, Sheet, WorkbookRepresentation

from ._premise_error import PremiseError

_CELL: Final = re.compile(r"([A-Za-z]+)([1-9][0-9]*)")


def cell_text(value: CellValue) -> str:
    """A cell value as header text: empty for an empty cell, numbers as Python writes them."""
    return "" if value is None else value if isinstance(value, str) else str(value)


def column_letters(index: int) -> str:
    """The A1 letters of a 1-based column index (1 -> A, 27 -> AA)."""
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters.upper():
        index = index * 26 + ord(letter) - ord("A") + 1
    return index


def cell_value(values: tuple[CellValue, ...], column: int) -> CellValue:
    """The value in a row's 0-based `column`; a short row is padded with empty cells."""
    return values[column] if column < len(values) else None


def value_at(rows: tuple[tuple[CellValue, ...], ...], row: int, column: int) -> CellValue:
    return cell_value(rows[row], column)


def sheet_bounds(sheet: Sheet) -> tuple[int, int]:
    return len(sheet.rows), max((len(row) for row in sheet.rows), default=0)


def find_sheet(workbook: WorkbookRepresentation, name: str, source_id: str) -> Sheet | PremiseError:
    for sheet in workbook.sheets:
        if sheet.name == name:
            return sheet
    folded = [sheet for sheet in workbook.sheets if sheet.name.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    names = ", ".join(sheet.name for sheet in workbook.sheets) or "none"
    return PremiseError("bad_locator", f"{source_id} has no sheet {name!r} (sheets: {names})")


def cell_position(sheet: Sheet, cell: str) -> tuple[int, int] | PremiseError:
    """0-based (row, column) of an A1 reference inside the sheet's used range."""
    match = _CELL.fullmatch(cell)
    if match is None:
        return PremiseError("bad_input", f"{cell!r} is not a cell reference such as B3")
    column, row = _column_index(match[1]), int(match[2])
    rows, columns = sheet_bounds(sheet)
    if row > rows or column > columns:
        used = f"A1:{column_letters(columns)}{rows}" if rows and columns else "empty"
        return PremiseError("bad_locator", f"cell {cell.upper()} is outside sheet {sheet.name} ({used})")
    return row - 1, column - 1


def csv_column(header: tuple[str, ...], column: str, source_id: str) -> int | PremiseError:
    """The index of `column` in the header: an exact match, else a unique case-insensitive one."""
    exact = [index for index, name in enumerate(header) if name == column]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        return PremiseError("bad_locator", f"{source_id} has {len(exact)} columns headed {column!r}")
    folded = [index for index, name in enumerate(header) if name.casefold() == column.casefold()]
    if len(folded) == 1:
        return folded[0]
    if len(folded) > 1:
        return PremiseError("bad_locator", f"{source_id} has {len(folded)} columns headed like {column!r}")
    return PremiseError("bad_locator", f"{source_id} has no column {column!r} (columns: {', '.join(header)})")
