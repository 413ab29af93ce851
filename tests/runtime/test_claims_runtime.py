"""Runs that finish with claims (issue 12), end to end through `Runtime`, and `check` replaying them.

The policy is scripted (`ReplyQueue`); the attachments are admitted sources built by hand
(tests/helpers/claims.py), so no loader is involved.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from citeloop.events import (
    Abstained,
    Answered,
    Calculation,
    ClaimAssessed,
    Event,
    FinishRejected,
    MemoryStore,
    RunStarted,
    stamp_chain,
)
from citeloop.policies import RunView, react
from citeloop.runtime import Runtime, check_events, fold, verify_answer
from citeloop.runtime._completion import completion
from helpers.claims import BOOK, HAPPY, MEAN, book, cell, claim, finish, happy_claim, spec
from helpers.fakes import ReplyQueue, page_tools

pytestmark = pytest.mark.anyio

QUESTION = "Which Northstar prototype runs longer, and what is their mean runtime?"
PLAN = ["Which prototype runs longer?", "What is their mean runtime?", "What capacity is declared?"]
WRONG = claim(
    HAPPY.replace("longer", "shorter"), [cell("B2"), cell("B3")], "measurement", "comparison", item=1
)
CALCULATE = react(
    "Average both.", "calculate", json.dumps({"operation": "mean", "inputs": [cell("B2"), cell("B3")]})
)


def finishing(claims: list[dict[str, Any]], **options: Any) -> str:
    return react("Done.", "finish", json.dumps(finish(claims, **options), ensure_ascii=False))


def with_mean(claims: list[dict[str, Any]], **options: Any) -> Any:
    """A finish whose last claim cites the run's calculation, whatever its step."""

    def reply(view: RunView) -> str:
        calc = next(turn.observation for turn in view.turns if isinstance(turn.observation, Calculation))
        assert isinstance(calc, Calculation)
        mean = claim(MEAN, [calc.id], "calculation", "calculation", item=2)
        return finishing([*claims, mean], **options)

    return reply


async def record(*replies: Any, plan: list[str] | None = None) -> list[Event]:
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ReplyQueue(*replies)) as runtime:  # type: ignore[arg-type]
        outcome = await runtime.run(QUESTION, attachments=[spec(), book()], plan=plan or ())
    return await store.read(outcome.run_id)


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


async def test_rejected_once_for_an_unsupported_claim_then_repaired_and_accepted() -> None:
    events = await record(
        CALCULATE, with_mean([WRONG], gaps=[3]), with_mean([happy_claim(item=1)], gaps=[3]), plan=PLAN
    )
    started = events[0]
    assert isinstance(started, RunStarted) and started.plan == tuple(PLAN)
    (rejected,) = of(events, FinishRejected)
    assert rejected.code == "unsupported_claims"
    verdicts = [(claim.index, claim.verdict) for claim in of(events, ClaimAssessed)]
    assert verdicts == [(1, "contradicted"), (2, "supported"), (1, "supported"), (2, "supported")]
    answered = events[-1]
    assert isinstance(answered, Answered)
    assert answered.gaps == (3,)
    assert answered.evidence_classes == ("measurement", "measurement", "calculation")
    matrix = completion(fold(events))
    assert [item.status for item in matrix] == ["supported", "supported", "gap"]
    report = check_events(events)
    assert report.ok, report.divergences


async def test_abstains_naming_the_claims_still_unsupported_after_the_repair_turn() -> None:
    wrong = {key: value for key, value in WRONG.items() if key != "item"}  # no plan: no items
    events = await record(finishing([wrong]), finishing([happy_claim(), wrong]))
    abstained = events[-1]
    assert isinstance(abstained, Abstained)
    assert abstained.reason == "unsupported_claims"
    assert abstained.answer.startswith("cannot:")
    assert abstained.detail.startswith("claim 2 contradicted (comparison: says 'shorter'")
    assert [event.type for event in events[-4:]] == [
        "ClaimAssessed",
        "ClaimAssessed",
        "FinishRejected",
        "Abstained",
    ]
    assert check_events(events).ok


async def test_undisclosed_gaps_are_rejected_and_the_repair_discloses_them() -> None:
    events = await record(
        finishing([happy_claim(item=1)]), finishing([happy_claim(item=1)], gaps=[2, 3]), plan=PLAN
    )
    (rejected,) = of(events, FinishRejected)
    assert rejected.code == "undisclosed_gaps"
    answered = events[-1]
    assert isinstance(answered, Answered) and answered.gaps == (2, 3)
    assert [item.status for item in completion(fold(events))] == ["supported", "gap", "gap"]
    assert check_events(events).ok


async def test_check_catches_a_forged_claim_verdict() -> None:
    events = await record(finishing([happy_claim()]))
    index = next(i for i, event in enumerate(events) if isinstance(event, ClaimAssessed))
    forged = list(events)
    forged[index] = events[index].model_copy(update={"verdict": "contradicted", "detail": "edited"})
    # The edited verdict is the first divergence; what the log records after it cannot be compared.
    divergence = check_events(list(stamp_chain(forged, None)[0])).divergences[0]
    assert divergence.kind == "gate"
    assert divergence.recorded == "claim 1: contradicted (comparison: edited)"
    assert divergence.today.startswith("claim 1: supported (comparison: 'longer' agrees")


