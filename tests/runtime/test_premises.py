"""Premises resolve to exact locators in what the run admitted, or to a PremiseError saying what is wrong."""

from __future__ import annotations

import math

import pytest
from citeloop.events import (
    Calculation,
    CellLocator,
    ClaimPremise,
    CsvLocator,
    Measurement,
    PdfLocator,
    TextLocator,
)
from citeloop.runtime._premises import (
    PremiseError,
    read_measurement,
    resolve_premise,
    splits_surrogate_pair,
    verify_locator,
)
from helpers.premise_sources import (
    csv_source,
    page,
    pdf_source,
    runtime_workbook,
    sha,
    state_with,
    text_source,
    workbook_source,
)

URL = "https://docs.example/battery"
BODY = "Northstar battery:\n  capacity   72 Wh.\tTarget 8\u201310 h \U0001f50b runtime."
SPEC = "The spec declares a capacity of 72 Wh and a target runtime of 8 to 10 hours."
PDF_PAGES = ("Cover page", "Section 2: the pack holds 72 Wh.", "Appendix")
WORKBOOK = runtime_workbook()
CSV = csv_source(
    "attached:runtime.csv",
    [
        ("prototype", "Runtime (h)", "runtime (min)", "Measured_At"),
        ("A", "9", "540", "2026-03-02"),
        ("B", "7.5", "450", "2026-03-02"),
        ("C", "", "", ""),
    ],
)
TEXT = text_source("attached:spec.md", SPEC)
PDF = pdf_source("attached:spec.pdf", PDF_PAGES)
STATE = state_with(WORKBOOK, CSV, TEXT, PDF, pages=[page(URL, BODY)])


def resolved(premise: object) -> ClaimPremise:
    result = resolve_premise(premise, STATE)
    assert isinstance(result, ClaimPremise), result
    return result


def refused(premise: object, state: object = None) -> PremiseError:
    result = resolve_premise(premise, STATE if state is None else state)  # type: ignore[arg-type]
    assert isinstance(result, PremiseError), result
    return result


# -- text ------------------------------------------------------------------------------------


def test_a_quote_on_an_opened_page_resolves_to_the_original_span_as_retrieved() -> None:
    premise = resolved({"source": URL, "quote": "capacity 72 Wh."})
    start = BODY.index("capacity")
    end = BODY.index("Wh.") + 3
    assert premise == ClaimPremise(
        locator=TextLocator(
            source=URL,
            sha256=sha(BODY),
            start=start,
            end=end,
            start_utf16=start,
            end_utf16=end,
            quote="capacity   72 Wh.",
        ),
        evidence_class="retrieved",
    )


def test_utf16_offsets_count_an_astral_character_twice() -> None:
    start = BODY.index("runtime.")
    locator = resolved({"source": URL, "quote": "runtime."}).locator
    assert isinstance(locator, TextLocator)
    assert (locator.start, locator.end) == (start, start + 8)
    assert (locator.start_utf16, locator.end_utf16) == (start + 1, start + 9)


def test_explicit_offsets_select_exactly_the_quote() -> None:
    start = BODY.index("\U0001f50b")
    locator = resolved({"source": URL, "quote": "\U0001f50b run", "start": start, "end": start + 5}).locator
    assert isinstance(locator, TextLocator)
    assert (locator.start, locator.end, locator.start_utf16, locator.end_utf16) == (
        start,
        start + 5,
        start,
        start + 6,
    )


def test_a_text_attachment_carries_its_text_digest_and_its_class() -> None:
    premise = resolved({"source": "attached:spec.md", "quote": "a capacity of 72 Wh"})
    assert premise.evidence_class == "declaration"
    assert isinstance(premise.locator, TextLocator)
    assert premise.locator.sha256 == sha(SPEC) != TEXT.sha256
    assert SPEC[premise.locator.start : premise.locator.end] == "a capacity of 72 Wh"


