"""Attachments: a user's files admitted as sources of a run, each with its identity (docs/evidence.md).

A file is read once; its bytes give the identity (size, sha256) and the representation a
run may cite: text (Markdown kept as written, HTML rendered as a corpus page is), each page
of a PDF (pypdf), each sheet of an XLSX workbook as values (openpyxl), the rows of a CSV.
What cannot be admitted faithfully is refused with an `AttachmentError` naming the file
and why, never admitted in part: a scanned PDF, text that is not UTF-8, a broken workbook.
This module is admission (identity, media type, class, id); the per-format readers are in
tools/_attachment_readers.py.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeAlias

from citeloop.events import (
    AdmittedSource,
    CsvRepresentation,
    EvidenceClass,
    UsageError,
    WorkbookRepresentation,
    admitted_class_problem,
)

from ._attachment_readers import DEFAULT_ATTACHMENT_LIMITS as DEFAULT_ATTACHMENT_LIMITS
from ._attachment_readers import XLSX_MEDIA_TYPE as XLSX_MEDIA_TYPE
from ._attachment_readers import AttachmentError as AttachmentError
from ._attachment_readers import AttachmentErrorCode as AttachmentErrorCode
from ._attachment_readers import AttachmentLimits as AttachmentLimits
from ._attachment_readers import Extractor as Extractor
from ._attachment_readers import (
    Read,
    Represented,
    decode,
    is_workbook,
    read_csv,
    read_pdf,
    read_text,
    read_workbook,
)
from ._attachment_readers import own_version as own_version

ID_PREFIX: Final = "attached:"
SUPPORTED: Final = "attach text, Markdown, HTML, PDF, XLSX or CSV"
_TEXT_TYPES: Final = {
    ".txt": "text/plain",
    ".text": "text/plain",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".html": "text/html",
    ".htm": "text/html",
    ".csv": "text/csv",
}


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to admit as a source of a run; `generated` flags a model's output (admitted as `generated`).

    `evidence_class`, when given, is the class to admit it as; it must fit what the file
    turns out to be (`ADMITTED_CLASSES`: a document is a `declaration`, a table a
    `measurement`, either may be `generated`), or the file is refused (`wrong_class`).
    By default the class follows from the representation (and `generated`).
    """

    path: str | os.PathLike[str]
    generated: bool = False
    evidence_class: EvidenceClass | None = None


# What a run can be given to attach: a path, an `Attachment`, or a source `admit` returned.
Attachable: TypeAlias = "Attachment | AdmittedSource | str | os.PathLike[str]"


def admit(
    attachment: Attachment,
    *,
    taken_ids: Collection[str] = (),
    limits: AttachmentLimits = DEFAULT_ATTACHMENT_LIMITS,
) -> AdmittedSource:
    """Read `attachment` once and admit it: its identity and representation, under an id not in `taken_ids`.

    Raises `AttachmentError` when the file is missing, unreadable, of an unsupported type,
    over `limits`, not decodable, without extractable text, or malformed; or (`wrong_class`)
    when the class it is to be admitted as does not fit its representation.
    """
    origin = os.fspath(attachment.path)
    name = Path(origin).name
    read = Read(origin, name, _read_bytes(origin, limits.max_bytes), limits)
    media_type, extractor, representation = _represent(read)
    evidence_class = _evidence_class(read, representation, attachment)
    return AdmittedSource(
        id=attachment_id(name, taken_ids),
        origin=origin,
        media_type=media_type,
        size=len(read.data),
        sha256=hashlib.sha256(read.data).hexdigest(),
        extractor=extractor[0],
        extractor_version=extractor[1],
        evidence_class=evidence_class,
        representation=representation,
    )


