"""Idioms of manual prose the dev halves and reviews 21, 22 and 24 (nginx, Exim, Sphinx) showed
refused: a default stated as what happens when an argument is left out (apache ap045), a literal the
verb asked is said of in the passive under terms listed over one description (git git005), a row of
labelled cells, a version in brackets after the feature it introduced, a directive named only by the
heading over its description, a status code asked for, and a default named in passing. Each class
on an invented page in the same markup."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

REDIRECT = (
    "<h2>Redirect Directive</h2><p>The Redirect directive maps an old URL into a new one by asking the"
    " client to refetch the resource at the new location.</p><p>If no status argument is given, the"
    ' redirect will be "temporary" (HTTP status 302). If no timeout parameter is given, the redirect is'
    " sent at once.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which HTTP status code does the Redirect directive send when no status argument is given?", "302"),
        ("Which HTTP status code does the Redirect directive send if the status is omitted?", "302"),
        # The question leaves out another argument than the sentence does: not this value.
        ("Which HTTP status code does the Redirect directive send when no timeout parameter is given?", None),
        # Nothing in brackets gives the value: "the redirect is sent at once" is no default.
        ("What is the default timeout of the Redirect directive?", None),
    ],
)
async def test_a_value_used_when_no_argument_is_given_is_the_default(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "mod_redirect", REDIRECT), question)
    assert_answer(outcome, expected)


# Two options listed over one description, as git's manual pages do.
DESCRIBE = (
    "<h2>OPTIONS</h2><dl><dt>--all</dt><dd><p>Use any ref found in refs/.</p></dd>"
    "<dt>--dirty[=&lt;mark&gt;]</dt><dt>--broken[=&lt;mark&gt;]</dt><dd><p>Describe the state of the"
    ' working tree. If the working tree has local modification "-dirty" is appended to it. If the'
    ' repository is corrupt, "-broken" is appended instead.</p></dd></dl>'
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The description belongs to both terms: the gate reads it under --dirty too.
        ("What does wren describe --dirty append to its output when the working tree has changes?", "-dirty"),
        ("What does wren describe --broken append to its output when the repository is corrupt?", "-broken"),
        # Under --all nothing is said to be appended.
        ("What does wren describe --all append to its output?", None),
    ],
)
async def test_the_literal_a_verb_is_said_of_in_the_passive_answers_what_it_does(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "wren-describe(1)", DESCRIBE), question)
    assert_answer(outcome, expected)


def _option(name: str, use: str, kind: str, default: str, description: str) -> str:
    # Exim's specification: one table row per option, each fact a labelled cell, then its description.
    return (
        f'<table><tr><td><span class="docbook_option">{name}</span></td>'
        f'<td>Use: <span class="docbook_emphasis">{use}</span></td>'
        f'<td>Type: <span class="docbook_emphasis">{kind}</span></td>'
        f'<td>Default: <span class="docbook_emphasis">{default}</span></td></tr></table><p>{description}</p>'
    )


OPTIONS = (
    "<h2>Alphabetical list of main options</h2>"
    + _option(
        "smtp_accept_max",
        "main",
        "integer",
        "20",
        "This option specifies the maximum number of simultaneous incoming SMTP calls that Exim will accept.",
    )
    + _option(
        "smtp_accept_queue",
        "main",
        "integer",
        "0",
        "If the number of simultaneous incoming SMTP connections exceeds this value, messages are queued.",
    )
    + _option(
        "queue_only_load",
        "main",
        "fixed-point",
        "unset",
        "If the system load average is higher than this value, incoming messages are queued.",
    )
    + _option(
        "check_string",
        "appendfile",
        "string",
        "see below",
        "As appendfile writes the message, the start of each line is tested for matching check_string.",
    )
    + _option(
        "check_spool_space",
        "main",
        "integer",
        "10M",
        "The amount of free space needed in the spool directory. The check_spool_space check is enabled"
        " by default since Exim version 4.88.",
    )
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default value of the smtp_accept_max option?", "20"),
        ("What is the default smtp_accept_queue?", "0"),
        ("What type of value does the queue_only_load option take?", "fixed-point"),
        ("What is the type of the smtp_accept_max option?", "integer"),
        # "see below" gives no value; the description does not either.
        ("What is the default check_string of appendfile?", None),
        # Asked for a version: not the default cell ("Starting with which ..." asks when).
        ("Starting with which Exim version is the check_spool_space check enabled by default?", "4.88"),
        # A row opening with another name answers nothing.
        ("What is the default value of smtp_accept_reserve?", None),
    ],
)
async def test_a_row_of_labelled_cells_gives_the_facts_of_the_option_it_opens_with(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Main configuration", OPTIONS), question)
    assert_answer(outcome, expected)


def _directive(name: str, syntax: str, default: str, description: str) -> str:
    # nginx's reference: a heading per directive, its quick-reference rows, then its description.
    return (
        f'<h3 id="{name}">{name}</h3><table class="directive">'
        f"<tr><td>Syntax:</td><td><code>{syntax}</code></td></tr>"
        f"<tr><td>Default:</td><td><code>{default}</code></td></tr>"
        "<tr><td>Context:</td><td><code>http</code>, <code>server</code></td></tr></table>"
        f"<p>{description}</p>"
    )


DIRECTIVES = (
    "<h2>Directives</h2>"
    + _directive(
        "client_max_body_size",
        "client_max_body_size size;",
        "client_max_body_size 1m;",
        "Sets the maximum allowed size of the client request body. Setting size to 0 disables the check.",
    )
    + _directive(
        "limit_req",
        "limit_req zone=name [burst=number] [nodelay | delay=number];",
        "\u2014",
        "Sets the shared memory zone and the maximum burst size of requests. The delay parameter (1.15.7)"
        " specifies a limit at which excessive requests become delayed. The directive works with OpenSSL"
        " 1.1.1 or higher (1.15.4) only.",
    )
    + _directive(
        "add_header",
        "add_header name value [always];",
        "\u2014",
        "Adds the specified field to a response header. If the always parameter is specified (1.7.5), the"
        " header field will be added regardless of the response code.",
    )
    + _directive(
        "scriptalias_match",
        "scriptalias_match regex path;",
        "\u2014",
        "Maps a URL to a filesystem location using a regular expression and marks the target as a script.",
    )
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The version in brackets right after the feature asked about.
        ("Since which version does limit_req support the delay parameter?", "1.15.7"),
        ("Since which version does add_header support the always parameter?", "1.7.5"),
        # The bracket follows another version in its clause: the library's, not the feature's arrival.
        ("Which OpenSSL version is needed for limit_req?", None),
        # The heading is the name of the directive its description describes.
        ("Which directive sets the maximum allowed size of the client request body?", "client_max_body_size"),
        # What the question asks it to do without is what this description says: no answer.
        ("Which directive maps a URL to a filesystem location without a regular expression?", None),
    ],
)
async def test_a_reference_of_headed_directives_answers_versions_and_names(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Module ngx_http_example", DIRECTIVES), question)
    assert_answer(outcome, expected)


CODES = (
    "<h2>Directives</h2>"
    + _directive(
        "body_limit",
        "body_limit size;",
        "body_limit 1m;",
        "Sets the maximum allowed size of the client request body. If the size in a request exceeds the"
        " configured value, the 413 (Request Entity Too Large) error is returned to the client. Buffers"
        " of 512 bytes are used.",
    )
    + _directive(
        "redirect_flag",
        "redirect_flag permanent | temporary;",
        "redirect_flag temporary;",
        "Returns a redirect with the 301 or 302 code, as the flag says.",
    )
    + _directive(
        "limit_delay",
        "limit_delay number;",
        "limit_delay 0;",
        "Sets the delay of excessive requests. Default value is zero, i.e. all excessive requests are"
        " delayed.",
    )
    + "<h2>Errors</h2><p>A value that cannot be converted raises an SQLITE_CONSTRAINT_DATATYPE error"
    " code.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What HTTP status code is returned when the request body is bigger than body_limit allows?", "413"),
        # An amount is no code ("512 bytes"), and "301 or 302" leaves the choice open.
        ("Which status code does redirect_flag return?", None),
        # Asked for a code, the delay's "zero" is no answer.
        ("What status code is returned by default for requests delayed by limit_delay?", None),
        # A code named, not numbered: the question as it would be read without asking for a number.
        ("Which error code is raised when a value cannot be converted?", "SQLITE_CONSTRAINT_DATATYPE"),
    ],
)
async def test_a_code_asked_for_is_the_one_a_sentence_stating_the_condition_gives(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Module ngx_http_example", CODES), question)
    assert_answer(outcome, expected)


SETTINGS = (
    "<h2>General configuration</h2><dl><dt>source_encoding</dt><dd><p>The encoding of all source files."
    " The recommended encoding, and the default value, is <code>'utf-8-sig'</code>.</p></dd>"
    "<dt>smartquotes_action</dt><dd><p>This string customizes the Smart Quotes transform. The default"
    " <code>'qDe'</code> educates normal quote characters and dashes.</p></dd>"
    "<dt>smartquotes_excludes</dt><dd><p>The default <code>'man'</code> builder is excluded.</p></dd></dl>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default value of source_encoding?", "'utf-8-sig'"),
        ("What is the default value of smartquotes_action?", "'qDe'"),
        # A quoted word after "the default" that a noun follows names a default thing, not a value.
        ("What is the default value of smartquotes_excludes?", None),
    ],
)
async def test_a_default_named_in_passing_by_its_sentence(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Configuration", SETTINGS), question)
    assert_answer(outcome, expected)
