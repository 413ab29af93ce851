"""The per-format readers of an attachment: a file's bytes into the representation a run may cite.

Admission (tools/_attachments.py) reads the file, tells its media type and hands the bytes
here as a `Read`: text is decoded (UTF-8, or what its byte-order mark names) and, for HTML,
rendered as a corpus page is; a PDF becomes its pages (pypdf), an XLSX workbook its sheets
as values (openpyxl), a CSV its records. Each reader checks what it builds against the
`AttachmentLimits` as it goes and refuses with an `AttachmentError` what it cannot read
faithfully, never returning part of a file.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import importlib
import io
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Final, Literal, TypeAlias

from citeloop.events import (
    CellValue,
    CsvRepresentation,
    PdfRepresentation,
    Sheet,
    TextRepresentation,
    UsageError,
    WorkbookRepresentation,
)

from ._decode import BOMS
from ._html import html_to_text

AttachmentErrorCode: TypeAlias = Literal[
    "missing",
    "unreadable",
    "unsupported_type",
    "too_large",
    "undecodable",
    "no_text",
    "malformed",
    "needs_extra",
    "wrong_class",
]

XLSX_MEDIA_TYPE: Final = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_CSV_DELIMITERS: Final = (",", ";", "\t")
_SNIFF_RECORDS: Final = 20


class AttachmentError(UsageError):
    """Raised when a file cannot be attached: `code` says why, the message names the file and what to do."""

    def __init__(self, origin: str, code: AttachmentErrorCode, why: str) -> None:
        super().__init__(f"cannot attach {origin}: {why}")
        self.origin = origin
        self.code = code


@dataclass(frozen=True, slots=True)
class AttachmentLimits:
    """What one attachment may hold: bytes read, characters of admitted text, cells of admitted tables.

    `max_unzipped_bytes` bounds what a workbook's archive says it expands to, checked
    before anything is expanded.
    """

    max_bytes: int = 20 * 1024 * 1024
    max_chars: int = 2_000_000
    max_cells: int = 200_000
    max_unzipped_bytes: int = 200 * 1024 * 1024


DEFAULT_ATTACHMENT_LIMITS: Final = AttachmentLimits()


@dataclass(slots=True)
class Read:
    """What is known of a file while it is admitted."""

    origin: str
    name: str
    data: bytes
    limits: AttachmentLimits
    cells: int = field(default=0)

    def refuse(self, code: AttachmentErrorCode, why: str) -> AttachmentError:
        return AttachmentError(self.origin, code, why)

    def check_chars(self, chars: int) -> None:
        if chars > self.limits.max_chars:
            raise self.refuse(
                "too_large", f"too large: {chars} characters of text, over the cap of {self.limits.max_chars}"
            )

    def count_cells(self, cells: int) -> None:
        self.cells += cells
        if self.cells > self.limits.max_cells:
            raise self.refuse("too_large", f"too large: more than {self.limits.max_cells} cells")


Extractor: TypeAlias = tuple[str, str]
# What a reader returns: (media type, (extractor, its version), representation).
Represented: TypeAlias = tuple[str, Extractor, Any]


def read_text(read: Read, media_type: str, text: str) -> Represented:
    """Decoded text or HTML (`media_type`) as admitted: HTML rendered as a corpus page is, Markdown kept."""
    if media_type == "text/html":
        text = html_to_text(text).text
        extractor = "citeloop-html"
    else:
        extractor = "citeloop-text"
    read.check_chars(len(text))
    if not text.strip():
        raise read.refuse("no_text", "it holds no text")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return media_type, (extractor, own_version()), TextRepresentation(text=text, sha256=digest)


def own_version() -> str:
    """citeloop's version, as its own extractors record it."""
    try:
        return version("citeloop")
    except PackageNotFoundError:  # pragma: no cover - a source checkout that was never installed
        return "0"


def decode(read: Read) -> str:
    """The bytes as text: UTF-8, or the encoding their byte-order mark names; never with replacements."""
    encoding = next((name for bom, name in BOMS if read.data.startswith(bom)), "utf-8")
    try:
        text = read.data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise read.refuse(
            "undecodable", f"not valid {encoding} text (at byte {exc.start}); save it as UTF-8"
        ) from exc
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        raise read.refuse("undecodable", "binary data (it holds NUL characters), not text")
    return text


