"""Claims with premises (issue 12): each method's verdicts and reasons, the gate's claim codes, completion."""

from __future__ import annotations

from typing import Any

import pytest
from citeloop.events import Abstained, Answered, ClaimAssessed, Event, FinishRejected
from citeloop.runtime import GATE_CODES, RunState, fold, validate_finish
from citeloop.runtime._claims import assess_claim
from citeloop.runtime._claims_gate import claim_texts, judge_finish, validate_claims
from citeloop.runtime._completion import completion, completion_of, gaps_of
from citeloop.runtime._decide_finish import decide_finish
from helpers.claims import (
    AT,
    BOOK,
    DECLARED,
    HAPPY,
    HEADER,
    MEAN,
    NOTE,
    PAGE,
    PAGE_TEXT,
    RETEST,
    SPEC,
    book,
    cell,
    claim,
    finish,
    happy_claim,
    mean_calculation,
    measurement,
    note,
    quote,
    spec,
    state_for,
)
from hypothesis import given, settings
from hypothesis import strategies as st

MEASURED_A = "In the supplied workbook, prototype A's measured runtime is 9 h"
PLAN = ("Which prototype runs longer?", "What is their mean runtime?", "What capacity is declared?")


def northstar(**options: Any) -> RunState:
    return state_for(spec(), book(), note(), calculations=[mean_calculation()], **options)


def verdict(one: dict[str, Any], state: RunState | None = None) -> tuple[str, str, str]:
    judged = assess_claim(one, state if state is not None else northstar())
    return judged.method, judged.verdict, judged.detail


def decide(state: RunState, payload: dict[str, Any]) -> list[Event]:
    return decide_finish(state, state.steps, payload, AT)


# -- quote ------------------------------------------------------------------------------------


def test_quote_supported_when_its_numbers_and_names_are_in_the_premise() -> None:
    one = claim(DECLARED, [quote("declared at a capacity of 72 Wh")], "declaration", "quote")
    assert verdict(one) == ("quote", "supported", "its numbers and names occur in its premises")


def test_quote_unsupported_when_it_names_what_the_premise_does_not() -> None:
    text = "The specification declares the Northstar capacity as 72 Wh"
    method, result, detail = verdict(
        claim(text, [quote("declared at a capacity of 72 Wh")], "declaration", "quote")
    )
    assert (method, result) == ("quote", "unsupported")
    assert detail == "names 'Northstar', which its premises do not"


def test_quote_contradicted_when_the_premise_gives_another_number_in_the_unit() -> None:
    text = "The specification declares a battery capacity of 70 Wh"
    method, result, detail = verdict(
        claim(text, [quote("declared at a capacity of 72 Wh")], "declaration", "quote")
    )
    assert (method, result) == ("quote", "contradicted")
    assert detail == "states 70 wh; its premises give 72 wh"


def test_quote_of_an_opened_page_is_retrieved() -> None:
    state = state_for(spec(), pages=[(PAGE, PAGE_TEXT)])
    one = claim(
        "Polaris Devices makes the Northstar", [quote("made by Polaris Devices", PAGE)], "retrieved", "quote"
    )
    assert verdict(one, state)[1] == "unsupported"  # "Northstar" is outside the quoted span
    one["premises"] = [quote("Northstar is a rugged handheld made by Polaris Devices", PAGE)]
    assert verdict(one, state)[1] == "supported"


def test_a_declaration_claim_must_say_it_is_declared() -> None:
    text = "The battery capacity is 72 Wh"
    result = verdict(claim(text, [quote("declared at a capacity of 72 Wh")], "declaration", "quote"))
    assert result[1] == "unsupported"
    assert "a declaration claim must say so" in result[2] and "'declares'" in result[2]


