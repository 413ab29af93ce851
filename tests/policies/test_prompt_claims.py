"""What a chat model is told when a run has attachments: claims, premise forms, classes, methods, calculate.

The prompt is the only place a real model learns what the gate accepts (docs/evidence.md),
so it is checked as rendered, in both modes, for the Northstar fixture's sources.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies import RunView
from citeloop.policies._prompt import render_messages, system_prompt
from citeloop.policies._tool_schemas import function_definitions
from citeloop.tools import Attachment, admit_all

pytest.importorskip("openpyxl")

DATA = Path(__file__).resolve().parents[1] / "data" / "northstar"
ALLOWLIST = ("search", "open", "calculate", "finish")


def northstar_view(**more: object) -> RunView:
    sources = admit_all([Attachment(DATA / "spec.md"), Attachment(DATA / "runtime.xlsx")])
    return RunView(
        run_id="r",
        question="Which prototype runs longer?",
        allowlist=ALLOWLIST,
        step=0,
        max_steps=6,
        sources={source.id: source for source in sources},
        sources_shown="attached <attached:runtime.xlsx> (measurement, ...)",
        **more,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("mode", ["react", "tools"])
def test_a_run_with_attachments_is_told_the_claim_shape_the_classes_and_each_method(mode: str) -> None:
    prompt = system_prompt(northstar_view(), mode)  # type: ignore[arg-type]
    assert '"claims"' in prompt and '"gaps"' in prompt
    for form in ('{"source", "sheet", "cell"}', '{"source", "row", "column"}', '"calc:<step>"'):
        assert form in prompt
    assert "retrieved|declaration|measurement|calculation|generated" in prompt
    assert "quote|measurement|comparison|calculation" in prompt
    # What each method needs, in the words the gate holds a claim to.
    assert "names each row and states each value with its unit" in prompt
    assert "two cells of one quantity in one unit, observed within 30 days" in prompt
    assert "one calc:<step> premise, the text states its result with its unit" in prompt
    assert "A declaration or a generated note is never a measurement" in prompt
    assert "never filled in" in prompt


def test_react_documents_calculate_as_a_tool() -> None:
    prompt = system_prompt(northstar_view(), "react")
    (line,) = [line for line in prompt.splitlines() if line.startswith("- calculate:")]
    assert '{"operation": "<sum|mean|min|max|difference|ratio|compare>", "inputs": [' in line
    assert "calc:<step>" in line and "missing_value" in line and "mixed_units" in line


def test_tool_calling_describes_calculate_and_offers_claims_on_finish() -> None:
    definitions = {d["function"]["name"]: d["function"] for d in function_definitions(ALLOWLIST)}
    description = definitions["calculate"]["description"]
    assert '"operation"' in description and "calc:<step>" in description
    assert {"claims", "gaps"} <= set(definitions["finish"]["parameters"]["properties"])


def test_a_run_without_attachments_or_plan_is_not_told_about_claims() -> None:
    plain = RunView(run_id="r", question="q", allowlist=("search", "open", "finish"), step=0, max_steps=6)
    for mode in ("react", "tools"):
        prompt = system_prompt(plain, mode)  # type: ignore[arg-type]
        assert '"claims"' not in prompt and "calculate" not in prompt and "Methods:" not in prompt


def test_the_question_message_carries_the_plan_and_the_attachments() -> None:
    view = northstar_view(plan=("Which prototype runs longer?", "What capacity is declared?"))
    question = render_messages(view, "react")[1]["content"]
    assert "1. Which prototype runs longer?\n2. What capacity is declared?" in question
    assert question.index("Research plan") < question.index("Attached sources:")
