"""Review 14 (the HSQLDB 2.7 guide, a real database manual, and the Patroni 3.0 documentation): wrong
answers with real citations, each class on an invented page - whose default a sentence states, what
a "which class" question cannot be answered by, and a version the question itself writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_match import overlap_words
from helpers.doc_pages import ask, assert_answer, one_page_corpus, page_corpus

TEXT_TABLES = """
<h2>Configuration</h2>
<p>The default field separator is a semicolon (;). The quoted option (default true) uses quotes only
when necessary to distinguish a field that contains the separator character.</p>
<h2>Text table caching</h2>
<p>Text table source files are cached in memory. The page_size property sets the maximum amount of
memory used for each text table. The default is 100 KB.</p>
<h2>Recovery</h2>
<p>primary_wait_limit: the amount of time a primary is allowed to recover from failures before a
failover is started (in seconds). Default is 300 seconds.</p>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "(default true)" is the quoted option's, not the separator's; "The default is 100 KB." is
        # page_size's, named by the sentence before it (the guide answered "true", then "100 KB").
        ("What is the default field delimiter for text tables?", None),
        # ... unless that sentence describes what is asked in other words.
        (
            "How long is a primary allowed to recover from failures before a failover, by default?",
            "300 seconds",
        ),
    ],
)
async def test_a_default_belongs_to_the_setting_its_sentence_names(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Text Tables", TEXT_TABLES), question)
    assert_answer(outcome, expected)


RUNNING = """
<h2>Starting a server</h2>
<p>The main purpose of the init script is to start up a listener for the catalogs specified in your
harbor.properties file.</p>
<h2>Connecting</h2>
<p>The driver class is loaded before connecting: <code>Class.forName("org.harbor.jdbc.HarborDriver");</code>
and on failure <code>System.err.println("ERROR: failed to load the driver.");</code> is called.</p>
"""


@pytest.mark.anyio
async def test_a_file_is_no_class(tmp_path: Path) -> None:
    # The guide answered "Which main class is used to start the HTTP server?" with "server.properties".
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Running Harbor", RUNNING),
        "Which main class is used to start the Harbor listener?",
    )
    assert_answer(outcome, None)


@pytest.mark.anyio
async def test_a_member_reached_through_a_class_is_no_class(tmp_path: Path) -> None:
    # ... and "Which driver class is loaded ...?" with "System.err.println".
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Running Harbor", RUNNING),
        "Which driver class is loaded before connecting to Harbor?",
    )
    assert outcome.status == "answered" and "org.harbor.jdbc.HarborDriver" in outcome.answer, outcome.answer


@pytest.mark.anyio
async def test_the_questions_own_version_is_no_answer(tmp_path: Path) -> None:
    # "Which Java version or later is HyperSQL 2.7.1 compatible with?" was answered "2.7.1".
    page = "<p>Harbor version 4.2.1 is compatible with Java 11 or later and supports the module system.</p>"
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Running Harbor", page),
        "Which Java version or later is Harbor 4.2.1 compatible with?",
    )
    assert outcome.answer != "4.2.1"


SETTINGS = """
<h2>Global settings</h2>
<ul>
<li><p><strong>poll_wait</strong>: the number of seconds the loop will sleep. Default value: 10</p></li>
<li><p><strong>retry_limit</strong>: timeout for store retries (in seconds). Default value: 10</p></li>
<li><p><strong>trace_level</strong>: sets the level where traces are shown. Default value is ERROR.</p></li>
<li><p><strong>standby</strong>: true or false, whether this node may be promoted. Defaults to false</p></li>
<li><p><strong>mirror</strong>: true or false, whether this node serves copies. Defaults to true</p></li>
</ul>
<h2>Stash</h2>
<ul>
<li><p><strong>stash.show_stat</strong>: if true, stash show prints the diffstat. Defaults to true.</p></li>
</ul>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Patroni review: "name: description. Default value: N" list items were refused - the item
        # opening with its setting and a colon describes that setting, as a definition would.
        ("What is the default value of poll_wait?", "10"),
        ("What is the default retry_limit?", "10"),
        ("What is the default trace_level?", "ERROR"),
        ("What is the default value of standby?", "false"),
        ("What is the default value of mirror?", "true"),
        # A question asking what something shows asks for a thing, which "true" is not.
        ("What does stash show print by default?", None),
    ],
)
async def test_a_list_item_opening_with_its_setting_describes_it(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Settings", SETTINGS), question)
    assert_answer(outcome, expected)


TYPES = """
<h2>Numeric types</h2>
<p>For example the value range for TINYNUM is -64 to +63. The bit precision of TINYNUM, SMALLNUM and
BIGNUM is respectively 7, 15 and 63.</p>
<h2>Functions</h2>
<p>For example, the sound value for "Harbor" is H616. The name of the catalog is MAIN.</p>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # HSQLDB review: "the value range for TINYINT is -128 to +127", "the soundex value for
        # "Washington" is W252" were refused; "respectively" is no value.
        ("What is the value range of TINYNUM?", "-64 to +63"),
        ("What is the sound value for Harbor?", "H616"),
        ("What is the name of the catalog?", "MAIN"),
        ("What is the name of the schema?", None),
    ],
)
async def test_a_value_named_with_is(tmp_path: Path, question: str, expected: str | None) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "SQL types", TYPES), question)
    assert_answer(outcome, expected)


