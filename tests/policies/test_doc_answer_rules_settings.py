"""Rules from the dev half of the measured-only SQLite pages (sqlite_doc3): settings and their states.

A manual states a setting's default as a state ("is off by default", "the default behavior is
for X to be disabled"), names a snake_case setting in prose by its words ("the steep limit" for
`steep_limit`), asks for "the minimum version", and numbers its sections ("1. Overview").
Each rule has a case that must fail. The pages are invented (a "KettleDB" manual), so none of
the cases tunes on a real one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._choice import choice_question
from citeloop.policies._compare import offered
from citeloop.policies._doc_match import page_subject, spelled_out
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._doc_scope import _stated_by
from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, one_page, open_pages, page_corpus

NAV = "<p>KettleDB: Home, Documentation, Download, Support</p>"

SETTINGS = f"""<html><head><title>Kettle settings</title></head><body>{NAV}
<h1>1. Overview</h1>
<p>The read_cold pragma is off by default and so an application that never sets it reads hot.</p>
<p>You can also use kettle.showSteam to set whether steam reporting is enabled by default.</p>
<p>The default behavior is for lid filenames to be disabled, however that might change in a later
release.</p>
<h2>2. Approximate steeping</h2>
<p>Values of N between 10 and 100 are recommended. The default value for the steep limit is 0 for
backwards compatibility.</p>
<p>A hot limit of N keeps the water below N degrees.</p>
<p>KettleDB version 2.4.1 (2019-03-02) or later is necessary in order to use a LIDLESS kettle.</p>
<p>The kettle_pour_hook() interface does not fire callbacks for changes to a LIDLESS kettle.</p>
<p>If the water cannot be boiled, then a KETTLE_CONSTRAINT_BOIL error is raised for the boiled
water.</p>
</body></html>"""

OTHER = f"""<html><head><title>Brewing</title></head><body>{NAV}
<h1>Brewing</h1>
<p>KettleDB brews tea in a kettle.</p>
</body></html>"""

THIRD = f"""<html><head><title>Cups</title></head><body>{NAV}
<h1>Cups</h1>
<p>KettleDB pours tea into cups.</p>
</body></html>"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return page_corpus(
        tmp_path_factory.mktemp("kettledb"), {"settings": SETTINGS, "brew": OTHER, "cups": THIRD}
    )


@pytest.fixture(scope="module")
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "settings", "brew", "cups")


# A default stated as a state.


def test_a_state_by_default_answers_an_on_or_off_question(pages: list[Page]) -> None:
    assert doc_answers(pages, "Is the read_cold pragma on or off by default?")[:1] == ["off"]


def test_a_choice_the_question_offers_may_answer_it_but_not_a_value_it_states() -> None:
    assert not _stated_by("Is the default mode 'r' or 'w'?", "'r'")  # one of the two offered
    assert not _stated_by("Is steam venting enabled by default?", "enabled")  # a state asked: a yes
    # Must fail: a value the question writes without offering another is the question's, not an answer.
    assert _stated_by("What is the default mode, given that 'r' opens for reading?", "'r'")
    assert _stated_by("Why is the read_cold pragma off by default?", "off")


def test_a_state_of_one_of_two_subjects_is_no_answer(tmp_path: Path) -> None:
    text = (
        "<p>Kettle triggers are enabled by default, but recursive kettle triggers are disabled by default."
        "</p>"
        "<p>Neither the steam_vent pragma nor the read_hot pragma is enabled by default.</p>"
        "<p>When KettleDB is compiled with KETTLE_FAST, the fast_pour pragma is enabled by default.</p>"
        "<p>The lid_lock pragma is off by default in the library but is on by default in the shell.</p>"
        "<p>The lid_seal pragma is on by default.</p>"
    )
    pages = one_page(tmp_path / "pages", "Triggers", text)
    assert doc_answers(pages, "Is the lid_seal pragma on or off by default?")[:1] == ["on"]
    # Must fail: two states in one sentence, a negation, a condition before, a qualifier after.
    assert doc_answers(pages, "Are recursive kettle triggers enabled by default?") == []
    assert doc_answers(pages, "Is the steam_vent pragma enabled by default?") == []
    assert doc_answers(pages, "Is the fast_pour pragma enabled by default?") == []
    assert doc_answers(pages, "Is the lid_lock pragma on or off by default in the shell?") == []


def test_the_default_behavior_is_for_x_to_be_a_state(pages: list[Page]) -> None:
    assert doc_answers(pages, "Are lid filenames enabled by default?")[:1] == ["disabled"]