@pytest.mark.parametrize(
    ("premise", "code", "detail"),
    [
        ({"source": URL, "quote": "capacity 73 Wh"}, "bad_locator", f"quote not found in {URL}"),
        ({"source": URL, "quote": "  \n"}, "bad_input", "the quote is empty"),
        ({"source": URL, "quote": 72}, "bad_input", "'quote' must be a string, not int"),
        (
            {"source": URL, "quote": "Northstar", "start": 0, "end": 999},
            "bad_locator",
            f"span [0, 999) is not a range of the text in {URL} ({len(BODY)} code points)",
        ),
        (
            {"source": URL, "quote": "Northstar", "start": 1, "end": 10},
            "bad_locator",
            f"span [1, 10) in {URL} is not the quote",
        ),
        ({"source": URL, "quote": "N", "start": 0}, "bad_input", "'start' and 'end' go together"),
        (
            {"source": URL, "quote": "N", "start": False, "end": 1},
            "bad_input",
            "'start' and 'end' must be integers",
        ),
        (
            {"source": URL, "quote": "N", "start": 0.0, "end": 1},
            "bad_input",
            "'start' and 'end' must be integers",
        ),
        ({"source": URL, "quote": "N", "start": -1, "end": 1}, "bad_locator", "span [-1, 1) is not a range"),
        ({"source": URL, "quote": "", "start": 0, "end": 0}, "bad_input", "the quote is empty"),
        (
            {"source": "https://docs.example/other", "quote": "x"},
            "bad_locator",
            "https://docs.example/other was not opened or admitted in this run",
        ),
        (
            {"source": "attached:spec.pdf", "quote": "72 Wh"},
            "bad_input",
            "attached:spec.pdf is a pdf, not a text: cite it by source, page and quote",
        ),
    ],
)
def test_text_premises_that_do_not_resolve(premise: dict[str, object], code: str, detail: str) -> None:
    error = refused(premise)
    assert error.code == code
    assert error.detail.startswith(detail), error.detail


def test_a_span_that_splits_a_surrogate_pair_is_refused() -> None:
    # A high and a low surrogate held as two code points are one character in UTF-16.
    body = "ab\ud83d\ude00cd"
    state = state_with(pages=[page(URL, body)])
    assert splits_surrogate_pair(body, 3)
    assert not any(splits_surrogate_pair(body, offset) for offset in (0, 1, 2, 4, 5, 6))
    error = refused({"source": URL, "quote": "\ude00c", "start": 3, "end": 5}, state)
    assert error == PremiseError("bad_locator", f"offset 3 splits a surrogate pair in {URL}")
    error = refused({"source": URL, "quote": "b\ud83d", "start": 1, "end": 3}, state)
    assert error.detail == f"offset 3 splits a surrogate pair in {URL}"
    # Found without offsets, the same quote would split it too: refused, not silently moved.
    assert refused({"source": URL, "quote": "\ude00cd"}, state).detail.startswith("offset 3 splits")
    # The whole pair, or a lone surrogate on its own, is fine.
    locator = resolved_in(state, {"source": URL, "quote": "b\ud83d\ude00c"})
    assert (locator.start, locator.end, locator.start_utf16, locator.end_utf16) == (1, 5, 1, 5)


def resolved_in(state: object, premise: object) -> TextLocator:
    result = resolve_premise(premise, state)  # type: ignore[arg-type]
    assert isinstance(result, ClaimPremise) and isinstance(result.locator, TextLocator), result
    return result.locator


# -- pdf -------------------------------------------------------------------------------------


def test_a_pdf_premise_resolves_in_its_page_text_under_the_pdf_digest() -> None:
    premise = resolved({"source": "attached:spec.pdf", "page": 2, "quote": "holds 72 Wh"})
    start = PDF_PAGES[1].index("holds")
    assert premise == ClaimPremise(
        locator=PdfLocator(
            source="attached:spec.pdf",
            sha256=PDF.sha256,
            page=2,
            start=start,
            end=start + 11,
            start_utf16=start,
            end_utf16=start + 11,
            quote="holds 72 Wh",
        ),
        evidence_class="declaration",
    )


@pytest.mark.parametrize(
    ("premise", "code", "detail"),
    [
        (
            {"source": "attached:spec.pdf", "page": 7, "quote": "x"},
            "bad_locator",
            "page 7 past the end (3 pages)",
        ),
        ({"source": "attached:spec.pdf", "page": 0, "quote": "x"}, "bad_locator", "page 0 is not a page"),
        (
            {"source": "attached:spec.pdf", "page": "2", "quote": "x"},
            "bad_input",
            "'page' must be an integer",
        ),
        (
            {"source": "attached:spec.pdf", "page": 1, "quote": "72 Wh"},
            "bad_locator",
            "quote not found on page 1 of attached:spec.pdf",
        ),
        (
            {"source": "attached:x.pdf", "page": 1, "quote": "x"},
            "bad_locator",
            "attached:x.pdf was not admitted",
        ),
        ({"source": URL, "page": 1, "quote": "x"}, "bad_locator", f"{URL} was not admitted in this run"),
        (
            {"source": "attached:spec.md", "page": 1, "quote": "x"},
            "bad_input",
            "attached:spec.md is a text, not a pdf",
        ),
    ],
)
def test_pdf_premises_that_do_not_resolve(premise: dict[str, object], code: str, detail: str) -> None:
    error = refused(premise)
    assert (error.code, error.detail[: len(detail)]) == (code, detail)


