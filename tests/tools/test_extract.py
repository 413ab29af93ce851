"""A fetched page to text (issue 18): the main content without the boilerplate, in the structure a
corpus page has (headings, definition lists, table rows), and the charset read right even where
the server's header is wrong. The pages are small real pages in tests/tools/web_pages.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from citeloop.tools._extract import Extracted, ExtractError, extract

PAGES = Path(__file__).parent / "web_pages"


def _page(name: str, content_type: str = "text/html") -> Extracted:
    return extract((PAGES / name).read_bytes(), content_type, f"https://example.org/{name}")


def test_boilerplate_goes_and_the_article_stays() -> None:
    page = _page("blog.html", "text/html; charset=utf-8")
    assert page.extractor == "trafilatura"
    assert page.extractor_version
    assert page.title == "Why the log is the cache | Example Blog"
    assert "never fetch the same page twice for one run" in page.text
    for boilerplate in ("Archive", "Subscribe", "cookies", "Copyright", "Privacy policy", "Popular posts"):
        assert boilerplate not in page.text, boilerplate
    assert "analytics" not in page.text and "font-family" not in page.text


def test_headings_keep_their_levels() -> None:
    lines = _page("blog.html").text.splitlines()
    assert "# Why the log is the cache" in lines
    assert "## Replay without the network" in lines
    assert "### What is stored" in lines


def test_a_definition_list_keeps_its_terms() -> None:
    lines = _page("settings.html").text.splitlines()
    term = lines.index("work_mem (integer)")
    assert lines[term + 1] == (
        "    Sets the base maximum amount of memory to be used by a query operation "
        "before writing to temporary disk files."
    )
    assert lines[term + 2] == "shared_buffers (integer)"
    assert lines[term + 3].startswith("    Sets the amount of memory")


def test_a_table_is_one_line_per_row_with_tab_separated_cells() -> None:
    lines = _page("settings.html").text.splitlines()
    header = lines.index("Setting\tDefault")
    assert lines[header + 1 : header + 3] == ["work_mem\t4MB", "shared_buffers\t128MB"]
    assert "Home" not in lines and "Privacy" not in " ".join(lines)


def test_a_header_charset_that_does_not_decode_gives_way_to_the_meta_charset() -> None:
    # Served as UTF-8, written in windows-1252 (its meta says so): the UTF-8 decode fails.
    page = _page("wrong_charset.html", "text/html; charset=utf-8")
    assert page.charset == "cp1252"
    assert "The café on the corner serves crème brûlée every day — “the best in town”" in page.text
    assert page.title == "Café notes"


def test_a_latin1_header_over_utf8_bytes_is_taken_to_be_wrong() -> None:
    page = _page("utf8_served_as_latin1.html", "text/html; charset=ISO-8859-1")
    assert page.charset == "utf-8"
    assert "crème brûlée" in page.text and "Ã" not in page.text


def test_without_any_declaration_the_charset_is_detected() -> None:
    body = (PAGES / "wrong_charset.html").read_bytes().replace(b"charset=windows-1252", b"")
    page = extract(body, "text/html", "https://example.org/")
    assert "crème brûlée" in page.text


def test_a_right_header_wins_over_a_wrong_meta() -> None:
    body = "<html><head><meta charset='koi8-r'></head><body><p>naïve café</p></body></html>".encode()
    page = extract(body, "text/html; charset=utf-8", "https://example.org/")
    assert page.charset == "utf-8"
    assert "naïve café" in page.text


def test_a_tiny_definition_list_keeps_its_indentation() -> None:
    # trafilatura gives the items without their list here: they are put back in one.
    body = b"<html><head><title>Tiny</title></head><body><dl><dt>x</dt><dd>y</dd></dl></body></html>"
    page = extract(body, "text/html", "https://example.org/tiny")
    assert page.title == "Tiny"
    assert page.text == "x\n    y"


def test_a_page_with_no_main_content_falls_back_to_the_whole_page() -> None:
    body = b"<html><head><title>Empty</title></head><body> <script>track()</script> </body></html>"
    page = extract(body, "text/html", "https://example.org/empty")
    assert page.extractor == "citeloop-html"
    assert (page.title, page.text) == ("Empty", "")


def test_without_trafilatura_the_whole_page_is_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "trafilatura", None)  # the import then raises ImportError
    page = _page("settings.html")
    assert page.extractor == "citeloop-html"
    assert "work_mem (integer)\n    Sets the base maximum" in page.text
    assert "Home" in page.text  # nothing removed the navigation this time


def test_plain_text_passes_through_decoded() -> None:
    body = "line one\n\n  indented line — two\n".encode("cp1252")
    page = extract(body, "text/plain; charset=windows-1252", "https://example.org/notes.txt")
    assert page.text == "line one\n\n  indented line — two\n"
    assert page.extractor == "plain"
    assert page.charset == "cp1252"


@pytest.mark.parametrize(
    ("body", "content_type", "code"),
    [
        (b"%PDF-1.7", "application/pdf", "unsupported_media_type"),
        (b"\x89PNG", "image/png", "unsupported_media_type"),
        (b"x", "", "unsupported_media_type"),
        (b"\x00\x01\x02binary\x00", "text/plain", "binary"),
    ],
)
def test_what_is_not_text_is_refused_by_name(body: bytes, content_type: str, code: str) -> None:
    with pytest.raises(ExtractError) as caught:
        extract(body, content_type, "https://example.org/x")
    assert caught.value.code == code


@pytest.mark.parametrize(
    ("content_type", "meta"),
    [
        ("text/html; charset=base64", ""),  # a codec Python knows, not a text encoding
        ("text/html", '<meta charset="rot13">'),
        ("text/html; charset=undefined", ""),  # a codec that fails every decode
    ],
    ids=["header-base64", "meta-rot13", "header-undefined"],
)
def test_a_charset_that_is_no_text_encoding_is_passed_over(content_type: str, meta: str) -> None:
    body = f"<html><head>{meta}<title>Plain</title></head><body><p>Plain words here.</p></body></html>"
    page = extract(body.encode("ascii"), content_type, "https://x.example/plain")
    assert "Plain words here." in page.text and page.charset not in ("base64", "rot_13", "undefined")