def test_the_subject_of_the_state_must_be_the_one_asked(pages: list[Page]) -> None:
    # Must fail: "for lid filenames to be disabled" is not about steam filenames.
    assert doc_answers(pages, "Are steam filenames enabled by default?") == []


def test_setting_whether_something_is_enabled_by_default_states_no_default(pages: list[Page]) -> None:
    # Must fail: "to set whether steam reporting is enabled by default" names a setting; it gives no value.
    assert "enabled" not in doc_answers(pages, "Is steam reporting enabled by default in kettle.showSteam?")
    assert doc_answers(pages, "Are lid filenames enabled by default?")[:1] == ["disabled"]  # on the same page


# A snake_case setting named in prose by its words.


def test_a_snake_case_name_is_found_spelled_as_words(pages: list[Page]) -> None:
    assert doc_answers(pages, "What is the default value of the steep_limit pragma?")[:1] == ["0"]


def test_a_snake_case_name_is_not_found_by_one_of_its_words(pages: list[Page]) -> None:
    # Must fail: "the steep limit" is not `hot_limit`, though "limit" is in the sentence.
    assert doc_answers(pages, "What is the default value of the hot_limit pragma?") == []
    assert doc_answers(pages, "What is the default value of the steep_limit pragma?")[:1] == ["0"]


@pytest.mark.parametrize(
    ("text", "identifier", "found"),
    [
        ("The default value for the analysis limit is 0.", "analysis_limit", True),
        ("The default analysis limit is 0.", "analysis_limit", True),
        ("The default value for the temp cache size is 0.", "cache_size", False),  # a longer name's end
        ("The default for the x max is 0.", "x_max", False),  # words too short to name anything
        ("The default for the foo id is 0.", "foo_id", False),
        ("The default for the analysis limits is 0.", "analysis_limit", False),
    ],
)
def test_a_snake_case_name_spelled_as_words_after_an_article(text: str, identifier: str, found: bool) -> None:
    assert spelled_out(text, identifier) is found
    question = f"What is the default value of the {identifier} pragma?"
    judged = {v.method: v.verdict for v in assess_support(question, "0", text, DEFAULT_SUPPORT)}
    assert (judged["focus-entity"] == "supported") is found


def test_the_gate_finds_a_snake_case_focus_spelled_as_words() -> None:
    quote = "The default value for the steep limit is 0 for backwards compatibility."
    question = "What is the default value of the steep_limit pragma?"
    judged = {v.method: v.verdict for v in assess_support(question, "0", quote, DEFAULT_SUPPORT)}
    assert judged["focus-entity"] == "supported"
    # Must fail: the words in another order, or one word of the name, do not name it.
    for other in ("The default value for the limit of steeping is 0.", "The default value for steep is 0."):
        judged = {v.method: v.verdict for v in assess_support(question, "0", other, DEFAULT_SUPPORT)}
        assert judged["focus-entity"] == "unsupported", other


# Versions, errors and interfaces.


def test_the_minimum_version_is_a_version_question(pages: list[Page]) -> None:
    asked = doc_question("What is the minimum KettleDB version needed to use LIDLESS kettles?", True)
    assert asked is not None and asked.kind == "version"
    answers = doc_answers(pages, "What is the minimum KettleDB version needed to use LIDLESS kettles?")
    assert answers[:1] == ["2.4.1"]
    # Must fail: "minimum" beside another noun asks for no version.
    asked = doc_question("What is the minimum steep limit that KettleDB recommends?", True)
    assert asked is not None and asked.kind != "version"


def test_which_error_is_an_exception_or_an_error_code(pages: list[Page]) -> None:
    answers = doc_answers(pages, "Which error is raised when the water cannot be boiled?")
    assert answers[:1] == ["KETTLE_CONSTRAINT_BOIL"]


def test_which_error_is_the_code_returned_not_a_macro_named(tmp_path: Path) -> None:
    html = (
        "<html><head><title>Lids</title></head><body><h1>Lids</h1>"
        "<p>If KettleDB is compiled with KETTLE_ENABLE_LIDS, an attempt to pour with the lid closed returns"
        " KETTLE_MISUSE.</p></body></html>"
    )
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"l": html}), "l")
    question = "Which error does KettleDB return on an attempt to pour with the lid closed?"
    # Must fail as KETTLE_ENABLE_LIDS: a macro the sentence names is not the code it says is returned.
    assert doc_answers(pages, question)[:1] == ["KETTLE_MISUSE"]


