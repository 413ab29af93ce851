"""Attachments: each type admitted with its identity and representation, and every refusal named."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import os
import zipfile
from pathlib import Path

import pytest
from citeloop.events import (
    CsvRepresentation,
    PdfRepresentation,
    TextRepresentation,
    UsageError,
    WorkbookRepresentation,
)
from citeloop.tools import Attachment, AttachmentError, AttachmentLimits, admit, admit_all
from helpers.documents import make_pdf, make_xlsx
from hypothesis import given, settings
from hypothesis import strategies as st


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def refused(path: Path | str, code: str, **kwargs: object) -> AttachmentError:
    with pytest.raises(AttachmentError) as caught:
        admit(Attachment(path), **kwargs)  # type: ignore[arg-type]
    assert caught.value.code == code, str(caught.value)
    assert str(caught.value).startswith(f"cannot attach {path}: ")
    return caught.value


# -- each type ---------------------------------------------------------------------------


def test_text_file_is_a_declaration_with_its_identity(tmp_path: Path) -> None:
    raw = "The battery is declared at 72 Wh.\r\nTarget: 8\u201310 hours.\n".encode()
    path = write(tmp_path, "spec.txt", raw)
    source = admit(Attachment(path))
    assert source.id == "attached:spec.txt"
    assert source.origin == str(path)
    assert (source.media_type, source.size, source.sha256) == ("text/plain", len(raw), sha(raw))
    assert source.extractor == "citeloop-text" and source.extractor_version
    assert source.evidence_class == "declaration"
    text = raw.decode()
    assert source.representation == TextRepresentation(text=text, sha256=sha(text.encode()))


def test_bom_is_dropped_from_the_text_but_kept_in_the_identity(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbfhello"
    source = admit(Attachment(write(tmp_path, "a.txt", raw)))
    assert isinstance(source.representation, TextRepresentation)
    assert source.representation.text == "hello"
    assert source.sha256 == sha(raw)
    utf16 = "hé".encode("utf-16")  # with its byte-order mark
    again = admit(Attachment(write(tmp_path, "b.txt", utf16)))
    assert isinstance(again.representation, TextRepresentation) and again.representation.text == "hé"


def test_markdown_is_kept_as_written(tmp_path: Path) -> None:
    text = "# Spec\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    source = admit(Attachment(write(tmp_path, "notes.markdown", text)))
    assert source.media_type == "text/markdown"
    assert isinstance(source.representation, TextRepresentation)
    assert source.representation.text == text


def test_html_is_rendered_as_a_corpus_page(tmp_path: Path) -> None:
    html = (
        "<html><head><title>T</title><script>evil()</script></head><body><h2>Capacity</h2>"
        "<p>The pack holds <b>72 Wh</b>.</p><table><tr><th>model</th><th>h</th></tr>"
        "<tr><td>A</td><td>9</td></tr></table></body></html>"
    )
    source = admit(Attachment(write(tmp_path, "spec.HTM", html)))
    assert (source.media_type, source.extractor) == ("text/html", "citeloop-html")
    assert isinstance(source.representation, TextRepresentation)
    text = source.representation.text
    assert "## Capacity" in text and "The pack holds 72 Wh." in text and "A\t9" in text
    assert "evil" not in text
    assert source.representation.sha256 == sha(text.encode())


def test_pdf_pages_are_extracted_page_by_page(tmp_path: Path) -> None:
    import pypdf

    data = make_pdf(["Capacity: 72 Wh (declared)", "", "Target runtime 8 to 10 hours\nsecond line"])
    source = admit(Attachment(write(tmp_path, "spec.pdf", data)))
    assert (source.media_type, source.size, source.sha256) == ("application/pdf", len(data), sha(data))
    assert (source.extractor, source.extractor_version) == ("pypdf", pypdf.__version__)
    assert source.evidence_class == "declaration"
    assert source.representation == PdfRepresentation(
        pages=("Capacity: 72 Wh (declared)", "", "Target runtime 8 to 10 hours\nsecond line")
    )


def test_pdf_is_known_by_its_magic_whatever_its_name(tmp_path: Path) -> None:
    source = admit(Attachment(write(tmp_path, "scan.bin", make_pdf(["hello"]))))
    assert source.media_type == "application/pdf" and source.id == "attached:scan.bin"


def test_workbook_values_dates_booleans_and_trimming(tmp_path: Path) -> None:
    import openpyxl

    data = make_xlsx(
        {
            "Runtime": [
                ["prototype", "Runtime (h)", "observed", "ok"],
                ["A", 9, dt.datetime(2026, 3, 1, 10, 30), True],
                ["B", 7.5, dt.date(2026, 3, 2), False],
                [None, None, None, None, None, None],
            ],
            "Notes": [[None, None], [None, "x"]],
        }
    )
    source = admit(Attachment(write(tmp_path, "runtime.xlsx", data)))
    assert source.media_type == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert (source.extractor, source.extractor_version) == ("openpyxl", openpyxl.__version__)
    assert source.evidence_class == "measurement"
    assert source.sha256 == sha(data)
    workbook = source.representation
    assert isinstance(workbook, WorkbookRepresentation)
    runtime, notes = workbook.sheets
    assert runtime.name == "Runtime"
    assert runtime.rows == (
        ("prototype", "Runtime (h)", "observed", "ok"),
        ("A", 9, "2026-03-01T10:30:00", "TRUE"),
        ("B", 7.5, "2026-03-02T00:00:00", "FALSE"),
    )
    # Cells keep their coordinates: B2 is row 2, column 2, even with row 1 and column A empty.
    assert notes.rows == ((None, None), (None, "x"))


def test_workbook_formulas_are_values_not_formulas(tmp_path: Path) -> None:
    # openpyxl writes a formula without a cached value: what a reader of values sees is empty.
    data = make_xlsx({"S": [["a", "b"], [1, "=A2*2"]]})
    workbook = admit(Attachment(write(tmp_path, "f.xlsx", data))).representation
    assert isinstance(workbook, WorkbookRepresentation)
    assert workbook.sheets[0].rows == (("a", "b"), (1, None))


def test_csv_with_semicolons_and_a_bom(tmp_path: Path) -> None:
    raw = "\ufeffprototype;runtime (h)\nA;9\nB;7,5\n\n".encode()
    source = admit(Attachment(write(tmp_path, "runtime.csv", raw)))
    assert (source.media_type, source.extractor, source.evidence_class) == ("text/csv", "csv", "measurement")
    assert source.representation == CsvRepresentation(
        rows=(("prototype", "runtime (h)"), ("A", "9"), ("B", "7,5"))
    )


def test_csv_with_tabs(tmp_path: Path) -> None:
    source = admit(Attachment(write(tmp_path, "t.csv", "a\tb, c\n1\t2\n")))
    assert source.representation == CsvRepresentation(rows=(("a", "b, c"), ("1", "2")))


cells = st.text(
    alphabet=st.characters(min_codepoint=32, exclude_categories=("Cs",), exclude_characters=";\t"),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(width=st.integers(2, 5), body=st.data())
def test_csv_round_trip_of_arbitrary_cells(
    tmp_path_factory: pytest.TempPathFactory, width: int, body: st.DataObject
) -> None:
    """Cells written by the csv module (commas, quotes, line breaks inside) come back as written."""
    row = st.lists(cells, min_size=width, max_size=width).map(tuple)
    rows = body.draw(st.lists(row, min_size=1, max_size=6))
    header = tuple(f"col {index}" for index in range(width))
    out = io.StringIO(newline="")
    csv.writer(out).writerows([header, *rows])
    path = tmp_path_factory.mktemp("csv") / "cells.csv"
    path.write_text(out.getvalue(), encoding="utf-8", newline="")
    admitted = admit(Attachment(path)).representation
    assert isinstance(admitted, CsvRepresentation)
    expected = [header, *rows]
    while expected and not any(expected[-1]):  # trailing empty records are trimmed
        expected.pop()
    assert admitted.rows == tuple(expected)


# -- ids and classes -----------------------------------------------------------------------


def test_same_name_gets_a_numbered_id(tmp_path: Path) -> None:
    first = write(tmp_path, "report.md", "one")
    (tmp_path / "other").mkdir()
    second = write(tmp_path / "other", "report.md", "two")
    third = write(tmp_path, "report.txt", "three")
    sources = admit_all([Attachment(first), Attachment(second), Attachment(second), Attachment(third)])
    assert [s.id for s in sources] == [
        "attached:report.md",
        "attached:report-2.md",
        "attached:report-3.md",
        "attached:report.txt",
    ]
    assert admit(Attachment(first), taken_ids={"attached:report.md"}).id == "attached:report-2.md"


def test_generated_flag_makes_any_type_generated(tmp_path: Path) -> None:
    note = admit(Attachment(write(tmp_path, "caption.txt", "The image shows 9 h."), generated=True))
    table = admit(Attachment(write(tmp_path, "t.csv", "a,b\n1,2\n"), generated=True))
    assert note.evidence_class == table.evidence_class == "generated"


def test_a_path_given_as_text_is_the_origin(tmp_path: Path) -> None:
    write(tmp_path, "a.txt", "x")
    relative = os.path.relpath(tmp_path / "a.txt")
    assert admit(Attachment(relative)).origin == relative


# -- refusals ----------------------------------------------------------------------------


def test_missing(tmp_path: Path) -> None:
    error = refused(tmp_path / "nope.txt", "missing")
    assert isinstance(error, UsageError) and "no such file" in str(error)


def test_a_directory_is_unreadable(tmp_path: Path) -> None:
    (tmp_path / "d.txt").mkdir()
    assert "directory" in str(refused(tmp_path / "d.txt", "unreadable"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(tmp_path: Path) -> None:
    path = write(tmp_path, "secret.txt", "x")
    path.chmod(0)
    refused(path, "unreadable")


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    refused(tmp_path / "pipe.txt", "unreadable")


def test_unsupported_type_names_what_can_be_attached(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", "<w/>")
    error = refused(write(tmp_path, "report.docx", buffer.getvalue()), "unsupported_type")
    assert str(error) == (
        f"cannot attach {tmp_path / 'report.docx'}: unsupported type .docx "
        "(attach text, Markdown, HTML, PDF, XLSX or CSV)"
    )
    refused(write(tmp_path, "README", "plain"), "unsupported_type")


def test_too_large_in_bytes_text_and_cells(tmp_path: Path) -> None:
    refused(write(tmp_path, "big.txt", "x" * 101), "too_large", limits=AttachmentLimits(max_bytes=100))
    refused(write(tmp_path, "long.md", "y" * 50), "too_large", limits=AttachmentLimits(max_chars=49))
    refused(write(tmp_path, "wide.csv", "a,b,c\n1,2,3\n"), "too_large", limits=AttachmentLimits(max_cells=5))
    xlsx = write(tmp_path, "w.xlsx", make_xlsx({"S": [[1, 2, 3], [4, 5, 6]]}))
    refused(xlsx, "too_large", limits=AttachmentLimits(max_cells=5))
    admit(Attachment(xlsx), limits=AttachmentLimits(max_cells=6))
    pdf = write(tmp_path, "p.pdf", make_pdf(["abcdef", "ghijkl"]))
    refused(pdf, "too_large", limits=AttachmentLimits(max_chars=10))


def test_a_far_away_cell_counts_the_whole_rectangle(tmp_path: Path) -> None:
    rows: list[list[object]] = [[None] * 40 for _ in range(40)]
    rows[0][0], rows[39][39] = "corner", 1  # 2 cells written, a 40 x 40 rectangle admitted
    path = write(tmp_path, "sparse.xlsx", make_xlsx({"S": rows}))
    refused(path, "too_large", limits=AttachmentLimits(max_cells=1599))
    workbook = admit(Attachment(path), limits=AttachmentLimits(max_cells=1600)).representation
    assert isinstance(workbook, WorkbookRepresentation)
    assert len(workbook.sheets[0].rows) == 40 and {len(row) for row in workbook.sheets[0].rows} == {40}
    far = [[None] * 3 for _ in range(500)]
    far[499][0] = "x"
    refused(
        write(tmp_path, "far.xlsx", make_xlsx({"S": far})),
        "too_large",
        limits=AttachmentLimits(max_cells=400),
    )


def test_a_workbook_that_expands_too_far_is_refused_before_expanding(tmp_path: Path) -> None:
    data = make_xlsx({"S": [["a" * 1000]]})
    refused(write(tmp_path, "bomb.xlsx", data), "too_large", limits=AttachmentLimits(max_unzipped_bytes=1000))


def test_undecodable_text(tmp_path: Path) -> None:
    assert "UTF-8" in str(refused(write(tmp_path, "latin.txt", "café".encode("latin-1")), "undecodable"))
    refused(write(tmp_path, "nul.md", b"a\x00b"), "undecodable")
    refused(write(tmp_path, "bad.csv", b"a,b\n\xff,1\n"), "undecodable")


def test_no_text(tmp_path: Path) -> None:
    error = refused(write(tmp_path, "scan.pdf", make_pdf(["", ""])), "no_text")
    assert "no extractable text" in str(error) and "scanned?" in str(error)
    refused(write(tmp_path, "empty.txt", " \n"), "no_text")
    refused(write(tmp_path, "empty.html", "<html><script>x()</script></html>"), "no_text")
    refused(write(tmp_path, "empty.csv", "\n\n"), "no_text")
    refused(write(tmp_path, "empty.xlsx", make_xlsx({"S": []})), "no_text")


def test_malformed_pdf_and_workbook_never_leak_a_library_exception(tmp_path: Path) -> None:
    pdf = make_pdf(["hello"])
    for name, data in [
        ("cut.pdf", pdf[: len(pdf) // 3]),
        ("junk.pdf", b"%PDF-1.4\n" + bytes(range(200))),
        ("named.pdf", b"not a pdf at all"),
    ]:
        error = refused(write(tmp_path, name, data), "malformed")
        assert "malformed PDF" in str(error)
    xlsx = make_xlsx({"S": [["a"]]})
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(xlsx)) as source, zipfile.ZipFile(buffer, "w") as target:
        for item in source.infolist():
            body = source.read(item)
            if item.filename == "xl/workbook.xml":
                body = body[: len(body) // 2]  # cut XML
            target.writestr(item, body)
    assert "malformed XLSX" in str(refused(write(tmp_path, "broken.xlsx", buffer.getvalue()), "malformed"))
    refused(write(tmp_path, "named.xlsx", b"PK\x03\x04 not really"), "malformed")


def test_malformed_csv(tmp_path: Path) -> None:
    refused(write(tmp_path, "q.csv", 'a,b\n"open,1\n'), "malformed")


def test_a_missing_extra_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pypdf", None)  # import fails as if not installed
    error = refused(write(tmp_path, "a.pdf", make_pdf(["x"])), "needs_extra")
    assert "citeloop[attach]" in str(error)


def test_sources_admitted_already_are_kept_and_their_ids_must_be_free(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "x" * 50)
    own = admit(Attachment(path), limits=AttachmentLimits(max_bytes=60))
    again = admit_all([own, str(path), Attachment(path, generated=True)])
    assert again[0] is own
    assert [s.id for s in again] == ["attached:a.txt", "attached:a-2.txt", "attached:a-3.txt"]
    with pytest.raises(UsageError, match=r"two attachments have the id 'attached:a\.txt'"):
        admit_all([path, own])
