"""A review of the rules from the Postfix manual's dev half found wrong answers; each is a case here.

The pages are invented in the style of a parameter manual (a "teapot" mail server). Every case
failed before its fix: a default read from the word before "(default, 6)"; "set to X by default"
and "instead of the default X" credited to a parameter the sentence named earlier; "Unlike
versions before 2.5, the default is X" taken as an old default while "2.4 and earlier default to
Y" was not; "1M" read as "1m" (a minute); a name a sentence calls by the noun asked, answering
a question whose object the sentence never says, or outranking a sentence that answers outright;
any version under a parameter's term; "up to" and "from ... to" marking a duration; "the default
is now no" read as "now"; 'instead of the default "mbox" file' read as a value; "main.cf" as a
parameter. One more rule came after it: "what share" asks an amount, also after a relative
clause's comma.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._amounts import measured
from citeloop.policies._doc_finish import _differs
from citeloop.policies._doc_match import DocCandidate
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import short_answer
from helpers.doc_pages import doc_answers, one_page

DEFAULTS = """
<h2>Options</h2>
<dl><dt>-z level</dt><dd><p>Set the compression level, from 1 to 9 (default, 6).</p></dd></dl>
<h2>Authentication</h2>
<p>The brew_sasl_options parameter takes effect only when brew_sasl_enable, which is set to no by default,
is turned on.</p>
<p>The brew_sasl_level parameter which is set to 2 by default picks the mechanisms.</p>
<p>The brew_pot_limit parameter limits the size of a pot; the brew size limit, which is set to 10240000
by default, must not exceed it.</p>
<p>Under stress, set brew_hard_limit to 1 and brew_soft_limit to 2 instead of the default 10.</p>
<p>To submit through your provider, specify relaypot = [pot.example]:587, so that the teapot connects to
port 587 instead of the default 25.</p>
<h2>Probes</h2>
<p>Unlike Teapot versions before 2.5, the default probe leaf is green@$origin.</p>
<p>Teapot 2.4 and earlier default to oolong@$origin for the probe leaf.</p>
<p>The append_dot_origin parameter controls dots (unlike releases before 3.0, the default is now no).</p>
<p>Specify brew_mailbox = Maildir/ in pot.cf instead of the default "mbox" file in /var/pot.</p>
<p>The brew_size_limit parameter in a pot.cf parameter file limits the size of a brew.</p>
<h2>Limits</h2>
"""


@pytest.fixture(scope="module")
def defaults(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-review-defaults")
    return one_page(folder / "teapot", "teapot(1)", DEFAULTS)


def test_a_value_inside_the_default_bracket_is_not_the_word_before(defaults: list[Page]) -> None:
    assert "9" not in doc_answers(defaults, "What is the default compression level of the -z option?")


def test_set_by_default_belongs_to_the_parameter_named_last(defaults: list[Page]) -> None:
    assert "no" not in doc_answers(defaults, "What is the default value of brew_sasl_options?")
    assert doc_answers(defaults, "What is the default value of brew_sasl_level?")[:1] == ["2"]
    # Must fail: a plain-word subject between the name and the default owns it (a second review's case).
    assert "10240000" not in doc_answers(defaults, "What is the default value of brew_pot_limit?")


def test_instead_of_the_default_belongs_to_the_parameter_named_last(defaults: list[Page]) -> None:
    assert "10" not in doc_answers(defaults, "What is the default brew_hard_limit?")
    assert doc_answers(defaults, "What is the default value of brew_soft_limit?")[:1] == ["10"]
    assert "25" not in doc_answers(defaults, "What is the default value of relaypot?")


def test_an_older_version_default_is_the_one_said_of_older_versions(defaults: list[Page]) -> None:
    answers = doc_answers(defaults, "What probe leaf does the teapot use by default?")
    assert not [answer for answer in answers if "oolong" in answer], answers


def test_a_default_said_to_be_now_is_the_value_after_now(defaults: list[Page]) -> None:
    assert doc_answers(defaults, "What is the default value of append_dot_origin?")[:1] == ["no"]


def test_instead_of_the_default_value_not_a_word_describing_a_noun(defaults: list[Page]) -> None:
    answers = doc_answers(defaults, "What is the default value of brew_mailbox?")
    assert not [answer for answer in answers if "mbox" in answer], answers


def test_a_file_name_is_no_parameter(defaults: list[Page]) -> None:
    assert "pot.cf" not in doc_answers(defaults, "Which parameter limits the size of a brew in a pot file?")


def test_a_megabyte_is_not_a_minute() -> None:
    def candidate(answer: str) -> DocCandidate:
        return DocCandidate("https://docs.example/page", answer, answer, 2.0, "stated default")

    assert _differs(candidate("1M"), candidate("1 minute"))  # must fail: "1m" read as a minute
    assert not _differs(candidate("1m"), candidate("1 minute"))
    assert not _differs(candidate("300s"), candidate("300 seconds"))


NAMES = """
<h2>Delivery</h2>
<p>For each delivery to a remote pot destination, the pot client binds to the IP address given by the
parameter pot_bind_address.</p>
<h2>Maximum length of a leaf or bag</h2>
<p>The maximum number of bytes in a leaf or bag is defined by the preprocessor macro TEA_MAX_LENGTH.</p>
<p>A brew statement that holds a large leaf literal is also bounded by the compile-time macro
TEA_MAX_SQL_LENGTH.</p>
"""


@pytest.fixture(scope="module")
def names(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-review-names")
    return one_page(folder / "teapot", "Teapot limits", NAMES)


def test_a_typed_name_must_be_said_of_the_question_object(names: list[Page]) -> None:
    asked = "Which parameter limits the number of recipients per delivery to a remote pot destination?"
    assert "pot_bind_address" not in doc_answers(names, asked)


def test_a_typed_name_does_not_outrank_a_sentence_that_answers(names: list[Page]) -> None:
    answers = doc_answers(names, "Which macro sets the maximum size in bytes of a leaf or bag?")
    assert answers[:1] == ["TEA_MAX_LENGTH"], answers


VERSIONS = """
<dl>
<dt>brew_auth_rate_limit (default: no limit)</dt>
<dd><p>The number of AUTH commands a client may send. Sites running Teapot 2.9 had to do this with a
policy server.</p></dd>
<dt>brew_min_version (enum)</dt>
<dd><p>Clients older than Teapot 9.6 may not support this. This parameter was added in Teapot 12.</p></dd>
</dl>
"""


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-review-versions")
    return one_page(folder / "teapot", "Teapot parameters", VERSIONS)


def test_a_version_under_a_term_must_say_when_it_became_available(versions: list[Page]) -> None:
    assert "2.9" not in doc_answers(versions, "Since which Teapot version is brew_auth_rate_limit available?")
    answers = doc_answers(versions, "Since which Teapot version is brew_min_version available?")
    assert answers[:1] == ["12"], answers


def test_up_to_and_from_to_do_not_mark_how_long() -> None:
    cached = "mail is delayed only while an address is verified, and results are cached for up to 31 days."
    assert measured(cached, "long") is None
    assert measured("sites with little disk space may reduce this from 5 days to 2 days.", "long") is None


def test_what_share_asks_an_amount_after_a_relative_clause() -> None:
    # From the Postfix dev half after the review: "whose" opened a relative clause, and "what share"
    # after the comma asks the question (must fail: "who", then "what").
    asked = (
        "Against a pot whose limiter hangs up with a 421 status, what share of the brews does the "
        "feedback defer?"
    )
    assert analyze(asked).kind == "how_much"
    assert analyze("What percentage of the vote did the party win?").kind == "how_much"
    assert analyze("The battle in which Arimondi died secured what for Ethiopia?").kind == "what"


# A second review, after the fixes above, found more; each is a case below.
SECOND = """
<h2>Logging</h2>
<dl><dt>-H</dt><dd><p>Log the host name as well (default, none).</p></dd></dl>
<p>When brew_tls_level is may, the session cache timeout is set to 3600s by default.</p>
<p>Set brew_timeout to 30s; clients then get 2 retries instead of the default 3.</p>
<p>Prior to Teapot 14, the default auth method is md5.</p>
<p>The brew_swap parameter is set to yes by default in Teapot 2.x and to no with level 3.</p>
<p>The brew_pause default is now longer than before.</p>
<h2>Delivery</h2>
<p>Local pots are filled with an external command when brew_command names the program procmail.</p>
<p>The teapot talks to the kettle through the auth interface of kettle(1), not through the steamd(8)
daemon.</p>
<dl>
<dt>brew_auth_limit (default: no limit)</dt>
<dd><p>Sites that used Teapot 2 must edit it; this feature is available in Teapot 2.8 and later. The
available memory of a host running Teapot 2.11 limits it too.</p></dd>
</dl>
"""


@pytest.fixture(scope="module")
def second(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-review-second")
    return one_page(folder / "teapot", "teapot(8)", SECOND)


def test_second_review_defaults(second: list[Page]) -> None:
    assert "well" not in doc_answers(second, "What is the default of the -H option?")
    assert "3600s" not in doc_answers(second, "What is the default value of brew_tls_level?")
    assert "3" not in doc_answers(second, "What is the default value of brew_timeout?")
    assert "md5" not in doc_answers(second, "What is the default auth method of the teapot?")
    assert "yes" not in doc_answers(second, "What is the default value of brew_swap?")
    assert "longer" not in doc_answers(second, "What is the default value of brew_pause?")


def test_second_review_names(second: list[Page]) -> None:
    assert "brew_command" not in doc_answers(second, "Which program fills local pots?")
    assert "steamd(8)" not in doc_answers(second, "Which daemon does the teapot use to talk to the kettle?")


def test_second_review_versions(second: list[Page]) -> None:
    answers = doc_answers(second, "Since which Teapot version is brew_auth_limit available?")
    assert answers[:1] == ["2.8"], answers  # must fail: "Teapot 2", the first version the sentence names


def test_second_review_shares_and_durations() -> None:
    welsh = analyze("What proportion of the residents of Wales could speak Welsh in 2011?")
    said = "In 2011, of the 3.1 million residents of Wales, about 562,000 could speak Welsh."
    assert short_answer(welsh, said) != "3.1 million"
    timber = analyze("What fraction of Finland's forests is used for timber production?")
    said = (
        "About 75 percent of Finland is covered by forest, and 23 million hectares are used for timber "
        "production."
    )
    assert short_answer(timber, said) != "75 percent"
    vote = analyze("What percentage of the voters were in favour of the assembly?")
    assert short_answer(vote, "The vote was 51.6% of the voters in favour of the assembly.") == "51.6%"
    resolvers = analyze("How long do resolvers keep negative answers?")
    said = "A record with a lifetime of 3600 seconds is typical; resolvers keep negative answers as SOA says."
    assert short_answer(resolvers, said) != "3600 seconds"


# A third review found 13 more; the seven the rules of this session caused, and four older ones.
THIRD = """
<dl>
<dt>brew_tls_level (default: empty)</dt>
<dd><p>The dane level is available in Teapot 2.11 and later.</p></dd>
<dt>brew_sasl_name (default: teapot)</dt>
<dd><p>This parameter is no longer available in Teapot 3.0 and later.</p></dd>
<dt>brew_concurrency</dt>
<dd><p>Set brew_concurrency to 5 for sites that accept 10 parallel brews instead of the default 20.</p></dd>
<dt>brew_sasl_enable (default: no)</dt>
<dd><p>If brew_sasl_enable is yes then leaf logging is set to on by default.</p></dd>
<dt>brew_auth_only (default: no)</dt>
<dd><p>The brew_auth_only parameter is set to yes by default when brew_tls_level is encrypt.</p></dd>
<dt>brew_page_size</dt>
<dd><p>The default is no longer 1024 bytes.</p></dd>
<dt>brew_auth_method</dt>
<dd><p>In Teapot 13 and earlier, the default is md5.</p></dd>
</dl>
<p>The process limits of teapot services are controlled in master(5), the master.cf file format.</p>
"""


@pytest.fixture(scope="module")
def third(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("postfix-review-third")
    return one_page(folder / "teapot", "Teapot parameters", THIRD)


def test_third_review_versions(third: list[Page]) -> None:
    assert "2.11" not in doc_answers(third, "Since which Teapot version is brew_tls_level available?")
    assert "3.0" not in doc_answers(third, "Since which Teapot version is brew_sasl_name available?")


def test_third_review_defaults(third: list[Page]) -> None:
    # The term's own "(default: 20)" answers; the sentence's "instead of the default 20" is not read as
    # brew_concurrency's (its "5 for sites that accept 10 parallel brews" stands between).
    assert [
        a for a in doc_answers(third, "What is the default value of brew_concurrency?") if a != "20"
    ] == []
    assert "on" not in doc_answers(third, "What is the default value of brew_sasl_enable?")
    answers = doc_answers(third, "What is the default value of brew_auth_only?")
    assert "encrypt" not in answers and "yes" not in answers, answers
    assert "no" not in doc_answers(third, "What is the default value of brew_page_size?")
    assert "md5" not in doc_answers(third, "What is the default value of brew_auth_method?")


def test_third_review_a_file_format_page_is_no_daemon(third: list[Page]) -> None:
    assert "master(5)" not in doc_answers(
        third, "Which daemon controls the process limits of teapot services?"
    )


def test_third_review_shares_and_durations() -> None:
    welsh = analyze("What proportion of the residents of Wales could speak Welsh in 2011?")
    said = "In 2011, the proportion of residents of Wales who could speak Welsh fell by 1.5 percent."
    assert short_answer(welsh, said) != "1.5 percent"
    retry = analyze("How long is the delay before the teapot retries a deferred brew?")
    said = "When the teapot retries a deferred brew, it keeps a delay of 2 seconds between pours to one cup."
    assert short_answer(retry, said) != "2 seconds"