def test_which_interface_is_a_function_named_in_a_sentence_about_the_asked(pages: list[Page]) -> None:
    asked = doc_question("Which C interface does not fire callbacks for changes to a LIDLESS kettle?", True)
    assert asked is not None and asked.kind == "which" and asked.noun == "interface"
    answers = doc_answers(pages, "Which C interface does not fire callbacks for changes to a LIDLESS kettle?")
    assert answers[:1] == ["kettle_pour_hook()"]
    # Must fail: the sentence says nothing of what this question asks the interface to do.
    assert doc_answers(pages, "Which C interface reports the water temperature of a LIDLESS kettle?") == []


# What a page is about, and what a question offers.


def test_a_numbered_first_section_is_not_what_the_page_is_about(pages: list[Page]) -> None:
    assert page_subject(pages[0]) == "Kettle"  # from the title, not "1." of "1. Overview"
    assert page_subject(pages[1]) == "Brewing"  # a plain first heading still names it


def test_a_list_in_the_question_is_no_offered_choice() -> None:
    question = (
        "After BEGIN, which lock does KettleDB take when the first INSERT, UPDATE or DELETE statement runs?"
    )
    assert offered(question) is None and choice_question(question) is None
    # Must fail: a question that ends on the two names still offers them, and so does one whose second
    # name ends in a lower-case word (only keywords in capitals are read as a list).
    assert offered("Which tea is steeped longer, Assam or Darjeeling?") == ("Assam", "Darjeeling")
    assert offered("Which film is older, Dinosaur or Tears of the sun?") == ("Dinosaur", "Tears of the sun")


@pytest.mark.anyio
async def test_a_question_about_structured_pages_opens_its_third_hit_instead_of_a_bridge(
    tmp_path: Path,
) -> None:
    from citeloop.events import open_store
    from citeloop.policies import ExtractivePolicy
    from citeloop.runtime import Runtime

    (tmp_path / "pages").mkdir()
    corpus = page_corpus(tmp_path / "pages", {"settings": SETTINGS, "brew": OTHER, "cups": THIRD})
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        # A nested question ("... the kettle that ...") over prose would search a second hop; over a
        # manual's structured pages it is a documentation question, answered from the first search.
        outcome = await rt.run("Which pragma that KettleDB documents is off by default?")
        events = await rt.transcript(outcome.run_id)
    searches = [e for e in events if type(e).__name__ == "ToolObserved" and e.tool == "search"]
    opened = [e for e in events if type(e).__name__ == "ToolObserved" and e.tool == "open"]
    assert len(searches) == 1 and len(opened) == 3  # the first search's three hits, no second hop


def test_the_product_every_page_names_is_no_answer(tmp_path: Path) -> None:
    def page(name: str, text: str) -> str:
        return f"<html><head><title>{name}</title></head><body><h1>{name}</h1><p>{text}</p></body></html>"

    (tmp_path / "pages").mkdir()
    corpus = page_corpus(
        tmp_path / "pages",
        {
            "seq": page(
                "Counters",
                "KettleDB keeps the largest cup number of each pot in the internal pot_counter table.",
            ),
            "one": page("Pots", "A pot in KettleDB holds tea."),
            "two": page("Cups", "A cup in KettleDB holds less tea."),
        },
    )
    pages = open_pages(corpus, "seq", "one", "two")
    question = "Which internal table does KettleDB use to keep track of the largest cup number of a pot?"
    assert doc_answers(pages, question)[:1] == ["pot_counter"]
    # Must fail: "KettleDB" is the product every page names, not a table.
    bare = page("Counters", "KettleDB keeps the largest cup number of each pot in an internal table.")
    (tmp_path / "bare").mkdir()
    corpus = page_corpus(
        tmp_path / "bare",
        {"seq": bare, "one": page("Pots", "A pot in KettleDB."), "two": page("Cups", "A cup in KettleDB.")},
    )
    assert "KettleDB" not in doc_answers(open_pages(corpus, "seq", "one", "two"), question)


def test_a_state_answers_only_a_question_asking_for_one(tmp_path: Path) -> None:
    text = "Steam venting is enabled by default with an interval of 30 seconds."
    pages = one_page(tmp_path / "pages", "Venting", f"<p>{text}</p>")
    assert doc_answers(pages, "Is steam venting enabled by default?")[:1] == ["enabled"]
    # Must fail: asked for the interval, the state is no answer.
    assert doc_answers(pages, "What is the default steam venting interval?")[:1] == ["30 seconds"]


# "What happens if C?": the consequence a sentence states of C, before or after it.


