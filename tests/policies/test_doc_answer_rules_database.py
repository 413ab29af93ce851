"""Rules from the SQLite manual's dev half (issue 11): a database manual's prose reference.

A database manual documents its settings and statements in running prose more than under
terms: "The BREW command heats ...", "with N defaulting to 100", "beginning with BrewDB
version 3.12.0, the default cup size increased to 4", "the defer_brews pragma can be used
to ...". Each rule has a case that must fail. The pages are invented (a "BrewDB" manual),
so none of the cases tunes on a real one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import short_answer
from citeloop.runtime import DEFAULT_SUPPORT, Outcome, Runtime, assess_support
from citeloop.runtime._quantities import fold_text, quantities
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

NAV = "<p>BrewDB: Home, Documentation, Download, Support</p>"

PRAGMAS = f"""<html><head><title>Pragma statements supported by BrewDB</title></head><body>{NAV}
<h1>PRAGMA Statements</h1>
<p><b>PRAGMA integrity_check(N);</b></p>
<p>Pragma integrity_check will return at most N errors before the analysis quits, with N
defaulting to 100.</p>
<p><b>PRAGMA kettle_autoflush;</b></p>
<p>This pragma queries or sets the kettle auto-flush interval. Autoflushing is enabled by default
with an interval of 1000 or BREW_DEFAULT_AUTOFLUSH.</p>
<p>The default isolation level for BrewDB is SERIALIZABLE.</p>
<p>For many years, the default cup size was almost always 2 cups, but beginning with BrewDB version
3.12.0 (2016-03-29), the default cup size increased to 4.</p>
<p>If BREW_OMIT_TRIGGER is defined, brew definitions are parsed and may be queried using PRAGMA
brew_list, but brew constraints are not enforced.</p>
<p>The defer_brews pragma can be used to temporarily change all brew constraints to deferred.</p>
<p>The maximum number of cups in a pot is defined by the preprocessor macro BREW_MAX_CUPS.</p>
<p>The spare kettle always uses the synchronous=OFF and kettle_mode=PERSIST pragma settings.</p>
<p>The kettle functions are only included in builds if the -DBREW_ENABLE_KETTLE compile-time option
was included.</p>
<p>If there is a LIDLESS pot with that name, this pragma returns the lid columns of the LIDLESS pot.</p>
<p>The pot_info pragma returns the lid columns of every LIDLESS pot, and then an error.</p>
</body></html>"""

STATEMENTS = f"""<html><head><title>POUR</title></head><body>{NAV}
<h1>1. Description</h1>
<p>The POUR command empties the pot into cups, one cup at a time. Running POUR ensures that no tea is
left. The POUR command is safe to run twice.</p>
<p>The ability to pour attached pots was added in version 3.15.0 (2016-10-14).</p>
<p>For BrewDB versions before 3.16.0 (2017-01-02), the "steep" modifier only works for times up to
09:00:00.</p>
<p>Formats that specify only a time assume a date of 2000-01-01.</p>
<p>The default value of the BREW_TEMP_STORE compile-time parameter is 1, which means to keep spare
cups on disk.</p>
<p>Indexes on kettles will not work with versions of BrewDB prior to version 3.9.0 (2015-10-14).</p>
<p>Prior to version 3.2.0, kettles were heated twice, which did not harm them.</p>
<p>In BrewDB version 3.8.8 (2015-01-16) and later, a pending pour will continue after the ROLLBACK as
long as the ROLLBACK does not modify the pot.</p>
<p>The "steep" modifier must immediately follow the time. If the time is numeric then the 'steep'
modifier causes the time to be read as minutes or seconds, depending on its size.</p>
<p>If the pot is initially empty, then a ROWID of 1 is used.</p>
<p>In other words, the purpose of AUTOPOUR is to prevent the reuse of cups from previously
emptied pots.</p>
<p>Any attempt to use AUTOPOUR on a LIDLESS pot results in an error.</p>
<h2>Maximum Number Of Cups In A Pot</h2>
<p>An attempt to pour new cups that would make the pot grow larger than this will return BREW_FULL.</p>
</body></html>"""

FAQ = f"""<html><head><title>Questions</title></head><body>{NAV}
<h1>Frequently asked</h1>
<p>Running POUR ensures that no tea is left. The POUR command is safe to run twice. Brewing stops,
then the POUR command empties the pot.</p>
</body></html>"""

LIMITS = f"""<html><head><title>Limits In BrewDB</title></head><body>{NAV}
<h2>Limits In BrewDB</h2>
<ul><li><p><b>Maximum Number Of Cups In A Pot</b></p>
<p>BrewDB does not support pots holding more than 64 cups.</p></li>
<li><p><b>Maximum Length Of A Spout</b></p><p>A spout is never longer than 9 inches.</p></li></ul>
</body></html>"""

OTHER = f"""<html><head><title>Write-Ahead Brewing</title></head><body>{NAV}
<h1>Write-Ahead Brewing</h1>
<p>Brewing ahead of time is faster in most cases.</p>
</body></html>"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return page_corpus(
        tmp_path_factory.mktemp("brewdb"),
        {
            "pragma": PRAGMAS,
            "pour": STATEMENTS,
            "wab": OTHER,
            "faq": FAQ,
            "limits": LIMITS,
            "limits-untitled": LIMITS.replace("<b>", "").replace("</b>", ""),
        },
    )