# -- cells -----------------------------------------------------------------------------------


def test_a_cell_resolves_with_its_headers_and_its_value_as_admitted() -> None:
    premise = resolved({"source": "attached:runtime.xlsx", "sheet": "Runtime", "cell": "b2"})
    assert premise == ClaimPremise(
        locator=CellLocator(
            source="attached:runtime.xlsx",
            sha256=WORKBOOK.sha256,
            sheet="Runtime",
            cell="B2",
            row_header="A",
            column_header="Runtime (h)",
            value=9,
        ),
        evidence_class="measurement",
    )


def test_a_sheet_named_in_another_case_resolves_to_its_own_name() -> None:
    locator = resolved({"source": "attached:runtime.xlsx", "sheet": "runtime", "cell": "C3"}).locator
    assert isinstance(locator, CellLocator)
    assert (locator.sheet, locator.value, locator.column_header) == (
        "Runtime",
        "2026-03-02T11:00:00",
        "Observed at",
    )


def test_a_cell_inside_the_sheet_past_a_short_row_is_empty() -> None:
    locator = resolved({"source": "attached:runtime.xlsx", "sheet": "Runtime", "cell": "D5"}).locator
    assert isinstance(locator, CellLocator)
    assert (locator.value, locator.row_header, locator.column_header) == (None, "D", "Note")


@pytest.mark.parametrize(
    ("cell", "code", "detail"),
    [
        ("Z99", "bad_locator", "cell Z99 is outside sheet Runtime (A1:D5)"),
        ("E1", "bad_locator", "cell E1 is outside sheet Runtime (A1:D5)"),
        ("a6", "bad_locator", "cell A6 is outside sheet Runtime (A1:D5)"),
        ("B0", "bad_input", "'B0' is not a cell reference such as B3"),
        ("2B", "bad_input", "'2B' is not a cell reference such as B3"),
        ("B 2", "bad_input", "'B 2' is not a cell reference such as B3"),
        ("", "bad_input", "'' is not a cell reference such as B3"),
    ],
)
def test_cells_that_do_not_resolve(cell: str, code: str, detail: str) -> None:
    error = refused({"source": "attached:runtime.xlsx", "sheet": "Runtime", "cell": cell})
    assert error == PremiseError(code, detail)  # type: ignore[arg-type]


def test_other_cell_premise_errors() -> None:
    assert refused({"source": "attached:runtime.xlsx", "sheet": "Cost", "cell": "B2"}) == PremiseError(
        "bad_locator", "attached:runtime.xlsx has no sheet 'Cost' (sheets: Runtime)"
    )
    assert refused({"source": "attached:runtime.xlsx", "sheet": "Runtime", "cell": 2}).code == "bad_input"
    assert refused({"source": "attached:runtime.csv", "sheet": "Runtime", "cell": "B2"}).detail == (
        "attached:runtime.csv is a csv, not a workbook: cite it by source, row and column"
    )
    empty = workbook_source("attached:empty.xlsx", {"Blank": []})
    assert refused({"source": "attached:empty.xlsx", "sheet": "Blank", "cell": "A1"}, state_with(empty)) == (
        PremiseError("bad_locator", "cell A1 is outside sheet Blank (empty)")
    )


# -- csv -------------------------------------------------------------------------------------


def test_a_csv_value_resolves_by_data_row_and_exact_header() -> None:
    premise = resolved({"source": "attached:runtime.csv", "row": 2, "column": "Runtime (h)"})
    assert premise == ClaimPremise(
        locator=CsvLocator(
            source="attached:runtime.csv",
            sha256=CSV.sha256,
            row=2,
            column="Runtime (h)",
            row_header="B",
            value="7.5",
        ),
        evidence_class="measurement",
    )


def test_a_csv_column_matches_case_insensitively_when_unique() -> None:
    locator = resolved({"source": "attached:runtime.csv", "row": 1, "column": "RUNTIME (MIN)"}).locator
    assert isinstance(locator, CsvLocator)
    assert (locator.column, locator.value) == ("runtime (min)", "540")