@pytest.fixture(scope="module")
def happenings(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    text = (
        "<p>LIDLESS kettles do follow the standard and will throw an error on any attempt to pour a NULL "
        "into a SPOUT column.</p>"
        "<p>If an earlier version of KettleDB attempts to read a kettle file that contains a steam column "
        "in its schema, then that earlier version will report that the kettle schema is corrupt.</p>"
        "<p>When the lid is open, the kettle whistles, and when the lid is closed, the kettle "
        "will stay silent.</p>"
    )
    return one_page(tmp_path_factory.mktemp("happen"), "Kettles", text)


def test_a_consequence_before_its_condition_answers(happenings: list[Page]) -> None:
    question = "What happens if I try to pour a NULL into a SPOUT column of a LIDLESS kettle?"
    assert doc_answers(happenings, question)[:1] == ["will throw an error"]


def test_a_condition_within_an_if_clause_is_one_condition(happenings: list[Page]) -> None:
    question = "What happens if KettleDB older than 2.0 reads a kettle whose schema holds a steam column?"
    assert doc_answers(happenings, question)[:1] == ["will report that the kettle schema is corrupt"]


@pytest.mark.parametrize(
    ("sentence", "question"),
    [
        # What happens when C does not hold: "unless", "otherwise".
        (
            "KettleDB will refuse to empty an unclean kettle unless the force option is given.",
            "What happens if the force option is given when emptying an unclean kettle?",
        ),
        # A condition after a condition, with no comma: three clauses, not one.
        (
            "If the lid is held the pour will wait when a busy timeout is set and will fail otherwise.",
            "What happens if the lid is held during a pour and a busy timeout is set?",
        ),
        # "returns" before the condition describes the kettle; it is no consequence of the asking.
        (
            "A LIDLESS kettle returns the column names of the table when asked to pour a NULL.",
            "What happens when I ask a LIDLESS kettle to pour a NULL into the table?",
        ),
    ],
)
def test_a_consequence_of_another_condition_is_no_answer(
    tmp_path: Path, sentence: str, question: str
) -> None:
    assert doc_answers(one_page(tmp_path / "pages", "Pouring", f"<p>{sentence}</p>"), question) == []


def test_a_particle_of_the_verb_stays_with_it(tmp_path: Path) -> None:
    html = (
        "<html><head><title>Alarms</title></head><body><h1>Alarms</h1>"
        "<p>The steam alarm will be turned on when the water in the kettle boils.</p></body></html>"
    )
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"a": html}), "a")
    # Must fail as "will be turned": the "on" belongs to the verb, not to the condition.
    assert doc_answers(pages, "What happens when the water in the kettle boils?") == ["will be turned on"]


def test_two_conditions_in_one_sentence_answer_neither(happenings: list[Page]) -> None:
    # Must fail: "when the lid is open, ..., and when the lid is closed, ... will stay silent" states two
    # conditions; the last consequence is the second one's.
    assert doc_answers(happenings, "What happens when the kettle lid is open?") == []


# "Which <noun>" where no code names the thing: the keyword beside the noun.


@pytest.fixture(scope="module")
def locks(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    text = (
        "<p>A RESERVED lock will be taken when the first POUR statement is executed.</p>"
        "<p>After an EXCLUSIVE lock is released by a spout, a SHARED lock is taken by the kettle.</p>"
        "<p>A PENDING lock or a WAITING lock is held while the kettle drains its spout.</p>"
        "<p>An OPEN lock is released when KettleDB stops boiling.</p>"
    )
    return one_page(tmp_path_factory.mktemp("locks"), "Locks", text)


def test_which_kind_of_thing_is_the_keyword_beside_its_noun(locks: list[Page]) -> None:
    question = "After BEGIN, which lock does KettleDB take when the first POUR statement runs?"
    asked = doc_question(question, True)
    assert asked is not None and (asked.kind, asked.noun) == ("keyword", "lock")
    assert doc_answers(locks, question)[:1] == ["RESERVED"]
    # A keyword the question writes is not its answer; the other one beside the noun is.
    assert doc_answers(locks, "Which lock does KettleDB take after an EXCLUSIVE lock is released?") == [
        "SHARED"
    ]


def test_two_keywords_beside_the_noun_or_only_the_asked_one_answer_nothing(locks: list[Page]) -> None:
    # Must fail: "a PENDING lock or a WAITING lock" names two; "an OPEN lock" is the question's own.
    assert doc_answers(locks, "Which lock does KettleDB hold while the kettle drains its spout?") == []
    assert doc_answers(locks, "Which lock does KettleDB release when it stops boiling, the OPEN lock?") == []


def test_a_which_question_naming_no_code_keeps_to_the_general_path() -> None:
    # The general path answers "which" with a capitalised name; only a question the documentation
    # rules would refuse as unhandled takes a keyword.
    asked = doc_question("Which conflict algorithm does the DO UPDATE part of a pour always use?", True)
    assert asked is None


def test_an_error_named_by_its_quoted_message(tmp_path: Path) -> None:
    html = (
        "<html><head><title>Lidless kettles</title></head><body><h1>Lidless kettles</h1>"
        "<p>An attempt to open a kettle file that holds a LIDLESS kettle using an earlier version of"
        ' KettleDB will result in a "malformed kettle schema" error.</p>'
        '<p>The word "malformed" is printed in red.</p></body></html>'
    )
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"k": html}), "k")
    question = (
        "What error does an older version of KettleDB report when it opens a file holding a LIDLESS kettle?"
    )
    assert doc_answers(pages, question)[:1] == ["malformed kettle schema"]
    # Must fail: a quoted word that is not followed by "error" names no error.
    assert doc_answers(pages, "What error is printed in red by KettleDB?") == []


