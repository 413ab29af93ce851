"""'Which directive ...?' answered by the section whose description the question paraphrases (`_doc_headed`).

A directive's `Description:` row is a terse label ("Define a default URL for requests that don't
map to a file"); what the directive does is often said only by the first sentence after its
quick-reference table. The question may paraphrase either, never a later sentence. The page is
invented (a `mod_kettle` module), so no case tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus


def directive(name: str, description: str, *paragraphs: str) -> str:
    rows = f"<tr><th>Description:</th><td>{description}</td></tr><tr><th>Module:</th><td>mod_kettle</td></tr>"
    prose = "".join(f"<p>{p}</p>" for p in paragraphs)
    heading = f'<h2><a name="{name.lower()}">{name}</a> Directive</h2>'
    return f'{heading}<table class="directive">{rows}</table>{prose}'


KETTLE = f"""<html><head><title>mod_kettle - Kettle Server</title></head><body>
<h1>Apache Module mod_kettle</h1>
{
    directive(
        "KettleFallback",
        "Define a default pot for brews that match no recipe",
        "Use this to pour any brew that matches no recipe into one spare teapot, which would otherwise"
        " be discarded. Brews that match a recipe are unaffected. The spare teapot is emptied every night"
        " by the cleaning robot.",
    )
}
{
    directive(
        "KettleWhistle",
        "Selects the tune the kettle whistles when the water boils",
        "Takes the name of a tune.",
    )
}
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("headed"), {"mod_kettle": KETTLE})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "mod_kettle")


def test_the_first_sentence_after_the_table_describes_the_directive(pages: list[Page]) -> None:
    # Must fail without the first sentence: the Description row holds too few of the question's words.
    question = (
        "Which directive pours brews matching no recipe into a spare teapot instead of discarding them?"
    )
    assert doc_answers(pages, question)[:1] == ["KettleFallback"]


def test_the_description_row_alone_still_answers(pages: list[Page]) -> None:
    assert doc_answers(pages, "Which directive selects the tune whistled when the water boils?")[:1] == [
        "KettleWhistle"
    ]


def test_a_later_sentence_of_the_description_names_no_directive(pages: list[Page]) -> None:
    # Must fail if the description read past its first sentence (the same paragraph's third one): a
    # detail further down is not what the directive is for, and another section may say it too.
    assert (
        doc_answers(pages, "Which directive empties the spare teapot every night with the cleaning robot?")
        == []
    )
