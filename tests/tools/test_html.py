"""HTML to text is linear on malformed markup (issue 14, item 16) and, on well-formed pages, gives the
text the standard library's parser gave.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from citeloop.tools._html import HtmlText, _Extractor, html_to_text
from hypothesis import given, settings
from hypothesis import strategies as st


class _Reference(HTMLParser):
    """The parser html_to_text used before, feeding the same text builder."""

    def __init__(self, out: _Extractor) -> None:
        super().__init__(convert_charrefs=True)
        self.out = out

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.handle_starttag(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.handle_startendtag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.out.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        self.out.handle_data(data)


def reference(source: str) -> HtmlText:
    out = _Extractor()
    parser = _Reference(out)
    parser.feed(source)
    parser.close()
    out._break()
    title = " ".join("".join(out.title_parts).split())
    title = title or (out.meta_title or "") or " ".join("".join(out.h1_parts).split())
    return HtmlText(title=title, url=out.canonical or out.meta_url, text="\n".join(out.lines))


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Fish &amp; Chips</title>
<link rel="stylesheet" href="a.css"><link rel="canonical" href="https://food.example/fish?a=1&amp;b=2">
<meta property="og:title" content="ignored"><style>p > a { color: red }</style>
<script type="text/javascript">if (a < b && c > d) { document.write("<p>no</p>"); }</script>
<!-- a comment with <tags> inside --></head>
<body><h1 class=big>Fish</h1><p>Caf&eacute; on the pier, est.&nbsp;1921 &#8212; by Jo&#x00e3;o.</p>
<ul><li>One<li>Two &lt; three</li></ul><img src=x.png alt="a picture"/><br/>
<table><tr><td>cell</td><td data-x='1'>other</td></tr></table>
<noscript>enable javascript</noscript><p>Second<br>line &amp;&amp; more</p><?php echo 1 ?></body></html>
"""


def test_same_text_as_the_standard_parser_on_well_formed_pages() -> None:
    for page in (PAGE, PAGE.replace("\n", "\r\n").upper(), PAGE.replace('"', "'")):
        assert html_to_text(page) == reference(page)


_TAGS = st.sampled_from(
    ["p", "div", "h1", "title", "span", "b", "li", "td", "script", "style", "br", "head", "pre"]
)
_TEXT = st.text(alphabet="ab &;<>\"'=\n\t#x0123é", max_size=12).map(
    lambda t: t.replace("<", "&lt;").replace(">", "&gt;")
)


@st.composite
def _documents(draw: st.DrawFn, depth: int = 0) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        if depth < 3 and draw(st.booleans()):
            tag = draw(_TAGS)
            value = draw(_TEXT).replace('"', "&quot;")
            raw = tag in ("script", "style", "title")
            inner = draw(_TEXT).replace("</", "&lt;/") if raw else draw(_documents(depth + 1))
            parts.append(f'<{tag} data-v="{value}">{inner}</{tag}>')
        else:
            parts.append(draw(_TEXT))
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(_documents())
def test_same_text_as_the_standard_parser_on_generated_pages(source: str) -> None:
    assert html_to_text(source) == reference(source)


class CountingStr(str):
    """A page that counts the characters its searches scan and its slices copy: work, without a clock."""

    work = 0

    def find(self, sub: Any, start: Any = None, end: Any = None) -> int:
        at = super().find(sub, start, end)
        CountingStr.work += (len(self) if at < 0 else at) - (start or 0)
        return at

    def __getitem__(self, key: Any) -> str:
        piece = super().__getitem__(key)
        CountingStr.work += len(piece)
        return piece


def _work(source: str) -> int:
    CountingStr.work = 0
    html_to_text(CountingStr(source))
    return CountingStr.work


@pytest.mark.parametrize(
    "unit",
    [
        "<!-- x ",  # an unclosed comment, again and again (stdlib: 200 KB took 20 s)
        "<a x=1 ",  # an unclosed tag (stdlib: 50 KB took 50 s)
        "<!x ",
        "</a x ",
        "<a x='1 ",
        "a < b ",
        "<p>one &amp; two</p>",
        "<script>x</scrip",
    ],
)
def test_work_grows_linearly_on_malformed_markup(unit: str) -> None:
    small, large = _work(unit * 5_000), _work(unit * 20_000)
    assert large <= 5 * max(small, 1), (small, large)


def test_markup_left_open_at_the_end_is_dropped() -> None:
    assert html_to_text("<p>kept</p><!-- never closed <p>gone").text == "kept"
    assert html_to_text("<p>kept</p><a href='x").text == "kept"
    assert html_to_text("<p>kept</p><script>gone").text == "kept"
    assert html_to_text("a < b and c > d").text == "a < b and c > d"