@pytest.mark.parametrize(
    ("row", "column", "detail"),
    [
        (4, "Runtime (h)", "row 4 past the end (3 data rows)"),
        (0, "Runtime (h)", "row 0 is not a data row: data rows count from 1"),
        (1, "runtime", "attached:runtime.csv has no column 'runtime'"),
    ],
)
def test_csv_values_that_do_not_resolve(row: int, column: str, detail: str) -> None:
    error = refused({"source": "attached:runtime.csv", "row": row, "column": column})
    assert (error.code, error.detail[: len(detail)]) == ("bad_locator", detail)


def test_an_ambiguous_csv_column_is_refused() -> None:
    twice = csv_source("attached:t.csv", [("x", "Runtime", "RUNTIME"), ("a", "1", "2")])
    error = refused({"source": "attached:t.csv", "row": 1, "column": "runtime"}, state_with(twice))
    assert error == PremiseError("bad_locator", "attached:t.csv has 2 columns headed like 'runtime'")
    assert (
        refused({"source": "attached:t.csv", "row": "1", "column": "x"}, state_with(twice)).code
        == "bad_input"
    )


# -- calculations and shapes ------------------------------------------------------------------


def test_a_calculation_id_resolves_to_the_calculation_of_this_run() -> None:
    calculation = Calculation(id="calc:3", operation="sum", inputs=(), unit="h", result=1.0, version="1")
    state = STATE._replace(calculations={"calc:3": calculation})
    assert resolve_premise("calc:3", state) == ClaimPremise(
        calculation="calc:3", evidence_class="calculation"
    )
    assert resolve_premise("calc:4", state) == PremiseError(
        "bad_locator", "calc:4 is not a calculation of this run"
    )
    assert refused("calc:three", state).code == "bad_input"


@pytest.mark.parametrize(
    ("premise", "detail"),
    [
        (["attached:runtime.xlsx", "B2"], "a premise is an object or a calc:<n> string, not list"),
        (None, "a premise is an object or a calc:<n> string, not null"),
        ({"sheet": "Runtime", "cell": "B2"}, "a premise needs a non-empty string 'source'"),
        ({"source": "", "quote": "x"}, "a premise needs a non-empty string 'source'"),
        ({"source": URL}, "premise keys ['source'] are none of text"),
        ({"source": URL, "quote": "x", "url": URL}, "unknown premise keys ['url']"),
        (
            {"source": "attached:runtime.xlsx", "sheet": "Runtime", "cell": "B2", "row": 1},
            "unknown premise keys",
        ),
    ],
)
def test_premises_of_the_wrong_shape(premise: object, detail: str) -> None:
    error = refused(premise)
    assert (error.code, error.detail[: len(detail)]) == ("bad_input", detail)


# -- verify_locator --------------------------------------------------------------------------


def every_kind() -> list[ClaimPremise]:
    return [
        resolved({"source": URL, "quote": "Target 8\u201310 h"}),
        resolved({"source": "attached:spec.md", "quote": "72 Wh"}),
        resolved({"source": "attached:spec.pdf", "page": 2, "quote": "72 Wh"}),
        resolved({"source": "attached:runtime.xlsx", "sheet": "Runtime", "cell": "B3"}),
        resolved({"source": "attached:runtime.csv", "row": 1, "column": "Runtime (h)"}),
    ]


def test_a_fresh_locator_of_every_kind_verifies() -> None:
    for premise in every_kind():
        assert premise.locator is not None
        assert verify_locator(premise.locator, STATE) is None


def test_verify_reports_a_changed_page_digest() -> None:
    locator = every_kind()[0].locator
    assert locator is not None
    edited = state_with(WORKBOOK, CSV, TEXT, PDF, pages=[page(URL, BODY.replace("72", "75"))])
    difference = verify_locator(locator, edited)
    assert difference is not None and "digest" in difference and sha(BODY)[:12] in difference


def test_verify_reports_an_edited_quote_or_moved_offsets() -> None:
    locator = every_kind()[1].locator
    assert isinstance(locator, TextLocator)
    assert verify_locator(locator.model_copy(update={"quote": "73 Wh"}), STATE) == (
        f"span [{locator.start}, {locator.end}) in attached:spec.md is not the quote"
    )
    moved = locator.model_copy(update={"start_utf16": locator.start_utf16 + 1})
    assert verify_locator(moved, STATE) == (
        f"attached:spec.md [{locator.start}, {locator.end}): start_utf16 {locator.start_utf16 + 1} "
        f"is now {locator.start_utf16}"
    )


