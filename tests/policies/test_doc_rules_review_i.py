"""Review I (2026-12-05): its two wrong answers - a default counting another noun, and an option for a
protocol no opened page names - each on invented pages, with what the question does ask still answered."""

from __future__ import annotations

from pathlib import Path

from citeloop.policies._doc_finish import finish_doc
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._sentences import stem
from helpers.doc_pages import doc_answers, one_page

LIMITS = """
<h2>Process limits</h2>
<p>As of Relay 2.0 the default limit is 100 relay client processes, 100 relay server processes, and
so on.</p>
<p>A client may open at most relay_client_connection_limit (default: 40 connections) at a time.</p>
"""


def test_a_default_counting_another_noun_is_not_the_count_asked(tmp_path: Path) -> None:
    # Review I (Postfix): "the default limit is 100 SMTP client processes" answered how many
    # simultaneous connections one SMTP client may open.
    answers = doc_answers(
        one_page(tmp_path / "pages", "limits", LIMITS),
        "By default, how many simultaneous connections may a single relay client open to the server?",
    )
    assert "100" not in answers


def test_a_default_counting_the_noun_asked_still_answers(tmp_path: Path) -> None:
    answers = doc_answers(
        one_page(tmp_path / "pages", "limits", LIMITS),
        "By default, how many relay server processes may run at the same time?",
    )
    assert answers[:1] == ["100"]


SERVER = """
<h2>Command-line interface</h2>
<p>The option -p/--protocol specifies the HTTP version to which the server is conformant.</p>
<p>The option -d/--directory specifies a directory to which it should serve the files.</p>
"""


def test_an_acronym_no_opened_page_names_is_a_refusal(tmp_path: Path) -> None:
    # Review I (http.server, unanswerable): "serve over HTTPS/TLS" was answered with the option giving
    # the HTTP version; no page says TLS (nor HTTPS, which is no plural of HTTP).
    doc = doc_question("Which command-line option makes webserve serve over HTTPS/TLS?", True)
    assert doc is not None
    reply = finish_doc(doc, one_page(tmp_path / "pages", "webserve", SERVER), set())
    assert "cannot" in reply and "no opened page mentions HTTPS" in reply


def test_an_acronym_a_page_names_is_no_reason_to_refuse(tmp_path: Path) -> None:
    doc = doc_question("Which webserve option specifies the HTTP version of the server?", True)
    assert doc is not None
    reply = finish_doc(doc, one_page(tmp_path / "pages", "webserve", SERVER), set())
    assert '"answer": "-p/--protocol"' in reply


def test_https_is_no_plural_of_http() -> None:
    assert stem("HTTPS") != stem("HTTP")
    assert stem("servers") == stem("server")
