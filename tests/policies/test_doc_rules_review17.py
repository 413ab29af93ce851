"""Review sets B-G and review chains 3 (2026-12-05): two equally good defaults settled by the question's
negation, never offered again once the gate refused the settled one; and a bridge that is no answer
when the question asks for a title or a measure it is not. Each class on invented pages."""

from __future__ import annotations

from pathlib import Path

from citeloop.policies._bridge_answer import typed_as_asked
from citeloop.policies._doc_finish import finish_doc
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._sentences import Sentence
from helpers.doc_pages import one_page

KEPT = """
<h2>CONFIGURATION</h2>
<p>Archived drafts you published earlier are kept for this many days when tidy prune is run.
The default is 45 days.</p>
<p>Archived drafts you have not published are kept for this many days when tidy prune is run.
The default is 12 days.</p>
"""


ALREADY = "How long does tidy prune keep archived drafts that I already published, by default?"


def _finish(tmp_path: Path, question: str, rejected: set[tuple[str, str]] | None = None) -> str:
    doc = doc_question(question, True)
    assert doc is not None and doc.kind == "default"
    return finish_doc(doc, one_page(tmp_path / "pages", "tidy-prune", KEPT), rejected or set())


def test_the_default_of_the_case_asked_not_its_negation(tmp_path: Path) -> None:
    # Review F (git rerere gc): both paragraphs hold the question's words equally; "have not" says
    # the other case. Without the rule the two tie and the policy refuses.
    reply = _finish(
        tmp_path, "How long does tidy prune keep archived drafts that I already published, by default?"
    )
    assert '"answer": "45 days"' in reply


def test_a_negated_question_takes_the_negated_case(tmp_path: Path) -> None:
    reply = _finish(
        tmp_path, "How long does tidy prune keep archived drafts that were never published, by default?"
    )
    assert '"answer": "12 days"' in reply


def test_the_case_not_asked_is_not_offered_after_the_gate_refuses_the_asked_one(tmp_path: Path) -> None:
    question = ALREADY
    first = _finish(tmp_path, question)
    evidence = first.split('"evidence": "', 1)[1].split('"', 1)[0]
    assert "published earlier" in evidence
    # The repair turn: the gate refused "45 days"; "12 days" answers the case the question does not ask.
    repaired = _finish(tmp_path, question, {("45 days", evidence.replace("\\n", "\n"))})
    assert "12 days" not in repaired.split("Action Input:", 1)[1].split('"hint"', 1)[0]
    assert "cannot" in repaired


DISTRICT = [
    Sentence(0, 10, "Lanwick District is one of three urban districts of the city of Orrel, Vastia."),
    Sentence(0, 10, "Lanwick is noted for being the birthplace of Tomas Heller."),
]
CITY = [
    Sentence(0, 10, "Rellan is the capital city of Vastia and its second largest city with 580,000 people.")
]


def test_a_bridge_is_no_title_nor_measure_it_is_not() -> None:
    # Review chains 3: "Jiangyan District" answered "Which former General Secretary of the Communist
    # Party of China was born in the district that contains the town of Shengao?", and "Rabat"
    # answered "What is the approximate urban population of the city whose government ...?".
    secretary = (
        "Which former General Secretary of the Unity Party of Vastia was born in the district of Sorn?"
    )
    population = "What is the approximate urban population of the city whose government is in Vastia?"
    assert not typed_as_asked(secretary, DISTRICT)
    assert not typed_as_asked(population, CITY)
    # Asked for what the bridge is, it answers.
    former = [Sentence(0, 10, "Lanwick District is a former district of the city of Orrel.")]
    assert typed_as_asked("Which former district of the Vastia province contains the town of Sorn?", former)
    assert typed_as_asked("What is the capital city of the country whose river is the Vell?", CITY)
