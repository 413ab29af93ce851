"""Documents built in memory for tests: a minimal PDF written by hand, an XLSX written by openpyxl.

`make_pdf` writes a valid PDF 1.4 without any PDF library: one Helvetica font, one content
stream per page drawing each line of the page's text, and a cross-reference table whose
offsets are the objects' byte offsets. A page given as "" has an empty content stream (a
page with no text, as a scanned page looks to a text extractor).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any


def _pdf_string(line: str) -> bytes:
    escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return b"(" + escaped.encode("latin-1") + b")"


def _content(text: str) -> bytes:
    if not text:
        return b""
    parts = [b"BT /F1 12 Tf 14 TL 72 720 Td"]
    for number, line in enumerate(text.split("\n")):
        parts.append((b"T* " if number else b"") + _pdf_string(line) + b" Tj")
    parts.append(b"ET")
    return b"\n".join(parts)


def make_pdf(pages: Sequence[str]) -> bytes:
    """A PDF whose page N draws `pages[N-1]`, one text line per line (Latin-1 text only)."""
    count = len(pages)
    # Objects: 1 catalog, 2 page tree, 3 font, then per page a page object and its content stream.
    kids = " ".join(f"{4 + 2 * index} 0 R" for index in range(count))
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for index, text in enumerate(pages):
        stream = _content(text)
        objects.append(
            (
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * index} 0 R >>"
            ).encode()
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n".encode()
    out += b"0000000000 65535 f \n"
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def make_xlsx(sheets: Mapping[str, Sequence[Sequence[Any]]]) -> bytes:
    """An XLSX workbook with these sheets in this order, each a list of rows (row 1 first).

    Values are written as openpyxl writes them: numbers, text, booleans, dates; None leaves
    the cell empty. A formula (text starting with "=") is written as a formula without a
    cached value, as openpyxl does.
    """
    from openpyxl import Workbook

    workbook = Workbook()
    first = True
    for name, rows in sheets.items():
        if first:
            sheet = workbook.active
            assert sheet is not None
            sheet.title = name
            first = False
        else:
            sheet = workbook.create_sheet(name)
        for row_number, row in enumerate(rows, 1):
            for column_number, value in enumerate(row, 1):
                if value is not None:
                    sheet.cell(row=row_number, column=column_number, value=value)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