def test_headings_definitions_and_tables_keep_their_structure() -> None:
    """Issue 11, item 2: the structure a reader of the body can parse back (docs/corpus.md, "Structure")."""
    page = (
        "<h2>Resource Consumption</h2><dl><dt><code>work_mem</code> (<code>integer</code>)</dt>"
        "<dd><p>Sets the base maximum amount of memory.</p><p>The default is four megabytes.</p>"
        "<dl><dt>inner</dt><dd>Nested.</dd></dl></dd><dt>other</dt><dd>Back at one level.</dd></dl>"
        "<table><thead><tr><th><p>Level</p></th><th>Numeric value</th></tr></thead>"
        "<tr><td><p><code>ERROR</code></p></td><td><p>40</p><p>(an error)</p></td></tr>"
        "<tr><td></td><td>1</td></tr></table>"
    )
    assert html_to_text(page).text.split("\n") == [
        "## Resource Consumption",
        "work_mem (integer)",
        "    Sets the base maximum amount of memory.",
        "    The default is four megabytes.",
        "    inner",
        "        Nested.",
        "other",
        "    Back at one level.",
        "Level\tNumeric value",
        "ERROR\t40 (an error)",
        "\t1",
    ]


def test_a_description_left_open_is_closed_by_the_next_term() -> None:
    text = html_to_text("<dl><dt>a<dd>about a<dt>b<dd>about b</dl><p>after</p>").text
    assert text.split("\n") == ["a", "    about a", "b", "    about b", "after"]


def test_a_paragraph_of_one_short_bold_phrase_is_a_title() -> None:
    """A manual that titles its sections with a bold paragraph ("<li><p><b>Maximum Number Of Tables
    In A Join</b></p>") keeps that title as a heading below every real one, so what follows is read
    under it."""
    page = (
        "<h2>Limits</h2><ul><li><p><b>Maximum Number Of <a href='#'>Tables</a> In A Join</b></p>"
        "<p>No join holds more than 64 tables.</p></li></ul>"
        # Must fail: a label, a bold sentence, bold inside plain text, a bold cell, a bold term.
        "<p><b>Note:</b> labels are no titles.</p><p><strong>Bold sentences are no titles.</strong></p>"
        "<p>Plain and <b>bold</b>.</p><table><tr><td><p><b>Cell</b></p></td></tr></table>"
        "<dl><dt><b>term</b></dt><dd>About the term.</dd></dl>"
        "<p><b>A bold phrase of far too many words to be the title of anything at all here</b></p>"
    )
    assert html_to_text(page).text.split("\n") == [
        "## Limits",
        "###### Maximum Number Of Tables In A Join",
        "No join holds more than 64 tables.",
        "Note: labels are no titles.",
        "Bold sentences are no titles.",
        "Plain and bold.",
        "Cell",
        "term",
        "    About the term.",
        "A bold phrase of far too many words to be the title of anything at all here",
    ]


def test_an_item_opened_by_code_in_bold_is_a_term() -> None:
    """Berkeley DB's option and flag lists ("<li><p><b>-a</b></p><p>Write all pathnames ...</p></li>",
    the flag as <code>) read as a definition list: the option a term, the rest of its item under it."""
    page = (
        "<p>The options are as follows:</p><ul>"
        "<li><p><b>-a</b></p><p>Write all pathnames as absolute pathnames.</p><p>Second line.</p></li>"
        "<li><p><strong>-h home</strong></p><p>Specify a home directory.</p></li>"
        "<li><p><b>DB_CREATE</b></p><p>Create the database.</p></li>"
        '<li><p><a id="x"></a><code class="literal">DB_LOCK_MINWRITE</code></p>'
        "<p>Reject the request.</p></li></ul>"
        # Must fail: a title of words stays a title; bold in a later paragraph of an item is no term.
        "<ul><li><p><b>Maximum Page Size</b></p><p>64KB.</p></li>"
        "<li><p>Plain first.</p><p><b>-x</b></p></li></ul><p>After.</p>"
    )
    assert html_to_text(page).text.split("\n") == [
        "The options are as follows:",
        "-a",
        "    Write all pathnames as absolute pathnames.",
        "    Second line.",
        "-h home",
        "    Specify a home directory.",
        "DB_CREATE",
        "    Create the database.",
        "DB_LOCK_MINWRITE",
        "    Reject the request.",
        "###### Maximum Page Size",
        "64KB.",
        "Plain first.",
        "###### -x",
        "After.",
    ]