async def test_check_catches_an_answer_whose_recorded_classes_were_edited() -> None:
    events = await record(finishing([happy_claim()]))
    forged = [
        *events[:-1],
        events[-1].model_copy(update={"evidence_classes": ("declaration", "declaration")}),
    ]
    (divergence,) = check_events(list(stamp_chain(forged, None)[0])).divergences
    assert (divergence.kind, divergence.recorded) == ("answer", "recorded evidence_classes")


async def test_a_plan_is_not_one_string() -> None:
    from citeloop.events import UsageError

    async with Runtime(store=MemoryStore(), tools=page_tools()[0], policy=ReplyQueue("x")) as runtime:  # type: ignore[arg-type]
        with pytest.raises(UsageError, match="plan is a list of items"):
            await runtime.run(QUESTION, plan="Which runs longer?")
    assert BOOK.startswith("attached:")


async def test_verify_answer_holds_for_the_recorded_answer_and_names_what_an_edit_breaks() -> None:
    events = await record(CALCULATE, with_mean([happy_claim(item=1)], gaps=[3]), plan=PLAN)
    answered = events[-1]
    assert isinstance(answered, Answered)
    same = verify_answer(events, answered.answer)
    assert same.ok and same.claims == 2
    assert same.locators == 4  # two cells, and the calculation's two inputs
    edited = verify_answer(events, answered.answer.replace("8.25 h", "8.3 h"))
    assert [(m.kind, m.where) for m in edited.mismatches] == [("digest", "answer"), ("claim", "claim 2")]


async def test_verify_answer_re_verifies_each_premise_against_the_log() -> None:
    events = await record(finishing([happy_claim()]))
    index = next(i for i, event in enumerate(events) if isinstance(event, ClaimAssessed))
    claimed = events[index]
    assert isinstance(claimed, ClaimAssessed)
    first = claimed.premises[0]
    assert first.locator is not None
    moved = first.model_copy(update={"locator": first.locator.model_copy(update={"value": 10})})
    forged = [
        *events[:index],
        claimed.model_copy(update={"premises": (moved, *claimed.premises[1:])}),
        *events[index + 1 :],
    ]
    answered = events[-1]
    assert isinstance(answered, Answered)
    (mismatch,) = verify_answer(forged, answered.answer).mismatches
    assert (mismatch.kind, mismatch.where) == ("premise", "claim 1 premise 1")
    assert mismatch.detail == "attached:runtime.xlsx Runtime!B2: value 10 is now 9"


async def test_verify_answer_of_a_run_that_did_not_answer_is_a_usage_error() -> None:
    from citeloop.events import UsageError

    wrong = {key: value for key, value in WRONG.items() if key != "item"}
    events = await record(finishing([wrong]), finishing([wrong]))
    with pytest.raises(UsageError, match="did not answer"):
        verify_answer(events, "anything")


async def test_the_policy_sees_the_plan_and_how_to_write_claims() -> None:
    from citeloop.policies._prompt import render_messages

    queue = ReplyQueue(finishing([happy_claim(item=1)], gaps=[2, 3]))
    async with Runtime(store=MemoryStore(), tools=page_tools()[0], policy=queue) as runtime:  # type: ignore[arg-type]
        await runtime.run(QUESTION, attachments=[spec(), book()], plan=PLAN)
    view = queue.views[0]
    assert view.plan == tuple(PLAN)
    system, question = render_messages(view, "react")[:2]
    assert question["content"].startswith(
        f'Question: {QUESTION}\n\nResearch plan (settle each item with a claim whose "item" is its number, '
        'or list it in "gaps"):\n1. Which prototype runs longer?\n2. What is their mean runtime?\n'
    )
    assert 'a finish may also carry "claims"' in system["content"]


async def test_check_reads_an_answer_recorded_without_classes_as_all_retrieved() -> None:
    from helpers.fakes import SPEC_PAGES

    wiki, (_, body) = next(iter(SPEC_PAGES.items()))
    payload = {
        "answer": "Ada Ortiz founded it.",
        "citations": [wiki],
        "cannot_answer": False,
        "evidence": body,
    }
    reply = react("Done.", "finish", json.dumps(payload))
    store = MemoryStore()
    async with Runtime(
        store=store, tools=page_tools()[0], policy=ReplyQueue(react("o", "open", wiki), reply)
    ) as rt:  # type: ignore[arg-type]
        outcome = await rt.run("Who founded Acme Robotics?")
    events = await store.read(outcome.run_id)
    answered = events[-1]
    assert isinstance(answered, Answered) and answered.evidence_classes == ("retrieved",)
    older = [*events[:-1], answered.model_copy(update={"evidence_classes": ()})]  # as written before classes
    assert check_events(list(stamp_chain(older, None)[0])).ok