def test_a_generated_note_is_admissible_only_as_generated_and_must_say_so() -> None:
    premise = [quote("reading a runtime of 9.5 h", NOTE)]
    said = "A generated image note reads a runtime of 9.5 h"
    assert verdict(claim(said, premise, "generated", "quote"))[1] == "supported"
    as_measured = verdict(claim("Prototype A's measured runtime is 9.5 h", premise, "measurement", "quote"))
    assert as_measured[1:] == (
        "unsupported",
        "premise 1 is generated: a generated observation is admissible only as generated",
    )
    unlabelled = verdict(claim("The image note reads a runtime of 9.5 h", premise, "generated", "quote"))
    assert unlabelled[1] == "unsupported" and "'generated'" in unlabelled[2]


# -- measurement ----------------------------------------------------------------------------


def test_measurement_supported() -> None:
    assert verdict(claim(MEASURED_A, [cell("B2")], "measurement", "measurement")) == (
        "measurement",
        "supported",
        "states the measured values: Prototype A 9 h",
    )


def test_a_declaration_is_not_a_measurement() -> None:
    one = claim(
        "In the supplied workbook, the measured capacity is 72 Wh",
        [quote("72 Wh")],
        "measurement",
        "measurement",
    )
    assert verdict(one)[1:] == (
        "unsupported",
        "premise 1 is a declaration: a declaration is not a measurement",
    )


def test_a_measurement_claim_keeps_its_qualifier() -> None:
    _method, result, detail = verdict(
        claim("Prototype A's runtime is 9 h", [cell("B2")], "measurement", "measurement")
    )
    assert result == "unsupported" and "'in the supplied workbook'" in detail


@pytest.mark.parametrize(
    ("text", "result", "detail"),
    [
        (MEASURED_A.replace("9 h", "9"), "unsupported", "states 9 without its unit 'h'"),
        (
            MEASURED_A.replace("9 h", "540 min"),
            "unsupported",
            "states 540 min; the premises are in h: units are never converted",
        ),
        (MEASURED_A.replace("9 h", "8 h"), "contradicted", "states 8 h; the premises give 9 h"),
        (
            "In the supplied workbook, prototype A's runtime was measured",
            "unsupported",
            "does not state premise 1's value 9 h",
        ),
        (MEASURED_A.replace("9 h", "9 hours"), "supported", "states the measured values: Prototype A 9 h"),
        (
            MEASURED_A.replace("is 9 h", "was 9 h on 2 March 2026"),
            "supported",
            "states the measured values: Prototype A 9 h",
        ),
        (MEASURED_A + " (observed 2026-03-02)", "supported", "states the measured values: Prototype A 9 h"),
    ],
)
def test_measurement_numbers_are_the_premises_values_in_their_unit(
    text: str, result: str, detail: str
) -> None:
    assert verdict(claim(text, [cell("B2")], "measurement", "measurement"))[1:] == (result, detail)


def test_measurement_contradicted_by_another_admitted_workbook() -> None:
    retest = book([HEADER, ("Prototype A", 8, "2026-03-05")], source_id=RETEST)
    state = state_for(spec(), book(), retest)
    method, result, detail = verdict(claim(MEASURED_A, [cell("B2")], "measurement", "measurement"), state)
    assert (method, result) == ("measurement", "contradicted")
    assert detail == f"{RETEST} gives Prototype A's runtime as 8 h, not 9 h"


def test_a_missing_cell_is_never_zero() -> None:
    missing = book([HEADER, ("Prototype A", 9, "2026-03-02"), ("Prototype B", None, "2026-03-04")])
    one = claim(
        "In the supplied workbook, prototype B's measured runtime is 0 h",
        [cell("B3")],
        "measurement",
        "measurement",
    )
    method, result, detail = verdict(one, state_for(missing))
    assert (method, result) == ("measurement", "unsupported")
    assert "missing_value" in detail and "never read as zero" in detail


# -- comparison -----------------------------------------------------------------------------


def test_comparison_supported_on_the_happy_path() -> None:
    assert verdict(happy_claim()) == (
        "comparison",
        "supported",
        "'longer' agrees with Prototype A 9 h, Prototype B 7.5 h, observed 2 days apart (tolerance 30)",
    )


