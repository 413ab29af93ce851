"""Rules from the dev half of the Postfix manual's set (tests/data/postfix_doc), a manual of
configuration parameters written after every other rule.

A manual page named with its section ("local(8)") is a program's, not a parameter, and "which
server|daemon|program" asks for one, never one the question names ("... that smtpd uses"); a
program quoted as an example ("import teapot ...") says what it calls, not what does what.
"Since which Teapot version ...?" asks for a Teapot version, which "Available in Teapot 3.1 and
later." gives under the parameter's term (a sentence saying it became available, not any
version it names). Defaults: "which is set to 5 by default", "instead of the default 100";
"X defaults to default_cup_cost" is no default of default_cup_cost, and "with versions before
2.5, the default is ..." no longer the default; "300s" and "300 seconds" are one answer. A
question opening with a clause ("With verification on, how long ...?") asks what the "how"
after its comma asks, and "a delay of up to 6 seconds" says how long. The pages are invented
(a "teapot" manual). Each rule has a case that must fail without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._amounts import measured
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_finish import finish_doc
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._questions import analyze
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
<p>The teapot checks each leaf before it brews it. It can also keep the results in a cache with
leaf_verify_map. This feature is available in Teapot version 2.7 and later.</p>
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


def test_this_feature_is_not_read_as_its_section_feature(versions: list[Page]) -> None:
    # "This feature" may be the sentence before's, not the heading's (a review's case): no version.
    assert "2.7" not in doc_answers(versions, "Since which Teapot version is leaf verification available?")


DEFAULTS = """
<h2>Costs</h2>
<p>Each pot has a pot_cup_cost parameter, which defaults to default_cup_cost parameter which is set to 5 by
default.</p>
<p>Use a brew_junk_limit of 1 instead of the default 100.</p>
<p>Use a brew_pause of 10 seconds instead of the default 300 seconds.</p>
<p>Reduce brew_pause (default: 300s).</p>
<p>By default, teapot probes have a sender leaf "green" (with Teapot versions before 2.5, the
default is "oolong").</p>
"""


@pytest.fixture(scope="module")
def defaults(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-defaults")
    return one_page(folder / "teapot", "Teapot costs", DEFAULTS)


def test_a_value_set_by_default_not_the_parameter_itself(defaults: list[Page]) -> None:
    # Must fail: "defaults to default_cup_cost" read as the default of default_cup_cost.
    assert doc_answers(defaults, "What is the default value of default_cup_cost?")[:1] == ["5"]


def test_instead_of_the_default(defaults: list[Page]) -> None:
    assert doc_answers(defaults, "What is the default brew_junk_limit?")[:1] == ["100"]


def test_a_default_of_older_versions_is_none(defaults: list[Page]) -> None:
    answers = doc_answers(defaults, "What sender leaf do teapot probes use by default?")
    assert not [answer for answer in answers if "oolong" in answer], answers


def test_one_quantity_in_two_spellings_is_one_answer(defaults: list[Page]) -> None:
    asked = doc_question("What is the default value of brew_pause?", True)
    assert asked is not None
    assert {c.answer for c in answer_doc(asked, defaults)} >= {"300s", "300 seconds"}
    # Must fail: the two spellings read as two answers that disagree, and the policy refused.
    assert "different answers" not in finish_doc(asked, defaults, set())


def test_the_wh_word_after_an_opening_clause_sets_the_kind() -> None:
    asked = "With leaf verification turned on, how long at most is a brew delayed the first time?"
    assert analyze(asked).kind == "how_much"  # must fail: "what" (no wh-word among the first four)
    # Only "how": after a clause naming a place, "where" would take a name of that clause's sentence.
    assert analyze("On a Debian system, where does the teapot write its log records?").kind != "where"
    # A yes/no question keeps its kind whatever follows a comma.
    assert analyze("Is it true that, when it rains, the river floods?").kind == "yesno"


def test_a_delay_of_up_to_an_amount_says_how_long() -> None:
    sentence = "With verification on, a brew suffers a short delay of up to 6 seconds the first time."
    asked = analyze("How long at most is a brew delayed the first time?").terms
    assert measured(sentence, "long", asked) == "6 seconds"  # must fail: no word marked it as a duration
    # "a lifetime of 3600 seconds" is not how long the question's "delayed" asks.
    assert measured("A cup has a lifetime of 3600 seconds.", "long", asked) is None
    # "took 6 years" is not marked as how long the tunnel is: the amount marked so answers.
    assert measured("The tunnel took 6 years to dig and is 12 km long.", "long") == "12 km"


SERVERS = """
<h2>Statistics</h2>
<p>The teapot brewd(8) server can limit the number of simultaneous brews from the same client, and the
brew rate of the same client.</p>
<p>These per-client statistics are kept by the tally(8) server.</p>
<p>This is useful when run automatically, see the Perl program log_pot_status, which you will find in
the /support directory of your teapot installation.</p>
"""


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-servers")
    return one_page(folder / "teapot", "Teapot tuning", SERVERS)


def test_which_program_asks_for_a_program(servers: list[Page]) -> None:
    asked = "Which Perl program in the support directory of teapot is meant to be run automatically?"
    assert doc_answers(servers, asked)[:1] == ["log_pot_status"]  # must fail: not a documentation noun


def test_the_server_a_question_names_is_not_the_answer(servers: list[Page]) -> None:
    # Must fail: "The teapot brewd(8) server can limit ... brews ... client ... rate" types brewd(8) a server.
    asked = (
        "Which teapot server can limit the simultaneous brews and the brew rate that brewd enforces "
        "per client?"
    )
    assert "brewd(8)" not in doc_answers(servers, asked)
