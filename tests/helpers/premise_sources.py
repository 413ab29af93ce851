"""Admitted sources built by hand, and a run state holding them, for the premise and calculate tests.

Independent of the file loaders (tools/_attachments.py): the tests here are about what a
premise resolves to in a representation, not about how a file becomes one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from citeloop.events import (
    AdmittedSource,
    CellValue,
    CsvRepresentation,
    EvidenceClass,
    Page,
    PdfRepresentation,
    Sheet,
    TextRepresentation,
    WorkbookRepresentation,
    admitted_class_problem,
)
from citeloop.runtime import RunState


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def page(url: str, body: str) -> Page:
    return Page(url=url, title=url, body=body, sha256=sha(body))


def _source(
    source_id: str,
    representation: TextRepresentation | PdfRepresentation | WorkbookRepresentation | CsvRepresentation,
    evidence_class: EvidenceClass,
    digest: str,
    extractor: str,
) -> AdmittedSource:
    fields = {
        "id": source_id,
        "origin": source_id.removeprefix("attached:"),
        "media_type": "application/octet-stream",
        "size": 100,
        "sha256": digest,
        "extractor": extractor,
        "extractor_version": "1",
        "evidence_class": evidence_class,
        "representation": representation.model_dump(),
    }
    if admitted_class_problem(evidence_class, representation.kind) is not None:
        # A class that does not fit the representation (a workbook as a declaration) can only
        # come from a forged log: built as a stored log is read, from JSON, where it is kept.
        return AdmittedSource.model_validate_json(json.dumps(fields))
    return AdmittedSource.model_validate(fields)


def text_source(source_id: str, text: str, evidence_class: EvidenceClass = "declaration") -> AdmittedSource:
    representation = TextRepresentation(text=text, sha256=sha(text))
    return _source(source_id, representation, evidence_class, sha("bytes:" + text), "citeloop-text")


def pdf_source(
    source_id: str, pages: Iterable[str], evidence_class: EvidenceClass = "declaration", digest: str = "pdf0"
) -> AdmittedSource:
    return _source(source_id, PdfRepresentation(pages=tuple(pages)), evidence_class, digest, "pypdf")


def workbook_source(
    source_id: str,
    sheets: dict[str, list[tuple[CellValue, ...]]],
    evidence_class: EvidenceClass = "measurement",
    digest: str = "xlsx0",
) -> AdmittedSource:
    representation = WorkbookRepresentation(
        sheets=tuple(Sheet(name=name, rows=tuple(rows)) for name, rows in sheets.items())
    )
    return _source(source_id, representation, evidence_class, digest, "openpyxl")


def csv_source(
    source_id: str,
    rows: list[tuple[str, ...]],
    evidence_class: EvidenceClass = "measurement",
    digest: str = "csv0",
) -> AdmittedSource:
    return _source(source_id, CsvRepresentation(rows=tuple(rows)), evidence_class, digest, "csv")


def state_with(*sources: AdmittedSource, pages: Iterable[Page] = ()) -> RunState:
    """A run state as the fold would leave it after admitting `sources` and opening `pages`."""
    return RunState(
        sources={source.id: source for source in sources},
        opened={opened.url: opened for opened in pages},
    )


# The Northstar-like runtime workbook: prototype A measured at 9 h, B at 7.5 h.
RUNTIME_ROWS: list[tuple[CellValue, ...]] = [
    ("Prototype", "Runtime (h)", "Observed at", "Note"),
    ("A", 9, "2026-03-02T10:00:00", "bench"),
    ("B", 7.5, "2026-03-02T11:00:00", None),
    ("C", None, "2026-03-03", "battery failed"),
    ("D", "n/a", None),
]


def runtime_workbook(evidence_class: EvidenceClass = "measurement") -> AdmittedSource:
    return workbook_source("attached:runtime.xlsx", {"Runtime": RUNTIME_ROWS}, evidence_class)
