"""Premises: a claim's locators resolved against what the run admitted (reading values: _measurements).

A premise as a finish (or a `calculate` request) writes it is JSON (docs/evidence.md,
"Locators"); resolved, it is a `ClaimPremise` holding a representation-bound locator with
the digest, offsets, headers or value it selects, or a calculation's id. Nothing here
converts coordinates between representations: a text premise points into a text, a `pdf`
premise into one page's extracted text, a `cell` into a sheet, a `csv` premise into a row.

Every failure is a `PremiseError` value whose `detail` says exactly what is wrong, never an
exception. Its `code` is one of `PREMISE_CODES`; the measurement codes double as the
`calculate` tool's refusal codes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from citeloop.events import (
    AdmittedSource,
    CellLocator,
    CellValue,
    ClaimPremise,
    CsvLocator,
    CsvRepresentation,
    EvidenceClass,
    EvidenceLocator,
    PdfLocator,
    PdfRepresentation,
    Sheet,
    TextLocator,
    TextRepresentation,
    WorkbookRepresentation,
)

from ._locate import _utf16_units
from ._state import RunState
from ._text import find_normalized, normalize_ws

# `bad_input`: the premise has the wrong shape, types or keys. `bad_locator`: it is well
# formed but selects nothing in this run (a source not admitted, a page past the end, a cell
# outside the sheet, a quote that is not there, offsets that split a surrogate pair). The
# rest are about reading a selected value as a measurement (runtime/_measurements.py;
# `not_a_measurement`: a column headed as a target, goal or spec holds no measurement).
PremiseCode: TypeAlias = Literal[
    "bad_input",
    "bad_locator",
    "not_a_measurement",
    "missing_value",
    "not_a_number",
    "non_finite",
    "mixed_units",
]


@dataclass(frozen=True, slots=True)
class PremiseError:
    """Why a premise does not resolve or a value cannot be read: `detail` names exactly what is wrong."""

    code: PremiseCode
    detail: str


_CALCULATION: Final = re.compile(r"calc:[0-9]+")
_CELL: Final = re.compile(r"([A-Za-z]+)([1-9][0-9]*)")
_TEXT_KEYS: Final = frozenset({"source", "quote"})
_PDF_KEYS: Final = frozenset({"source", "page", "quote"})
_CELL_KEYS: Final = frozenset({"source", "sheet", "cell"})
_CSV_KEYS: Final = frozenset({"source", "row", "column"})
_SPAN_KEYS: Final = frozenset({"start", "end"})


def resolve_premise(premise: object, state: RunState) -> ClaimPremise | PremiseError:
    """The premise resolved against the run's opened pages, admitted sources and calculations.

    `premise` is one element of a claim's `premises` (or a `calculate` input) as decoded
    from JSON: a `"calc:<n>"` string or an object whose keys name its kind. The evidence
    class is the source's: an opened page is `retrieved`, an attachment has its own, a
    calculation is `calculation`.
    """
    if isinstance(premise, str):
        if not _CALCULATION.fullmatch(premise):
            return PremiseError(
                "bad_input", f"a premise string must be a calculation id calc:<n>, not {premise!r}"
            )
        if premise not in state.calculations:
            return PremiseError("bad_locator", f"{premise} is not a calculation of this run")
        return ClaimPremise(calculation=premise, evidence_class="calculation")
    if not isinstance(premise, dict):
        return PremiseError("bad_input", f"a premise is an object or a calc:<n> string, not {_kind(premise)}")
    keys = frozenset(premise)
    if not all(isinstance(key, str) for key in keys):
        return PremiseError("bad_input", "premise keys must be strings")
    source_id = premise.get("source")
    if not isinstance(source_id, str) or not source_id:
        return PremiseError("bad_input", "a premise needs a non-empty string 'source'")
    if keys >= _CELL_KEYS:
        resolved = _shaped(keys, _CELL_KEYS, frozenset()) or _resolve_cell(premise, state)
    elif keys >= _CSV_KEYS:
        resolved = _shaped(keys, _CSV_KEYS, frozenset()) or _resolve_csv(premise, state)
    elif keys >= _PDF_KEYS:
        resolved = _shaped(keys, _PDF_KEYS, _SPAN_KEYS) or _resolve_pdf(premise, state)
    elif keys >= _TEXT_KEYS:
        resolved = _shaped(keys, _TEXT_KEYS, _SPAN_KEYS) or _resolve_text(premise, state)
    else:
        return PremiseError(
            "bad_input",
            f"premise keys {sorted(keys)} are none of text (source, quote), pdf (source, page, quote), "
            "cell (source, sheet, cell), csv (source, row, column)",
        )
    if isinstance(resolved, PremiseError):
        return resolved
    locator, evidence_class = resolved
    return ClaimPremise(locator=locator, evidence_class=evidence_class)


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _shaped(keys: frozenset[str], required: frozenset[str], optional: frozenset[str]) -> PremiseError | None:
    unknown = keys - required - optional
    if unknown:
        return PremiseError("bad_input", f"unknown premise keys {sorted(unknown)}")
    if optional and keys & optional and not optional <= keys:
        return PremiseError("bad_input", "'start' and 'end' go together")
    return None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


Resolved: TypeAlias = tuple[EvidenceLocator, EvidenceClass]


# -- text and pdf ----------------------------------------------------------------------------


def _is_high(char: str) -> bool:
    return "\ud800" <= char <= "\udbff"


def _is_low(char: str) -> bool:
    return "\udc00" <= char <= "\udfff"


def splits_surrogate_pair(text: str, offset: int) -> bool:
    """Whether a code-point offset falls between a high and a low surrogate that `text` holds alone.

    A Python str holds an astral character as one code point, so no offset can split it;
    but a str may also hold lone surrogates, and a high one followed by a low one is one
    character in UTF-16: an offset between the two splits that character.
    """
    return 0 < offset < len(text) and _is_high(text[offset - 1]) and _is_low(text[offset])


def _span(text: str, premise: dict[str, object], place: str) -> tuple[int, int, str] | PremiseError:
    """`(start, end, quote)` of a text/pdf premise: its own offsets, or the quote's first occurrence."""
    quote = premise["quote"]
    if not isinstance(quote, str):
        return PremiseError("bad_input", f"'quote' must be a string, not {_kind(quote)}")
    if "start" not in premise:
        needle = normalize_ws(quote)
        if not needle:
            return PremiseError("bad_input", "the quote is empty")
        found = find_normalized(text, needle)
        if found is None:
            return PremiseError("bad_locator", f"quote not found {place}")
        start, end = found
    else:
        given_start, given_end = premise["start"], premise["end"]
        if not _is_int(given_start) or not _is_int(given_end):
            return PremiseError("bad_input", "'start' and 'end' must be integers")
        assert isinstance(given_start, int) and isinstance(given_end, int)
        start, end = given_start, given_end
        if not quote:
            return PremiseError("bad_input", "the quote is empty")
        if not 0 <= start < end <= len(text):
            return PremiseError(
                "bad_locator",
                f"span [{start}, {end}) is not a range of the text {place} ({len(text)} code points)",
            )
        if text[start:end] != quote:
            return PremiseError("bad_locator", f"span [{start}, {end}) {place} is not the quote")
    for offset in (start, end):
        if splits_surrogate_pair(text, offset):
            return PremiseError("bad_locator", f"offset {offset} splits a surrogate pair {place}")
    return start, end, text[start:end]