def test_comparison_reads_the_rows_in_the_order_the_claim_names_them() -> None:
    text = "In the supplied workbook, prototype B's measured runtime is shorter than prototype A's"
    assert verdict(claim(text, [cell("B2"), cell("B3")], "measurement", "comparison"))[1] == "supported"


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        (
            HAPPY.replace("longer", "shorter"),
            "says 'shorter', but the premises give Prototype A 9 h, Prototype B 7.5 h",
        ),
        (HAPPY.replace("7.5 h", "7 h"), "states 7 h; the premises give 9 h and 7.5 h"),
    ],
)
def test_comparison_contradicted(text: str, detail: str) -> None:
    assert verdict(claim(text, [cell("B2"), cell("B3")], "measurement", "comparison"))[1:] == (
        "contradicted",
        detail,
    )


def test_comparison_of_a_stale_measurement_is_unsupported_unless_the_tolerance_allows_it() -> None:
    stale = book([HEADER, ("Prototype A", 9, "2026-03-02"), ("Prototype B", 7.5, "2025-01-10")])
    state = state_for(stale)
    assert verdict(happy_claim(), state)[1:] == (
        "unsupported",
        "observed 416 days apart, beyond the tolerance of 30 days",
    )
    # A claim's tolerance may only tighten the default (review finding: 500 days let this pass).
    assert verdict(happy_claim(tolerance_days=500), state)[1:] == (
        "unsupported",
        "tolerance_days 500 widens the default of 30 days: a claim may only tighten it",
    )


def test_comparison_across_units_is_unsupported_never_converted() -> None:
    mixed = book(
        [HEADER, ("Prototype A", 9, "2026-03-02")],
        Bench=[("Prototype", "Runtime (min)", "Observed at"), ("Prototype B", 450, "2026-03-04")],
    )
    one = claim(
        HAPPY.replace(" (9 h versus 7.5 h)", ""),
        [cell("B2"), cell("B2", sheet="Bench")],
        "measurement",
        "comparison",
    )
    assert verdict(one, state_for(mixed))[1:] == (
        "unsupported",
        "mixed units: 'h' and 'min' (never converted)",
    )


@pytest.mark.parametrize(
    ("premises", "detail"),
    [
        ([cell("B2")], "a comparison needs exactly two measurements, not 1"),
        (
            [cell("B2"), cell("C3")],
            "premise 2: not_a_number: attached:runtime.xlsx Runtime!C3 holds '2026-03-04', not one number",
        ),
    ],
)
def test_comparison_unsupported(premises: list[Any], detail: str) -> None:
    assert verdict(claim(HAPPY, premises, "measurement", "comparison"))[1:] == ("unsupported", detail)


def test_comparison_needs_a_direction() -> None:
    text = "In the supplied workbook, prototype A's runtime was 9 h and prototype B's 7.5 h, as measured"
    assert verdict(claim(text, [cell("B2"), cell("B3")], "measurement", "comparison"))[1:] == (
        "unsupported",
        "states no direction (longer, more, higher ... or shorter, less, lower ...)",
    )


# -- calculation ------------------------------------------------------------------------------


def test_calculation_supported_contradicted_unsupported() -> None:
    state = northstar()
    assert verdict(claim(MEAN, ["calc:1"], "calculation", "calculation"), state) == (
        "calculation",
        "supported",
        "states calc:1's mean, 8.25 h",
    )
    assert verdict(claim(MEAN.replace("8.25", "8.5"), ["calc:1"], "calculation", "calculation"), state)[
        1:
    ] == (
        "contradicted",
        "states 8.5 h; calc:1's mean is 8.25 h",
    )
    computed = "The mean measured runtime of prototypes A and B is computed"
    assert verdict(claim(computed, ["calc:1"], "calculation", "calculation"), state)[1:] == (
        "unsupported",
        "does not state calc:1's result 8.25 h",
    )
    assert verdict(claim(MEAN, [cell("B2")], "calculation", "calculation"), state)[1:] == (
        "unsupported",
        "premise 1 is measurement evidence, not calculation: it cannot establish this claim",
    )