def test_verify_reports_a_changed_source_digest_and_a_changed_value() -> None:
    pdf_locator, cell_locator, csv_locator = (premise.locator for premise in every_kind()[2:])
    assert pdf_locator is not None and cell_locator is not None and csv_locator is not None
    other_pdf = pdf_source("attached:spec.pdf", PDF_PAGES, digest="pdf1")
    difference = verify_locator(pdf_locator, state_with(other_pdf))
    assert difference == "attached:spec.pdf page 2 [26, 31): digest pdf0... is now pdf1..."
    rows = [row if row[0] != "B" else ("B", 7.25, *row[2:]) for row in WORKBOOK_ROWS]
    same_digest = workbook_source("attached:runtime.xlsx", {"Runtime": rows})
    assert verify_locator(cell_locator, state_with(same_digest)) == (
        "attached:runtime.xlsx Runtime!B3: value 7.5 is now 7.25"
    )
    assert (
        verify_locator(csv_locator, state_with(WORKBOOK))
        == "attached:runtime.csv was not admitted in this run"
    )


def test_verify_tells_an_int_cell_from_a_float_one() -> None:
    cell_locator = every_kind()[3].locator
    assert isinstance(cell_locator, CellLocator)
    as_text = cell_locator.model_copy(update={"value": "7.5"})
    assert verify_locator(as_text, STATE) == "attached:runtime.xlsx Runtime!B3: value '7.5' is now 7.5"


WORKBOOK_ROWS = [row for sheet in WORKBOOK.representation.sheets for row in sheet.rows]  # type: ignore[union-attr]


# -- read_measurement ------------------------------------------------------------------------


def measured(source: object, premise: dict[str, object]) -> Measurement | PremiseError:
    state = state_with(source)  # type: ignore[arg-type]
    result = resolve_premise(premise, state)
    assert isinstance(result, ClaimPremise) and isinstance(result.locator, CellLocator | CsvLocator), result
    return read_measurement(result.locator, source)  # type: ignore[arg-type]


def cell(source: object, ref: str, sheet: str = "Runtime") -> Measurement | PremiseError:
    return measured(source, {"source": "attached:runtime.xlsx", "sheet": sheet, "cell": ref})


def test_a_numeric_cell_reads_with_quantity_unit_and_observation_time() -> None:
    measurement = cell(WORKBOOK, "B2")
    assert isinstance(measurement, Measurement)
    assert (measurement.value, measurement.quantity, measurement.unit, measurement.observed_at) == (
        9.0,
        "runtime",
        "h",
        "2026-03-02T10:00:00",
    )
    assert measurement.evidence_class == "measurement"
    assert measurement.locator.value == 9


def test_a_measurement_keeps_the_class_of_its_source() -> None:
    measurement = cell(runtime_workbook("declaration"), "B3")
    assert isinstance(measurement, Measurement)
    assert (measurement.value, measurement.evidence_class) == (7.5, "declaration")


@pytest.mark.parametrize(
    ("header", "quantity", "unit"),
    [
        ("Runtime (h)", "runtime", "h"),
        ("Runtime [h]", "runtime", "h"),
        ("  Battery   Runtime  ( min ) ", "battery runtime", "min"),
        ("Capacity", "capacity", "Wh"),  # from the row's unit column
    ],
)
def test_quantity_and_unit_from_the_header_or_a_unit_column(header: str, quantity: str, unit: str) -> None:
    source = workbook_source("attached:runtime.xlsx", {"S": [("name", header, "Unit"), ("A", 72, "Wh")]})
    measurement = cell(source, "B2", "S")
    assert isinstance(measurement, Measurement)
    assert (measurement.quantity, measurement.unit, measurement.value) == (quantity, unit, 72.0)


def test_no_unit_anywhere_is_an_empty_unit() -> None:
    source = workbook_source("attached:runtime.xlsx", {"S": [("name", "Count"), ("A", 3)]})
    measurement = cell(source, "B2", "S")
    assert isinstance(measurement, Measurement)
    assert (measurement.quantity, measurement.unit, measurement.observed_at) == ("count", "", None)


