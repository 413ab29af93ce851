"""Documentation questions: structure read back from a body, typed spans as answers, refusals (issue 11).

The pages are written here, in the corpus's HTML form, about an invented `pack` module, so
none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from citeloop.events import Page, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_identifiers import is_identifier
from citeloop.policies._doc_match import term_name
from citeloop.policies._doc_questions import doc_question, structured
from citeloop.policies._outline import outline
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Corpus

PACK = """<html><head><title>pack — Packing things</title></head><body>
<h1>pack — Packing things</h1>
<p>This module packs and unpacks boxes.</p>
<p>New in version 3.4.</p>
<h2>Functions</h2>
<dl><dt>pack.wrap(items, width=70, *, fill=' ', mode='w+b', level=None)</dt>
<dd><p>Wrap the items into boxes of at most width items.</p>
<p>The level argument controls the padding. The default level is 3.</p>
<p>New in version 3.9.</p></dd>
<dt>pack.unwrap(box)</dt>
<dd><p>Return the items of box in their original order.</p>
<p>Changed in version 3.11: Nested boxes are unwrapped too.</p></dd>
<dt>class pack.Crate(size)</dt>
<dd><p>A crate of boxes.</p>
<dl><dt>seal(n)</dt><dd><p>Close n boxes without moving them.</p></dd></dl></dd>
<dt><code>quota_mem</code> (<code>integer</code>) <a href="#q">#</a></dt>
<dd><p>Sets the memory a box may take. The default value is four megabytes (<code>4MB</code>).</p></dd>
<dt>pack.registry</dt>
<dd><p>A “catalogue of every box” is available through this attribute.</p></dd></dl>
<h2>Sizes</h2>
<table><thead><tr><th>Size</th><th>Numeric value</th></tr></thead>
<tr><td>SMALL</td><td>10</td></tr><tr><td>LARGE</td><td>50</td></tr></table>
<h2>Box functions</h2>
<table><thead><tr><th>Function</th><th>Description</th></tr></thead>
<tr><td><p><code>box_count</code> ( <code>crate</code> ) → <code>integer</code></p>
<p>Returns the number of boxes in the crate.</p></td><td>Counts</td></tr></table>
<h2>Command line</h2>
<p>The option -q/--quiet suppresses the progress output.</p>
<p>By default, when you run the command line tool, the compression level is 6.</p>
</body></html>
"""
URL = "https://docs.example/pack"
PACK_PAGE = PACK.replace("<head>", f'<head><link rel="canonical" href="{URL}">')


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    folder: Path = tmp_path_factory.mktemp("pack")
    (folder / "pack.html").write_text(PACK_PAGE, encoding="utf-8")
    (folder / "other.html").write_text(
        "<html><body><h1>other — Other things</h1><p>Nothing about packing boxes here.</p></body></html>",
        encoding="utf-8",
    )
    built = Corpus.from_path(folder, index_path=folder.parent / "pack-index.sqlite")
    yield built
    built.close()


@pytest.fixture
def page(corpus: Corpus) -> Page:
    opened = corpus.open(URL)
    assert opened is not None
    return opened


async def ask(corpus: Corpus, question: str) -> Outcome:
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        return await rt.run(question)


def test_the_outline_gives_each_line_its_terms_headings_and_table_header(page: Page) -> None:
    lines = {line.text: line for line in outline(page.body)}
    assert structured(page.body)
    seal = lines["Close n boxes without moving them."]
    assert seal.terms == ("class pack.Crate(size)", "seal(n)")
    assert seal.headings == ("pack — Packing things", "Functions")
    assert lines["seal(n)"].is_term and not seal.is_term
    row = lines["LARGE\t50"]
    assert row.cells == ("LARGE", "50") and row.header == ("Size", "Numeric value")
    assert lines["This module packs and unpacks boxes."].terms == ()
    assert term_name("class pack.Crate(size)") == "pack.Crate"


def test_documentation_questions_are_sorted_by_kind() -> None:
    kinds = {
        "What is the default width of pack.wrap?": "default",
        "In which Python version was pack.unwrap added?": "version",
        "Which function of pack returns the items of a box?": "which",
        "What does seal(n) of a Crate do?": "does",
    }
    for question, kind in kinds.items():
        sorted_as = doc_question(question, in_structure=True)
        assert sorted_as is not None and sorted_as.kind == kind, question
    # Over plain prose only code that cannot be a name makes a documentation question.
    assert doc_question("In which Python version was pack.unwrap added?") is not None
    assert doc_question("Which function of pack returns the items of a box?") is None
    assert doc_question("Who founded Acme Robotics?") is None
    assert doc_question("When did McDonald open?") is None
    # Over structured pages a question of no documentation kind goes to the general path.
    assert doc_question("Who founded Acme Robotics?", in_structure=True) is None
    assert is_identifier("pack.wrap") and is_identifier("--quiet") and is_identifier("heap[0]")
    assert not is_identifier("case-sensitive") and not is_identifier("Porto")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the default width of pack.wrap?", "width=70"),
        ("What is the default mode of pack.wrap?", "mode='w+b'"),
        ("What is the default level of pack.wrap?", "3"),
        ("In which Python version was pack.wrap added?", "3.9"),
        ("In which Python version was the pack module added?", "3.4"),
        ("Since which Python version does pack.unwrap unwrap nested boxes?", "3.11"),
        ("Which attribute of the pack module holds the catalogue of every box?", "pack.registry"),
        ("What does seal(n) of a Crate do?", "Close n boxes without moving them"),
        ("Which option of the pack command line suppresses the progress output?", "-q/--quiet"),
        ("What is the numeric value of the size LARGE?", "50"),
        ("What compression level does the pack command line use by default?", "6"),
        ("What is the default value of quota_mem?", "four megabytes (4MB)"),
        ("Which function returns the number of boxes in a crate?", "box_count"),
    ],
)
def test_the_span_that_answers(page: Page, question: str, answer: str) -> None:
    asked = doc_question(question, True)
    assert asked is not None
    found = answer_doc(asked, [page])
    assert found and found[0].answer == answer
    assert " ".join(found[0].evidence.split()) in " ".join(page.body.split())  # verbatim, white space aside


def test_none_default_is_not_trusted_and_a_parameter_not_asked_about_is_not_answered(page: Page) -> None:
    # Must fail: `level=None` in the signature is not the level's default (the text says 3).
    asked = doc_question("What is the default level of pack.wrap?", True)
    assert asked is not None
    assert [c.answer for c in answer_doc(asked, [page])][:1] == ["3"]
    # Must fail: pack.wrap has no `colour` parameter, whatever other defaults it states.
    asked = doc_question("What is the default colour of pack.wrap?", True)
    assert asked is not None
    assert all(c.score < 1.5 for c in answer_doc(asked, [page]))


@pytest.mark.anyio
async def test_through_the_runtime_the_span_answers_and_the_sentence_is_evidence(corpus: Corpus) -> None:
    outcome = await ask(corpus, "What does seal(n) of a Crate do?")
    assert outcome.status == "answered" and outcome.answer == "Close n boxes without moving them"
    assert outcome.evidence == "Close n boxes without moving them."
    outcome = await ask(corpus, "In which Python version was pack.wrap added?")
    assert outcome.status == "answered" and outcome.answer == "3.9"
    # A value keeps its unit, and the support methods accept it (the quote is under its term).
    outcome = await ask(corpus, "What is the default value of quota_mem?")
    assert outcome.status == "answered" and outcome.answer == "four megabytes (4MB)"


@pytest.mark.anyio
async def test_a_documentation_question_it_cannot_answer_is_refused(corpus: Corpus) -> None:
    # Must fail: nothing states when pack.Crate appeared; a version from elsewhere is not guessed.
    outcome = await ask(corpus, "In which Python version was pack.Crate added?")
    assert outcome.status == "abstained"
    # Must fail: a kind no extractor handles is refused, not answered with a sentence.
    outcome = await ask(corpus, "Until what year are boxes packed by pack.wrap?")
    assert outcome.status == "abstained"