def test_calculation_result_rounded_to_the_stated_precision() -> None:
    # The recorded result is recomputed from its inputs: a mean of 25/3 needs inputs that give it.
    third = measurement("B4", 8.5, "2026-03-05", "Prototype C")
    calc = mean_calculation(result=25 / 3)
    calc = calc.model_copy(update={"inputs": (*calc.inputs, third)})
    state = state_for(book(), calculations=[calc])
    text = "The mean measured runtime of prototypes A, B and C is {} h"
    one = claim(text.format("8.33"), ["calc:1"], "calculation", "calculation")
    assert verdict(one, state)[1] == "supported"
    one["text"] = text.format("8.3333")
    assert verdict(one, state)[1] == "supported"
    one["text"] = text.format("8.34")
    assert verdict(one, state)[1] == "contradicted"


# -- locator and method ---------------------------------------------------------------------


def test_a_premise_that_does_not_resolve_is_unsupported_under_locator() -> None:
    method, result, detail = verdict(claim(MEASURED_A, [cell("Z9")], "measurement", "measurement"))
    assert (method, result) == ("locator", "unsupported")
    assert detail.startswith("premise 1: bad_locator: cell Z9 is outside sheet Runtime")


def test_an_unknown_method_is_unsupported() -> None:
    method, result, detail = verdict(claim(MEASURED_A, [cell("B2")], "measurement", "vibes"))
    assert (method, result) == ("vibes", "unsupported")
    assert detail.startswith("unknown method 'vibes'")


# -- the gate ---------------------------------------------------------------------------------


def code_of(state: RunState, payload: dict[str, Any]) -> str | None:
    return judge_finish(state, state.steps, payload, AT, state.next_seq)[0]


def test_the_claim_codes_come_after_section_4_and_before_unsupported_answer() -> None:
    codes = GATE_CODES
    order = [
        "unsupported",
        "premise_uncited",
        "claim_not_in_answer",
        "undisclosed_gaps",
        "unsupported_claims",
    ]
    assert [codes.index(code) for code in order] == sorted(codes.index(code) for code in order)
    assert codes[-1] == "unsupported_answer"


def test_keys_claims_only_on_a_positive_finish() -> None:
    state = northstar()
    assert code_of(state, finish([happy_claim()])) is None
    abstaining = {
        "answer": "cannot: no",
        "citations": [],
        "cannot_answer": True,
        "evidence": "",
        "claims": [],
    }
    assert code_of(state, abstaining) == "keys"
    assert code_of(state, {**finish([happy_claim()]), "claimz": []}) == "keys"


def test_keys_gaps_need_claims_or_a_plan() -> None:
    payload = {
        "answer": "The capacity is declared at 72 Wh.",
        "citations": [SPEC],
        "cannot_answer": False,
        "evidence": "declared at a capacity of 72 Wh",
        "gaps": [1],
    }
    assert code_of(northstar(), payload) == "keys"
    planned = northstar(plan=["Which runs longer?"])
    # With a plan, a finish without claims leaves every item a gap: disclosed, it passes the claims part.
    assert validate_claims(payload, planned) is None


@pytest.mark.parametrize(
    "change",
    [
        {"class": "fact"},
        {"method": 3},
        {"item": 0},
        {"item": True},
        {"tolerance_days": True},
        {"tolerance_days": -1},
        {"premises": "B2"},
        {"premises": [3]},
        {"text": "  "},
        {"extra": 1},
    ],
)
def test_types_of_a_claim(change: dict[str, Any]) -> None:
    assert code_of(northstar(), finish([{**happy_claim(), **change}], answer=HAPPY + ".")) == "types"