@pytest.mark.parametrize(
    "heading",
    ["observed", "Observed At", "observed_at", "Measured at", "MEASURED_AT", "observation time", "Date"],
)
def test_the_observation_time_columns(heading: str) -> None:
    source = workbook_source(
        "attached:runtime.xlsx",
        {"S": [("name", "Runtime (h)", "other", heading), ("A", 9, "x", "2026-01-05")]},
    )
    measurement = cell(source, "B2", "S")
    assert isinstance(measurement, Measurement)
    assert measurement.observed_at == "2026-01-05"


def test_an_empty_observation_time_is_none() -> None:
    source = workbook_source(
        "attached:runtime.xlsx", {"S": [("name", "Runtime (h)", "date"), ("A", 9, "  ")]}
    )
    measurement = cell(source, "B2", "S")
    assert isinstance(measurement, Measurement) and measurement.observed_at is None


@pytest.mark.parametrize(
    ("value", "number", "unit"),
    [
        ("9", 9.0, "h"),
        (" -7.5 ", -7.5, "h"),
        ("1,234.5", 1234.5, "h"),
        ("12,345,678", 12345678.0, "h"),
        (".5", 0.5, "h"),
        ("2e3", 2000.0, "h"),
        ("7.5 h", 7.5, "h"),
        ("7.5 H", 7.5, "h"),
        (8, 8.0, "h"),
        (8.25, 8.25, "h"),
    ],
)
def test_numbers_a_cell_may_hold(value: object, number: float, unit: str) -> None:
    source = workbook_source("attached:runtime.xlsx", {"S": [("name", "Runtime (h)"), ("A", value)]})  # type: ignore[dict-item]
    measurement = cell(source, "B2", "S")
    assert isinstance(measurement, Measurement), measurement
    assert (measurement.value, measurement.unit) == (number, unit)


def test_a_unit_written_in_a_cell_under_a_bare_header_is_the_unit() -> None:
    source = workbook_source("attached:runtime.xlsx", {"S": [("name", "Runtime"), ("A", "450 min")]})
    measurement = cell(source, "B2", "S")
    assert isinstance(measurement, Measurement)
    assert (measurement.value, measurement.unit) == (450.0, "min")


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (None, "missing_value"),
        ("", "missing_value"),
        ("   ", "missing_value"),
        ("n/a", "not_a_number"),
        ("9-10", "not_a_number"),
        ("about 9", "not_a_number"),
        ("9 h 30 min", "not_a_number"),
        ("1,23", "not_a_number"),
        ("2026-03-02", "not_a_number"),
        ("nan", "non_finite"),
        ("-Infinity", "non_finite"),
        ("1e999", "non_finite"),
        (math.nan, "non_finite"),
        (math.inf, "non_finite"),
        (10**400, "non_finite"),
        ("450 min", "mixed_units"),
    ],
)
def test_values_that_are_not_a_measurement(value: object, code: str) -> None:
    source = workbook_source("attached:runtime.xlsx", {"S": [("name", "Runtime (h)"), ("A", value)]})  # type: ignore[dict-item]
    error = cell(source, "B2", "S")
    assert isinstance(error, PremiseError), error
    assert error.code == code
    assert error.detail.startswith("attached:runtime.xlsx S!B2 ")


def test_a_missing_value_is_never_zero() -> None:
    error = cell(WORKBOOK, "B4")
    assert error == PremiseError(
        "missing_value", "attached:runtime.xlsx Runtime!B4 is empty: a missing value is never read as zero"
    )


def test_a_csv_value_reads_as_a_measurement() -> None:
    measurement = measured(CSV, {"source": "attached:runtime.csv", "row": 2, "column": "runtime (min)"})
    assert isinstance(measurement, Measurement)
    assert (measurement.value, measurement.quantity, measurement.unit, measurement.observed_at) == (
        450.0,
        "runtime",
        "min",
        "2026-03-02",
    )
    missing = measured(CSV, {"source": "attached:runtime.csv", "row": 3, "column": "Runtime (h)"})
    assert isinstance(missing, PremiseError) and missing.code == "missing_value"


def test_a_locator_that_no_longer_selects_its_value_is_not_read() -> None:
    locator = every_kind()[3].locator
    assert isinstance(locator, CellLocator)
    stale = locator.model_copy(update={"value": 8})
    error = read_measurement(stale, WORKBOOK)
    assert error == PremiseError("bad_locator", "attached:runtime.xlsx Runtime!B3: value 8 is now 7.5")
    assert read_measurement(locator, CSV) == PremiseError(
        "bad_locator", "attached:runtime.xlsx Runtime!B3 is not a locator into attached:runtime.csv"
    )
