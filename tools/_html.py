"""HTML to plain text with the standard library's tokenizing parser (no regular expressions on markup)."""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

# Elements whose content is never prose: dropped with everything inside them.
_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "math", "iframe", "object", "head"})
# Elements that end a line of text, so words of adjacent blocks never run together.
_BLOCK = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
        "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table",
        "td", "th", "tr", "ul",
    }
)  # fmt: skip
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


@dataclass(frozen=True, slots=True)
class HtmlText:
    """What a page says: its title, its declared URL (canonical link or meta), and its visible text."""

    title: str
    url: str | None
    text: str


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        # convert_charrefs decodes entities (&amp;, &#233;, &eacute;) before handle_data sees text.
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.skip_depth = 0
        self.in_title = False
        self.title_parts: list[str] = []
        self.h1_parts: list[str] = []
        self.in_h1 = False
        self.canonical: str | None = None
        self.meta_url: str | None = None
        self.meta_title: str | None = None

    def _break(self) -> None:
        line = " ".join("".join(self.current).split())
        if line:
            self.lines.append(line)
        self.current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name.lower(): (value or "") for name, value in attrs}
        if tag == "title":
            self.in_title = True
        elif tag == "link" and "canonical" in values.get("rel", "").lower().split():
            self.canonical = self.canonical or values.get("href", "").strip() or None
        elif tag == "meta":
            key = (values.get("property") or values.get("name") or "").lower()
            content = values.get("content", "").strip()
            if key in ("og:url", "url", "citeloop:url") and content:
                self.meta_url = self.meta_url or content
            elif key == "og:title" and content:
                self.meta_title = self.meta_title or content
        if tag == "body":
            # An unclosed <head> must not swallow the page.
            self.skip_depth = 0
        if tag in _SKIP and tag not in _VOID:
            self.skip_depth += 1
            return
        if tag == "h1":
            self.in_h1 = True
        if tag in _BLOCK:
            self._break()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <br/>, <link .../>: a self-closing tag opens no element, so no skip depth.
        self.handle_starttag(tag, attrs)
        if tag in _SKIP and tag not in _VOID:
            self.skip_depth -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag in _SKIP and tag not in _VOID:
            self.skip_depth = max(0, self.skip_depth - 1)
            return
        if tag == "h1":
            self.in_h1 = False
        if tag in _BLOCK:
            self._break()

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title_parts.append(data)
            return
        if self.skip_depth:
            return
        if self.in_h1:
            self.h1_parts.append(data)
        self.current.append(data)


def html_to_text(source: str) -> HtmlText:
    """Parse HTML into its visible text (scripts, styles and the head dropped; entities decoded)."""
    parser = _Extractor()
    parser.feed(source)
    parser.close()
    parser._break()
    title = " ".join("".join(parser.title_parts).split())
    title = title or (parser.meta_title or "") or " ".join("".join(parser.h1_parts).split())
    return HtmlText(title=title, url=parser.canonical or parser.meta_url, text="\n".join(parser.lines))
