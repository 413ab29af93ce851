"""`yes-no` (runtime/_support_yes_no.py): a "yes" or "no" held to what its quote says, directly and
through the Runtime, where a "no" the quote contradicts gets the repair turn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Answered, FinishRejected
from citeloop.policies import finish_reply, react
from citeloop.runtime import SUPPORT_METHODS, assess_support, check_events
from citeloop.tools import Corpus
from helpers.replied import replied_run
from hypothesis import given
from hypothesis import strategies as st

SUPPORTS = "Postfix version 2.2 and later supports IPv6."
LACKS = "Postfix does not support IPv6 on this platform."


def _judge(question: str, answer: str, evidence: str) -> tuple[str, str] | None:
    verdicts = assess_support(question, answer, evidence, ["yes-no"], SUPPORT_METHODS)
    return (verdicts[0].verdict, verdicts[0].detail) if verdicts else None


@pytest.mark.parametrize(
    ("question", "answer", "evidence", "verdict"),
    [
        ("Does Postfix support IPv6?", "yes", SUPPORTS, "supported"),
        ("Does Postfix support IPv6?", "Yes, since 2.2.", SUPPORTS, "supported"),
        ("Does Postfix support IPv6?", "no", SUPPORTS, "contradicted"),
        ("Does Postfix support IPv6?", "No.", LACKS, "supported"),
        ("Does Postfix support IPv6?", "yes", LACKS, "contradicted"),
        ("Is Kenji the CEO?", "Yes.", "Kenji is the CEO of Acme.", "supported"),
        (
            "Is Kenji the CEO?",
            "Yes.",
            "Kenji Ito is the current CEO.",
            "unsupported",
        ),  # words between the last two
        ("Is Kenji the CEO?", "Yes.", "The current CEO is Kenji Ito.", "unsupported"),  # the other order
        # A "no" read from another value is not checked mechanically.
        ("Is the default port 8080?", "no", "The default port is 8000.", "unsupported"),
        ("Does Postfix support IPv6?", "yes", "Postfix is a mail server.", "unsupported"),
        ("Can servers share one log?", "yes", "Many servers can share one log file.", "supported"),
    ],
)
def test_the_verdicts(question: str, answer: str, evidence: str, verdict: str) -> None:
    judged = _judge(question, answer, evidence)
    assert judged is not None and judged[0] == verdict, judged


def test_the_detail_names_the_words_no_sentence_says() -> None:
    assert _judge("Is the default port 8080?", "no", "The default port is 8000.") == (
        "unsupported",
        "no quoted clause says default port 8080 in that order",
    )


# A reviewer's cases (helper review of the first version, which pooled words across quotes and
# sentences, dropped relation words, matched five-letter prefixes and read any negation).
@pytest.mark.parametrize(
    ("question", "answer", "evidence"),
    [
        ("Were Jaws and Star Wars both directed by Steven Spielberg?", "yes",
         "Jaws is a 1975 American thriller film directed by Steven Spielberg.\n"
         "Star Wars is a 1977 American epic space opera film written and directed by George Lucas."),
        ("Were Tom Hanks and Denzel Washington both born in 1956?", "yes",
         "Thomas Jeffrey Hanks (born July 9, 1956) is an American actor.\n"
         "Denzel Hayes Washington Jr. (born December 28, 1954) is an American actor."),
        ("Was Ted Cruz born before Barack Obama?", "yes",
         "Rafael Edward Cruz (born December 22, 1970) is an American politician.\n"
         "Barack Hussein Obama II (born August 4, 1961) is an American politician."),
        ("Was Python released after Java?", "yes", "Python was released in 1991, years before Java was."),
        ("Does the parent process inherit the child's environment?", "yes",
         "The child process inherits the environment of the parent process."),
        ("Is Mercury larger than Ganymede?", "yes", "Ganymede is larger than the planet Mercury."),
        ("Was Marie Curie born in Paris?", "yes",
         "Marie Curie was born in Warsaw, then in the Kingdom of Poland; in 1891 she moved to Paris."),
        ("Is Sydney the capital of Australia?", "yes",
         "Sydney is the capital city of the state of New South Wales and the largest city in Australia."),
        ("Does os.remove delete directories?", "yes",
         "os.remove(path): Remove (delete) the file path. If path is a directory, an OSError is raised."),
        ("Does InnoDB support partial indexes?", "yes", "InnoDB supports partitioned tables and indexes."),
        ("Does Memcached support transactions?", "yes", "Memcached supports the binary transport protocol."),
        ("Does Gunicorn support HTTP/2?", "yes", "Gunicorn supports TLS 1.2 over HTTP."),
        ("Does SQLite support foreign keys?", "no",
         "SQLite supports foreign key constraints, but they are not enforced unless enabled."),
        ("Does Python support multiple inheritance?", "no",
         "Python supports multiple inheritance, searching each class once and not twice."),
        ("Is Pluto a dwarf planet?", "no", "Pluto is a dwarf planet in the Kuiper belt, no longer a planet."),
        # The second review's (of the version that read words across a sentence and any negation near them).
        ("Does Internet Explorer support WebP?", "yes", "No version of Internet Explorer supports WebP."),
        ("Does Python have tail call optimization?", "yes",
         "Python lacks tail call optimization, by design."),
        ("Does Kotlin have checked exceptions?", "yes", "Kotlin dropped checked exceptions, unlike Java."),
        ("Does TLS 1.3 support RSA key exchange?", "yes",
         "TLS 1.3 removed support for static RSA key exchange."),
        ("Does Docker use virtual machines?", "yes", "Docker uses containers instead of virtual machines."),
        ("Does Git store differences between file versions?", "yes",
         "Git stores snapshots rather than differences between file versions."),
        ("Does C support classes?", "yes", "C++ supports classes and templates."),
        ("Does C support properties?", "yes", "C# supports properties."),
        ("Does TCP guarantee delivery?", "no", "Unlike TCP, UDP does not guarantee delivery."),
        ("Does PostgreSQL support GIN indexes?", "no",
         "PostgreSQL supports not only B-tree indexes but also GIN indexes."),
        ("Does SQLite support transactions?", "no",
         "SQLite is not a client-server database engine but supports ACID transactions."),
        ("Does Flask listen on port 5000?", "no", "If not specified, Flask listens on port 5000."),
        ("Is Pluto a planet?", "yes", "Pluto is a dwarf planet in the Kuiper belt."),
        ("Is Sydney the capital of Australia?", "yes",
         "Sydney is the capital of New South Wales, Australia."),
        ("Was Chopin born in Paris?", "yes", "Chopin was born in Zelazowa Wola and moved to Paris in 1831."),
        ("Are all prime numbers odd?", "yes", "All prime numbers other than 2 are odd."),
        ("Are Python programs faster than C programs?", "yes",
         "Python programs are generally faster to write than C programs, but slower to run."),
        ("Is Bonn the capital of Germany?", "yes", "Bonn was the capital of West Germany from 1949 to 1990."),
        ("Is Rio de Janeiro the capital of Brazil?", "yes",
         "Rio de Janeiro was the capital of Brazil until 1960."),
        ("Does os.rmdir delete a directory and all in it?", "yes",
         "os.rmdir() removes only empty directories. shutil.rmtree() deletes a directory and all in it."),
        # The third review's.
        ("Is the koala a bear?", "yes", "The koala or, inaccurately, koala bear is a marsupial."),
        ("Does Node.js run JavaScript?", "no", "Node.js does not require a browser to run JavaScript code."),
        ("Does Rust guarantee memory safety?", "no", "Rust guarantees memory safety without a collector."),
        ("Does JSON support comments?", "yes", "JSON supersets such as JSON5 support comments."),
        ("Is Toronto the capital of Canada?", "yes", "Toronto is larger than the capital of Canada."),
        ("Does Chrome support JPEG XL?", "yes", "Chrome 91 added experimental support for JPEG XL."),
        ("Does Git push to a checked-out branch?", "yes", "Git refuses to push to a checked-out branch."),
        ("Does pip uninstall dependencies?", "yes", "pip is unable to uninstall dependencies."),
        ("Does Chrome support Flash?", "yes", "Chrome supported Flash until 2020."),
        ("Does Chrome support Flash?", "yes", "Chrome supported Flash."),
        ("Is Pluto the ninth planet?", "yes", "Pluto used to be the ninth planet."),
        ("Does Firefox support WebGPU?", "yes", "Firefox will support WebGPU."),
        ("Does SQLite enforce foreign keys?", "yes", "SQLite enforces foreign keys if enabled."),
        ("Is Titan larger than Earth?", "yes", "Titan is larger than Earth's Moon."),
    ],
)  # fmt: skip
def test_wrong_answers_a_review_found_are_not_supported(question: str, answer: str, evidence: str) -> None:
    judged = _judge(question, answer, evidence)
    assert judged is not None and judged[0] != "supported", judged


@pytest.mark.parametrize(
    ("question", "answer", "evidence"),
    [
        ("Was Thriller the best-selling album of 1983 in the United States?", "yes",
         "Thriller was the best-selling album of 1983 in the United States, with 37 weeks at No. 1."),
        ("Does pip install dependencies?", "yes", "pip installs dependencies; pass --no-deps to skip them."),
        ("Is the timeout argument optional?", "yes", "The timeout argument is optional; None blocks."),
        ("Does Flask listen on port 5000?", "yes", "By default, Flask listens on port 5000."),
    ],
)  # fmt: skip
def test_right_answers_a_review_found_rejected_are_supported(
    question: str, answer: str, evidence: str
) -> None:
    assert _judge(question, answer, evidence) == ("supported", "the quote says what is asked")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the default of smtpd_tls_auth_only?", "no"),  # a value, not a verdict
        ("Does Postfix support IPv6?", "Postfix 2.2"),  # not a yes or no: the other methods judge it
        ("Isn't IPv6 supported by Postfix?", "yes"),  # which way "no" points is the asker's
        ("Is IPv6 not supported by Postfix?", "yes"),
        ("Were Dara Orin and Pol Vesk of the same nationality?", "no"),  # same-value's
    ],
)
def test_other_answers_and_questions_are_not_judged(question: str, answer: str) -> None:
    assert _judge(question, answer, SUPPORTS) is None


_FILLER = st.lists(st.sampled_from(["since", "version", "release", "fully", "the", "platform"]), max_size=4)


@given(_FILLER, _FILLER, st.booleans())
def test_a_negation_flips_which_verdict_the_same_words_support(
    before: list[str], after: list[str], negated: bool
) -> None:
    quote = " ".join([*before, "Postfix", *(["not"] if negated else []), "supports", "IPv6", *after])
    yes = _judge("Does Postfix support IPv6?", "yes", quote)
    no = _judge("Does Postfix support IPv6?", "no", quote)
    assert yes is not None and no is not None
    assert (yes[0] == "supported") != negated and (no[0] == "supported") == negated
    assert "contradicted" in (yes[0], no[0])


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    built = Corpus.demo()
    yield built
    built.close()


@pytest.mark.anyio
async def test_a_no_the_quote_contradicts_is_rejected_then_the_yes_is_accepted(corpus: Corpus) -> None:
    url = next(u for u in corpus.urls() if "acme" in u and "porto" not in u)
    page = corpus.open(url)
    assert page is not None
    quote = next(s for s in page.body.split(". ") if "founded" in s and "Lisbon" in s)
    question = "Was Acme Robotics founded by Ada Ortiz?"
    events = await replied_run(
        corpus,
        question,
        react("open", "open", url),
        finish_reply("guess", "no", [url], quote),
        finish_reply("read", "yes", [url], quote),
    )
    (rejected,) = [e for e in events if isinstance(e, FinishRejected)]
    assert rejected.code == "unsupported_answer"
    assert [(v.method, v.verdict) for v in rejected.support if v.method == "yes-no"] == [
        ("yes-no", "contradicted")
    ]
    answered = events[-1]
    assert isinstance(answered, Answered) and answered.answer == "yes"
    assert all(v.verdict == "supported" for v in answered.support)
    assert check_events(events).ok


def test_a_clause_longer_than_prose_runs_says_nothing() -> None:
    # A table or a list read as one clause: the words are there, far apart, and it is not read (the
    # search is quadratic in a clause's length; no clause of prose is 150 words long).
    filler = " ".join(["record"] * 160)
    quote = f"Postfix {filler} supports IPv6."
    assert _judge("Does Postfix support IPv6?", "yes", quote) == (
        "unsupported",
        "no quoted clause says postfix support ipv6 in that order",
    )
    assert _judge(
        "Does Postfix support IPv6?", "yes", f"Postfix {' '.join(['record'] * 60)} supports IPv6."
    ) == (
        "supported",
        "the quote says what is asked",
    )
