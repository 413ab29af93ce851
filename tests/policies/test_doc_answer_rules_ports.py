"""A default given by what is used when a value is left out, or as the number a standard value stands
for ("the standard POP3 port (110)"), for names dotted twice (`poplib.POP3.stat`).

From the dev half of python_doc; the pages are invented (a "kettlenet" module). Each rule has a case
that must fail.
"""

from __future__ import annotations

import pytest
from citeloop.events import Page
from citeloop.policies._doc_identifiers import is_identifier
from citeloop.policies._doc_match import signature_params
from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

KETTLENET = """<html><head><title>kettlenet \u2014 Kettle protocol client</title></head><body>
<h1>kettlenet \u2014 Kettle protocol client\u00b6</h1>
<dl>
<dt>class kettlenet.KTP(host, port=KTP_PORT[, timeout])\u00b6</dt>
<dd><p>This class implements the Kettle protocol. If port is omitted, the standard KTP port (110) is
used. The optional timeout parameter gives a timeout in seconds.</p></dd>
<dt>class kettlenet.KTP_SSL(host, port=KTP_SSL_PORT, *, timeout=None)\u00b6</dt>
<dd><p>A subclass of KTP that connects over SSL. If port is not specified, 995, the standard
KTP-over-SSL port is used. timeout works as in the KTP constructor.</p></dd>
<dt>Kettle.open(host, port=0[, timeout])\u00b6</dt>
<dd><p>Connect to a host. The optional second argument is the port number, which defaults to the
standard Kettle port (23).</p></dd>
<dt>Kettle.connect(host='', port=0)\u00b6</dt>
<dd><p>Connect to a host on a given port. The defaults are to connect to the local host at the standard
KTP port (25).</p></dd>
<dt>Kettle.listen(host, port=0)\u00b6</dt>
<dd><p>Listen on a port. A port of 0 lets the system choose one.</p></dd>
</dl>
</body></html>"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    corpus: Corpus = page_corpus(tmp_path_factory.mktemp("kettlenet"), {"kettlenet": KETTLENET})
    return open_pages(corpus, "kettlenet")


def test_a_name_dotted_twice_is_code_but_a_host_name_is_not() -> None:
    assert is_identifier("kettlenet.Kettle.open")
    assert is_identifier("smtplib.SMTP.connect")
    # Must fail: dotted like code, but a host name.
    assert not is_identifier("docs.kettle.org")
    assert not is_identifier("www.example.net")


def test_an_optional_arguments_bracket_ends_the_value_before_it() -> None:
    assert list(signature_params("Kettle.open(host, port=0[, timeout])")) == [("port", "0")]
    assert list(signature_params("f(x[, y=2[, z=3]])")) == [("y", "2"), ("z", "3")]
    # Must fail as a split: a list value keeps its brackets and commas.
    assert list(signature_params("f(a, b=[1, 2], c=3)")) == [("b", "[1, 2]"), ("c", "3")]


def test_what_is_used_if_the_value_is_omitted_is_its_default(pages: list[Page]) -> None:
    assert doc_answers(pages, "What is the default port of kettlenet.KTP?")[:1] == ["110"]
    asked = "Which port does kettlenet.KTP_SSL use if port is not specified?"
    assert doc_answers(pages, asked)[:1] == ["995"]


def test_the_term_named_in_full_outranks_a_neighbour_mentioning_it(pages: list[Page]) -> None:
    # KTP_SSL's description mentions "the KTP constructor"; it is not the KTP class's.
    answers = doc_answers(pages, "What is the default port of kettlenet.KTP?")
    assert "995" in answers and answers.index("110") < answers.index("995")


def test_the_number_a_standard_default_stands_for(pages: list[Page]) -> None:
    assert doc_answers(pages, "What is the default port of kettlenet.Kettle.open?")[:1] == ["23"]
    # "port=0" is a placeholder the page states a default for.
    assert doc_answers(pages, "What is the default port of kettlenet.Kettle.connect?")[:1] == ["25"]


def test_a_placeholder_with_no_stated_default_stays_the_signatures(pages: list[Page]) -> None:
    # Must fail as a stated default: "A port of 0 lets the system choose one." states none.
    assert doc_answers(pages, "What is the default port of kettlenet.Kettle.listen?")[:1] == ["port=0"]


def _verdicts(question: str, answer: str, evidence: str) -> list[str]:
    found = assess_support(question, answer, evidence, DEFAULT_SUPPORT, pages=[("kettlenet", "")])
    return [v.verdict for v in found]


def test_the_gate_reads_what_is_used_if_omitted_as_a_default() -> None:
    question = "What is the default port of the KTP class?"
    quote = "If port is omitted, the standard KTP port (110) is used."
    assert "unsupported" not in _verdicts(question, "110", quote)
    # Must fail: the quote gives the number but not as what is used when none is given.
    assert "unsupported" in _verdicts(question, "110", "The KTP class speaks to port 110 of the KTP host.")


def test_the_gate_reads_a_member_dotted_twice_under_its_own_term_on_its_modules_page() -> None:
    body = KETTLENET_TEXT
    question = "What is the default port of kettlenet.Kettle.open?"
    quote = (
        "The optional second argument is the port number, which defaults to the standard Kettle port (23)."
    )
    found = assess_support(question, "23", quote, DEFAULT_SUPPORT, pages=[("kettlenet \u2014 Kettle", body)])
    assert [v.verdict for v in found] == ["supported", "supported", "supported"]
    # Must fail: on another module's page, "Kettle.open" does not stand for kettlenet's.
    found = assess_support(question, "23", quote, DEFAULT_SUPPORT, pages=[("teapot \u2014 Teapot", body)])
    assert [v.verdict for v in found][1] == "unsupported"


KETTLENET_TEXT = (
    "# kettlenet \u2014 Kettle protocol client\u00b6\n"
    "Kettle.open(host, port=0[, timeout])\u00b6\n"
    "    Connect to a host. The optional second argument is the port number, which defaults to the "
    "standard Kettle port (23).\n"
)
