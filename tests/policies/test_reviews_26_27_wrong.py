"""Wrong answers reviews 26 and 27 (the pgRouting 3.4 and Varnish 7.1 manuals) gave, each measured
before it was read, each class on an invented page in the same markup: a page's navigation bar
("« Flow - Family of functions :: Contents :: pgr_boykovKolmogorov »") says nothing; a term that
labels a part of the page ("Example") names no value; a row of a table of parameters on one
function's page gives no default of another function's parameter of the same name; an SQL
statement quoted as an example ("SELECT * FROM pgr_TSP(...)", "UPDATE vertices SET ...") says
nothing about what it calls. And one the policy refused although it had the answer: a label found
first inside a longer one ("Default: 6" in "Default: 60") is quoted with the lines after it."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

MAXFLOW = (
    "<p>\u00ab Flow - Family of functions :: Contents :: pgr_boykovKolmogorov \u00bb</p>"
    "<h2>pgr_maxFlow</h2><p>Calculates the maximum flow in a directed graph from the sources to the"
    " targets.</p><p>When the maximum flow is 0 then there is no flow and 0 is returned.</p>"
)
CONTRACTION = (
    "<h2>pgr_contraction</h2><p>Performs graph contraction and returns the contracted vertices.</p>"
    "<dl><dt>Example</dt><dd><p>Making a dead end and linear contraction in that order on an undirected"
    " graph.</p></dd></dl>"
)
TSP = (
    "<h2>pgr_TSP</h2><p>Using the TSP heuristic on the graph.</p><h3>Using pgr_dijkstraCostMatrix to"
    " generate the matrix information</h3><pre>1SELECT * FROM pgr_TSP(\n2 $$SELECT * FROM"
    " pgr_withPointsCostMatrix(\n3 'SELECT id, source, target FROM edges')$$);</pre>"
)
COMPONENTS = (
    "<h2>pgr_connectedComponents</h2><h3>Result columns</h3><dl><dt>component</dt><dd><p>Component"
    " identifier.</p></dd></dl><pre>UPDATE vertices SET component = c.component FROM (SELECT * FROM"
    " pgr_connectedComponents('SELECT id FROM edges')) AS c WHERE id = c.node;</pre>"
)
KSP = (
    "<h2>pgr_KSP</h2><p>Yen's algorithm for the K shortest paths.</p><h3>Optional parameters</h3>"
    "<table><tr><th>Parameter</th><th>Type</th><th>Default</th><th>Description</th></tr>"
    "<tr><td>heap_paths</td><td>BOOLEAN</td><td>false</td><td>When false returns at most K paths.</td></tr>"
    "</table>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("title", "page", "question", "expected"),
    [
        # Not the next page the navigation bar names.
        ("pgr_maxFlow", MAXFLOW, "What value does pgr_maxFlow return when there is no flow?", None),
        ("pgr_contraction", CONTRACTION, "Which value means linear contraction in pgr_contraction?", None),
        ("pgr_KSP", KSP, "What is the default heap_paths value in pgr_withPointsKSP?", None),
        ("pgr_KSP", KSP, "What is the default heap_paths value in pgr_KSP?", "false"),
        # The example's statement under the heading calls pgr_withPointsCostMatrix: a statement answers
        # nothing, and the heading names the function without the brackets a function is asked by.
        (
            "pgr_TSP",
            TSP,
            "Which function does the pgr_TSP example use to generate the matrix information?",
            None,
        ),
        (
            "pgr_connectedComponents",
            COMPONENTS,
            "What value does the component column of pgr_connectedComponents take?",
            None,
        ),
    ],
)
async def test_what_names_no_answer_answers_nothing(
    tmp_path: Path, title: str, page: str, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", title, page), question)
    assert_answer(outcome, expected)


# Varnish's parameter list: each parameter a heading over labelled lines. "Default: 6" under gzip_level
# is found first inside gzip_buffer's "Default: 60": quoted alone, the gate read it under gzip_buffer.
PARAMETERS = (
    "<h2>List of Parameters</h2><h5>gzip_buffer</h5><p>Units: bytes</p><p>Default: 60</p>"
    "<p>Size of malloc buffer used for gzip processing.</p><h5>gzip_level</h5><p>Default: 6</p>"
    "<p>Minimum: 0</p><p>Gzip compression level: 0=debug, 1=fast, 9=best</p>"
)


@pytest.mark.anyio
async def test_a_label_found_first_inside_a_longer_one_is_quoted_with_the_lines_after_it(
    tmp_path: Path,
) -> None:
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "varnishd", PARAMETERS),
        "What is the default value of gzip_level?",
    )
    assert_answer(outcome, "6")
    assert outcome.evidence == "Default: 6 Minimum: 0"


# Varnish's VCL variables: a name paragraph over a blockquote of labelled fields and a description.
VARIABLES = (
    "<h2>req and req_top</h2>"
    "<p>req.hash</p><blockquote><div><p>Type: BLOB</p><p>Readable from: vcl_hit, vcl_miss</p>"
    "<p>The hash key of this request.</p></div></blockquote>"
    "<p>req.hash_always_miss</p><blockquote><div><p>Type: BOOL</p><p>Default: <code>false</code>.</p>"
    "<p>Force a cache miss for this request.</p></div></blockquote>"
    "<p>bereq.backend</p><blockquote><div><p>Type: BACKEND</p><p>This is the backend or director we"
    " attempt to fetch from.</p></div></blockquote>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default value of req.hash_always_miss?", "false"),
        # What a variable does is its description, not the field list above it.
        ("What does req.hash do?", "The hash key of this request"),
        # ".preamble" is the name asked about, not "backend": bereq.backend's fields answer nothing.
        ("What does the .preamble backend attribute do?", None),
    ],
)
async def test_a_name_over_a_blockquote_is_described_by_it(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "VCL-Variables", VARIABLES), question)
    assert_answer(outcome, expected)


@pytest.mark.anyio
async def test_a_field_list_with_no_description_leaves_the_next_names_alone(tmp_path: Path) -> None:
    # req.top has only a field; what follows is req.url and its description: "What does req.top do?"
    # gets the field's line as before, never the next variable's name or description.
    page = (
        "<h2>req</h2><p>req.top</p><blockquote><div><p>Type: HTTP</p></div></blockquote>"
        "<p>req.url</p><blockquote><div><p>The requested URL.</p></div></blockquote>"
    )
    outcome = await ask(one_page_corpus(tmp_path / "pages", "VCL-Variables", page), "What does req.top do?")
    assert outcome.answer not in ("The requested URL", "req.url")