def test_a_heading_with_no_level_sits_one_below_the_last_real_heading() -> None:
    """SQLite's pragma page marks each pragma's section with a hidden `<h>`: a heading, one level below
    the last `<h1>`..`<h6>`, so the next real heading of that level closes it."""
    page = (
        '<h2>List Of PRAGMAs</h2><h _id=pragma_cache style="display:none"> PRAGMA cache_size</h>'
        "<p>Query or change the cache size.</p><h2>Other</h2><p>Not under the pragma.</p>"
    )
    assert html_to_text(page).text.split("\n") == [
        "## List Of PRAGMAs",
        "### PRAGMA cache_size",
        "Query or change the cache size.",
        "## Other",
        "Not under the pragma.",
    ]
    # Before any real heading, it is a second-level one (the page's title is the first).
    assert html_to_text("<h>Alone</h><p>text</p>").text.split("\n") == ["## Alone", "text"]


def test_a_div_titling_a_section_is_a_heading() -> None:
    # pgBackRest's manual titles sections with <div class="section2-title">, not <h3>: its option
    # defaults were read as prose under no heading. A table of contents entry is no heading.
    page = (
        '<div class="section2-toc-title"><a href="#x">Path Option (--path)</a></div>'
        '<div class="section2"><div class="section2-header"><div class="section2-number">6.36</div>'
        '<div class="section2-title">Path Option (<span class="id">--path</span>)</div></div>'
        '<div class="section-body"><div class="section-body-text">Where backups are stored.</div>'
        '<pre class="code-block">default: /var/lib/harbor</pre></div></div>'
    )
    assert html_to_text(page).text.split("\n") == [
        "Path Option (--path)",
        "6.36",
        "### Path Option (--path)",
        "Where backups are stored.",
        "default: /var/lib/harbor",
    ]


def test_a_sphinx_permalink_is_a_pilcrow_whatever_its_glyph() -> None:
    # BIND's manual draws the permalink as U+F0C1, which ended up in answers ("-x\uf0c1").
    page = (
        '<h3>max-cache-ttl<a class="headerlink" href="#a" title="Permalink">\uf0c1</a></h3>'
        '<dl><dt id="x"><span class="pre">-x</span><a class="headerlink" href="#x"><i>\uf0c1</i></a></dt>'
        "<dd><p>Obscures shared secrets.</p></dd></dl>"
        '<h3>Python<a class="headerlink" href="#p">\u00b6</a></h3>'
        '<p><a class="reference" href="#q">link</a></p>'
    )
    assert html_to_text(page).text.split("\n") == [
        "### max-cache-ttl\u00b6",
        "-x\u00b6",
        "    Obscures shared secrets.",
        "### Python\u00b6",
        "link",
    ]


def test_a_permalink_left_open_drops_no_more_than_its_own_line() -> None:
    page = '<h3>rundir<a class="headerlink" href="#r">\uf0c1</h3><p>A path for run-time data.</p>'
    assert html_to_text(page).text.split("\n") == ["### rundir\u00b6", "A path for run-time data."]


def test_a_blockquote_is_indented_as_a_description_is() -> None:
    """Varnish's VCL reference writes each variable as a name paragraph over a blockquote (review 27):
    indented, what the blockquote holds is read under the name; a blockquote left open ends at the
    page's end, and a stray closing tag indents nothing back out."""
    page = (
        "<p>req.hash_always_miss</p><blockquote><div><p>Type: BOOL</p><p>Default: <code>false</code>."
        "</p></div></blockquote><p>after</p></blockquote><p>still at the left</p>"
    )
    assert html_to_text(page).text.split("\n") == [
        "req.hash_always_miss",
        "    Type: BOOL",
        "    Default: false.",
        "after",
        "still at the left",
    ]


def test_preformatted_text_keeps_its_lines() -> None:
    """A <pre> block's lines are lines of the text (Vim's help pages are one <pre>; a code block's
    statements are not one run-on sentence), indented under a term as the rest of its description;
    a comment line opening with "#" stays with the line before it, where alone it would read as a heading,
    and a block opening with one is read as one line, as before."""
    page = (
        "<pre>Farsi support has been removed in patch 8.1.0932.\n\nAt that time it was outdated.</pre>"
        "<dl><dt>f()</dt><dd><p>Example:</p><pre><span>x = f()</span>\n<span># show it</span>\n"
        "print(x)\n</pre></dd></dl><pre># Example A\nKettleSize 3\n</pre><p>after</p>"
    )
    assert html_to_text(page).text.split("\n") == [
        "Farsi support has been removed in patch 8.1.0932.",
        "At that time it was outdated.",
        "f()",
        "    Example:",
        "    x = f() # show it",
        "    print(x)",
        "# Example A KettleSize 3",
        "after",
    ]