@pytest.mark.parametrize("gaps", [["1"], [0], [True], 1])
def test_types_of_gaps(gaps: object) -> None:
    payload = {**finish([happy_claim(item=1)]), "gaps": gaps}
    assert code_of(northstar(plan=PLAN), payload) == "types"


def test_types_an_item_past_the_plan() -> None:
    assert code_of(northstar(plan=PLAN[:1]), finish([happy_claim(item=2)])) == "types"
    # Within the plan, and about the item (docs/evidence.md, "Completion"): item 2 of this plan.
    assert code_of(northstar(plan=PLAN[1::-1]), finish([happy_claim(item=2)], gaps=[1])) is None


def test_with_claims_evidence_may_be_empty_without_them_it_may_not() -> None:
    state = northstar()
    assert code_of(state, finish([happy_claim()], evidence=[])) is None
    assert code_of(state, finish([], answer=DECLARED, citations=[SPEC], evidence=[])) == "evidence"
    quoted = finish([happy_claim()], citations=[BOOK, SPEC], evidence=["declared at a capacity of 72 Wh"])
    assert code_of(state, quoted) is None
    assert code_of(state, {**quoted, "evidence": ["declared at a capacity of 99 Wh"]}) == "evidence"


def test_the_unsupported_words_check_reads_the_tables_too() -> None:
    state = northstar()
    text = "In the supplied workbook, Prototype A's measured runtime is 9 h"
    payload = finish([claim(text, [cell("B2")], "measurement", "measurement")])
    assert "Prototype A" in claim_texts(state)[BOOK]
    assert code_of(state, payload) is None
    assert (
        code_of(state, {**payload, "answer": payload["answer"] + " Prototype Zeta was not."}) == "unsupported"
    )


def test_premise_uncited() -> None:
    state = northstar()
    declared = claim(DECLARED, [quote("declared at a capacity of 72 Wh")], "declaration", "quote")
    assert code_of(state, finish([declared], citations=[BOOK])) == "premise_uncited"
    assert code_of(state, finish([declared], citations=[SPEC])) is None
    # A calculation rests on its inputs' sources: they must be cited too.
    mean = claim(MEAN, ["calc:1"], "calculation", "calculation")
    assert code_of(state, finish([mean], citations=[SPEC])) == "premise_uncited"
    assert code_of(state, finish([mean], citations=[BOOK])) is None


def test_claim_not_in_answer() -> None:
    state = northstar()
    assert code_of(state, finish([happy_claim()], answer="Prototype A runs longer.")) == "claim_not_in_answer"
    spread = HAPPY.replace(" prototype B's", "\n  prototype B's")
    assert code_of(state, finish([happy_claim()], answer=f"Yes. {spread}, as the workbook shows.")) is None


def test_undisclosed_gaps() -> None:
    state = northstar(plan=PLAN)
    claims = [happy_claim(item=1), claim(MEAN, ["calc:1"], "calculation", "calculation", item=2)]
    assert code_of(state, finish(claims)) == "undisclosed_gaps"
    assert code_of(state, finish(claims, gaps=[])) == "undisclosed_gaps"
    assert code_of(state, finish(claims, gaps=[2, 3])) == "undisclosed_gaps"
    assert code_of(state, finish(claims, gaps=[3])) is None


def test_unsupported_claims_rejects_after_recording_every_verdict() -> None:
    state = northstar()
    wrong = claim(HAPPY.replace("longer", "shorter"), [cell("B2"), cell("B3")], "measurement", "comparison")
    events = decide(state, finish([happy_claim(), wrong]))
    assert [type(event).__name__ for event in events] == ["ClaimAssessed", "ClaimAssessed", "FinishRejected"]
    first, second, rejected = events
    assert isinstance(first, ClaimAssessed) and isinstance(second, ClaimAssessed)
    assert isinstance(rejected, FinishRejected)
    assert (first.index, first.verdict, second.index, second.verdict) == (1, "supported", 2, "contradicted")
    assert [event.seq for event in events] == [state.next_seq, state.next_seq + 1, state.next_seq + 2]
    assert rejected.code == "unsupported_claims"


