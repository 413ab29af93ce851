"""Reviews 18 and 19 (the Knot DNS 3.2 and rsyslog 8 manuals, real Sphinx references): a setting
whose name is only its section's heading. Its default is a "Default:" line or a one-row table under
that heading, and a default stated under another setting's heading is that setting's. Each class
on an invented page in the same markup."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_answer import DocCandidate
from citeloop.policies._doc_finish import _differs
from citeloop.policies._doc_identifiers import is_identifier
from citeloop.runtime._focus import occurrences, question_focus
from helpers.doc_pages import ask, assert_answer, one_page_corpus

LINK = '<a class="headerlink" href="#x" title="Link to this heading">\u00b6</a>'


def _setting(level: int, name: str, description: str, default: str) -> str:
    return (
        f"<h{level}>{name}{LINK}</h{level}><p>{description}</p>"
        f'<p><em>Default:</em> <code class="docutils literal"><span class="pre">{default}</span></code></p>'
    )


REFERENCE = (
    "<h2>server section"
    + LINK
    + "</h2><p>General options related to the server.</p>"
    + _setting(3, "rundir", "A path for storing run-time data.", "/run/wren")
    + _setting(3, "udp-max-payload", "Maximum EDNS0 UDP payload size for both IPv4 and IPv6.", "1232")
    + _setting(3, "udp-max-payload-ipv4", "Maximum EDNS0 UDP payload size for IPv4.", "1232")
    + _setting(3, "udp-max-payload-ipv6", "Maximum EDNS0 UDP payload size for IPv6.", "1220")
    + _setting(3, "tcp-max-clients", "A maximum number of TCP clients connected in parallel.", "250")
    + "<h2>xdp section"
    + LINK
    + "</h2><p>Various options related to XDP listening.</p>"
    + _setting(
        3, "tcp-max-clients", "A maximum number of TCP clients connected in parallel over XDP.", "1000000"
    )
    + _setting(3, "ring-size", "Number of descriptors in each ring.", "2048 (two thousand and forty-eight)")
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The manual's 76 "Default:" lines under their settings' headings were all refused.
        ("What is the default value of udp-max-payload?", "1232"),
        # The same "Default: 1232" under the next heading: quoted with the line above it, so that the
        # gate reads it under udp-max-payload-ipv4, not under the first heading holding it.
        ("What is the default udp-max-payload-ipv4?", "1232"),
        ("What is the default udp-max-payload-ipv6?", "1220"),
        # The other words asked place it: the xdp section's, not the server section's.
        ("What is the default tcp-max-clients in the xdp section?", "1000000"),
        ("What is the default tcp-max-clients in the server section?", "250"),
        # A gloss in brackets after the value.
        ("What is the default ring-size?", "2048"),
        # What a setting does: the first sentence of its own section.
        ("What does the tcp-max-clients option do?", None),  # two sections hold it: not placed
        ("What does the rundir option do?", "A path for storing run-time data"),
        # A label names nothing but its heading: rundir's default is not where the server runs as.
        ("Under which user and group does the server run by default?", None),
        # No heading holds the name asked.
        ("What is the default udp-max-payload-ipv8?", None),
    ],
)
async def test_a_default_line_belongs_to_the_heading_above_it(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Configuration Reference", REFERENCE), question)
    assert_answer(outcome, expected)


def _table(level: int, name: str, row: tuple[str, str, str], prose: str) -> str:
    cells = "".join(f"<td><p>{cell}</p></td>" for cell in row)
    return (
        f"<h{level}>{name}{LINK}</h{level}>"
        '<table class="parameter-table docutils"><thead><tr><th><p>type</p></th><th><p>default</p></th>'
        f"<th><p>mandatory</p></th></tr></thead><tbody><tr>{cells}</tr></tbody></table><p>{prose}</p>"
    )


MODULE = (
    "<h2>Module Parameters"
    + LINK
    + "</h2>"
    + _table(
        4,
        "TimeRequery",
        ("integer", "2", "no"),
        "The default value is two, because the kernel often returns twice the identical time.",
    )
    + _table(
        4, "BatchSize", ("integer", "32", "no"), "Specifies the maximum number of UDP messages read at once."
    )
    + _table(
        4, "RcvBufSize", ("size", "none", "no"), "The default value is 0, which keeps the OS buffer size."
    )
    + _table(4, "Threads", ("integer", "1", "no"), "Number of worker threads that process incoming messages.")
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The row of a one-row table under the parameter's heading (the manual's 111 refused).
        ("What is the default BatchSize of udpin?", "32"),
        # The table's 2 and the prose's "two" are one answer, not two that disagree.
        ("What is the default value of the udpin TimeRequery parameter?", "2"),
        # "The default value is 0" under RcvBufSize is RcvBufSize's (the manual answered "0").
        ("How many worker threads does udpin use by default?", "1"),
        ("What is the default socket backlog of udpin?", None),
        # Any column of that row: the type of the parameter the heading names.
        ("What is the type of the udpin RcvBufSize parameter?", "size"),
    ],
)
async def test_a_table_under_a_parameter_heading_describes_that_parameter(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "udpin: UDP Syslog Input Module", MODULE), question
    )
    assert_answer(outcome, expected)


OUTPUT = (
    "<h2>Module Parameters"
    + LINK
    + "</h2>"
    + _table(4, "Template", ("word", "RSYSLOG_FileFormat", "no"), "Set the default template to be used.")
    + _table(4, "DirCreateMode", ("FileCreateMode", "0700", "no"), "Sets the mode of new directories.")
    + "<h2>Action Parameters"
    + LINK
    + "</h2>"
    + _table(4, "Template", ("word", "template set via module parameter", "no"), "Sets the template used.")
    + _table(
        4,
        "DirCreateMode",
        ("FileCreateMode", "equally-named module parameter", "no"),
        "Sets the mode of directories created for this action.",
    )
    + _table(4, "ReadMode", ("integer", "-", "no"), "Selects how multi-line messages are read.")
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # An action's default that refers to the module's is no value of its own (the manual refused:
        # "two equally good answers disagree: RSYSLOG_FileFormat / template set via module parameter").
        ("What is the default template of fileout?", "RSYSLOG_FileFormat"),
        ("What is the default DirCreateMode of fileout?", "0700"),
        # A dash in the default column states no value.
        ("What is the default ReadMode of fileout?", None),
    ],
)
async def test_a_default_given_by_reference_is_no_value(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "fileout: File Output Module", OUTPUT), question)
    assert_answer(outcome, expected)


def _candidate(answer: str) -> DocCandidate:
    return DocCandidate("corpus://a", answer, answer, 2.0, "stated default")


@pytest.mark.parametrize(
    ("one", "other", "differ"),
    [
        ("1m", "\u201c1m\u201d", False),
        ("2", "two", False),
        ("on", "\u2018on\u2019", False),
        ("2", "three", True),
        ("1m", "\u201c1h\u201d", True),
    ],
)
def test_a_quoted_or_spelled_value_is_the_same_answer(one: str, other: str, differ: bool) -> None:
    assert _differs(_candidate(one), _candidate(other)) is differ


@pytest.mark.parametrize(
    ("question", "focus"),
    [
        ("What is the default udp-max-payload?", "udp-max-payload"),
        ("Is the copy-on-write page shared?", None),
        ("Is the state-of-the-art method used?", None),
    ],
)
def test_a_name_of_hyphenated_words_is_a_focus(question: str, focus: str | None) -> None:
    found = [f.folded for f in question_focus(question) if f.kind == "identifier"]
    assert found == ([focus] if focus else [])


def test_a_hyphenated_focus_is_no_part_of_a_longer_name() -> None:
    focus = question_focus("What is the default udp-max-payload?")[0]
    assert occurrences("### udp-max-payload-ipv4 | xdp-udp-max-payload", focus) == []
    assert occurrences("### udp-max-payload | default", focus) == [4]


COMMANDS = """
<h2>Actions</h2>
<dl>
<dt><strong>conf-check</strong></dt><dd><p>Check the server configuration.</p></dd>
<dt><strong>conf-import</strong> <em>filename</em></dt><dd><p>Import a configuration file into the
configuration database.</p></dd>
<dt><strong>zone-xfr-freeze</strong> [<em>zone</em>...]</dt><dd><p>Temporarily disable outgoing AXFR/IXFR
for the zone(s).</p></dd>
<dt><strong>zone-key-rollover</strong> <em>zone</em> <em>key_type</em></dt><dd><p>Trigger immediate key
rollover.</p></dd>
</dl>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The manual answered "conf" and "zone": a term's name was cut at its first hyphen.
        ("Which wrenc command imports a configuration file?", "conf-import"),
        ("Which wrenc command triggers an immediate key rollover?", "zone-key-rollover"),
        # "zone(s)" is prose leaving the number open, not a call (the manual answered it).
        ("Which wrenc command temporarily disables outgoing AXFR/IXFR for a zone?", "zone-xfr-freeze"),
    ],
)
async def test_a_hyphenated_command_is_named_whole(tmp_path: Path, question: str, expected: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "wrenc(8)", COMMANDS), question)
    assert_answer(outcome, expected)