def _utf16_span(text: str, start: int, end: int) -> tuple[int, int]:
    start_utf16 = _utf16_units(text[:start])
    return start_utf16, start_utf16 + _utf16_units(text[start:end])


def _text_source(source_id: str, state: RunState) -> tuple[str, str, EvidenceClass] | PremiseError:
    """`(text, sha256, class)` of an opened page or a text attachment."""
    page = state.opened.get(source_id)
    if page is not None:
        return page.body, page.sha256, "retrieved"
    source = state.sources.get(source_id)
    if source is None:
        return PremiseError("bad_locator", f"{source_id} was not opened or admitted in this run")
    representation = source.representation
    if not isinstance(representation, TextRepresentation):
        return PremiseError(
            "bad_input",
            f"{source_id} is a {representation.kind}, not a text: cite it by {_how(representation.kind)}",
        )
    return representation.text, representation.sha256, source.evidence_class


def _how(kind: str) -> str:
    return {
        "text": "source and quote",
        "pdf": "source, page and quote",
        "workbook": "source, sheet and cell",
        "csv": "source, row and column",
    }[kind]


def _resolve_text(premise: dict[str, object], state: RunState) -> Resolved | PremiseError:
    source_id = str(premise["source"])
    found = _text_source(source_id, state)
    if isinstance(found, PremiseError):
        return found
    text, sha256, evidence_class = found
    span = _span(text, premise, f"in {source_id}")
    if isinstance(span, PremiseError):
        return span
    start, end, quote = span
    start_utf16, end_utf16 = _utf16_span(text, start, end)
    locator = TextLocator(
        source=source_id,
        sha256=sha256,
        start=start,
        end=end,
        start_utf16=start_utf16,
        end_utf16=end_utf16,
        quote=quote,
    )
    return locator, evidence_class


