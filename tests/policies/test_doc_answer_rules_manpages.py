"""Rules from the Git manual's dev half (issue 11): manual pages, as AsciiDoc writes them.

The documentation rules were written on the Python manual (Sphinx). A manual page names
its command in its title ("kettle-brew(1)"), lists options as a definition list of terms
("--strong") and configuration variables likewise; users name the command with a space
("kettle brew"). Each rule has a case that must fail. The pages are invented (a `kettle`
suite), so none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_finish import DOC_MIN_SCORE
from citeloop.policies._doc_match import page_subject
from citeloop.policies._doc_questions import doc_question
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus


def manual(command: str, summary: str, options: str, configuration: str = "", synopsis: str = "") -> str:
    return f"""<html><head><title>{command}(1)</title></head><body>
<div id="header"><h1>{command}(1) Manual Page</h1>
<h2>NAME</h2><div class="sectionbody"><p>{command} - {summary}</p></div></div>
<h2 id="_synopsis">SYNOPSIS</h2><div class="sectionbody"><div class="verseblock">
<pre class="content">{synopsis}</pre></div></div>
<h2 id="_options">OPTIONS</h2><div class="sectionbody"><div class="dlist"><dl>{options}</dl></div></div>
<h2 id="_configuration">CONFIGURATION</h2>
<div class="sectionbody"><div class="dlist"><dl>{configuration}</dl></div></div>
</body></html>
"""


BREW = manual(
    "kettle-brew",
    "Brew tea in the kettle",
    """<dt class="hdlist1">--strong</dt><dd><p>Steep the leaves twice as long.</p></dd>
<dt class="hdlist1">--keep</dt><dd><p>Keep the leaves in the pot after brewing.</p></dd>
<dt class="hdlist1">--steep=&lt;time&gt;</dt><dd><p>Leaves older than the steep time are thrown away
(default is 3 weeks ago, overridable by brew.steepExpire).</p></dd>
<dt class="hdlist1">--patch</dt><dd><p>Brew a patch of leaves. The --patch option implies --keep.</p></dd>
<dt class="hdlist1">-&lt;digit&gt;</dt><dd><p>Specify the sugar level of each cup.
Default is -2 if not given.</p></dd>
<dt class="hdlist1">--quiet</dt><dd><p>When used with brew and patch, the kettle brews silently.</p></dd>
<dt class="hdlist1">--all</dt><dd><p>Instead of using only the green leaves, use any leaf found in
pots/ namespace.</p></dd>
<dt class="hdlist1">--green</dt><dd><p>Instead of using only the green leaves, use any green leaf found in
pots/green namespace.</p></dd>""",
    """<dt class="hdlist1">brew.sugar</dt><dd><p>When set to true, kettle brew adds sugar to every cup.
Defaults to false.</p></dd>
<dt class="hdlist1">brew.cups</dt><dd><p>When there are more than this many cups on the tray, kettle brew
--auto washes them. The default value is 12.</p></dd>
<dt class="hdlist1">brew.strongSteep</dt><dd><p>The steep time used by kettle brew --strong.
This defaults to 9, which is much longer than the default --steep of 3.</p></dd>""",
    "kettle brew [--strong] [--quiet] [--keep] [--sugar] [--patch]",
)
# A second command whose page says the same kind of thing of its own options.
POUR = manual(
    "kettle-pour",
    "Pour tea from the kettle",
    """<dt class="hdlist1">--keep</dt><dd><p>Keep the lid open after pouring.</p></dd>