@pytest.fixture(scope="module")
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "pragma", "pour", "wab")


async def ask(corpus: Corpus, question: str) -> Outcome:
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        return await rt.run(question)


# "Which pragma" and "which macro": the name the sentence gives as one, never a word of the prose.


def test_which_pragma_is_the_name_called_a_pragma(pages: list[Page]) -> None:
    answers = doc_answers(pages, "Which pragma can temporarily make all brew constraints deferred?")
    assert answers[:1] == ["defer_brews"]


def test_a_sentence_denying_what_is_asked_names_no_pragma(pages: list[Page]) -> None:
    # Must fail: "brew constraints are not enforced" does not say brew_list enforces them.
    assert "brew_list" not in doc_answers(pages, "Which pragma turns on brew constraint enforcement?")


def test_which_macro_is_spelled_in_capitals_with_an_underscore(pages: list[Page]) -> None:
    answers = doc_answers(pages, "Which preprocessor macro defines the maximum number of cups in a pot?")
    assert answers[:1] == ["BREW_MAX_CUPS"]


def test_a_lower_case_name_is_no_macro(pages: list[Page]) -> None:
    # Must fail: integrity_check is a pragma's name, not a macro.
    answers = doc_answers(pages, "Which macro sets how many errors integrity_check reports?")
    assert "integrity_check" not in answers


# Defaults stated in a database manual's words.


def test_defaulting_to_states_a_default(pages: list[Page]) -> None:
    answers = doc_answers(pages, "By default, how many errors will PRAGMA integrity_check report?")
    assert answers[:1] == ["100"]