def _admitted(source_id: str, state: RunState, kind: str) -> AdmittedSource | PremiseError:
    source = state.sources.get(source_id)
    if source is None:
        return PremiseError("bad_locator", f"{source_id} was not admitted in this run")
    if source.representation.kind != kind:
        return PremiseError(
            "bad_input",
            f"{source_id} is a {source.representation.kind}, not a {kind}: "
            f"cite it by {_how(source.representation.kind)}",
        )
    return source


def _pdf_page(pdf: PdfRepresentation, page: int) -> str | PremiseError:
    if page < 1:
        return PremiseError("bad_locator", f"page {page} is not a page: pages count from 1")
    if page > len(pdf.pages):
        return PremiseError("bad_locator", f"page {page} past the end ({len(pdf.pages)} pages)")
    return pdf.pages[page - 1]


def _resolve_pdf(premise: dict[str, object], state: RunState) -> Resolved | PremiseError:
    source_id, page = str(premise["source"]), premise["page"]
    if not _is_int(page):
        return PremiseError("bad_input", f"'page' must be an integer, not {_kind(page)}")
    assert isinstance(page, int)
    source = _admitted(source_id, state, "pdf")
    if isinstance(source, PremiseError):
        return source
    assert isinstance(source.representation, PdfRepresentation)
    text = _pdf_page(source.representation, page)
    if isinstance(text, PremiseError):
        return text
    span = _span(text, premise, f"on page {page} of {source_id}")
    if isinstance(span, PremiseError):
        return span
    start, end, quote = span
    start_utf16, end_utf16 = _utf16_span(text, start, end)
    locator = PdfLocator(
        source=source_id,
        sha256=source.sha256,
        page=page,
        start=start,
        end=end,
        start_utf16=start_utf16,
        end_utf16=end_utf16,
        quote=quote,
    )
    return locator, source.evidence_class


# -- cells and csv values ----------------------------------------------------------------------


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


def _value(values: tuple[CellValue, ...], column: int) -> CellValue:
    """The value in a row's 0-based `column`; a short row is padded with empty cells."""
    return values[column] if column < len(values) else None


def _at(rows: tuple[tuple[CellValue, ...], ...], row: int, column: int) -> CellValue:
    return _value(rows[row], column)


def _sheet_bounds(sheet: Sheet) -> tuple[int, int]:
    return len(sheet.rows), max((len(row) for row in sheet.rows), default=0)


def _find_sheet(workbook: WorkbookRepresentation, name: str, source_id: str) -> Sheet | PremiseError:
    for sheet in workbook.sheets:
        if sheet.name == name:
            return sheet
    folded = [sheet for sheet in workbook.sheets if sheet.name.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0]
    names = ", ".join(sheet.name for sheet in workbook.sheets) or "none"
    return PremiseError("bad_locator", f"{source_id} has no sheet {name!r} (sheets: {names})")


def _cell_position(sheet: Sheet, cell: str) -> tuple[int, int] | PremiseError:
    """0-based (row, column) of an A1 reference inside the sheet's used range."""
    match = _CELL.fullmatch(cell)
    if match is None:
        return PremiseError("bad_input", f"{cell!r} is not a cell reference such as B3")
    column, row = _column_index(match[1]), int(match[2])
    rows, columns = _sheet_bounds(sheet)
    if row > rows or column > columns:
        used = f"A1:{column_letters(columns)}{rows}" if rows and columns else "empty"
        return PremiseError("bad_locator", f"cell {cell.upper()} is outside sheet {sheet.name} ({used})")
    return row - 1, column - 1


def _resolve_cell(premise: dict[str, object], state: RunState) -> Resolved | PremiseError:
    source_id, sheet_name, cell = str(premise["source"]), premise["sheet"], premise["cell"]
    if not isinstance(sheet_name, str) or not isinstance(cell, str):
        return PremiseError("bad_input", "'sheet' and 'cell' must be strings")
    source = _admitted(source_id, state, "workbook")
    if isinstance(source, PremiseError):
        return source
    assert isinstance(source.representation, WorkbookRepresentation)
    sheet = _find_sheet(source.representation, sheet_name, source_id)
    if isinstance(sheet, PremiseError):
        return sheet
    position = _cell_position(sheet, cell)
    if isinstance(position, PremiseError):
        return position
    row, column = position
    locator = CellLocator(
        source=source_id,
        sha256=source.sha256,
        sheet=sheet.name,
        cell=cell.upper(),
        row_header=cell_text(_at(sheet.rows, row, 0)),
        column_header=cell_text(_at(sheet.rows, 0, column)),
        value=_at(sheet.rows, row, column),
    )
    return locator, source.evidence_class


