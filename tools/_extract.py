"""A fetched page's bytes to text: the main content, in the structure `_html` gives a corpus page.

trafilatura (the `web` extra) finds the main content and drops the boilerplate around it
(navigation, banners, footers). Its XML output keeps what its HTML output loses: a
definition list stays `dt`/`dd` (`<item rend="dd-1">`), where the HTML output flattens it
to a bulleted list. That XML is rewritten as plain HTML and rendered by `html_to_text`, so a
web page reads like a corpus page (docs/corpus.md, "Structure"): `#` headings, `dd` indented
under its `dt`, a table row per line with tab-separated cells. When trafilatura is not
installed or finds no main content, the whole page is rendered instead, and `extractor`
says which one produced the text.

The charset is the first of these that decodes the bytes strictly: a byte-order mark, the
Content-Type header's `charset`, the document's `<meta charset>`, then detection
(`_decode.decode_text`). A header naming a single-byte Latin charset over bytes that are
valid UTF-8 with non-ASCII characters is taken to be wrong (a common server default): any
byte string decodes as Latin-1, so only this check can catch it.
"""

from __future__ import annotations

import codecs
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html import escape
from importlib.metadata import PackageNotFoundError, version
from typing import Final

from ._decode import Undecodable, decode_text
from ._html import html_to_text

HTML_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES: Final = frozenset({"text/plain"})
_META_CHARSET: Final = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_HEADER_CHARSET: Final = re.compile(r"charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_SNIFF_BYTES: Final = 4096  # where the HTML standard's prescan looks for a meta charset (1024), with room
# WHATWG reads these labels as windows-1252; Python's latin-1 would turn its curly quotes into C1 controls.
_AS_CP1252: Final = frozenset({"iso8859-1", "ascii"})
_LATIN: Final = frozenset({"cp1252", "iso8859-1", "iso8859-15", "ascii"})
_BOMS: Final = (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_FALLBACK: Final = "citeloop-html"


class ExtractError(Exception):
    """Raised when a body cannot become text (`code`: `unsupported_media_type`, `binary`, `undecodable`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Extracted:
    """A page's title and text, the extractor (name and version) that produced it, and the charset read."""

    title: str
    text: str
    extractor: str
    extractor_version: str
    charset: str


def media_type(content_type: str) -> str:
    """`text/html` of `Text/HTML; charset=utf-8`."""
    return content_type.split(";", 1)[0].strip().lower()


def extract(body: bytes, content_type: str, url: str) -> Extracted:
    """The title and main text of `body`, served as `content_type` from `url`.

    Raises `ExtractError` for a media type that is neither HTML nor plain text, or bytes that are not text.
    """
    kind = media_type(content_type)
    if kind not in HTML_TYPES and kind not in TEXT_TYPES:
        raise ExtractError("unsupported_media_type", f"cannot extract text from {kind or 'an untyped body'}")
    sniffed = _meta_charset(body) if kind in HTML_TYPES else None
    text, charset = decode_body(body, _header_charset(content_type), sniffed)
    if kind in TEXT_TYPES:
        return Extracted(url, text, "plain", _own_version(), charset)
    page = html_to_text(text)
    main = _main_content(text, url)
    if main is None:
        return Extracted(page.title, page.text, _FALLBACK, _own_version(), charset)
    name, found_version, rendered = main
    return Extracted(page.title, rendered, name, found_version, charset)


def decode_body(body: bytes, declared: str | None, sniffed: str | None) -> tuple[str, str]:
    """`(text, charset)`: the first of BOM, header, meta and detection that decodes `body` strictly."""
    if not body.startswith(_BOMS):
        for label in (declared, sniffed):
            encoding = _codec(label)
            if encoding is None:
                continue
            if encoding in _LATIN and _is_utf8_beyond_ascii(body):
                return body.decode("utf-8"), "utf-8"
            try:
                return body.decode(encoding), encoding
            except (UnicodeError, LookupError):
                continue
    try:
        return decode_text(body)
    except Undecodable as exc:
        raise ExtractError(exc.reason, exc.detail) from exc


def _header_charset(content_type: str) -> str | None:
    found = _HEADER_CHARSET.search(content_type)
    return found.group(1) if found else None


def _meta_charset(body: bytes) -> str | None:
    found = _META_CHARSET.search(body[:_SNIFF_BYTES])
    return found.group(1).decode("ascii") if found else None


def _codec(label: str | None) -> str | None:
    """Python's name for a charset label, or None for a label it does not know."""
    if not label:
        return None
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    # `base64`, `rot13` and `undefined` are codecs too, not text encodings: a page may not pick them.
    if not getattr(info, "_is_text_encoding", True) or info.name == "undefined":
        return None
    name = info.name
    if name in _AS_CP1252:
        return "cp1252"
    # utf-16 and utf-32 need a BOM, which the check above has already ruled out: not a web page.
    return None if name.startswith(("utf-16", "utf-32")) else name


def _is_utf8_beyond_ascii(body: bytes) -> bool:
    if body.isascii():
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _own_version() -> str:
    try:
        return version("citeloop")
    except PackageNotFoundError:  # pragma: no cover - a source checkout that was never installed
        return "0"


def _main_content(html: str, url: str) -> tuple[str, str, str] | None:
    """`(extractor, version, text)` of the page's main content, or None without trafilatura or content."""
    try:
        import trafilatura
    except ImportError:
        return None
    found = trafilatura.extract(
        html,
        url=url or None,
        output_format="xml",
        include_tables=True,
        include_formatting=False,
        include_links=False,
        include_images=False,
        include_comments=False,
        with_metadata=False,
    )
    if not found:
        return None
    try:
        root = ET.fromstring(found)
    except ET.ParseError:
        return None
    main = root.find("main")
    rendered = html_to_text(_children_html(main if main is not None else root, None)).text
    if not rendered.strip():
        return None
    return "trafilatura", str(trafilatura.__version__), rendered


def _tag_for(element: ET.Element) -> str | None:
    """The HTML element a trafilatura XML element stands for; None to keep only its content."""
    rend = element.get("rend", "")
    match element.tag:
        case "head":
            return rend if re.fullmatch(r"h[1-6]", rend) else "h2"
        case "list":
            return rend if rend in ("ul", "ol", "dl") else "ul"
        case "item":
            return rend.split("-", 1)[0] if rend.startswith(("dt-", "dd-")) else "li"
        case "row":
            return "tr"
        case "cell":
            return "th" if element.get("role") == "head" else "td"
        case "quote":
            return "blockquote"
        case "code":
            return "pre"
        case "lb":
            return "br"
        case "p" | "table" | "div":
            return element.tag
        case _:
            return None  # hi, ref, del, graphic and the like: inline, their text only


def _children_html(parent: ET.Element, parent_tag: str | None) -> str:
    """The children's HTML; `dt`/`dd` items trafilatura left outside a list are put back in a `dl`."""
    parts: list[str] = []
    open_dl = False
    for child in parent:
        orphan = parent_tag != "dl" and _tag_for(child) in ("dt", "dd")
        if orphan != open_dl:
            parts.append("<dl>" if orphan else "</dl>")
            open_dl = orphan
        parts.append(_as_html(child))
    if open_dl:
        parts.append("</dl>")
    return "".join(parts)


def _as_html(element: ET.Element) -> str:
    tag = _tag_for(element)
    inner = escape(element.text or "", quote=False) + _children_html(element, tag)
    tail = escape(element.tail or "", quote=False)
    if tag is None:
        return inner + tail
    if tag == "br":
        return "<br>" + tail
    return f"<{tag}>{inner}</{tag}>{tail}"
