"""Premises: a claim's locators resolved against what the run admitted (reading values: _measurements).

A premise as a finish (or a `calculate` request) writes it is JSON (docs/evidence.md,
"Locators"); resolved, it is a `ClaimPremise` holding a representation-bound locator with
the digest, offsets, headers or value it selects, or a calculation's id. Nothing here
converts coordinates between representations: a text premise points into a text, a `pdf`
premise into one page's extracted text, a `cell` into a sheet, a `csv` premise into a row.

Every failure is a `PremiseError` value whose `detail` says exactly what is wrong, never an
exception. Its `code` is a `PremiseCode`; the measurement codes double as the `calculate`
tool's refusal codes.

Cell references, sheet lookup and CSV header columns live in runtime/_sheets.py;
`PremiseError` and `PremiseCode` in runtime/_premise_error.py; re-verifying a recorded
locator (`verify_locator`) in runtime/_locator_check.py. `PremiseError`, `PremiseCode`,
`cell_text`, `column_letters` and `verify_locator` still import from here, as before.
"""

from __future__ import annotations

import re
from typing import Final, TypeAlias

from citeloop.events import (
    AdmittedSource,
    CellLocator,
    ClaimPremise,
    CsvLocator,
    CsvRepresentation,
    EvidenceClass,
    EvidenceLocator,
    PdfLocator,
    PdfRepresentation,
    TextLocator,
    TextRepresentation,
    WorkbookRepresentation,
)

from ._locate import _utf16_units
from ._premise_error import PremiseCode as PremiseCode
from ._premise_error import PremiseError as PremiseError
from ._sheets import cell_position, csv_column, find_sheet, value_at
from ._sheets import cell_text as cell_text
from ._sheets import column_letters as column_letters
from ._state import RunState
from ._text import find_normalized, normalize_ws

_CALCULATION: Final = re.compile(r"calc:[0-9]+")
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


def _resolve_cell(premise: dict[str, object], state: RunState) -> Resolved | PremiseError:
    source_id, sheet_name, cell = str(premise["source"]), premise["sheet"], premise["cell"]
    if not isinstance(sheet_name, str) or not isinstance(cell, str):
        return PremiseError("bad_input", "'sheet' and 'cell' must be strings")
    source = _admitted(source_id, state, "workbook")
    if isinstance(source, PremiseError):
        return source
    assert isinstance(source.representation, WorkbookRepresentation)
    sheet = find_sheet(source.representation, sheet_name, source_id)
    if isinstance(sheet, PremiseError):
        return sheet
    position = cell_position(sheet, cell)
    if isinstance(position, PremiseError):
        return position
    row, column = position
    locator = CellLocator(
        source=source_id,
        sha256=source.sha256,
        sheet=sheet.name,
        cell=cell.upper(),
        row_header=cell_text(value_at(sheet.rows, row, 0)),
        column_header=cell_text(value_at(sheet.rows, 0, column)),
        value=value_at(sheet.rows, row, column),
    )
    return locator, source.evidence_class


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
    index = csv_column(rows[0] if rows else (), column, source_id)
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


def __getattr__(name: str) -> object:
    # `read_measurement` moved to runtime/_measurements.py and `verify_locator` to
    # runtime/_locator_check.py (both import this module): importing them from here, as
    # before the split, still works.
    if name == "read_measurement":
        from ._measurements import read_measurement

        return read_measurement
    if name == "verify_locator":
        from ._locator_check import verify_locator

        return verify_locator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
