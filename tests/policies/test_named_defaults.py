"""Defaults named before they are said to be the default: "InnoDB is the default storage engine",
"The language PL/tcl is installed by default", "By default, the server uses the PLAIN mechanism".
Before this rule each of these questions was refused though one sentence answered it; the cases
below that must refuse keep a description or a state from being read as a name."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._named_defaults import named_value_ok
from helpers.doc_pages import ask, assert_answer, one_page_corpus

ENGINES = (
    "<p>The server supports several storage engines for its tables.</p>"
    "<p>Quarry is the default storage engine. Ledger is used for temporary tables by default.</p>"
    "<p>The language PL/Lua is installed by default in every database.</p>"
    "<p>By default, the server uses the PLAIN authentication mechanism.</p>"
)
STATES = (
    "<p>Logging is enabled by default.</p>"
    "<p>By default, the server uses a random port for replication.</p>"
    "<p>The cache is used by default for every query.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default storage engine?", "Quarry"),
        ("Which storage engine is the default?", "Quarry"),
        ("Which engine is used for temporary tables by default?", "Ledger"),
        ("Which language is installed by default in every database?", "PL/Lua"),
        ("Which authentication mechanism does the server use by default?", "PLAIN"),
    ],
)
async def test_a_default_named_first_answers(tmp_path: Path, question: str, expected: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Storage engines", ENGINES), question)
    assert_answer(outcome, expected)


@pytest.mark.anyio
@pytest.mark.parametrize(
    "question",
    [
        # a state is no value of a default
        "What is the default log level?",
        # a description ("a random port") is no name
        "Which port does the server use by default for replication?",
        # the question's own word is no answer
        "Which cache is used by default for every query?",
    ],
)
async def test_a_state_a_description_or_the_asked_word_is_refused(tmp_path: Path, question: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Server settings", STATES), question)
    assert_answer(outcome, None)


def test_only_a_name_the_question_does_not_write_is_a_named_default() -> None:
    asked = doc_question("Which port does the server use by default for replication?", True)
    assert asked is not None
    assert (
        named_value_ok("PLAIN", asked) and named_value_ok("PL/Lua", asked) and named_value_ok("'md5'", asked)
    )
    assert not named_value_ok("random", asked)  # "uses a random port": a description
    cache = doc_question("Which cache is used by default for every query?", True)
    assert cache is not None and not named_value_ok("Cache", cache)  # the question's own word


KEYWORDS = (
    "<p>Sets the isolation level of new sessions. The default is SERIAL READS.</p>"
    "<p>The default referential action is NO CASCADE. Other actions are listed below.</p>"
    "<p>The default null behaviour is SKIP ON NULL for ARRAY_OF, and KEEP ON NULL for OBJECT_OF.</p>"
    "<p>Each routine has a security clause. The default is RUN AS OWNER, as the standard requires.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # HSQLDB review: "The default is READ COMMITTED." was answered "READ", "NO ACTION" as "NO".
        ("What is the default isolation level of new sessions?", "SERIAL READS"),
        ("What is the default referential action?", "NO CASCADE"),
        ("What is the default null behaviour of ARRAY_OF?", "SKIP ON NULL"),
        ("What is the default security clause of a routine?", "RUN AS OWNER"),
    ],
)
async def test_a_run_of_keywords_is_one_default(tmp_path: Path, question: str, expected: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Sessions", KEYWORDS), question)
    assert_answer(outcome, expected)


@pytest.mark.anyio
async def test_a_statement_that_overrides_a_default_is_no_default(tmp_path: Path) -> None:
    # HSQLDB review: "Which statement overrides the global default properties for text tables?" was
    # answered "1000" from "cache_rows ... Default is 1000 rows": a statement is asked, not a default.
    row = '<tr><td><p><span class="term">{}</span></p></td><td><p>{}</p></td></tr>'
    page = (
        "<h2>Text Tables</h2>"
        "<p>The global default properties of text tables apply to every new text table.</p>"
        '<div class="variablelist"><p class="title"><b>Supported Properties</b></p>'
        '<table border="0" class="variablelist"><tbody>'
        + row.format(
            "cache_rows= &lt;numeric value&gt;", "rows of the text file in the cache. Default is 1000 rows"
        )
        + "</tbody></table></div>"
    )
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "User Guide", page),
        "Which statement overrides the global default properties for text tables?",
    )
    assert_answer(outcome, None)


SCHEME = "<dt>HARBOR_RELAY_SCHEME</dt><dd>(optional) http or https, defaults to http</dd>"
ZONE = "<dt>HARBOR_RELAY_ZONE</dt><dd>(optional) Relay zone of the host</dd>"
PORT = "<dt>HARBOR_RELAY_PORT</dt><dd>(optional) the port of the relay, defaults to 8500</dd>"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "entries", "expected"),
    [
        # Patroni review: "Which Consul datacenter is used by default?" answered "http", the scheme's.
        ("Which relay datacenter is used by default?", SCHEME + ZONE, None),
        ("Which relay port is used by default?", SCHEME + PORT, "8500"),
    ],
)
async def test_the_thing_a_which_question_asks_for_is_what_the_default_is_of(
    tmp_path: Path, question: str, entries: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Environment", f"<dl>{entries}</dl>"), question)
    assert_answer(outcome, expected)


@pytest.mark.anyio
async def test_a_value_keeps_its_balanced_brackets(tmp_path: Path) -> None:
    # Patroni review: "Default value is %(asctime)s %(levelname)s: %(message)s" answered "%(asctime".
    page = (
        "<dl><dt>HARBOR_LOG_FORMAT</dt>"
        "<dd>sets the log formatting string. Default value is %(asctime)s</dd></dl>"
    )
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Environment", page), "What is the default log format?"
    )
    assert_answer(outcome, "%(asctime)s")


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # HSQLDB review: "MATCH SIMPLE is the default", "two-phase-locking (2PL), which is the default"
        ("What is the default match option of a foreign key?", "MATCH LOOSE"),
        ("Which concurrency control model is the default?", "two-phase-stamping"),
    ],
)
async def test_a_keyword_run_or_a_name_before_which_is_the_default(
    tmp_path: Path, question: str, expected: str
) -> None:
    body = (
        "<h2>Foreign key constraints</h2>"
        "<p>A foreign key may state a match option. If the clause is not specified, MATCH LOOSE is the"
        " default.</p><h2>Concurrency</h2>"
        "<p>The engine supports three concurrency control models: two-phase-stamping (2PS),"
        " which is the default, multiversion control (MVC) and a mixed model.</p>"
    )
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Transactions", body), question)
    assert_answer(outcome, expected)