def read_pdf(read: Read) -> Represented:
    pypdf = _import_or_refuse(read, "pypdf")
    try:
        reader = pypdf.PdfReader(io.BytesIO(read.data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise read.refuse("unreadable", "the PDF is encrypted: remove its password first")
        pages: list[str] = []
        chars = 0
        for page in reader.pages:
            text = page.extract_text() or ""
            chars += len(text)
            read.check_chars(chars)
            pages.append(text)
    except AttachmentError:
        raise
    except Exception as exc:  # pypdf raises many kinds on a broken file: all of them mean "malformed"
        raise read.refuse("malformed", f"malformed PDF ({_reason(exc)})") from exc
    if not any(text.strip() for text in pages):
        raise read.refuse("no_text", "no extractable text in the PDF (scanned? attach its text instead)")
    return "application/pdf", ("pypdf", str(pypdf.__version__)), PdfRepresentation(pages=tuple(pages))


def _import_or_refuse(read: Read, module: str) -> Any:
    """The optional library a type needs, imported on first use; refused naming the extra without it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise read.refuse(
            "needs_extra",
            f"reading it needs {module}: install the `attach` extra (pip install 'citeloop[attach]')",
        ) from exc


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def is_workbook(data: bytes) -> bool:
    if not data.startswith(b"PK\x03\x04"):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "xl/workbook.xml" in archive.namelist()
    except (zipfile.BadZipFile, ValueError, EOFError):
        return False


def read_workbook(read: Read) -> Represented:
    openpyxl = _import_or_refuse(read, "openpyxl")
    with zipfile.ZipFile(io.BytesIO(read.data)) as archive:
        unzipped = sum(info.file_size for info in archive.infolist())
    if unzipped > read.limits.max_unzipped_bytes:
        raise read.refuse(
            "too_large",
            f"too large: the workbook expands to {unzipped} bytes, over the cap of "
            f"{read.limits.max_unzipped_bytes}",
        )
    try:
        workbook = openpyxl.load_workbook(io.BytesIO(read.data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a broken file: all of them mean "malformed"
        raise read.refuse("malformed", f"malformed XLSX ({_reason(exc)})") from exc
    try:
        sheets = tuple(Sheet(name=str(ws.title), rows=_sheet_rows(read, ws)) for ws in workbook.worksheets)
    except AttachmentError:
        raise
    except Exception as exc:
        raise read.refuse("malformed", f"malformed XLSX ({_reason(exc)})") from exc
    finally:
        workbook.close()
    if not any(sheet.rows for sheet in sheets):
        raise read.refuse("no_text", "the workbook holds no values")
    extractor = ("openpyxl", str(openpyxl.__version__))
    return XLSX_MEDIA_TYPE, extractor, WorkbookRepresentation(sheets=sheets)


def _sheet_rows(read: Read, worksheet: Any) -> tuple[tuple[CellValue, ...], ...]:
    """A sheet's values from A1, trailing empty rows and columns trimmed, every row as wide as the widest."""
    # A sheet's recorded dimension may be wrong (other writers): read every row as it is.
    worksheet.reset_dimensions()
    rows: list[tuple[CellValue, ...]] = []
    before = read.cells
    for raw in worksheet.iter_rows(min_row=1, min_col=1, values_only=True):
        read.count_cells(max(len(raw), 1))  # an empty row counts: a far-away cell cannot make millions
        rows.append(tuple(_cell(read, value) for value in raw))
    while rows and all(value is None for value in rows[-1]):
        rows.pop()
    width = max((_filled_width(row) for row in rows), default=0)
    # What is admitted is the whole rectangle: counted before it is built (one cell at XFD1 is 16,384).
    read.cells = before
    read.count_cells(len(rows) * width)
    return tuple(row[:width] + (None,) * (width - len(row[:width])) for row in rows)


def _filled_width(row: Sequence[CellValue]) -> int:
    for index in range(len(row), 0, -1):
        if row[index - 1] is not None:
            return index
    return 0


def _cell(read: Read, value: object) -> CellValue:
    """A cell's value as admitted: text and numbers as they are, dates as ISO text, booleans TRUE/FALSE."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):  # before int: a bool is an int
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return value
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    raise read.refuse("malformed", f"malformed XLSX (a cell holds a {type(value).__name__})")


def read_csv(read: Read, text: str) -> CsvRepresentation:
    read.check_chars(len(text))
    delimiter = _delimiter(text)
    rows: list[tuple[str, ...]] = []
    try:
        for record in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True):
            read.count_cells(max(len(record), 1))
            rows.append(tuple(record))
    except csv.Error as exc:
        raise read.refuse("malformed", f"malformed CSV ({exc})") from exc
    while rows and not any(rows[-1]):
        rows.pop()
    if not rows:
        raise read.refuse("no_text", "the CSV holds no rows")
    return CsvRepresentation(rows=tuple(rows))


def _delimiter(text: str) -> str:
    """The delimiter among , ; and tab that splits the first records into the most fields, evenly.

    Deterministic, unlike `csv.Sniffer`: a candidate scores by whether its first records all
    have one width, then by that width; a tie goes to the comma.
    """

    def score(delimiter: str) -> tuple[bool, int]:
        try:
            records = [len(r) for r in _first(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))]
        except csv.Error:
            return (False, 0)
        records = [width for width in records if width]
        if not records:
            return (False, 0)
        return (len(set(records)) == 1, records[0])

    return max(_CSV_DELIMITERS, key=score)  # the first of the best: the comma on a tie


def _first(rows: Iterator[list[str]]) -> Iterator[list[str]]:
    for number, row in enumerate(rows):
        if number >= _SNIFF_RECORDS:
            return
        yield row
