"""Defaults stated in more of the ways a reference manual states them (from python_doc's dev half).

"...; by default, the extension is '.bak'", "Includes just '#' by default.", "which defaults to
LOG_INFO" asked "when no priority argument is given", "By default, the traceback is written to
sys.stderr.", and a signature's default asked "if none is given". The pages are invented (a
"kettle" module). Each rule has a case that must fail.
"""

from __future__ import annotations

import pytest
from citeloop.events import Page
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_finish import DOC_MIN_SCORE
from citeloop.policies._doc_questions import doc_question
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

KETTLE = """<html><head><title>kettle \u2014 Kettle control</title></head><body>
<h1>kettle \u2014 Kettle control\u00b6</h1>
<p>If the spare parameter is given, it specifies the extension for the spare cup, and the spare
cup remains around; by default, the extension is '.cup' and it is washed when the kettle is closed.</p>
<p>By default, the steam report is written to sys.stderr. By default, the water log is written to disk.</p>
<dl>
<dt>kettle.boil(water[, heat])\u00b6</dt>
<dd><p>Boil the water. The optional heat argument, which defaults to HEAT_HIGH, determines how hot.</p></dd>
<dt>kettle.pour(cup, source='&lt;tap&gt;')\u00b6</dt>
<dd><p>Pour into a cup. Optional argument source names the water.
If not given, '&lt;tap&gt;' is used.</p></dd>
<dt>kettle.spouts\u00b6</dt>
<dd><p>The characters that open a spout. Includes just '#' by default.</p></dd>
<dt>kettle.whistle(when)¶</dt>
<dd><p>Whistle at a moment: when is one of early, onboil (default, can be omitted) or late.
The tone is one of low (defaulted by older kettles) or high.</p></dd>
</dl>
</body></html>"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    corpus: Corpus = page_corpus(tmp_path_factory.mktemp("kettle-defaults"), {"kettle": KETTLE})
    return open_pages(corpus, "kettle")


def test_a_default_after_a_semicolon(pages: list[Page]) -> None:
    assert doc_answers(pages, "What is the default extension of the spare cup in kettle?")[:1] == ["'.cup'"]


def test_a_value_included_by_default(pages: list[Page]) -> None:
    assert doc_answers(pages, "Which characters does kettle.spouts include by default?")[:1] == ["'#'"]


def test_a_default_asked_when_no_argument_is_given(pages: list[Page]) -> None:
    asked = doc_question("What heat does kettle.boil use when no heat argument is given?", True)
    assert asked is not None and asked.kind == "default"
    assert doc_answers(pages, "What heat does kettle.boil use when no heat argument is given?")[:1] == [
        "HEAT_HIGH"
    ]
    # Must fail as a default: a value asked under another condition is not the one left out.
    asked = doc_question("What heat does kettle.boil use when the water is cold?", True)
    assert asked is None or asked.kind != "default"


def test_a_signature_default_asked_if_none_is_given(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What source name does kettle.pour use if none is given?")
    assert answers[:1] == ["source='<tap>'"]


def test_where_a_default_is_written_when_it_is_code(pages: list[Page]) -> None:
    assert doc_answers(pages, "Where does kettle write the steam report by default?")[:1] == ["sys.stderr"]
    # Must fail: "written to disk" names no code-shaped place; "written" is no value either.
    assert doc_answers(pages, "Where does kettle write the water log by default?") == []


SIGNATURES = """<html><head><title>teapot \u2014 Teapots</title></head><body>
<h1>teapot \u2014 Teapots\u00b6</h1>
<dl>
<dt>teapot.brew(leaves, pot=None)\u00b6</dt>
<dd><p>Brew the leaves in a pot.</p></dd>
<dt>teapot.steep(leaves, mode=None)\u00b6</dt>
<dd><p>Steep the leaves. If omitted, leaves.mode is used if it exists, otherwise 'rb' is used.</p></dd>
<dt>teapot.chill(leaves, cold=None)\u00b6</dt>
<dd><p>Chill the leaves. If cold is None, the fridge setting is used.</p></dd>
<dt>class teapot.Parser(defaults=None, strict=True[, blend])\u00b6</dt>
<dd><p>A parser of tea recipes.</p></dd>
</dl>
</body></html>"""


@pytest.fixture(scope="module")
def teapot(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    corpus: Corpus = page_corpus(tmp_path_factory.mktemp("teapot"), {"teapot": SIGNATURES})
    return open_pages(corpus, "teapot")


def _best(pages: list[Page], question: str) -> tuple[str, float] | None:
    asked = doc_question(question, True)
    assert asked is not None, question
    found = answer_doc(asked, pages)
    return (found[0].answer, found[0].score) if found else None


def test_a_signatures_none_is_the_default_where_the_text_says_nothing_of_it(teapot: list[Page]) -> None:
    best = _best(teapot, "What is the default pot of teapot.brew?")
    assert best is not None and best[0] == "pot=None" and best[1] >= DOC_MIN_SCORE


def test_a_none_the_description_explains_is_not_trusted_as_the_default(teapot: list[Page]) -> None:
    # Must fail as answers: the description says what is used when the value is left out or None.
    asked = (
        "Which mode does teapot.steep use if mode is omitted?",
        "What is the default cold of teapot.chill?",
    )
    for question in asked:
        best = _best(teapot, question)
        assert best is None or best[1] < DOC_MIN_SCORE, (question, best)


def test_the_word_default_in_a_question_names_no_parameter_called_defaults(teapot: list[Page]) -> None:
    # Must fail: "defaults=None" is another parameter's default, not the blend's.
    assert "defaults=None" not in doc_answers(teapot, "What is the default blend of teapot.Parser?")


def test_the_value_a_list_marks_as_the_default(pages: list[Page]) -> None:
    assert doc_answers(pages, "Which value of the when argument of kettle.whistle is the default?")[:1] == [
        "onboil"
    ]
    # Must fail: "(defaulted by older kettles)" marks no default of this manual's kettle.
    assert "low" not in doc_answers(pages, "Which tone of kettle.whistle is the default?")