def test_enabled_by_default_with_an_interval_states_the_interval(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What is the default kettle auto-flush interval in BrewDB?")
    assert answers[:1] == ["1000"]


def test_a_default_of_four_words_before_is(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What is the default transaction isolation level in BrewDB?")
    assert answers[:1] == ["SERIALIZABLE"]


def test_the_product_every_page_names_is_not_code_a_sentence_must_repeat(pages: list[Page]) -> None:
    asked = doc_question("What is the default transaction isolation level in BrewDB?", True)
    assert asked is not None and "BrewDB" in asked.identifiers
    # With three pages that all name BrewDB it is the product; with two, the sentence must name it.
    assert doc_answers(pages, "What is the kettle auto-flush interval by default in BrewDB?")[:1] == ["1000"]
    assert doc_answers(pages[:2], "What is the kettle auto-flush interval by default in BrewDB?") == []


# "What <noun> ...": the value a sentence gives as "a <noun> of ...".


def test_what_noun_is_answered_by_a_noun_of_a_value(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What date do the functions assume when a format specifies only a time?")
    assert answers[:1] == ["2000-01-01"]
    assert doc_answers(pages, "What ROWID is given to the first cup poured into an empty pot?")[:1] == ["1"]


def test_what_noun_without_a_value_of_that_noun_is_not_answered(pages: list[Page]) -> None:
    # Must fail: no sentence gives "a temperature of ...".
    assert doc_answers(pages, "What temperature do the functions assume when only a time is given?") == []


def test_the_maximum_number_of_things_counts_them_under_the_section_title(corpus: Corpus) -> None:
    question = "What is the maximum number of cups that can be held in a single pot?"
    assert doc_answers(open_pages(corpus, "limits"), question)[:1] == ["64 cups"]
    # Must fail: without its bold title the sentence alone says too little of the question.
    assert doc_answers(open_pages(corpus, "limits-untitled"), question) == []


# Versions told in prose.


def test_a_version_told_in_prose_answers_the_change(pages: list[Page]) -> None:
    answers = doc_answers(pages, "In which BrewDB version did the default cup size increase to 4?")
    assert answers[:1] == ["3.12.0"]
    answers = doc_answers(pages, "In which BrewDB version did POUR gain the ability to pour attached pots?")
    assert answers[:1] == ["3.15.0"]


def test_before_which_version_takes_the_version_after_before(pages: list[Page]) -> None:
    answers = doc_answers(pages, "Before which BrewDB version was the 'steep' modifier limited to 09:00:00?")
    assert answers[:1] == ["3.16.0"]


def test_a_default_value_of_a_named_parameter_is_stated_after_is(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What is the default value of the BREW_TEMP_STORE compile-time option?")
    assert answers[:1] == ["1"]


def test_not_working_before_a_version_says_when_it_began_to(pages: list[Page]) -> None:
    assert doc_answers(pages, "What BrewDB version is needed to use indexes on kettles?")[:1] == ["3.9.0"]
    # A negation elsewhere in the sentence ("does not modify") does not turn "and later" around.
    question = "Starting with which BrewDB version does a pending pour keep going after a ROLLBACK?"
    assert doc_answers(pages, question)[:1] == ["3.8.8"]
    # Must fail: "prior to version 3.2.0" without a denial is not when kettles began to be heated twice.
    assert "3.2.0" not in doc_answers(pages, "In which BrewDB version were kettles heated twice?")


def test_a_statement_in_capitals_must_be_named_whole(pages: list[Page]) -> None:
    # Must fail: "the ability to pour attached pots" is not POUR INTO.
    assert doc_answers(pages, "In which BrewDB version was POUR INTO added?") == []


def test_a_sentence_of_another_change_gives_no_version(pages: list[Page]) -> None:
    # Must fail: the sentence with 3.12.0 is about the cup size, not about brewing ahead.
    assert doc_answers(pages, "In which BrewDB version was write-ahead brewing introduced?") == []


# What a command does, and what a feature is for, in prose.


def test_what_a_command_does_is_the_predicate_of_its_own_sentence(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What does the POUR command do?")
    assert answers[:1] == ["empties the pot into cups, one cup at a time"]


def test_a_sentence_naming_the_command_in_passing_says_nothing_it_does(corpus: Corpus) -> None:
    # Must fail: "Running POUR ensures ..." and "The POUR command is safe ..." are not what POUR does.
    assert doc_answers(open_pages(corpus, "faq"), "What does the POUR command do?") == []


def test_what_it_does_under_a_condition_is_the_main_clause_of_that_condition(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What does the 'steep' modifier do with a numeric time?")
    assert answers[:1] == ["causes the time to be read as minutes or seconds, depending on its size"]
    # Must fail: a condition the sentence does not state.
    assert doc_answers(pages, "What does the 'steep' modifier do with a text value in a teapot?") == []


def test_the_first_sentence_under_a_term_answers_no_condition_it_does_not_state(tmp_path: Path) -> None:
    (tmp_path / "api").mkdir()
    page = (
        "<html><head><title>brew</title></head><body><h1>brew</h1><dl><dt>brew.steep(t)</dt>"
        "<dd><p>Steep the tea for t minutes in the pot.</p></dd></dl></body></html>"
    )
    pages = open_pages(page_corpus(tmp_path / "api", {"api": page}), "api")
    assert doc_answers(pages, "What does brew.steep do?") == ["Steep the tea for t minutes in the pot"]
    assert doc_answers(pages, "What does brew.steep do with the pot?") == [
        "Steep the tea for t minutes in the pot"
    ]
    # Must fail: what steep does in general is not what it does with a negative time.
    assert doc_answers(pages, "What does brew.steep do with a negative number of seconds?") == []


def test_the_purpose_of_a_feature_is_the_clause_after_is(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What is the purpose of the AUTOPOUR keyword?")
    assert answers[:1] == ["to prevent the reuse of cups from previously emptied pots"]
    # Must fail: the purpose of another feature.
    assert doc_answers(pages, "What is the purpose of the AUTOFLUSH keyword?") == []


# "What happens if/when ...": the consequence the sentence of that condition states.


def test_what_happens_is_the_consequence_of_the_stated_condition(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What happens if I use AUTOPOUR on a LIDLESS pot?")
    assert answers[:1] == ["results in an error"]
    answers = doc_answers(
        pages, "What happens when a pour would make the pot grow beyond the maximum number of cups?"
    )
    assert answers[:1] == ["will return BREW_FULL"]


def test_a_description_or_another_condition_is_no_consequence(pages: list[Page]) -> None:
    # Must fail: the pragma page's sentences name a LIDLESS pot but not AUTOPOUR, and the second
    # describes what a pragma returns under no condition at all.
    pragma_only = [p for p in pages if p.url.endswith("pragma")]
    assert doc_answers(pragma_only, "What happens if I use AUTOPOUR on a LIDLESS pot?") == []
    assert doc_answers(pragma_only, "What happens if I use pot_info on every LIDLESS pot?") == []


def test_what_happens_is_not_read_under_the_term_the_condition_names(tmp_path: Path) -> None:
    # Must fail: the first sentence under brew.set_limit() says what it is, not what follows a value.
    (tmp_path / "brew").mkdir()
    corpus = page_corpus(
        tmp_path / "brew",
        {
            "api": "<html><head><title>brew</title></head><body><h1>brew</h1><dl><dt>brew.set_limit(n)</dt>"
            "<dd><p>Set the brewing limit.</p></dd></dl></body></html>"
        },
    )
    answers = doc_answers(open_pages(corpus, "api"), "What happens if n is set to zero with brew.set_limit?")
    assert answers == []


# The general path: a "which <measure noun>" question takes numbers beside that noun.


def test_which_bytes_is_answered_with_the_numbers_beside_bytes() -> None:
    question = analyze("Which bytes of the pot header hold the format numbers?")
    quote = "To keep older readers out (prior to version 3.7.0), the format numbers (bytes 18 and 19) change."
    assert question.kind == "how_many"
    assert short_answer(question, quote) == "18 and 19"
    # Must fail: no number stands beside "bytes"; the version is not an answer.
    assert short_answer(question, "Prior to version 3.7.0 the format numbers were different.") is None


def test_turn_on_is_read_as_the_manuals_enable() -> None:
    asked = doc_question("Which pragma do I use to turn on brew enforcement?", True)
    assert asked is not None and "enable" in asked.words and "turn" not in asked.words
    # Must fail: "turn" alone is no phrasal verb.
    asked = doc_question("Which pragma sets the turn order of the brews?", True)
    assert asked is not None and "turn" in asked.words and "enable" not in asked.words


def test_a_capitalised_word_of_the_question_is_not_its_answer() -> None:
    question = analyze("Which conflict algorithm does the DO UPDATE part of a BrewDB pour always use?")
    quote = "The conflict algorithm for the update operation of the DO UPDATE clause is always ABORT."
    assert short_answer(question, quote) == "ABORT"


@pytest.mark.anyio
async def test_a_name_every_opened_page_carries_is_not_the_answer(tmp_path: Path) -> None:
    def page(name: str, text: str) -> str:
        return f"<html><head><title>{name}</title></head><body><h1>{name}</h1><p>{text}</p></body></html>"

    question = "Which built-in brewing sequence steeps leaves gently?"
    pages = {
        "a": page("Sequences", "The built-in brewing sequence that steeps leaves gently ships with BrewDB."),
        "b": page("Leaves", "BrewDB steeps leaves in a brewing sequence of its own."),
        "c": page("Gently", "A gentle brewing sequence in BrewDB steeps leaves slowly."),
    }
    (tmp_path / "all").mkdir()
    outcome = await ask(page_corpus(tmp_path / "all", pages), question)
    assert outcome.status == "abstained" and outcome.reason == "low_confidence"
    # Must fail: when one opened page does not name BrewDB, it is not the manual's subject.
    (tmp_path / "two").mkdir()
    pages["c"] = page("Gently", "A gentle brewing sequence in KettleOS steeps leaves slowly.")
    outcome = await ask(page_corpus(tmp_path / "two", pages), question)
    assert outcome.status == "answered" and outcome.answer == "BrewDB"


def test_which_setting_is_answered_by_its_value_not_its_name(pages: list[Page]) -> None:
    answers = doc_answers(pages, "Which kettle mode does the spare kettle always use?")
    assert answers[:1] == ["PERSIST"]


def test_which_option_must_say_the_verb_asked(pages: list[Page]) -> None:
    # Must fail: the option that includes the functions does not remove them.
    question = "Which compile-time option removes the kettle functions from a BrewDB build?"
    assert "-DBREW_ENABLE_KETTLE" not in doc_answers(pages, question)


def test_a_quoted_letter_is_a_word_of_the_question() -> None:
    asked = doc_question("How many bytes does the 'x' format character insert in the 'auto' mode?", True)
    assert asked is not None and "x" in asked.words and "auto" in asked.words


# The gate's side: the same words recognised, nothing loosened.


def test_number_unit_reads_defaulting_to_as_a_default() -> None:
    question = "By default, how many errors will PRAGMA integrity_check report?"
    quote = "Pragma integrity_check returns at most N errors before it quits, with N defaulting to 100."
    judged = {v.method: v.verdict for v in assess_support(question, "100", quote, DEFAULT_SUPPORT)}
    assert judged["number-unit"] == "supported"
    # Must fail: a quote that gives the number without saying it is the default.
    plain = "Pragma integrity_check will return at most 100 errors before the analysis quits."
    judged = {v.method: v.verdict for v in assess_support(question, "100", plain, DEFAULT_SUPPORT)}
    assert judged["number-unit"] == "unsupported"


@pytest.mark.parametrize(
    ("text", "dated"),
    [
        ("enabled by default with an interval of 1000 pages", False),
        ("a maximum of 2000 columns", False),
        ("the summer of 1969", True),
        ("it opened in 1999", True),
    ],
)
def test_an_amount_of_something_is_no_year(text: str, dated: bool) -> None:
    found = [q for q in quantities(fold_text(text)) if q.value in ("1000", "2000", "1969", "1999")]
    assert [q.dated for q in found] == [dated]


def test_the_set_is_checked_in(tmp_path: Path) -> None:
    # The question set these rules were written on exists with its pages (tests/data/sqlite_doc).
    data = Path(__file__).parents[1] / "data"
    assert len(list((data / "sqlite_doc" / "html").glob("*.html"))) == 16
    assert (data / "sqlite_doc_qa.jsonl").stat().st_size > 0


# A review's reproductions (each gave a wrong answer before its fix; all must refuse).


def _one_page(tmp_path: Path, title: str, body: str) -> list[Page]:
    folder = tmp_path / "one"
    folder.mkdir()
    page = f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
    return open_pages(page_corpus(folder, {"p": page}), "p")


@pytest.mark.parametrize(
    ("title", "body", "question"),
    [
        # The condition stated negated unlike the question's.
        (
            "Transactions",
            "<p>If autocommit is not enabled, each statement will begin a new transaction implicitly.</p>",
            "What happens if autocommit is enabled?",
        ),
        (
            "Connections",
            "<p>If the server crashes, clients will reconnect automatically.</p>",
            "What happens if the server does not crash?",
        ),
        # The last consequence is another condition's.
        (
            "Savepoints",
            "<p>When a transaction is rolled back, its savepoints are discarded; when it is committed, they"
            " will be released.</p>",
            "What happens when a transaction is rolled back?",
        ),
        (
            "Constraints",
            "<p>If a foreign key constraint is violated by an INSERT, the statement fails unless the"
            " constraint is deferred, in which case the error will be reported at COMMIT.</p>",
            "What happens if an INSERT violates a foreign key constraint?",
        ),
        # A version of another change, or of another thing.
        (
            "Window functions",
            "<p>Support for window functions was added in version 3.25.0 (2018-09-15).</p>",
            "In which version was support for window functions removed?",
        ),
        (
            "Backups",
            "<p>Support for compressed backups requires version 1.2.11 of the zlib library.</p>",
            "In which version was support for compressed backups added?",
        ),
        # A negation of a condition, not of the version's own predicate.
        (
            "Indexes",
            "<p>When the database is not in WAL mode, versions prior to 3.22.0 rebuilt the index twice after"
            " a crash.</p>",
            "In which version was the index rebuilt twice after a crash?",
        ),
        # A sentence-opening word spelled like the keyword; a plural noun read as the verb.
        (
            "Keywords",
            "<p>Only rows that satisfy the condition are returned.</p>",
            "What does the ONLY keyword do?",
        ),
        (
            "UPDATE",
            "<p>The UPDATE statements inside a trigger may not use qualified table names.</p>",
            "What does the UPDATE statement do?",
        ),
        (
            "JSON",
            "<p>The JSON functions and operators are built into the server by default.</p>",
            "What does the JSON function do?",
        ),
        # Prose around the word "pragma" is no pragma's name.
        (
            "Pragmas",
            "<p>This pragma returns one row for each column in the named table.</p>",
            "Which pragma returns one row for each column in a table?",
        ),
        # A condition's value is not the value asked for; a count in words is no "a <noun> of".
        (
            "Server",
            "<p>If the timeout is 0, idle connections are never closed.</p>",
            "What timeout does the server use for idle connections?",
        ),
        (
            "Startup",
            "<p>The server reads one file at startup before it reads postgresql.conf and pg_hba.conf.</p>",
            "What file does the server read at startup?",
        ),
    ],
)
def test_review_cases_are_refused(tmp_path: Path, title: str, body: str, question: str) -> None:
    assert doc_answers(_one_page(tmp_path, title, body), question) == []


def test_which_columns_asks_for_names_not_a_count() -> None:
    # Must fail: "Which columns" is not "how many columns".
    question = analyze("Which columns does the index cover?")
    assert question.kind != "how_many"
    assert short_answer(question, "The index covers 2 columns, name and email, in that order.") != "2"


def test_a_year_after_another_noun_of_stays_a_year() -> None:
    # Must fail: "a vintage of 1969" is a year, unlike "an interval of 1000".
    found = [q for q in quantities(fold_text("a vintage of 1969 was served")) if q.value == "1969"]
    assert [q.dated for q in found] == [True]