<dt class="hdlist1">prune</dt><dd><p>Remove all cups that were never filled.</p></dd>""",
)
DRAIN = manual(
    "kettle-drain",
    "Drain the kettle",
    """<dt class="hdlist1">prune</dt><dd><p>Remove the scale left after draining.</p></dd>""",
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(
        tmp_path_factory.mktemp("manuals"), {"kettle-brew": BREW, "kettle-pour": POUR, "kettle-drain": DRAIN}
    )
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "kettle-brew", "kettle-pour", "kettle-drain")


def answers(pages: list[Page], question: str) -> list[str]:
    return doc_answers(pages, question)


def test_a_manual_page_is_about_its_command_as_users_write_it(pages: list[Page]) -> None:
    assert page_subject(pages[0]) == "kettle-brew kettle brew"  # must fail: "kettle-brew(1)"
    # must fail: the same subcommand on the other page tied with it, and the answer was refused
    assert answers(pages, "What does kettle pour prune do?") == ["Remove all cups that were never filled"]


def test_which_option_may_follow_the_command_it_belongs_to(pages: list[Page]) -> None:
    asked = doc_question("Which kettle brew option steeps the leaves twice as long?", True)
    assert asked is not None
    assert (asked.kind, asked.noun) == ("which", "option")  # must fail: "unhandled", refused
    assert answers(pages, "Which kettle brew option steeps the leaves twice as long?")[:1] == ["--strong"]
    # The command scopes the answer: kettle pour's --keep is not kettle brew's.
    assert answers(pages, "Which kettle brew option keeps the leaves in the pot?")[:1] == ["--keep"]
    # A noun after the question's verb is not what it asks for.
    what = doc_question("What is the default value of brew.cups?", True)
    assert what is not None and what.kind == "default"


def test_a_configuration_variable_is_named_by_its_term(pages: list[Page]) -> None:
    # must fail: "configuration variable" had to be in the sentence "Defaults to false."
    assert answers(pages, "What is the default value of the brew.sugar configuration variable?")[:1] == [
        "false"
    ]


def test_a_default_with_no_subject_is_scored_with_its_paragraph(pages: list[Page]) -> None:
    asked = doc_question(
        "What is the default value of brew.cups, the tray limit above which kettle brew --auto washes?", True
    )
    assert asked is not None
    found = answer_doc(asked, pages)
    assert [c.answer for c in found[:1]] == ["12"]
    # must fail: "The default value is 12." alone held too few of the question's words: refused as unclear
    assert found[0].score >= DOC_MIN_SCORE


def test_how_old_asks_for_a_time_span(pages: list[Page]) -> None:
    # must fail: "12" (a count of cups) and "3" (the number without its unit)
    assert answers(pages, "How old must leaves be before kettle brew throws them away, by default?")[:1] == [
        "3 weeks"
    ]


def test_a_default_that_points_back_is_quoted_with_the_sentence_it_leans_on(pages: list[Page]) -> None:
    asked = doc_question("What steep time does kettle brew --strong use by default?", True)
    assert asked is not None
    found = answer_doc(asked, pages)
    assert [c.answer for c in found[:1]] == ["9"]
    # must fail: the quote was "This defaults to 9, ...", which does not name --strong
    assert found[0].evidence.startswith("The steep time used by kettle brew --strong. This defaults to 9")


def test_a_default_said_without_the_and_asked_when_none_is_given(pages: list[Page]) -> None:
    asked = doc_question("What sugar level does kettle brew use when none is given?", True)
    assert asked is not None and asked.kind == "default"  # must fail: a "which level" question
    found = answer_doc(asked, pages)
    assert [c.answer for c in found[:1]] == ["-2"]
    # must fail: "Default is -2" was not read as subjectless, nor the page's command as said
    assert found[0].score >= DOC_MIN_SCORE


def test_a_synopsis_names_options_without_saying_what_they_do(pages: list[Page]) -> None:
    # must fail: "--sugar", from the synopsis line that lists every option
    assert answers(pages, "Which kettle brew option adds sugar to the tea?") == []


def test_the_verb_asked_of_an_option_must_be_said(pages: list[Page]) -> None:
    # must fail: "--quiet", whose sentence says brew and patch but not what --patch implies
    assert "--quiet" not in answers(pages, "Which option does kettle brew --patch imply?")


def test_which_configuration_variable_asks_for_a_name_even_by_default() -> None:
    asked = doc_question("Which configuration variable makes kettle brew add sugar by default?", True)
    assert asked is not None and (asked.kind, asked.noun) == ("which", "variable")  # must fail: "default"


def test_adjacent_words_break_a_tie_of_the_same_words(pages: list[Page]) -> None:
    question = "Which kettle brew option uses any green leaf found in the pots/green namespace"
    question += " instead of green leaves?"
    asked = doc_question(question, True)
    assert asked is not None
    found = answer_doc(asked, pages)
    # must fail: --all holds the same words ("green" of "pots/green" too) and tied, so the answer was refused
    assert [c.answer for c in found[:2]] == ["--green", "--all"]
    assert found[0].score > found[1].score


def test_the_which_noun_comes_before_the_verb() -> None:
    for question in ("Which directory holds the module files?", "Which signal stops the command?"):
        asked = doc_question(question, True)
        # must fail: "module" / "command", found after the question's verb
        assert asked is not None and asked.noun == "unhandled", question


def test_how_many_units_is_the_default_asks_for_the_default() -> None:
    asked = doc_question("How many seconds is the default timeout of kettle.connect?", True)
    assert asked is not None and asked.kind == "default"  # must fail: a count of seconds


def test_a_relative_clause_default_is_not_subjectless(tmp_path: Path) -> None:
    page = manual(
        "kettle-wick",
        "Trim the wick",
        """<dt class="hdlist1">--wick</dt><dd><p>The wick argument sets the wick material.
The fuel is a setting that defaults to 'oil'.</p></dd>""",
    )
    (tmp_path / "pages").mkdir()
    built = page_corpus(tmp_path / "pages", {"kettle-wick": page})
    try:
        # must fail: 'oil', the fuel's default read as the wick material's
        assert (
            answers(open_pages(built, "kettle-wick"), "What is the default wick material of kettle wick?")
            == []
        )
    finally:
        built.close()


def test_a_leaning_default_is_quoted_with_its_paragraph_when_no_code_is_named(pages: list[Page]) -> None:
    asked = doc_question("What steep time does kettle brew use by default with the strong option?", True)
    assert asked is not None and not asked.identifiers
    found = answer_doc(asked, pages)
    assert [c.answer for c in found[:1]] == ["9"]
    # must fail: "This defaults to 9, ...", which does not say what the 9 is of
    assert found[0].evidence.startswith("The steep time used by kettle brew --strong.")


def test_word_order_never_outweighs_a_word(tmp_path: Path) -> None:
    every = "Kettle brew uses every stale leaf found in shared pots after each failed morning brewing run,"
    every += " without rinsing cups first."
    scrambled = "First cups: rinsing without run, brewing morning failed each; after pots shared, found leaf"
    scrambled += " green stale every, uses brew kettle."
    page = manual(
        "kettle-brew",
        "Brew tea in the kettle",
        f"""<dt class="hdlist1">--all</dt><dd><p>{every}</p></dd>
<dt class="hdlist1">--green</dt><dd><p>{scrambled}</p></dd>""",
    )
    (tmp_path / "pages").mkdir()
    built = page_corpus(tmp_path / "pages", {"kettle-brew": page})
    try:
        question = (
            "Which kettle brew option uses every stale green leaf found in shared pots after each failed"
        )
        question += " morning brewing run, without rinsing cups first?"
        # must fail: --all, in the question's order but without "green", outscored the one holding every word
        assert answers(open_pages(built, "kettle-brew"), question)[:1] == ["--green"]
    finally:
        built.close()
