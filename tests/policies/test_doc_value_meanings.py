"""What one value of a setting means (`_doc_meaning`): "What happens when X is set to 0?", and
the unit a bare value is taken in ("If X is specified without units, what unit is it taken as?").

The page is invented (a "teapot" server's settings), in the forms parameter manuals use. Each
rule has a case that must fail: before it, every question here but "What does setting X to 0
mean?" over "A value of 0 means ..." was refused as a kind the policy does not extract; the near
misses (another setting's value, "0.5" for "0", a value the page never gives) must stay unanswered.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import ask, doc_answers, one_page, one_page_corpus

SETTINGS = """
<h2>Timeouts</h2>
<dl>
<dt><code>brew_timeout</code> (integer)</dt>
<dd><p>Stops a brew that runs longer than this many seconds. Setting this to zero disables the timeout.
A value of 0.5 means half a second.</p></dd>
<dt><code>steep_limit</code> (integer)</dt>
<dd><p>The most cups one pot may steep at once. A value of 0 means no limit. Setting lid_delay to 0
turns off the lid.</p></dd>
<dt><code>lid_delay</code> (integer)</dt>
<dd><p>How long the lid stays open. -1 (the default) keeps the lid open until the pot is empty.</p></dd>
<dt><code>pot_check</code> (enum)</dt>
<dd><p>Whether pots are weighed before a brew. If set to off, the server skips the weighing and trusts
the pot label.</p></dd>
<dt><code>steep_delay</code> (integer)</dt>
<dd><p>How long a cup steeps. If this value is specified without units, it is taken as milliseconds.
<code>-1</code> (the default) means no delay.</p></dd>
<dt><code>cup_pool</code> (integer)</dt>
<dd><p>The cups kept warm. If this value is specified without units, it is taken as blocks, that is
cup_size bytes, typically 8kB.</p></dd>
<dt><code>dead_pot_retention</code> (integer)</dt>
<dd><p>How long dead pots are kept. -1 (the default) means that steep_limit applies.</p></dd>
<dt><code>pot_session_timeout</code> (integer)</dt>
<dd><p>How long a session is kept. It must be at least three times steep_delay; if specified without units,
it is taken as seconds. It must be less than <code>brew_window</code>, which is specified in minutes.</p></dd>
<dt><code>listen_port</code> (integer)</dt>
<dd><p>The port. This parameter is specified in teapot.conf or on the command line.</p></dd>
<dt><code>max_pot_lifetime</code> (time)</dt>
<dd><p>How long a pot stays on the stove. Specify 0 for pots that should be emptied right after the
first failed brew.</p></dd>
</dl>
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("value-meanings") / "teapot", "Teapot settings", SETTINGS)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What happens when brew_timeout is set to 0?", "disables the timeout"),
        ("What does setting steep_limit to 0 mean?", "no limit"),
        ("What does a value of 0 mean for steep_limit?", "no limit"),
        ("In lid_delay, what does a value of -1 mean?", "keeps the lid open until the pot is empty"),
        (
            "What happens if you set pot_check to off?",
            "the server skips the weighing and trusts the pot label",
        ),
        (
            "What happens to a pot when max_pot_lifetime is set to 0?",
            "pots that should be emptied right after the first failed brew",
        ),
        ("What is the effect of setting brew_timeout to zero?", "disables the timeout"),
        ("What does a steep_delay of -1 mean?", "no delay"),
    ],
)
def test_the_sentence_under_the_setting_says_what_its_value_does(
    pages: list[Page], question: str, answer: str
) -> None:
    # must fail: all but the second were refused as a kind of question the policy does not extract
    assert doc_answers(pages, question)[:1] == [answer]


def test_a_longer_value_is_not_the_asked_one(pages: list[Page]) -> None:
    # must fail: "0.5 means half a second" read as what 0 means
    assert "half a second" not in doc_answers(pages, "What does a value of 0 mean for brew_timeout?")


def test_a_sentence_says_the_value_of_the_setting_it_names(pages: list[Page]) -> None:
    # "Setting lid_delay to 0 turns off the lid" sits under steep_limit: it says what lid_delay's 0
    # does, and nothing of steep_limit's (must fail: read as what steep_limit's 0 does).
    assert doc_answers(pages, "What happens when lid_delay is set to 0?") == ["turns off the lid"]
    assert doc_answers(pages, "What does setting steep_limit to 0 do?") == ["no limit"]


def test_a_value_the_page_never_explains_is_refused(pages: list[Page]) -> None:
    assert doc_answers(pages, "What happens when steep_limit is set to 5?") == []
    assert doc_answers(pages, "What happens when pot_check is set to on?") == []


def test_a_setting_named_in_plain_words_is_not_a_value_question() -> None:
    asked = doc_question("What happens when the timeout is set to 0?", True)
    assert asked is None or asked.kind != "meaning"
    named = doc_question("What happens when brew_timeout is set to 0?", True)
    assert named is not None and (named.kind, named.subject, named.noun) == ("meaning", "brew_timeout", "0")


@pytest.mark.anyio
async def test_the_gate_accepts_the_meaning_with_its_sentence(tmp_path: Path) -> None:
    corpus = one_page_corpus(tmp_path / "pages", "Teapot settings", SETTINGS)
    outcome = await ask(corpus, "What happens when brew_timeout is set to 0?")
    assert outcome.status == "answered", outcome.answer
    assert outcome.answer == "disables the timeout"
    assert outcome.evidence == "Setting this to zero disables the timeout."


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        ("If steep_delay is specified without units, what unit is it taken as?", "milliseconds"),
        ("In what units is cup_pool given?", "blocks"),
        ("What unit is steep_delay taken in when no unit is given?", "milliseconds"),
    ],
)
def test_the_unit_a_bare_value_is_taken_in(pages: list[Page], question: str, unit: str) -> None:
    # must fail: refused as a kind of question the policy does not extract
    assert doc_answers(pages, question)[:1] == [unit]


def test_a_unit_no_sentence_about_the_setting_gives_is_refused(pages: list[Page]) -> None:
    assert doc_answers(pages, "In what units is brew_timeout given?") == []


def test_a_sentence_under_another_term_says_nothing_of_the_setting_it_names(pages: list[Page]) -> None:
    # must fail: "steep_limit applies" (dead_pot_retention's -1), "seconds" (pot_session_timeout's unit)
    assert "steep_limit applies" not in doc_answers(pages, "What does a value of -1 mean for steep_limit?")
    assert "seconds" not in doc_answers(
        pages, "If steep_delay is specified without units, what unit is it taken as?"
    )
    assert doc_answers(pages, "If pot_session_timeout is specified without units, what unit is it taken as?")[
        :1
    ] == ["seconds"]


def test_a_unit_is_a_unit_of_the_setting_asked(pages: list[Page]) -> None:
    # must fail: "minutes" (brew_window's, named in the clause) and "teapot.conf" (no unit)
    assert "minutes" not in doc_answers(pages, "In what units is pot_session_timeout given?")
    assert doc_answers(pages, "In what units is listen_port specified?") == []