@pytest.mark.anyio
async def test_respectively_is_no_value(tmp_path: Path) -> None:
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "SQL types", TYPES), "What is the bit precision of BIGNUM?"
    )
    assert outcome.answer != "respectively"


OPTIONS = """
<h2>Process Maximum Option (--process-max)</h2>
<p>Max processes to use for compress/transfer.</p>
<p>default: 1 allowed: 1-999 example: --process-max=4</p>
<h2>Database Timeout Option (--db-timeout)</h2>
<p>Database query timeout.</p>
<p>default: 1800 allowed: 0.1-604800 example: --db-timeout=600</p>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # pgBackRest review: answered "1 allowed" (a count of "allowed" things) from the label line.
        ("What is the allowed range for process-max?", "1-999"),
        ("What is the allowed range of db-timeout?", "0.1-604800"),
    ],
)
async def test_an_allowed_range_is_read_from_its_label(tmp_path: Path, question: str, expected: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Command Reference", OPTIONS), question)
    assert_answer(outcome, expected)


RELEASES = """
<p>v2.40 Release Notes</p>
<p>Add lz4 compression support.</p>
<p>Restore excluding the specified databases.</p>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    "question",
    [
        "Which version added lz4 compression support?",
        "Which option excludes specified databases from a restore?",
    ],
)
async def test_which_of_a_kind_a_manual_names_is_no_whole_sentence(tmp_path: Path, question: str) -> None:
    # pgBackRest review (pages with no heading marks, read as prose): the release note or the
    # option's description was quoted back as the answer.
    (tmp_path / "pages").mkdir()
    page = f"<html><head><title>Release Notes</title></head><body>{RELEASES}</body></html>"
    outcome = await ask(page_corpus(tmp_path / "pages", {"release": page}), question)
    assert outcome.status == "abstained" or len(outcome.answer.split()) <= 3, outcome.answer


def test_a_hyphenated_name_is_not_its_first_part() -> None:
    # pgBackRest review: "default: y" of --compress answered the default compress-level.
    assert not overlap_words(["compress-level"], "Compress Option (--compress) default: y")
    assert overlap_words(["compress-level"], "Compress Level Option (--compress-level) default: 6")
    # Every part held is the name spelled another way: "crawl-delay" in crawl_delay's description.
    assert overlap_words(["crawl-delay"], "Returns the value of the crawl delay parameter")


FUNCTIONS = """
<h2>System Functions</h2>
<p><span class="bold"><strong>CATALOG_FILE</strong></span></p>
<p><code class="literal">CATALOG_FILE ()</code></p>
<p>Returns the file name (without directory information) of the catalog. (JDBC)</p>
<p><span class="bold"><strong>CATALOG_NAME</strong></span></p>
<p><code class="literal">CATALOG_NAME ()</code></p>
<p>Returns the name of the catalog as a string.</p>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # HSQLDB review: a function's bold title, then its description at the same depth, was no term:
        # 19 of 22 function questions were refused.
        (
            "What does the CATALOG_FILE() function return?",
            "the file name (without directory information) of the catalog",
        ),
        ("What does CATALOG_NAME() return?", "the name of the catalog as a string"),
    ],
)
async def test_a_function_titled_in_bold_is_described_by_its_section(
    tmp_path: Path, question: str, expected: str
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Built In Functions", FUNCTIONS), question)
    assert_answer(outcome, expected)


MODES = """
<h2>Repository</h2>
<p>The default directory mode is 0750 and default file mode is 0640.</p>
<h3>Protocol Timeout Option (--protocol-timeout)</h3>
<p>Protocol timeout.</p>
<p>default: 1830 allowed: 0.1-604800 example: --protocol-timeout=630</p>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # pgBackRest review: the first of two defaults named in one sentence, and a label's default
        # under another option's heading, answered questions about something else.
        ("What is the default file mode in the repository?", "0640"),
        ("What is the default directory mode in the repository?", "0750"),
        ("What is the default repository host protocol type?", None),
    ],
)
async def test_a_default_named_or_labelled_is_the_named_ones(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Configuration", MODES), question)
    assert_answer(outcome, expected)
