"""Commands named by what they do, from their reference pages' "Name" lines (review 12, the real
Slony-I manual: "Which slonik command generates an ordinary SYNC event?" was answered "ID", an option
of SYNC; "Which slonik command subscribes a node to a set?" "RECEIVER", an option of another command)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, page_corpus

BASE_HTML = "<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"

SYNC = """
<div class="refnamediv"><h2>Name</h2><p>SYNC -- Generate an ordinary SYNC event</p></div>
<h2>Description</h2><p>Generates a SYNC event on a specified node.</p>
<dl><dt>ID = ival</dt><dd><p>The node on which to generate the SYNC event.</p></dd></dl>
"""
RESUBSCRIBE = """
<div class="refnamediv"><h2>Name</h2><p>RESUBSCRIBE NODE -- Change the provider of a node</p></div>
<h2>Description</h2><p>Changes where a subscriber receives its sets from.</p>
<dl><dt>RECEIVER = ival</dt><dd><p>The node that subscribes to the set.</p></dd></dl>
"""
VACUUM = """
<div class="refnamediv"><h2>Name</h2>
<p>VACUUM \u2014 garbage-collect and optionally analyze a database</p></div>
<h2>Description</h2><p>VACUUM reclaims storage occupied by dead tuples.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which slonik command generates an ordinary SYNC event?", "SYNC"),  # was "ID"
        ("Which command garbage-collects and optionally analyzes a database?", "VACUUM"),
        ("Which slonik command subscribes a node to a set?", None),  # was "RECEIVER"
        ("Which command drops a database?", None),
    ],
)
@pytest.mark.anyio
async def test_a_command_by_its_name_line(tmp_path: Path, question: str, expected: str | None) -> None:
    pages = {
        "sync": BASE_HTML.format(title="SLONIK SYNC", body=SYNC),
        "resubscribe": BASE_HTML.format(title="SLONIK RESUBSCRIBE NODE", body=RESUBSCRIBE),
        "vacuum": BASE_HTML.format(title="VACUUM", body=VACUUM),
    }
    outcome = await ask(page_corpus(tmp_path, pages), question)
    assert_answer(outcome, expected)


ADD_TABLE = """
<dl>
<dt>KEY = { 'string' | SERIAL }</dt>
<dd><p>(Optional) The index name that covers the unique and not null set of columns.</p></dd>
<dt>ADD SEQUENCES = boolean</dt>
<dd><p>A boolean value that indicates if sequences should also be added. This defaults to false</p></dd>
</dl>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What does the ADD SEQUENCES parameter of SET ADD TABLE default to?", "false"),
        # another option's subjectless default: ADD SEQUENCES shares only "add" with it (was "false")
        ("What does the KEY parameter of SET ADD TABLE default to?", None),
    ],
)
@pytest.mark.anyio
async def test_an_options_default_is_named_by_all_its_words(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(
        page_corpus(tmp_path, {"add": BASE_HTML.format(title="SET ADD TABLE", body=ADD_TABLE)}), question
    )
    assert_answer(outcome, expected)


SLON = """
<h2>Options</h2>
<dl>
<dt>pid_file (string)</dt><dd><p>Location of the file holding the process ID of slon. The default is not
defined in which case no file is written.</p></dd>
</dl>
"""


@pytest.mark.anyio
async def test_not_is_no_default(tmp_path: Path) -> None:
    corpus = page_corpus(tmp_path, {"slon": BASE_HTML.format(title="slon", body=SLON)})
    outcome = await ask(corpus, "What is the default for pid_file?")
    assert outcome.status == "abstained", outcome.answer  # was "not" ("The default is not defined")


INTERVALS = """
<dl>
<dt>vac_frequency (integer)</dt>
<dd><p>Sets how many cleanup cycles to run before a vacuum is done. Range: [0,100], default: 3</p></dd>
<dt>cleanup_interval (interval)</dt>
<dd><p>Controls how quickly old events are trimmed out. Default: '10 minutes'.</p></dd>
<dt>remote_listen_timeout (integer)</dt>
<dd><p>How long, in milliseconds, the remote listener waits. Range: [30-30000], default 300ms</p></dd>
</dl>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a default labelled after a range (were refused)
        ("What is the default vac_frequency?", "3"),
        ("What is the default remote_listen_timeout?", "300ms"),
        # a quoted value: the gate finds its number after the opening quote (was rejected)
        ("What is the default cleanup_interval?", "'10 minutes'"),
    ],
)
@pytest.mark.anyio
async def test_slon_defaults(tmp_path: Path, question: str, expected: str) -> None:
    corpus = page_corpus(tmp_path, {"slon": BASE_HTML.format(title="slon configuration", body=INTERVALS)})
    outcome = await ask(corpus, question)
    assert (outcome.status, outcome.answer) == ("answered", expected)


SUBSCRIBE_SET = """
<h2>Version Information</h2>
<p>This command was introduced in Slony-I 1.0.</p>
<p>Prior to Slony-I 2.2.0 the SUBSCRIBE SET command could be used to change the provider of an already
subscribed node. As of 2.2.0 the RESUBSCRIBE NODE command must be used.</p>
"""


