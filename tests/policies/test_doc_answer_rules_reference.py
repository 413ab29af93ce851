"""Rules from the Apache manual's dev half (issue 11): quick-reference rows under a heading.

A reference manual lists a directive's facts in a small table right under its heading
(`Default:`, `Compatibility:` rows) and shows configuration in code blocks whose comments
open with "#". Each rule has a case that must fail. The page is invented (a `mod_kettle`
module), so none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._outline import outline
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus


def directive(name: str, rows: dict[str, str], prose: str) -> str:
    cells = "".join(f"<tr><th>{field}:</th><td>{value}</td></tr>" for field, value in rows.items())
    return f"""<h2><a name="{name.lower()}" id="{name.lower()}">{name}</a> Directive</h2>
<table class="directive">{cells}</table><p>{prose}</p>"""


KETTLE = f"""<html><head><title>mod_kettle - Kettle Server</title></head><body>
<h1>Apache Module mod_kettle</h1>
<table class="module"><tr><th>Description:</th><td>Boils water for the server</td></tr>
<tr><th>Compatibility:</th><td>Available in Kettle Server 2.2.15 and later</td></tr></table>
<p>Many KettleSize directives may be given:</p>
<pre class="prettyprint lang-config">
# Example A: fill the kettle with three cups, then add a fourth cup to the kettle as well.
KettleSize 3
KettleSize 4
# Example B: the same as example A, done with a single directive.
KettleSize 3 4</pre>
{
    directive(
        "KettleSize",
        {
            "Description": "Cups the kettle holds",
            "Default": "KettleSize 12",
            "Compatibility": "Available in 2.4.8 and later; defaulted to off in version 2.3.14 and earlier."
            " The whistle stage is available since version 2.4.39.",
        },
        "The kettle holds this many cups. A value of 0 means no cups are held (but the lid still closes).",
    )
}
{
    directive(
        "KettleLid",
        {"Description": "Lid of the kettle", "Default": "none", "Compatibility": "2.4.58 and later"},
        "Sets the lid.",
    )
}
{
    directive(
        "KettleSpout",
        {"Description": "Spout of the kettle", "Compatibility": "2.4.58 and later"},
        "Sets the spout. The environment variable no-spout, set via SetEnv, removes the spout.",
    )
}
{
    directive(
        "KettleHandle",
        {
            "Description": "Handle of the kettle",
            "Compatibility": "The wooden handle is available in 2.4.60 and later",
        },
        "Sets the handle.",
    )
}
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("reference"), {"mod_kettle": KETTLE})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "mod_kettle")


def answers(pages: list[Page], question: str) -> list[str]:
    return doc_answers(pages, question)


def test_a_code_block_opened_by_a_comment_is_no_heading(pages: list[Page]) -> None:
    lines = outline(pages[0].body)
    # must fail: the collapsed code block ("# Example A: ... KettleSize 3 4") replaced the page's title
    assert all(line.headings[:1] == ("Apache Module mod_kettle",) for line in lines[1:])


def test_the_default_row_under_the_directive_s_heading(pages: list[Page]) -> None:
    # must fail: refused, no sentence saying "the default is"
    assert answers(pages, "What is the default value of the KettleSize directive of mod_kettle?")[:1] == [
        "12"
    ]
    assert answers(pages, "What is the default of KettleLid?")[:1] == ["none"]
    # KettleSpout's section has no default row: another section's row does not answer for it.
    assert answers(pages, "What is the default of KettleSpout?") == []


def test_the_availability_row_says_when_the_thing_itself_became_available(pages: list[Page]) -> None:
    # must fail: refused, no "New in version" note
    assert answers(pages, "Starting with which version is the KettleSize directive available?")[:1] == [
        "2.4.8"
    ]
    assert answers(pages, "In which version of Kettle Server did the mod_kettle module become available?")[
        :1
    ] == ["2.2.15"]
    # A clause with a subject of its own answers a question about that subject, and only that.
    assert answers(pages, "Since which version can KettleSize whistle at the whistle stage?")[:1] == [
        "2.4.39"
    ]
    assert answers(pages, "In which version was the KettleHandle directive added?") == []


def test_a_repeated_row_is_quoted_so_it_points_at_its_own_section(pages: list[Page]) -> None:
    asked = doc_question("In which version was the KettleSpout directive added?", True)
    assert asked is not None
    found = answer_doc(asked, pages)
    assert [c.answer for c in found[:1]] == ["2.4.58"]
    flat = " ".join(pages[0].body.split())
    # must fail: "Compatibility: 2.4.58 and later" alone is first found under KettleLid
    assert flat.count(found[0].evidence) == 1
    assert flat.index(found[0].evidence) > flat.index("KettleSpout Directive")


def test_a_variable_named_after_the_word_variable(pages: list[Page]) -> None:
    # must fail: "SetEnv", the other name of the sentence
    assert answers(pages, "Which environment variable removes the spout of the KettleSpout kettle?")[:1] == [
        "no-spout"
    ]


def test_what_a_value_means(pages: list[Page]) -> None:
    # must fail: refused, the question's "0" was looked for as the name of a term
    assert answers(pages, "What does setting KettleSize to 0 mean?") == ["no cups are held"]
    assert answers(pages, "What does setting KettleLid to 0 mean?") == []  # said of KettleSize only
