"""'Which strategy / action / command ...?' over a manual naming them with plain words, and a
configuration example opened by a comment, which is not a heading.

From the dev halves of git_doc and apache_doc; the pages are invented (a "KettleDB" manual). Each
rule has a case that must fail.
"""

from __future__ import annotations

import pytest
from citeloop.events import Page
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._outline import outline
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

POUR = """<html><head><title>kettle-pour(1)</title></head><body>
<h1>kettle-pour(1) Manual Page</h1>
<h2>COMMANDS</h2>
<dl>
<dt>tilt</dt><dd><p>Tilt the kettle. Note that a kettle holding ice cannot be tilted with this command.
(The kettle pour level command, however, can restore the balance of a kettle if you tilt it by hand.)</p></dd>
<dt>level</dt><dd><p>Level the kettle again.</p></dd>
</dl>
<h2>POUR STRATEGIES</h2>
<p>"slow" pours one cup at a time.</p>
<p>"slow_sorted" is similar to "slow", but in addition to pouring one cup at a time, this strategy
also sorts the cups, and removes empty cups from the tray.</p>
<p>The following command restores the balance of a kettle after a spill.</p>
</body></html>"""

HEADERS = """<html><head><title>mod_steam</title></head><body>
<h1>Kettle Module mod_steam</h1>
<h2>Steam Directive</h2>
<pre># Steam's value is set in the 'early' table
Steam set X-Hiss "loud"</pre>
<p>The action it takes is one of:</p>
<dl>
<dt>merge</dt><dd><p>The steam header is appended to any existing header of the same name, unless
the value to be appended already appears in the header's list of values.</p></dd>
<dt>set</dt><dd><p>The steam header is set, replacing any previous header with this name.</p></dd>
</dl>
<h1>2. Compatibility</h1>
<p>Steam is available in KettleDB 2.0 and later.</p>
</body></html>"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return page_corpus(tmp_path_factory.mktemp("kettle-kinds"), {"pour": POUR, "steam": HEADERS})


@pytest.fixture(scope="module")
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "pour", "steam")


def test_a_strategy_an_action_and_a_directive_are_asked_for_by_their_noun() -> None:
    for noun in ("strategy", "action", "directive"):
        asked = doc_question(f"Which kettle {noun} pours one cup at a time?", True)
        assert asked is not None and asked.kind == "which" and asked.noun == noun


def test_a_strategy_named_as_code_in_the_matching_sentence(pages: list[Page]) -> None:
    asked = "Which kettle pour strategy pours one cup at a time, sorts the cups and removes empty cups?"
    assert doc_answers(pages, asked)[:1] == ["slow_sorted"]


def test_a_command_named_by_a_documented_word_before_the_noun(pages: list[Page]) -> None:
    asked = "Which kettle pour command restores the balance of a kettle tilted by hand?"
    assert doc_answers(pages, asked)[:1] == ["level"]


def test_a_word_before_the_noun_that_the_manual_documents_nowhere_is_no_name(pages: list[Page]) -> None:
    # Must fail: "The following command restores the balance ..." names no command: "following" is
    # no term of the manual.
    asked = "Which kettle pour command restores the balance of a kettle after a spill?"
    assert "following" not in doc_answers(pages, asked)


def test_an_action_is_the_term_its_description_matches(pages: list[Page]) -> None:
    asked = "Which action of the mod_steam Steam directive appends a value to an existing steam header?"
    assert doc_answers(pages, asked)[:1] == ["merge"]


def test_a_configuration_example_opened_by_a_comment_is_not_a_heading(pages: list[Page]) -> None:
    lines = outline(pages[1].body)
    merge = next(line for line in lines if line.text.startswith("The steam header is appended"))
    # The comment "# Steam's value is set ..." does not replace the section the description is in.
    assert merge.headings == ("Kettle Module mod_steam", "Steam Directive")
    assert merge.terms == ("merge",)
    # Must fail as a code comment: a numbered level-1 heading past a deeper one is a heading.
    later = next(line for line in lines if line.text.startswith("Steam is available"))
    assert later.headings == ("2. Compatibility",)