@pytest.mark.anyio
async def test_a_command_of_older_releases_is_no_answer(tmp_path: Path) -> None:
    corpus = page_corpus(
        tmp_path, {"set": BASE_HTML.format(title="SLONIK SUBSCRIBE SET", body=SUBSCRIBE_SET)}
    )
    question = "As of 2.2.0, which command must be used to change the provider of an already subscribed node?"
    outcome = await ask(corpus, question)
    assert outcome.answer != "SUBSCRIBE SET"  # what "Prior to Slony-I 2.2.0" did, not what must be used now


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What does the slonik SYNC command do?", "Generate an ordinary SYNC event"),
        ("What does VACUUM do?", "garbage-collect and optionally analyze a database"),
        # exactly the name on the line: VACUUM FULL has none (the "synopsis fragment" case)
        ("What does VACUUM FULL do?", None),
    ],
)
@pytest.mark.anyio
async def test_what_a_command_does_by_its_name_line(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    pages = {
        "sync": BASE_HTML.format(title="SLONIK SYNC", body=SYNC),
        "vacuum": BASE_HTML.format(title="VACUUM", body=VACUUM),
    }
    assert_answer(await ask(page_corpus(tmp_path, pages), question), expected)


@pytest.mark.parametrize(
    ("second_default", "agree"),
    [
        ("2000 ms", True),  # one number, with and without its unit: no disagreement (was refused)
        ("3000 ms", False),  # two numbers: the pages disagree
    ],
)
@pytest.mark.anyio
async def test_a_number_and_the_same_number_with_its_unit_agree(
    tmp_path: Path, second_default: str, agree: bool
) -> None:
    config = (
        "<dl><dt>sync_interval (integer)</dt>"
        "<dd><p>How often to check. Range: [10-60000], default 2000</p></dd></dl>"
    )
    options = (
        f"<dl><dt>sync_interval</dt><dd><p>How often slon checks. Default is {second_default}.</p></dd></dl>"
    )
    pages = {
        "config": BASE_HTML.format(title="slon configuration", body=config),
        "slon": BASE_HTML.format(title="slon", body=options),
    }
    outcome = await ask(page_corpus(tmp_path, pages), "What is the default value of sync_interval?")
    if agree:
        assert outcome.status == "answered" and outcome.answer in ("2000", "2000 ms"), outcome.answer
    else:
        assert outcome.status == "abstained", outcome.answer


@pytest.mark.anyio
async def test_a_default_label_among_others_on_its_line(tmp_path: Path) -> None:
    # pgBackRest's configuration reference: "default: 1 allowed: 1-999 example: process-max=4" (was refused)
    body = (
        "<dl><dt>Process Maximum Option (--process-max)</dt>"
        "<dd><p>Max processes to use for compress/transfer.</p>"
        "<p>default: 1 allowed: 1-999 example: process-max=4</p></dd></dl>"
    )
    corpus = page_corpus(tmp_path, {"config": BASE_HTML.format(title="pgBackRest Configuration", body=body)})
    assert_answer(await ask(corpus, "What is the default value of process-max?"), "1")


LBDUMP = """
<div class="refnamediv"><h2>Name</h2>
<p>lbdump \u2014 export a Larchbase database into a script file or other archive file</p></div>
<h2>Exit Status</h2>
<p>lbdump returns 0 to the shell if the dump completed successfully, and 1 if a fatal error occurred.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a program named by a plain word (was "returns 0 to the shell ...", the exit status)
        ("What does lbdump do?", "export a Larchbase database into a script file or other archive file"),
        (
            "What does the lbdump utility do?",
            "export a Larchbase database into a script file or other archive file",
        ),
        ("What does lbrestore do?", None),  # no page of that name
    ],
)
@pytest.mark.anyio
async def test_what_a_program_named_by_a_plain_word_does(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    corpus = page_corpus(tmp_path, {"lbdump": BASE_HTML.format(title="lbdump", body=LBDUMP)})
    assert_answer(await ask(corpus, question), expected)


@pytest.mark.anyio
async def test_an_elided_keyword_run_is_one_sentence(tmp_path: Path) -> None:
    body = (
        "<dl><dt>--if-exists</dt><dd><p>Use DROP ... IF EXISTS commands to drop objects in --clean mode."
        "</p></dd></dl>"
    )
    corpus = page_corpus(tmp_path, {"lbdump": BASE_HTML.format(title="lbdump", body=body)})
    outcome = await ask(corpus, "What does the --if-exists option of lbdump do?")
    assert outcome.answer != "Use DROP"  # was cut at "..." (review 9)
    assert outcome.status == "abstained" or "IF EXISTS" in outcome.answer, outcome.answer


ADD_SEQUENCE = """
<div class="refnamediv"><h2>Name</h2><p>SET ADD SEQUENCE -- Add a sequence to a Harbor set</p></div>
<h2>Description</h2><p>Adds an existing sequence to a replication set.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Slony-I review: "Which slonik command adds a table to a replication set?" -> "SET ADD SEQUENCE".
        ("Which slonik command adds a table to a Harbor set?", None),
        ("Which slonik command adds a sequence to a Harbor set?", "SET ADD SEQUENCE"),
    ],
)
@pytest.mark.anyio
async def test_a_name_line_doing_it_to_another_thing_is_no_answer(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    (tmp_path / "pages").mkdir()
    pages = {"addseq": BASE_HTML.format(title="SLONIK SET ADD SEQUENCE", body=ADD_SEQUENCE)}
    assert_answer(await ask(page_corpus(tmp_path / "pages", pages), question), expected)
