"""For the documentation-rule tests: hand-written pages indexed as a corpus, and what the rules answer."""

from __future__ import annotations

from pathlib import Path

from citeloop.events import Page, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_questions import doc_question
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Corpus

BASE = "https://docs.example/"
# The documentation corpora of tests/data (`<name>/html`).
DATA = Path(__file__).parents[1] / "data"


def page_corpus(folder: Path, pages: dict[str, str]) -> Corpus:
    """A corpus of `pages` (name -> HTML), each page canonical at BASE + name."""
    for name, html in pages.items():
        page = html.replace("<head>", f'<head><link rel="canonical" href="{BASE}{name}">')
        (folder / f"{name}.html").write_text(page, encoding="utf-8")
    return Corpus.from_path(folder, index_path=folder.parent / f"{folder.name}-index.sqlite")


def open_pages(corpus: Corpus, *names: str) -> list[Page]:
    opened = [corpus.open(BASE + name) for name in names]
    assert all(page is not None for page in opened), names
    return [page for page in opened if page is not None]


def doc_answers(pages: list[Page], question: str) -> list[str]:
    """What the documentation rules answer `question` with over `pages`, best first."""
    asked = doc_question(question, True)
    assert asked is not None, question
    return [candidate.answer for candidate in answer_doc(asked, pages)]


def one_page(folder: Path, title: str, body_html: str) -> list[Page]:
    """One invented page titled `title` (its `<h1>` too) holding `body_html`, indexed in `folder`."""
    return open_pages(one_page_corpus(folder, title, body_html), "page")


def one_page_corpus(folder: Path, title: str, body_html: str) -> Corpus:
    """A corpus of one invented page titled `title` (its `<h1>` too) holding `body_html`, in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    html = f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body_html}</body></html>"
    return page_corpus(folder, {"page": html})


async def ask(corpus: Corpus, question: str) -> Outcome:
    """`question` run end to end (policy, gate, log) by the extractive policy over `corpus`."""
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        return await rt.run(question)


def assert_answer(outcome: Outcome, expected: str | None) -> None:
    """`outcome` answered `expected`, or, for None, refused."""
    if expected is None:
        assert outcome.status == "abstained", outcome.answer
    else:
        assert (outcome.status, outcome.answer) == ("answered", expected)


def corpus_answers(corpus_name: str, question: str) -> list[str]:
    """What the documentation rules answer `question` with over every page of tests/data/<corpus_name>."""
    corpus = Corpus.from_path(DATA / corpus_name / "html")
    try:
        pages = [page for page in (corpus.open(url) for url in corpus.urls()) if page is not None]
        return doc_answers(pages, question)
    finally:
        corpus.close()


async def corpus_outcome(corpus_name: str, question: str) -> Outcome:
    """`question` run end to end (policy, gate, log) over tests/data/<corpus_name>: the finish's rules too."""
    corpus = Corpus.from_path(DATA / corpus_name / "html")
    try:
        return await ask(corpus, question)
    finally:
        corpus.close()
