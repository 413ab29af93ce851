"""HTML to plain text with a small linear tokenizer (no regular expressions to scrape text).

The text keeps the page's structure in a plain form a reader of the body can parse back
(docs/corpus.md, "Structure"): a heading is one line opened by `#` marks for its level
("## Logging Levels"); a definition description (`<dd>`) is indented four spaces per
level under its term (`<dt>`), so a sentence under `work_mem (integer)` can be read as
about `work_mem`; a table row is one line, its cells separated by tabs, so a cell's row
and column headers are the first cell of its line and the cell at the same place in the
table's first line. White space aside, the words are the page's words in the page's
order: a quote copied from the text is verbatim.

The standard library's `html.parser` was used before, but it is quadratic or worse on
malformed markup that a corpus may well hold: 50 KB of an unclosed `<a x=1 ` repeated
took 50 s, 200 KB of an unclosed `<!--` 20 s (Python 3.11). This tokenizer reads each
character a bounded number of times. It follows HTML5 where the two differ on broken
markup: a comment, declaration or tag left open at the end of the file runs to its end
and is dropped. On well-formed pages its text is the one `html.parser` gave
(tests/tools/test_html.py compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ._html_tokens import tokenize

# Elements whose content is never prose: dropped with everything inside them.
_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "math", "iframe", "object", "head"})
# Elements that end a line of text, so words of adjacent blocks never run together.
_BLOCK = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h", "h1", "h2", "h3", "h4", "h5", "h6",
        "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table",
        "td", "th", "tr", "ul",
    }
)  # fmt: skip
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
# Elements whose content is raw text: no tags inside them until their own end tag.
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_CELL = "\x00"  # marks a cell boundary inside a row while it is read (the page's own NULs are dropped)
_INDENT = "    "


# A `<div>` whose class names it a section's title at a depth ("section2-title"), not a table of
# contents entry ("section2-toc-title").
_SECTION_TITLE = re.compile(r"(?:^|\s)section([1-5])-title(?:\s|$)")
_BOLD_TITLE_LEVEL = 6  # below any real heading, so the next real heading closes it
_TITLE_WORDS = 12


def _is_title(line: str) -> bool:
    """Whether a bold paragraph reads as a title: a few words, not a sentence or a label ("Note:")."""
    return len(line.split()) <= _TITLE_WORDS and line[-1] not in ".:;,!?"


def _is_term(line: str) -> bool:
    """Whether a paragraph of bold or code opening a list item names code: one token ("DB_CREATE")
    or an option with its argument ("-h home"), not a title of words ("Maximum Number Of Tables")."""
    return (" " not in line or line.startswith("-")) and len(line.split()) <= 3


@dataclass(frozen=True, slots=True)
class HtmlText:
    """What a page says: its title, its declared URL (canonical link or meta), and its visible text."""

    title: str
    url: str | None
    text: str


class _Extractor:
    """What the tokenizer reports (tags, text with entities decoded) turned into lines of text."""

    def __init__(self) -> None:
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
        self.heading = 0  # the level of the heading being read, 0 outside one
        self.div_heading = False  # the heading being read was opened by a titled <div>
        self.last_level = 0  # the level of the last <h1>..<h6> read
        self.dd_depth = 0  # open <dd> elements: the indentation of the lines read now
        self.quotes = 0  # open <blockquote> elements, each indenting what it holds as a <dd> does
        self.dl_open: list[bool] = []  # per open <dl>: whether one of its <dd> is open
        self.cells = 0  # open table cells: block elements inside one do not end the row's line
        self.row_cells = 0  # cells begun in the current row
        # A paragraph that is one short bold phrase ("<p><b>Maximum Number Of Tables In A Join</b></p>")
        # titles what follows: it is written as a heading below every real one.
        self.paragraph = False  # the line being read was opened by <p>
        self.bold = 0  # open <b>/<strong> elements
        self.bold_text = False  # the line holds text in bold
        self.plain_text = False  # the line holds text outside bold
        self.code = 0  # open <code>/<tt> elements
        self.pre = 0  # open <pre> elements: each of their lines is a line of the text
        self.pre_newline = False  # a newline read in a <pre>, its line not yet ended
        self.pre_comment = False  # the <pre> opens with a comment: it is read as one line
        self.pre_text = False  # the <pre> has text already (a flag, not a join: reading stays linear)
        self.prose_text = False  # the line holds text neither bold nor code
        # Per open <li>: whether no line of it is written yet, and whether its first line is a term.
        # "<li><p><b>-a</b></p><p>Write all pathnames as absolute ...</p></li>": an option list whose
        # items open with the option in bold or as code (`_is_term`) reads as a definition list, the
        # rest of the item indented.
        self.items: list[list[bool]] = []
        self.permalink = False  # inside a Sphinx `<a class="headerlink">`

    def _break(self) -> None:
        text = "".join(self.current)
        self.current = []
        if _CELL in text:
            cells = [" ".join(cell.split()) for cell in text.split(_CELL)]
            while cells and not cells[-1]:
                cells.pop()
            line = "\t".join(cells) if any(cells) else ""
        else:
            line = " ".join(text.split())
        bold_title = self.paragraph and self.bold_text and not self.plain_text
        marked = self.paragraph and not self.prose_text  # all of it bold or code
        self.paragraph = self.bold_text = self.plain_text = self.prose_text = False
        if not line:
            return
        opens_item = bool(self.items) and self.items[-1][0]
        if self.items:
            self.items[-1][0] = False
        if self.heading:
            line = "#" * self.heading + " " + line
        elif marked and opens_item and _is_term(line):
            self.lines.append(_INDENT * self.dd_depth + line)
            self.items[-1][1] = True
            self.dd_depth += 1  # the item's other lines describe it
            return
        elif bold_title and _is_title(line):
            line = "#" * _BOLD_TITLE_LEVEL + " " + line
        self.lines.append(_INDENT * self.dd_depth + line)

    def _block(self, tag: str) -> None:
        """A block boundary: a new line, except inside a table cell, where it is a space."""
        if tag in ("td", "th"):
            return  # a cell begins or ends inside its row's line
        if self.cells and tag not in ("tr", "table"):
            self.current.append(" ")
        else:
            self._break()

    def _open_definition(self, tag: str) -> None:
        """Keep `dd_depth` right even where a page leaves out `</dd>` (allowed before `<dt>`/`<dd>`)."""
        if tag == "dl":
            self.dl_open.append(False)
        elif tag == "dt" and self.dl_open and self.dl_open[-1]:
            self.dl_open[-1] = False
            self.dd_depth -= 1
        elif tag == "dd" and self.dl_open and not self.dl_open[-1]:
            self.dl_open[-1] = True
            self.dd_depth += 1

    def _close_definition(self, tag: str) -> None:
        if tag in ("dd", "dl") and self.dl_open and self.dl_open[-1]:
            self.dl_open[-1] = False
            self.dd_depth -= 1
        if tag == "dl" and self.dl_open:
            self.dl_open.pop()

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
        if tag == "a" and not self.skip_depth and "headerlink" in values.get("class", "").split():
            # Sphinx's permalink after a heading or term: a pilcrow, whatever glyph the theme draws
            # ("\uf0c1" in BIND's manual), so that readers strip one mark only.
            self.handle_data("\u00b6")
            self.permalink = True  # its own text is dropped, up to its end or the next block at most
            return
        if tag in _BLOCK:
            self.permalink = False
            self._block(tag)
        if tag == "p" and not self.cells:
            self.paragraph = True
        elif tag in ("b", "strong"):
            self.bold += 1
        elif tag in ("code", "tt"):
            self.code += 1
        elif tag == "pre":
            self.pre += 1
            self.pre_text = False
        if tag == "li":
            self.items.append([True, False])
        if tag == "blockquote" and not self.cells:
            # "<p>req.hash</p><blockquote>Type: BLOB ...</blockquote>": a name over what describes it.
            self.quotes += 1
            self.dd_depth += 1
        if tag in ("dl", "dt", "dd"):
            self._open_definition(tag)
        elif tag in _HEADINGS and not self.cells:
            self.heading = self.last_level = _HEADINGS[tag]
        elif tag == "div" and not self.cells and (titled := _SECTION_TITLE.search(values.get("class", ""))):
            # pgBackRest's manual titles its sections with `<div class="section2-title">`, no <h2>.
            self.heading = self.last_level = min(6, int(titled.group(1)) + 1)
            self.div_heading = True
        elif tag == "h" and not self.cells:
            # A heading with no level (SQLite's pragma page marks each pragma's section with a hidden
            # `<h>`): one level below the last real heading, so the next real one of that level closes it.
            self.heading = min(6, self.last_level + 1) if self.last_level else 2
        elif tag == "tr":
            self.row_cells = 0
        elif tag in ("td", "th"):
            if self.row_cells:
                self.current.append(_CELL)
            self.row_cells += 1
            self.cells += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <br/>, <link .../>: a self-closing tag opens no element, so no skip depth.
        self.handle_starttag(tag, attrs)
        if tag in _SKIP and tag not in _VOID:
            self.skip_depth -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag == "a" and self.permalink:
            self.permalink = False
            return
        if tag in _SKIP and tag not in _VOID:
            self.skip_depth = max(0, self.skip_depth - 1)
            return
        if tag == "h1":
            self.in_h1 = False
        if tag in ("b", "strong"):
            self.bold = max(0, self.bold - 1)
        elif tag in ("code", "tt"):
            self.code = max(0, self.code - 1)
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
            self.pre_newline = False
        if tag in ("td", "th"):
            self.cells = max(0, self.cells - 1)
        elif tag == "table":
            self.cells = 0
        if tag in _BLOCK:
            self._block(tag)
        if tag == "li" and self.items and self.items.pop()[1]:
            self.dd_depth = max(0, self.dd_depth - 1)
        if tag == "blockquote" and self.quotes:
            self.quotes -= 1
            self.dd_depth = max(0, self.dd_depth - 1)
        if tag in ("dd", "dl"):
            self._close_definition(tag)
        elif tag in _HEADINGS or tag == "h" or (tag == "div" and self.div_heading):
            self.heading = 0
            self.div_heading = False

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title_parts.append(data)
            return
        if self.skip_depth or self.permalink:
            return
        if self.in_h1:
            self.h1_parts.append(data)
        if not data.isspace():
            if self.bold:
                self.bold_text = True
            else:
                self.plain_text = True
                self.prose_text = self.prose_text or not self.code
        data = data.replace(_CELL, " ") if _CELL in data else data
        if self.pre and not self.cells:
            self._preformatted(data)
            return
        self.current.append(data)

    def _preformatted(self, data: str) -> None:
        """Preformatted text keeps its lines (a code block, Vim's help pages): a newline ends a line,
        once the next text is read. A comment line opening with "#" would read as a heading alone: it
        stays with the line before it; a block opening with one stays one line, as it was read before
        (docs/corpus.md)."""
        for index, part in enumerate(data.split("\n")):
            if index:
                self.pre_newline = True
            if not part.strip():
                self.current.append(part)
                continue
            comment = part.lstrip().startswith("#")
            if not self.pre_text:
                self.pre_text, self.pre_comment = True, comment  # the block's first line
            elif self.pre_newline:
                if not comment and not self.pre_comment:
                    self._break()
                part = " " + part
            self.pre_newline = False
            self.current.append(part)


def html_to_text(source: str, checkpoint: Callable[[], None] | None = None) -> HtmlText:
    """Parse HTML into its visible text (scripts, styles and the head dropped; entities decoded).

    `checkpoint`, if given, is called every 64 K characters: a caller's cancellation point.
    """
    parser = _Extractor()
    tokenize(source, parser, checkpoint)
    parser._break()
    title = " ".join("".join(parser.title_parts).split())
    title = title or (parser.meta_title or "") or " ".join("".join(parser.h1_parts).split())
    return HtmlText(title=title, url=parser.canonical or parser.meta_url, text="\n".join(parser.lines))