@pytest.mark.parametrize(("token", "code"), [("zone(s)", False), ("file(es).", False), ("peek(n)", True)])
def test_a_plural_mark_is_no_call(token: str, code: bool) -> None:
    assert is_identifier(token) is code


CACHE = """
<dl>
<dt>max-ncache-ttl</dt><dd><p>This sets the maximum time for which the server caches negative answers.
The default max-ncache-ttl is 10800 seconds (3 hours).</p></dd>
<dt>max-cache-ttl</dt><dd><p>This sets the maximum time for which the server caches ordinary answers.
The default max-cache-ttl is 604800 (one week).</p></dd>
</dl>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "The default <name> is X" with a hyphenated name between (BIND's manual: refused).
        ("What is the default max-cache-ttl?", "604800"),
        ("What is the default max-ncache-ttl?", "10800 seconds (3 hours)"),
    ],
)
async def test_a_hyphenated_name_between_default_and_its_value(
    tmp_path: Path, question: str, expected: str
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Configuration", CACHE), question)
    assert_answer(outcome, expected)


QUERIES = """
<dl>
<dt>clients-per-query</dt><dd><p>This sets the initial number of simultaneous recursive clients for any
given query. The default value is 10.</p></dd>
</dl>
<h2>Release notes</h2>
<ul><li><p>Add a new option to configure the maximum number of outgoing queries per client request.</p>
<p>The configuration option <code>max-query-count</code> sets how many outgoing queries per client request
are allowed. This new option is a global limit on the client request. The default value is 200.</p></li></ul>
"""


@pytest.mark.anyio
async def test_a_default_under_the_term_asked_outranks_one_elsewhere(tmp_path: Path) -> None:
    # BIND's manual: "The default value is 10." under clients-per-query tied with a release note's
    # "The default value is 200." - refused as two answers that disagree.
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Configuration", QUERIES),
        "What is the default clients-per-query?",
    )
    assert_answer(outcome, "10")