def test_after_the_repair_turn_unsupported_claims_abstain_naming_them() -> None:
    state = northstar()._replace(rejections=1)
    stale = claim(MEASURED_A, [cell("B9")], "measurement", "measurement")
    events = decide(state, finish([happy_claim(), stale]))
    abstained = events[-1]
    assert isinstance(abstained, Abstained)
    assert abstained.reason == "unsupported_claims"
    assert abstained.answer.startswith("cannot:")
    assert abstained.detail.startswith("claim 2 unsupported (locator: premise 1: bad_locator: cell B9")
    assert abstained.detail.endswith(repr(MEASURED_A))


def test_an_accepted_finish_with_claims_records_classes_and_gaps() -> None:
    state = northstar(plan=PLAN)
    claims = [happy_claim(item=1), claim(MEAN, ["calc:1"], "calculation", "calculation", item=2)]
    events = decide(state, finish(claims, gaps=[3]))
    answered = events[-1]
    assert isinstance(answered, Answered)
    assert answered.evidence_classes == ("measurement", "measurement", "calculation")
    assert answered.gaps == (3,)
    assert answered.locators == ()
    matrix = completion(fold(events, state))
    assert [(item.item, item.status, item.classes) for item in matrix] == [
        (1, "supported", ("measurement",)),
        (2, "supported", ("calculation",)),
        (3, "gap", ()),
    ]


def test_an_ordinary_answer_records_one_class_per_locator() -> None:
    state = state_for(spec(), pages=[(PAGE, PAGE_TEXT)])
    payload = {
        "answer": "Polaris Devices makes it; the capacity is declared at 72 Wh.",
        "citations": [PAGE, SPEC],
        "cannot_answer": False,
        "evidence": ["made by Polaris Devices", "declared at a capacity of 72 Wh"],
    }
    assert validate_finish(payload, state.opened_bodies()) is None
    (answered,) = decide_finish(state, state.steps, payload, AT, support_methods={})
    assert isinstance(answered, Answered)
    assert answered.evidence_classes == ("retrieved", "declaration")


def test_a_plan_holds_an_ordinary_answer_to_its_gaps() -> None:
    state = state_for(spec(), pages=[(PAGE, PAGE_TEXT)], plan=PLAN[:2])
    payload = {"answer": "Polaris Devices makes it.", "citations": [PAGE], "cannot_answer": False}
    payload["evidence"] = "made by Polaris Devices"
    assert code_of(state, payload) == "undisclosed_gaps"
    assert code_of(state, {**payload, "gaps": [1, 2]}) is None


# -- completion ---------------------------------------------------------------------------------


def test_completion_each_item_supported_contradicted_or_a_gap() -> None:
    state = northstar(plan=PLAN)
    wrong = claim(MEAN.replace("8.25", "8.5"), ["calc:1"], "calculation", "calculation", item=2)
    unsupported = claim(DECLARED, [quote("declared at a capacity of 72 Wh")], "declaration", "nope", item=3)
    events = decide(state, finish([happy_claim(item=1), wrong, unsupported], citations=[BOOK, SPEC]))
    matrix = completion(fold(events, state))
    assert [(item.item, item.status, item.claims) for item in matrix] == [
        (1, "supported", (1,)),
        (2, "contradicted", (2,)),
        (3, "gap", (3,)),
    ]
    assert gaps_of(matrix) == (3,)
    assert completion_of((), ()) == ()


def test_a_repaired_finish_replaces_the_claims_the_matrix_reads() -> None:
    state = northstar(plan=PLAN[:1])
    wrong = claim(
        HAPPY.replace("longer", "shorter"), [cell("B2"), cell("B3")], "measurement", "comparison", item=1
    )
    first = decide(state, finish([wrong]))
    state = fold(first, state)
    assert [item.status for item in completion(state)] == ["contradicted"]
    second = decide(state, finish([happy_claim(item=1)]))
    state = fold(second, state)
    assert [item.status for item in completion(state)] == ["supported"]
    assert isinstance(state.outcome, Answered)