def test_what_the_subject_uses_to_do_what_is_asked(tmp_path: Path) -> None:
    html = (
        "<html><head><title>Locking</title></head><body><h1>Locking</h1>"
        "<p>KettleDB uses advisory lid locks to implement locking on Unix.</p>"
        "<p>KettleDB uses a spout lamp for signalling, and a lid lock to implement locking on Windows.</p>"
        "</body></html>"
    )
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"l": html}), "l")
    asked = doc_question("What does KettleDB use to implement file locking on Unix?", True)
    assert asked is not None and (asked.kind, asked.noun, asked.subject) == ("does", "use", "KettleDB")
    assert doc_answers(pages, "What does KettleDB use to implement file locking on Unix?")[:1] == [
        "advisory lid locks"
    ]
    # Must fail: the object must run from the verb to the question's next words, in one clause
    # ("a spout lamp for signalling, and a lid lock to implement ..." is two).
    assert doc_answers(pages, "What does KettleDB use to implement file locking on Windows?") == []


def test_how_many_times_is_answered_by_twice(tmp_path: Path) -> None:
    html = (
        "<html><head><title>Kettle removal</title></head><body><h1>Kettle removal</h1>"
        "<p>To remove a locked kettle, specify --force twice.</p></body></html>"
    )
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"k": html}), "k")
    question = "How many times must --force be given to remove a locked kettle?"
    assert doc_answers(pages, question)[:1] == ["twice"]
    quote = "To remove a locked kettle, specify --force twice."
    judged = {v.method: v.verdict for v in assess_support(question, "twice", quote, DEFAULT_SUPPORT)}
    assert judged["number-unit"] == "supported"
    # Must fail: "once" is not read as a number (it is as often "as soon as"), and a count of
    # something else than times is no answer to "how many times".
    once = "Once the kettle is locked, specify --force."
    judged = {v.method: v.verdict for v in assess_support(question, "1", once, DEFAULT_SUPPORT)}
    assert judged["number-unit"] == "unsupported"
    assert doc_answers(pages, "How many kettles must --force be given to remove a locked kettle?") == []


def test_by_default_into_a_path_states_that_path(tmp_path: Path) -> None:
    html = (
        "<html><head><title>kettle-notes(1)</title></head><body><h1>kettle-notes(1)</h1>"
        "<p>By default, notes are saved to and read from refs/kettle/notes, but this default can be"
        " overridden.</p><p>By default, brews are saved to disk and kept for a week.</p></body></html>"
    )
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"n": html}), "n")
    assert doc_answers(pages, "Which ref does kettle notes save notes to by default?")[:1] == [
        "refs/kettle/notes"
    ]
    # Must fail: "saved to disk" names no path or code: no default value is stated.
    assert doc_answers(pages, "Where does KettleDB save brews by default?") == []


def test_what_range_is_the_one_range_a_sentence_about_it_gives(tmp_path: Path) -> None:
    html = (
        "<html><head><title>KettleSteamLevel</title></head><body><h1>KettleSteamLevel Directive</h1>"
        "<p>The value must be between 1 (less steam) and 9 (more steam).</p>"
        "<h1>KettleHeatLevel Directive</h1>"
        "<p>The level may go from 0 to 5 in the morning and from 0 to 7 at night.</p></body></html>"
    )
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"k": html}), "k")
    answers = doc_answers(pages, "Within what range must the value of KettleSteamLevel lie?")
    assert answers[:1] == ["between 1 (less steam) and 9 (more steam)"]
    # Must fail: two ranges in one sentence ("in the morning ... at night"), and a sentence about
    # another directive, give no answer.
    assert doc_answers(pages, "Within what range must the value of KettleHeatLevel lie?") == []
    assert doc_answers(pages, "Within what range must the value of KettleLidLevel lie?") == []
