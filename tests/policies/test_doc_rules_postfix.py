"""Rules from the dev half of the Postfix manual's set (tests/data/postfix_doc), a manual of
configuration parameters written after every other rule.

A manual page named with its section ("local(8)") is a program's, not a parameter; a program
quoted as an example ("import teapot ...") says what it calls, not what does what. "Since which
Teapot version ...?" asks for a Teapot version, which "Available in Teapot 3.1 and later." gives
under the parameter's term, and "This feature is available in Teapot version 2.1 and later." for
the feature its section is about. The pages are invented (a "teapot" manual). Each rule has a
case that must fail without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import doc_answers, one_page

RELAY = """
<h2>Mail for unknown recipients</h2>
<p>The local(8) delivery agent sends mail for unknown local recipients to another address with
the brew_relay parameter; see local(8) for the details of the parameter.</p>
<p>By default the relay parameter is empty and the local(8) delivery agent parameter is unused.</p>
<h2>Examples</h2>
<pre>
import teapot
from hmac import compare_digest as compare_hash
hashed = teapot.hash(leaf)
</pre>
<p>The teapot.METHOD_LEAF method is the oldest.</p>
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-rules")
    return one_page(folder / "teapot", "Teapot relay", RELAY)


def test_a_manual_page_is_no_parameter(pages: list[Page]) -> None:
    answers = doc_answers(
        pages, "Which parameter makes the local delivery agent send mail for unknown recipients elsewhere?"
    )
    assert "local(8)" not in answers  # must fail: "local(8)" read as a parameter the sentence names


def test_a_manual_page_may_name_a_program(pages: list[Page]) -> None:
    answers = doc_answers(pages, "Which command is the delivery agent sending mail for unknown recipients?")
    assert answers[:1] == ["local(8)"]


def test_a_program_quoted_as_an_example_says_nothing(pages: list[Page]) -> None:
    # Must fail: "import teapot ... compare_hash ... teapot.hash" holds "teapot" and "hash".
    answers = doc_answers(pages, "Which teapot hashing method is the weakest?")
    assert not [answer for answer in answers if answer.startswith("teapot.hash")], answers


VERSIONS = """
<h2>Leaf verification</h2>
<p>The teapot checks each leaf before it brews it.</p>
<p>This feature is available in Teapot version 2.1 and later.</p>
<h2>Limits</h2>
<dl>
<dt>brew_leaf_rate_limit (default: no limit)</dt>
<dd><p>The number of leaves a pot may brew in a minute. Available in Teapot 3.1 and later.</p></dd>
<dt>brew_cup_rate_limit (default: no limit)</dt>
<dd><p>The number of cups a pot may pour in a minute.</p></dd>
</dl>
"""


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-versions")
    return one_page(folder / "teapot", "Teapot features", VERSIONS)


def test_since_which_product_version_asks_for_that_product() -> None:
    asked = doc_question("Since which Teapot version is brew_leaf_rate_limit available?", True)
    assert asked is not None and (asked.kind, asked.noun) == ("version", "teapot")  # must fail: "python"


def test_a_version_under_the_parameter_term(versions: list[Page]) -> None:
    answers = doc_answers(versions, "Since which Teapot version is brew_leaf_rate_limit available?")
    assert answers[:1] == ["3.1"]
    # Must fail: the version is under another parameter's term.
    assert "3.1" not in doc_answers(versions, "Since which Teapot version is brew_cup_rate_limit available?")


def test_this_feature_is_its_section_feature(versions: list[Page]) -> None:
    assert doc_answers(versions, "Since which Teapot version is leaf verification available?")[:1] == ["2.1"]
    # Must fail: "this feature" is leaf verification, not cup verification.
    assert "2.1" not in doc_answers(versions, "Since which Teapot version is cup pouring limited?")
