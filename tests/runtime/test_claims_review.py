"""The claims gate's review findings (issue 12): each was a wrong answer accepted with a real citation.

(a) text of the answer outside its claims was never checked; (b) the column (quantity) a cited
cell sits in was not matched with the claim, and a target column read as a measurement; (c) a
newer row of the same workbook never contradicted, and `tolerance_days` could widen the
default; (d) a calculation claim was not tied to its operation, its inputs' rows and order,
nor its result recomputed; (e) a claim could settle a plan item it does not address. Each test
fails on the gate before the fix. The Northstar fixture is tests/data/northstar; the run-level
tests use its real loaders through tests/runtime/test_northstar.py's `record`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from citeloop.events import Abstained, Answered, Calculation, CellValue, FinishRejected, ToolError
from citeloop.policies import RunView
from citeloop.runtime import GATE_CODES, RunState
from citeloop.runtime._calculate import calculate as calculate_tool
from citeloop.runtime._claims import assess_claim
from citeloop.runtime._claims_gate import judge_finish, unclaimed_detail
from citeloop.runtime._completion import completion
from citeloop.runtime._decide_finish import decide_finish
from citeloop.runtime._fold import fold
from helpers.claims import (
    AT,
    BOOK,
    HAPPY,
    HEADER,
    MEAN,
    book,
    cell,
    claim,
    finish,
    happy_claim,
    mean_calculation,
    spec,
    state_for,
)
from test_northstar import calculate, comparison, finishing, happy_finish, record, the_calculation

CORRECTION = ". Correction: prototype B ran 9 h and A 7.5 h, so B runs longer."


def northstar(**options: Any) -> RunState:
    return state_for(spec(), book(), calculations=[mean_calculation()], **options)


def code_of(state: RunState, payload: dict[str, Any]) -> str | None:
    return judge_finish(state, state.steps, payload, AT, state.next_seq)[0]


def judged(one: dict[str, Any], state: RunState) -> tuple[str, str]:
    verdict = assess_claim(one, state)
    return verdict.verdict, verdict.detail


# -- (a) the answer outside its claims ---------------------------------------------------------------


def test_unclaimed_statement_is_a_gate_code_after_claim_not_in_answer() -> None:
    assert GATE_CODES.index("unclaimed_statement") == GATE_CODES.index("claim_not_in_answer") + 1
    assert GATE_CODES.index("unclaimed_statement") < GATE_CODES.index("undisclosed_gaps")


def test_the_happy_answer_with_a_correction_outside_its_claims_is_rejected() -> None:
    state = northstar()
    assert code_of(state, finish([happy_claim()])) is None
    corrected = finish([happy_claim()], answer=HAPPY + CORRECTION)
    assert code_of(state, corrected) == "unclaimed_statement"
    assert unclaimed_detail(corrected) == (
        "the answer outside its claims states the name 'Correction': make it a claim or drop it"
    )


@pytest.mark.parametrize(
    ("tail", "said"),
    [
        (". It ran 12 h on the bench", "the number '12'"),
        (". Northstar built both", "the name 'Northstar'"),
        (", and prototype B failed the drop test", "the name 'B'"),
        (", measured in march", "the date word 'march'"),
        (", so the first one lasts longer", "the number word 'first'"),
        (", and it outlasts the other", "the comparison 'outlasts'"),
        (", the longest of all", "the comparison 'longest'"),
        (", which is not what the spec says", "the negation 'not'"),
        (". The capacity is not what was declared", "the negation 'not'"),
        (", nine hours in all", "the number word 'nine'"),
    ],
)
def test_anything_stated_outside_the_claims_is_rejected(tail: str, said: str) -> None:
    payload = finish([happy_claim()], answer=HAPPY + tail + ".")
    assert code_of(northstar(), payload) == "unclaimed_statement"
    assert (
        unclaimed_detail(payload)
        == f"the answer outside its claims states {said}: make it a claim or drop it"
    )


@pytest.mark.parametrize(
    "answer",
    [
        f"{HAPPY}.",
        f"Yes. {HAPPY}, as the workbook shows.",
        f"In short: {HAPPY}.",
        f"{HAPPY}. The capacity was not checked.",  # a gap disclosed in words states no fact
        f"{HAPPY}. {MEAN}.",
    ],
)
def test_connecting_words_outside_the_claims_pass(answer: str) -> None:
    mean = claim(MEAN, ["calc:1"], "calculation", "calculation")
    claims = [happy_claim(), mean] if MEAN in answer else [happy_claim()]
    assert code_of(northstar(), finish(claims, answer=answer)) is None


@pytest.mark.anyio
async def test_a_run_whose_answer_adds_a_correction_gets_the_repair_turn_then_abstains(
    tmp_path: Path,
) -> None:
    def corrected(view: RunView) -> str:
        reply = json.loads(happy_finish()(view).split("Action Input:", 1)[1])
        reply["answer"] += CORRECTION.removeprefix(".")
        return "Thought: Done.\nAction: finish\nAction Input: " + json.dumps(reply, ensure_ascii=False)

    run = await record(tmp_path, calculate("mean", cell("B2"), cell("B3")), corrected, corrected)
    assert [rejected.code for rejected in run.of(FinishRejected)] == ["unclaimed_statement"] * 2
    abstained = run.events[-1]
    assert isinstance(abstained, Abstained)
    assert (abstained.reason, abstained.detail) == ("invalid_finish", "unclaimed_statement")
    assert run.of(Answered) == []


# -- (b) the column a cited cell sits in ------------------------------------------------------------

WIDE: list[tuple[CellValue, ...]] = [
    ("Prototype", "Runtime (h)", "Charge time (h)", "Target runtime (h)", "Observed at"),
    ("Prototype A", 9, 2, 10, "2026-03-02"),
    ("Prototype B", 7.5, 3, 10, "2026-03-04"),
]


def test_a_runtime_claim_on_a_charge_time_cell_is_unsupported() -> None:
    state = state_for(book(WIDE))
    text = "In the supplied workbook, prototype A's measured runtime is 2 h"
    assert judged(claim(text, [cell("C2")], "measurement", "measurement"), state) == (
        "unsupported",
        "does not name premise 1's quantity 'charge time' (its column 'Charge time (h)'): "
        "what the value measures stays unsaid",
    )
    charge = "In the supplied workbook, prototype A's measured charge time is 2 h"
    assert judged(claim(charge, [cell("C2")], "measurement", "measurement"), state)[0] == "supported"
    compared = claim(
        HAPPY.replace(" (9 h versus 7.5 h)", ""), [cell("C3"), cell("C2")], "measurement", "comparison"
    )
    assert judged(compared, state)[0] == "unsupported"


def test_a_target_column_is_never_a_measurement() -> None:
    state = state_for(book(WIDE))
    text = "In the supplied workbook, prototype A's measured target runtime is 10 h"
    verdict, detail = judged(claim(text, [cell("D2")], "measurement", "measurement"), state)
    assert verdict == "unsupported"
    assert detail == (
        "premise 1: not_a_measurement: attached:runtime.xlsx Runtime!D2 sits under "
        "'Target runtime (h)': a target is not a measurement"
    )
    refused = calculate_tool(json.dumps({"operation": "mean", "inputs": [cell("D2"), cell("D3")]}), state, 1)
    assert isinstance(refused, ToolError) and refused.code == "not_a_measurement"


def test_a_comparison_of_target_cells_is_unsupported() -> None:
    state = state_for(book(WIDE))
    verdict, detail = judged(
        comparison(HAPPY.replace(" (9 h versus 7.5 h)", ""), cell("D2"), cell("D3")), state
    )
    assert verdict == "unsupported" and "not_a_measurement" in detail


# -- (c) a different row for the same item, and the tolerance ---------------------------------------


def test_a_newer_row_on_another_sheet_of_the_same_workbook_contradicts() -> None:
    retest = [HEADER, ("Prototype A", 8, "2026-03-20")]
    state = state_for(book(Retest=retest))
    measured = claim(
        "In the supplied workbook, prototype A's measured runtime is 9 h",
        [cell("B2")],
        "measurement",
        "measurement",
    )
    assert judged(measured, state) == (
        "contradicted",
        f"{BOOK} (Retest!B2) gives Prototype A's runtime as 8 h, not 9 h",
    )
    assert judged(happy_claim(), state)[0] == "contradicted"


def test_a_second_row_for_the_same_item_on_the_same_sheet_contradicts() -> None:
    rows = [*book().representation.sheets[0].rows, ("Prototype A", 8, "2026-03-20")]  # type: ignore[union-attr]
    state = state_for(book(rows))
    assert judged(happy_claim(), state) == (
        "contradicted",
        f"{BOOK} (Runtime!B4) gives Prototype A's runtime as 8 h, not 9 h",
    )


def test_the_same_value_again_or_another_quantity_does_not_contradict() -> None:
    rows: list[tuple[CellValue, ...]] = [
        *WIDE,
        ("Prototype A", 9, 4, 10, "2026-03-20"),
    ]
    assert judged(happy_claim(), state_for(book(rows)))[0] == "supported"


def test_tolerance_days_may_tighten_the_default_but_never_widen_it() -> None:
    state = northstar()  # A and B observed 2 days apart
    assert judged(happy_claim(tolerance_days=5), state)[0] == "supported"
    assert judged(happy_claim(tolerance_days=1), state) == (
        "unsupported",
        "observed 2 days apart, beyond the tolerance of 1 days",
    )
    stale = state_for(book([HEADER, ("Prototype A", 9, "2026-03-02"), ("Prototype B", 7.5, "2025-01-10")]))
    assert judged(happy_claim(tolerance_days=500), stale) == (
        "unsupported",
        "tolerance_days 500 widens the default of 30 days: a claim may only tighten it",
    )


# -- (d) a calculation claim tied to its calculation ---------------------------------------------


def calc_state(
    operation: str, result: float | str, *rows: tuple[str, str, float], quantity: str = "runtime"
) -> RunState:
    """A run with one calculation (calc:1) over rows of (row header, cell, value), recorded as given."""
    base = mean_calculation()
    template = base.inputs[0]
    inputs = tuple(
        template.model_copy(
            update={
                "value": value,
                "quantity": quantity,
                "locator": template.locator.model_copy(
                    update={"row_header": row, "cell": ref, "value": value}
                ),
            }
        )
        for row, ref, value in rows
    )
    unit = "" if operation == "ratio" else base.unit  # as `calculate` records it: one unit divides out
    calc = base.model_copy(update={"operation": operation, "inputs": inputs, "result": result, "unit": unit})
    return state_for(book(), calculations=[calc])


A = ("Prototype A", "B2", 9.0)
B = ("Prototype B", "B3", 7.5)


def calc_claim(text: str) -> dict[str, Any]:
    return claim(text, ["calc:1"], "calculation", "calculation")


def test_a_recorded_result_is_recomputed_from_its_inputs() -> None:
    forged = calc_state("mean", 9.0, A, B)
    assert judged(calc_claim("The mean measured runtime of prototypes A and B is 9 h"), forged) == (
        "contradicted",
        "calc:1 records 9 h, but the mean of its inputs is 8.25 h",
    )
    compared = calc_state("compare", "less", A, B)
    text = "Prototype A's measured runtime is shorter than prototype B's"
    assert judged(calc_claim(text), compared)[0] == "contradicted"


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        (
            "The measured runtime of prototypes A and B is 8.25 h",
            "does not name calc:1's operation, the mean (one of 'mean', 'average', 'averaged')",
        ),
        (
            "The total measured runtime of prototypes A and B is 8.25 h",
            "does not name calc:1's operation, the mean (one of 'mean', 'average', 'averaged')",
        ),
        ("The mean total runtime of prototypes A and B is 8.25 h", "names the sum, but calc:1 is the mean"),
        (
            "The mean measured runtime of the two prototypes is 8.25 h",
            "does not name input 1's row 'Prototype A': whose value it is stays unsaid",
        ),
        (
            "The mean measured runtime of prototypes A and C is 8.25 h",
            "does not name input 2's row 'Prototype B': whose value it is stays unsaid",
        ),
        (
            "The mean measured charge time of prototypes A and B is 8.25 h",
            "does not name input 1's quantity 'runtime' (its column 'Runtime (h)'): "
            "what the value measures stays unsaid",
        ),
    ],
)
def test_a_calculation_claim_names_its_operation_rows_and_quantity(text: str, detail: str) -> None:
    assert judged(calc_claim(text), northstar()) == ("unsupported", detail)


def test_a_pairwise_calculation_claim_names_its_rows_in_the_inputs_order() -> None:
    state = calc_state("difference", 1.5, A, B)
    right = "The difference between prototype A's and prototype B's measured runtime is 1.5 h"
    assert judged(calc_claim(right), state) == ("supported", "states calc:1's difference, 1.5 h")
    swapped = "The difference between prototype B's and prototype A's measured runtime is 1.5 h"
    assert judged(calc_claim(swapped), state) == (
        "unsupported",
        "names 'Prototype B' before 'Prototype A'; calc:1's difference takes 'Prototype A' first",
    )
    ratio = calc_state("ratio", 1.2, A, B)
    assert judged(calc_claim("The ratio of prototype A's to prototype B's measured runtime is 1.2"), ratio)[
        0
    ] == ("supported")


@pytest.mark.anyio
async def test_a_run_whose_mean_claim_names_no_rows_is_refused(tmp_path: Path) -> None:
    def unnamed(view: RunView) -> str:
        text = "The mean measured runtime is 8.25 h"
        return finishing(
            claim(text, [the_calculation(view).id], "calculation", "calculation"), citations=(BOOK,)
        )

    run = await record(tmp_path, calculate("mean", cell("B2"), cell("B3")), unnamed, unnamed)
    assert [rejected.code for rejected in run.of(FinishRejected)] == ["unsupported_claims"] * 2
    abstained = run.events[-1]
    assert isinstance(abstained, Abstained) and abstained.reason == "unsupported_claims"
    assert "does not name input 1's row 'Prototype A'" in abstained.detail
    assert isinstance(run.observed("calculate")[0], Calculation)


# -- (e) the plan item a claim settles --------------------------------------------------------------


def test_a_claim_settles_only_a_plan_item_it_addresses() -> None:
    plan = ["What is the runtime of prototype A?"]
    state = state_for(book(WIDE), plan=plan)
    charge = claim(
        "In the supplied workbook, prototype A's measured charge time is 2 h",
        [cell("C2")],
        "measurement",
        "measurement",
        item=1,
    )
    assert judged(charge, state) == (
        "unsupported",
        "does not address plan item 1 ('What is the runtime of prototype A?'): it never says 'runtime'",
    )
    other_row = claim(
        "In the supplied workbook, prototype B's measured runtime is 7.5 h",
        [cell("B3")],
        "measurement",
        "measurement",
        item=1,
    )
    assert judged(other_row, state)[1].endswith("it never says 'A'")
    runtime = claim(
        "In the supplied workbook, prototype A's measured runtime is 9 h",
        [cell("B2")],
        "measurement",
        "measurement",
        item=1,
    )
    assert judged(runtime, state)[0] == "supported"
    # Off the item, the claim settles nothing: the finish is refused, not answered with a hidden gap.
    events = decide_finish(state, state.steps, finish([charge]), AT)
    assert isinstance(events[-1], FinishRejected) and events[-1].code == "unsupported_claims"
    assert [item.status for item in completion(fold(events, state))] == ["gap"]


def test_a_comparison_answers_which_is_longer_with_shorter_too() -> None:
    state = northstar(plan=["Which prototype runs longer?"])
    shorter = "In the supplied workbook, prototype B's measured runtime is shorter than prototype A's"
    assert judged(comparison(shorter, cell("B3"), cell("B2"), item=1), state)[0] == "supported"


@pytest.mark.anyio
async def test_the_happy_path_with_its_plan_is_still_answered(tmp_path: Path) -> None:
    plan = ["Which prototype runs longer?", "What is their mean runtime?", "What capacity is declared?"]
    run = await record(
        tmp_path, calculate("mean", cell("B2"), cell("B3")), happy_finish(items=True), plan=plan
    )
    assert isinstance(run.events[-1], Answered)
    assert [item.status for item in completion(fold(run.events))] == ["supported"] * 3