# -- properties ---------------------------------------------------------------------------------

_VALUES = st.decimals(min_value=0, max_value=1000, places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(value=_VALUES, stated=_VALUES)
def test_a_claim_whose_number_is_not_its_premise_value_is_never_supported(value: Any, stated: Any) -> None:
    rows = [HEADER, ("Prototype A", float(value), "2026-03-02"), ("Prototype B", 7.5, "2026-03-04")]
    state = state_for(book(rows))
    text = f"In the supplied workbook, prototype A's measured runtime is {stated} h"
    result = verdict(claim(text, [cell("B2")], "measurement", "measurement"), state)[1]
    assert (result == "supported") == (stated == value)


_POOL = [
    happy_claim(),
    claim(MEASURED_A, [cell("B2")], "measurement", "measurement"),
    claim(MEAN, ["calc:1"], "calculation", "calculation"),
    claim(HAPPY.replace("longer", "shorter"), [cell("B2"), cell("B3")], "measurement", "comparison"),
    claim(MEASURED_A.replace("9 h", "8 h"), [cell("B2")], "measurement", "measurement"),
    claim(MEASURED_A, [quote("72 Wh")], "measurement", "measurement"),
    claim(MEASURED_A, [cell("B2")], "measurement", "guess"),
]
_UNSUPPORTED = _POOL[3:]


@settings(max_examples=200, deadline=None)
@given(
    chosen=st.lists(st.sampled_from(_POOL), max_size=4),
    extra=st.sampled_from(_UNSUPPORTED),
    at=st.integers(0, 4),
)
def test_adding_an_unsupported_claim_never_turns_a_rejection_into_acceptance(
    chosen: list[dict[str, Any]], extra: dict[str, Any], at: int
) -> None:
    state = northstar()
    before = code_of(state, finish(chosen, citations=[BOOK, SPEC])) if chosen else "none"
    grown = [*chosen[:at], extra, *chosen[at:]]
    after = code_of(state, finish(grown, citations=[BOOK, SPEC]))
    assert after == "unsupported_claims"
    assert before in (None, "unsupported_claims", "none")


def test_an_answer_without_claims_after_a_rejected_one_with_claims_settles_nothing() -> None:
    state = northstar(plan=PLAN[:1])
    wrong = claim(HAPPY.replace("longer", "shorter"), [cell("B2"), cell("B3")], "measurement", "comparison")
    state = fold(decide(state, finish([happy_claim(item=1), wrong])), state)
    assert [item.status for item in completion(state)] == ["supported"]  # the rejected finish's claims
    plain = {
        "answer": "The capacity is declared at 72 Wh.",
        "citations": [SPEC],
        "cannot_answer": False,
        "evidence": "declared at a capacity of 72 Wh",
        "gaps": [1],
    }
    state = fold(decide_finish(state, state.steps, plain, AT, support_methods={}), state)
    assert isinstance(state.outcome, Answered)
    assert [item.status for item in completion(state)] == ["gap"]


NEGATED = [" is no longer than ", " is not longer than ", " isn\u2019t longer than "]


@pytest.mark.parametrize("negated", NEGATED)
def test_a_negated_claim_is_never_supported(negated: str) -> None:
    # The same claim without the negation is supported (the happy path): only the negation differs.
    assert verdict(claim(HAPPY, [cell("B2"), cell("B3")], "measurement", "comparison"))[1] == "supported"
    text = HAPPY.replace(" is longer than ", negated)
    assert text != HAPPY
    method, said, detail = verdict(claim(text, [cell("B2"), cell("B3")], "measurement", "comparison"))
    assert (method, said) == ("comparison", "unsupported")
    assert "negation" in detail