def _csv_column(header: tuple[str, ...], column: str, source_id: str) -> int | PremiseError:
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


def _resolve_csv(premise: dict[str, object], state: RunState) -> Resolved | PremiseError:
    source_id, row, column = str(premise["source"]), premise["row"], premise["column"]
    if not _is_int(row):
        return PremiseError("bad_input", f"'row' must be an integer, not {_kind(row)}")
    if not isinstance(column, str):
        return PremiseError("bad_input", f"'column' must be a string, not {_kind(column)}")
    assert isinstance(row, int)
    source = _admitted(source_id, state, "csv")
    if isinstance(source, PremiseError):
        return source
    assert isinstance(source.representation, CsvRepresentation)
    rows = source.representation.rows
    data_rows = max(len(rows) - 1, 0)
    if row < 1:
        return PremiseError("bad_locator", f"row {row} is not a data row: data rows count from 1")
    if row > data_rows:
        return PremiseError("bad_locator", f"row {row} past the end ({data_rows} data rows)")
    index = _csv_column(rows[0] if rows else (), column, source_id)
    if isinstance(index, PremiseError):
        return index
    values = rows[row]
    locator = CsvLocator(
        source=source_id,
        sha256=source.sha256,
        row=row,
        column=rows[0][index],
        row_header=values[0] if values else "",
        value=values[index] if index < len(values) else "",
    )
    return locator, source.evidence_class


# -- verifying a recorded locator ---------------------------------------------------------------


def verify_locator(locator: EvidenceLocator, state: RunState) -> str | None:
    """None when the locator still selects its quote or value under its digest in this run; else what differs.

    The locator is resolved again from its own coordinates (never from its quote alone), and
    every recorded field is compared with what that resolution gives.
    """
    match locator:
        case TextLocator():
            premise: dict[str, object] = {
                "source": locator.source,
                "quote": locator.quote,
                "start": locator.start,
                "end": locator.end,
            }
        case PdfLocator():
            premise = {
                "source": locator.source,
                "page": locator.page,
                "quote": locator.quote,
                "start": locator.start,
                "end": locator.end,
            }
        case CellLocator():
            premise = {"source": locator.source, "sheet": locator.sheet, "cell": locator.cell}
        case CsvLocator():
            premise = {"source": locator.source, "row": locator.row, "column": locator.column}
    resolved = resolve_premise(premise, state)
    if isinstance(resolved, PremiseError):
        return resolved.detail
    assert resolved.locator is not None
    return _difference(locator, resolved.locator)


def _difference(recorded: EvidenceLocator, today: EvidenceLocator) -> str | None:
    where = _where(recorded)
    if recorded.sha256 != today.sha256:
        return f"{where}: digest {recorded.sha256[:12]}... is now {today.sha256[:12]}..."
    mine, theirs = recorded.model_dump(), today.model_dump()
    for name, value in mine.items():
        if not _same(value, theirs[name]):
            return f"{where}: {name} {value!r} is now {theirs[name]!r}"
    return None


def _same(recorded: object, today: object) -> bool:
    # A NaN cell is the same NaN it was (it is refused as a measurement, not as a locator),
    # and 9 (an int) is not the 9.0 or "9" of another reading.
    if type(recorded) is not type(today):
        return False
    if isinstance(recorded, float) and isinstance(today, float) and math.isnan(recorded):
        return math.isnan(today)
    return recorded == today


def _where(locator: EvidenceLocator) -> str:
    match locator:
        case TextLocator():
            return f"{locator.source} [{locator.start}, {locator.end})"
        case PdfLocator():
            return f"{locator.source} page {locator.page} [{locator.start}, {locator.end})"
        case CellLocator():
            return f"{locator.source} {locator.sheet}!{locator.cell}"
        case CsvLocator():
            return f"{locator.source} row {locator.row} {locator.column!r}"


def __getattr__(name: str) -> object:
    # `read_measurement` moved to runtime/_measurements.py (which imports this module):
    # importing it from here, as before the split, still works.
    if name == "read_measurement":
        from ._measurements import read_measurement

        return read_measurement
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