def admit_all(
    attachments: Iterable[Attachable], *, limits: AttachmentLimits = DEFAULT_ATTACHMENT_LIMITS
) -> tuple[AdmittedSource, ...]:
    """Admit every attachment in order, each under its own id; the first refusal is raised.

    A path is an `Attachment`; a source admitted already (`admit`, under limits of your own)
    is kept as it is, and its id must be free. Its class is checked again all the same (a
    `model_copy` does not validate): one that does not fit its representation is refused
    (`wrong_class`).
    """
    admitted: list[AdmittedSource] = []
    for item in attachments:
        taken = {source.id for source in admitted}
        if isinstance(item, AdmittedSource):
            if item.id in taken:
                raise UsageError(f"two attachments have the id {item.id!r}")
            problem = admitted_class_problem(item.evidence_class, item.representation.kind)
            if problem is not None:
                raise AttachmentError(item.origin, "wrong_class", problem)
            admitted.append(item)
            continue
        attachment = item if isinstance(item, Attachment) else Attachment(item)
        admitted.append(admit(attachment, taken_ids=taken, limits=limits))
    return tuple(admitted)


def attachment_id(name: str, taken_ids: Collection[str] = ()) -> str:
    """`attached:<name>`, or `attached:<stem>-N<suffix>` (N from 2) when that id is taken."""
    candidate = ID_PREFIX + name
    stem, suffix = os.path.splitext(name)
    number = 2
    while candidate in taken_ids:
        candidate = f"{ID_PREFIX}{stem}-{number}{suffix}"
        number += 1
    return candidate


def _evidence_class(read: Read, representation: Any, attachment: Attachment) -> EvidenceClass:
    """The class `attachment` is admitted as, checked against its representation before it is built."""
    default: EvidenceClass = (
        "measurement"
        if isinstance(representation, WorkbookRepresentation | CsvRepresentation)
        else "declaration"
    )
    wanted = attachment.evidence_class
    if attachment.generated and wanted not in (None, "generated"):
        raise read.refuse(
            "wrong_class",
            f"it is flagged generated but declared as {wanted!r}: a model's output is 'generated'",
        )
    chosen: EvidenceClass = "generated" if attachment.generated else wanted or default
    problem = admitted_class_problem(chosen, representation.kind)
    if problem is not None:
        raise read.refuse("wrong_class", problem)
    return chosen


def _read_bytes(origin: str, max_bytes: int) -> bytes:
    try:
        # Checked before opening: opening a FIFO or a device could block or never end.
        status = os.stat(origin)
        if not stat.S_ISREG(status.st_mode):
            kind = "a directory" if stat.S_ISDIR(status.st_mode) else "not a regular file"
            raise AttachmentError(origin, "unreadable", f"it is {kind}; attach a file")
        if status.st_size > max_bytes:
            raise AttachmentError(
                origin, "too_large", f"too large: {status.st_size} bytes, over the cap of {max_bytes}"
            )
        with open(origin, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError as exc:
        raise AttachmentError(origin, "missing", "no such file") from exc
    except OSError as exc:
        raise AttachmentError(origin, "unreadable", exc.strerror or type(exc).__name__) from exc
    if len(data) > max_bytes:  # it grew after it was checked
        raise AttachmentError(origin, "too_large", f"too large: over the cap of {max_bytes} bytes")
    return data


def _represent(read: Read) -> Represented:
    """(media type, (extractor, its version), representation): the bytes' own magic first, then the name."""
    data, suffix = read.data, os.path.splitext(read.name)[1].lower()
    if data.startswith(b"%PDF-"):
        return read_pdf(read)
    if is_workbook(data):
        return read_workbook(read)
    if suffix == ".pdf":
        raise read.refuse("malformed", "malformed PDF: it does not begin with %PDF-")
    if suffix in (".xlsx", ".xlsm"):
        raise read.refuse("malformed", "malformed XLSX: not a zip archive holding xl/workbook.xml")
    media_type = _TEXT_TYPES.get(suffix)
    if media_type is None:
        kind = f"type {suffix}" if suffix else "type (no file extension)"
        raise read.refuse("unsupported_type", f"unsupported {kind} ({SUPPORTED})")
    text = decode(read)
    if media_type == "text/csv":
        return media_type, ("csv", own_version()), read_csv(read, text)
    return read_text(read, media_type, text)
