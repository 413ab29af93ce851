"""Admitted sources, their representations, evidence classes and representation-bound locators.

docs/evidence.md separates a citation's identity (which exact representation), its location (where
in it, under a declared unit) and its support (whether it backs the claim). This module is
the vocabulary of the first two: what the log records about a source a run admitted, and
the locators that point into it. Verifying a locator and assessing support are the
runtime's (runtime/_premises.py, runtime/_claims.py); here are only the facts.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    model_serializer,
    model_validator,
)

# What an admitted item can establish (docs/evidence.md): a page opened from a corpus or the
# web is `retrieved`; what an attached document states is a `declaration`; a workbook or CSV
# value is a `measurement`; a deterministic result over cited measurements is a
# `calculation`; whatever a model produced about an input is `generated`, always flagged.
EvidenceClass: TypeAlias = Literal["retrieved", "declaration", "measurement", "calculation", "generated"]
EVIDENCE_CLASSES: Final[tuple[EvidenceClass, ...]] = get_args(EvidenceClass)

# A cell as admitted: text, a number, or empty. Dates are admitted as ISO text, booleans as
# "TRUE"/"FALSE": the workbook's own display is not trusted to be stable across readers.
CellValue: TypeAlias = str | int | float | None


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TextRepresentation(_Frozen):
    """A text, Markdown or HTML attachment as admitted: its text (HTML rendered as for a corpus page).

    `sha256` is the digest of the text's UTF-8 bytes: a text locator into it carries it.
    """

    kind: Literal["text"] = "text"
    text: str
    sha256: str


class PdfRepresentation(_Frozen):
    """A PDF as admitted: the extracted text of each page, page 1 first."""

    kind: Literal["pdf"] = "pdf"
    pages: tuple[str, ...]


class Sheet(_Frozen):
    """One worksheet: its rows as admitted, row 1 first (row 1 holds the column headers)."""

    name: str
    rows: tuple[tuple[CellValue, ...], ...]


class WorkbookRepresentation(_Frozen):
    """An XLSX workbook as admitted: its sheets in workbook order, values (not formulas)."""

    kind: Literal["workbook"] = "workbook"
    sheets: tuple[Sheet, ...]


class CsvRepresentation(_Frozen):
    """A CSV file as admitted: row 1 is the header; every value is text, as in the file."""

    kind: Literal["csv"] = "csv"
    rows: tuple[tuple[str, ...], ...]


Representation = Annotated[
    TextRepresentation | PdfRepresentation | WorkbookRepresentation | CsvRepresentation,
    Field(discriminator="kind"),
]


# The classes an admitted source may carry, by its representation's kind (docs/evidence.md): what
# a document states is a `declaration`, a table's values are `measurement`s, and either may be
# flagged `generated`. `retrieved` is for pages opened from a corpus or the web, never an
# admitted source; `calculation` is made by the calculate tool, never admitted.
ADMITTED_CLASSES: Final[dict[str, tuple[EvidenceClass, ...]]] = {
    "text": ("declaration", "generated"),
    "pdf": ("declaration", "generated"),
    "workbook": ("measurement", "generated"),
    "csv": ("measurement", "generated"),
}


def admitted_class_problem(evidence_class: str, representation_kind: str) -> str | None:
    """Why a source of `representation_kind` cannot be admitted as `evidence_class`, or None when it can."""
    allowed = ADMITTED_CLASSES.get(representation_kind)
    if allowed is None or evidence_class in allowed:
        return None
    why = {
        "retrieved": "`retrieved` is for pages opened from a corpus or the web",
        "calculation": "`calculation` is made by the calculate tool, never admitted",
    }.get(evidence_class, f"a {representation_kind} representation holds {_WHAT[representation_kind]}")
    return (
        f"a {representation_kind} source cannot be admitted as {evidence_class!r}: {why}; "
        f"it may be {' or '.join(map(repr, allowed))}"
    )


_WHAT: Final = {
    "text": "a document's statements, not measurements",
    "pdf": "a document's statements, not measurements",
    "workbook": "a table's values, not declarations",
    "csv": "a table's values, not declarations",
}


class AdmittedSource(_Frozen):
    """A source the run admitted besides the pages it opened: its identity and what was admitted.

    `id` is what a finish cites (`attached:<name>`); `origin` the path or URL as given;
    `sha256` and `size` are of the bytes received; `extractor` and `extractor_version` name
    what turned them into `representation`. `evidence_class` is what its statements can
    establish: `declaration` for a document, `measurement` for a table, `generated` when
    the user flagged it as a model's output. No other pairing validates
    (`ADMITTED_CLASSES`): a table is never a declaration, a document never a measurement,
    and no admitted source is `retrieved` or a `calculation`.
    """

    id: str
    origin: str
    media_type: str
    size: int
    sha256: str
    extractor: str
    extractor_version: str
    evidence_class: EvidenceClass
    representation: Representation

    @model_validator(mode="after")
    def _class_fits_representation(self, info: ValidationInfo) -> AdmittedSource:
        # Made in Python (`admit`, a test, a caller's own source), a misfit is refused here.
        # Read back from JSON (a stored log), it is taken as written: a log is judged by
        # `check`, which names such a source (a forged log), not refused by the decoder.
        if info.mode == "json":
            return self
        problem = admitted_class_problem(self.evidence_class, self.representation.kind)
        if problem is not None:
            raise ValueError(f"{self.id}: {problem}")
        return self


class TextLocator(_Frozen):
    """A span of a text representation: an opened page's body or a text attachment's text.

    `sha256` is the digest of that text; offsets are half-open, in code points and in UTF-16
    units, and `text[start:end] == quote`.
    """

    kind: Literal["text"] = "text"
    source: str
    sha256: str
    start: int
    end: int
    start_utf16: int
    end_utf16: int
    quote: str


class PdfLocator(_Frozen):
    """A span of one PDF page's extracted text (`page` counts from 1); offsets as in `TextLocator`.

    `sha256` is the digest of the PDF's bytes: the page text is the one admitted with them.
    """

    kind: Literal["pdf"] = "pdf"
    source: str
    sha256: str
    page: int
    start: int
    end: int
    start_utf16: int
    end_utf16: int
    quote: str


class CellLocator(_Frozen):
    """One workbook cell (`sheet`, `cell` such as "B3"), with the headers it sits under and its value."""

    kind: Literal["cell"] = "cell"
    source: str
    sha256: str
    sheet: str
    cell: str
    row_header: str
    column_header: str
    value: CellValue


class CsvLocator(_Frozen):
    """One CSV value: `row` counts data rows from 1 (the header is row 0), `column` is its header."""

    kind: Literal["csv"] = "csv"
    source: str
    sha256: str
    row: int
    column: str
    row_header: str
    value: str


EvidenceLocator = Annotated[
    TextLocator | PdfLocator | CellLocator | CsvLocator,
    Field(discriminator="kind"),
]


class Measurement(_Frozen):
    """A value read from a cited cell: its number, its unit, and when it was observed, if the row says."""

    locator: CellLocator | CsvLocator
    value: float
    unit: str
    quantity: str
    observed_at: str | None = None
    evidence_class: EvidenceClass = "measurement"


CalculationOp: TypeAlias = Literal["sum", "mean", "min", "max", "difference", "ratio", "compare"]


class Calculation(_Frozen):
    """A deterministic result over cited measurements (the `calculate` tool; docs/evidence.md).

    `id` is what a claim cites (`calc:<step>`). `result` is a number, or for `compare` one of
    "greater", "less", "equal" (the first input against the second). `missing` is the
    missing-value rule: a missing cell is refused, never read as zero.

    `rules` is the version of the calculate tool's rules it was made under
    (`CALCULATE_RULES`, runtime/_calculate.py), not citeloop's version: an upgrade that
    leaves the rules alone leaves a stored calculation as `check` derives it today. A
    calculation recorded before the rules were numbered has no `rules` and holds the
    package's `version` instead; `check` judges it as made under rules 1. Each of the two
    is left out of the event's JSON when unset, so such an old event encodes (and chains)
    as it was written.
    """

    kind: Literal["calculation"] = "calculation"
    id: str
    operation: CalculationOp
    inputs: tuple[Measurement, ...]
    missing: Literal["refuse"] = "refuse"
    unit: str
    result: float | str
    rules: int | None = None
    version: str | None = None

    @model_serializer(mode="wrap")
    def _leave_out_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        data: dict[str, object] = handler(self)
        for name in ("rules", "version"):
            if data.get(name, "") is None:
                del data[name]
        return data


class ClaimPremise(_Frozen):
    """One premise of a claim as recorded: a locator, or the id of a calculation in this run."""

    locator: EvidenceLocator | None = None
    calculation: str | None = None
    evidence_class: EvidenceClass
