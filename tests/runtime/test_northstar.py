"""The Northstar fixture end to end (issue 12): every variant of tests/data/northstar gives its named verdict.

Real loaders (the files are admitted from tests/data/northstar), a real `Runtime` over a
SQLite store, and a scripted policy: each test's replies are fixed, and a reply that cites a
calculation reads its id from the run's view. A variant that fails is finished twice with
the same claims, so the run is rejected once (`unsupported_claims`, the repair turn) and then
abstains naming the claims; `check` replays every run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from citeloop.events import (
    Abstained,
    Answered,
    Calculation,
    ClaimAssessed,
    Event,
    FinishRejected,
    SourceAdmitted,
    ToolError,
    ToolObserved,
    open_store,
)
from citeloop.policies import RunView, react
from citeloop.runtime import Runtime, check_events, completion, fold, verify_answer
from citeloop.tools import Attachment
from helpers.fakes import ReplyQueue, page_tools

pytestmark = pytest.mark.anyio

DATA = Path(__file__).resolve().parents[1] / "data" / "northstar"
SPEC = "attached:spec.md"
BOOK = "attached:runtime.xlsx"
QUESTION = "Which Northstar prototype runs longer, and what is their mean runtime?"

HAPPY = (
    "In the supplied workbook, prototype A's measured runtime is longer than prototype B's (9 h versus 7.5 h)"
)
MEAN = "The mean measured runtime of prototypes A and B is 8.25 h"
CAPACITY = "The specification declares a battery capacity of 72 Wh"
CAPACITY_QUOTE = "The Northstar battery pack is declared at a capacity of 72 Wh."
TARGET = "The specification declares a runtime target of 8\u201310 hours"
TARGET_QUOTE = "The design target for runtime is 8\u201310 hours of continuous field use."


def cell(ref: str, source: str = BOOK, sheet: str = "Runtime") -> dict[str, str]:
    return {"source": source, "sheet": sheet, "cell": ref}


def claim(text: str, premises: Sequence[Any], cls: str, method: str, **more: Any) -> dict[str, Any]:
    return {"text": text, "premises": list(premises), "class": cls, "method": method, **more}


def comparison(text: str = HAPPY, *premises: Any, **more: Any) -> dict[str, Any]:
    return claim(text, premises or (cell("B2"), cell("B3")), "measurement", "comparison", **more)


def calculate(operation: str, *inputs: Any) -> str:
    return react("Calculate.", "calculate", json.dumps({"operation": operation, "inputs": list(inputs)}))


def finishing(*claims: dict[str, Any], citations: Sequence[str] = (SPEC, BOOK), **more: Any) -> str:
    payload = {
        "answer": ". ".join(c["text"] for c in claims) + ".",
        "citations": list(citations),
        "cannot_answer": False,
        "evidence": [],
        "claims": list(claims),
        **more,
    }
    return react("Done.", "finish", json.dumps(payload, ensure_ascii=False))


def the_calculation(view: RunView) -> Calculation:
    found = [turn.observation for turn in view.turns if isinstance(turn.observation, Calculation)]
    assert found, "the policy finishes after a calculation"
    calc = found[-1]
    assert isinstance(calc, Calculation)
    return calc


def happy_finish(*, items: bool = False, **options: Any) -> Any:
    """The happy path's finish: the comparison, the mean citing the run's calculation, a declaration.

    With `items`, the claims settle plan items 1, 2 and 3 in that order.
    """

    def item(number: int) -> dict[str, int]:
        return {"item": number} if items else {}

    def reply(view: RunView) -> str:
        mean = claim(MEAN, [the_calculation(view).id], "calculation", "calculation", **item(2))
        capacity = claim(
            CAPACITY, [{"source": SPEC, "quote": CAPACITY_QUOTE}], "declaration", "quote", **item(3)
        )
        return finishing(comparison(**item(1)), mean, capacity, **options)

    return reply


@dataclass
class Run:
    events: list[Event]
    run_id: str

    def of(self, kind: type[Any]) -> list[Any]:
        return [event for event in self.events if isinstance(event, kind)]

    def observed(self, tool: str) -> list[Any]:
        return [event.observation for event in self.of(ToolObserved) if event.tool == tool]


async def record(
    tmp_path: Path,
    *replies: Any,
    files: Sequence[str | Attachment] = ("spec.md", "runtime.xlsx"),
    support: tuple[str, ...] | None = None,
    **run: Any,
) -> Run:
    """Run the Northstar question over `files` (names in tests/data/northstar) with the scripted replies."""
    attachments = [
        Attachment(DATA / f.path, generated=f.generated) if isinstance(f, Attachment) else DATA / f
        for f in files
    ]
    tools, counter = page_tools()
    async with open_store(f"sqlite:///{tmp_path}/runs.db") as store:
        policy: Any = ReplyQueue(*replies, name="northstar")
        held = {} if support is None else {"support": support}  # None: the default support methods
        async with Runtime(store=store, tools=tools, policy=policy, **held) as runtime:
            outcome = await runtime.run(QUESTION, attachments=attachments, **run)
            report = await runtime.check(outcome.run_id)
        events = await store.read(outcome.run_id)
    assert counter.calls == []  # everything came from the attachments and the log
    assert report.ok, report.divergences
    assert check_events(events).ok
    return Run(events, outcome.run_id)


def abstained_naming(run: Run, *indexes: int) -> Abstained:
    """The run was rejected for unsupported claims, repaired in vain, and abstained naming `indexes`."""
    assert [rejected.code for rejected in run.of(FinishRejected)] == ["unsupported_claims"] * 2
    abstained = run.events[-1]
    assert isinstance(abstained, Abstained), abstained
    assert abstained.reason == "unsupported_claims"
    named = [part.split(" ", 2)[1] for part in abstained.detail.split("; ")]
    assert named == [str(index) for index in indexes], abstained.detail
    return abstained


def last_finish(run: Run) -> list[ClaimAssessed]:
    """The claims of the run's last finish, as assessed."""
    claims = run.of(ClaimAssessed)
    step = claims[-1].step
    return [c for c in claims if c.step == step]


# -- the happy path ---------------------------------------------------------------------------


async def test_happy_path_answers_with_each_claim_supported_by_its_method(tmp_path: Path) -> None:
    mean_inputs = (cell("B2"), cell("B3"))
    run = await record(tmp_path, calculate("mean", *mean_inputs), happy_finish())
    admitted = [event.source for event in run.of(SourceAdmitted)]
    assert [(s.id, s.evidence_class) for s in admitted] == [(SPEC, "declaration"), (BOOK, "measurement")]
    (calc,) = run.observed("calculate")
    assert isinstance(calc, Calculation)
    assert (calc.operation, calc.result, calc.unit) == ("mean", 8.25, "h")
    assert [m.locator.cell for m in calc.inputs] == ["B2", "B3"]
    assert [m.observed_at for m in calc.inputs] == ["2026-03-02", "2026-03-04"]
    claims = run.of(ClaimAssessed)
    assert [(c.index, c.method, c.claimed_class, c.verdict) for c in claims] == [
        (1, "comparison", "measurement", "supported"),
        (2, "calculation", "calculation", "supported"),
        (3, "quote", "declaration", "supported"),
    ]
    assert claims[0].detail == (
        "'longer' agrees with Prototype A 9 h, Prototype B 7.5 h, observed 2 days apart (tolerance 30)"
    )
    assert claims[1].detail == f"states {calc.id}'s mean, 8.25 h"
    answered = run.events[-1]
    assert isinstance(answered, Answered)
    assert answered.evidence_classes == ("measurement", "measurement", "calculation", "declaration")
    assert run.of(FinishRejected) == []


async def test_happy_path_with_a_plan_discloses_its_gap(tmp_path: Path) -> None:
    plan = ["Which prototype runs longer?", "What is their mean runtime?", "What capacity is declared?"]
    gap = ["What do the prototypes weigh?"]
    run = await record(
        tmp_path,
        calculate("mean", cell("B2"), cell("B3")),
        happy_finish(items=True, gaps=[4]),
        plan=[*plan, *gap],
    )
    answered = run.events[-1]
    assert isinstance(answered, Answered) and answered.gaps == (4,)
    matrix = completion(fold(run.events))
    assert [(item.status, item.classes) for item in matrix] == [
        ("supported", ("measurement",)),
        ("supported", ("calculation",)),
        ("supported", ("declaration",)),
        ("gap", ()),
    ]


async def test_an_undisclosed_gap_is_rejected_then_abstains_if_never_disclosed(tmp_path: Path) -> None:
    plan = [
        "Which prototype runs longer?",
        "What is their mean runtime?",
        "What capacity is declared?",
        "Weight?",
    ]
    run = await record(
        tmp_path, calculate("mean", cell("B2"), cell("B3")), happy_finish(items=True), plan=plan
    )
    rejected = run.of(FinishRejected)
    assert [r.code for r in rejected] == ["undisclosed_gaps", "undisclosed_gaps"]
    assert run.of(ClaimAssessed) == []  # the gaps are checked before any claim is assessed
    abstained = run.events[-1]
    assert isinstance(abstained, Abstained), abstained
    assert (abstained.reason, abstained.detail) == ("invalid_finish", "undisclosed_gaps")


async def test_verify_answer_holds_unedited_and_names_what_an_edit_breaks(tmp_path: Path) -> None:
    run = await record(tmp_path, calculate("mean", cell("B2"), cell("B3")), happy_finish())
    answered = run.events[-1]
    assert isinstance(answered, Answered)
    same = verify_answer(run.events, answered.answer)
    assert same.ok and same.claims == 3
    edited = verify_answer(run.events, answered.answer.replace("8.25 h", "8.5 h"))
    assert not edited.ok
    assert [(m.kind, m.where) for m in edited.mismatches] == [("digest", "answer"), ("claim", "claim 2")]


# -- the variants -----------------------------------------------------------------------------


async def test_missing_cell_calculate_refuses_and_the_comparison_is_unsupported(tmp_path: Path) -> None:
    missing = "attached:runtime-missing.xlsx"
    cells = (cell("B2", missing), cell("B3", missing))
    failing = finishing(comparison(HAPPY, *cells), citations=(missing,))
    run = await record(
        tmp_path, calculate("mean", *cells), failing, failing, files=("spec.md", "runtime-missing.xlsx")
    )
    (refused,) = run.observed("calculate")
    assert isinstance(refused, ToolError) and refused.code == "missing_value"
    assert refused.message == (
        "input 2: attached:runtime-missing.xlsx Runtime!B3 is empty: a missing value is never read as zero"
    )
    assert run.of(Calculation) == []  # no result was made up
    (assessed,) = last_finish(run)
    assert (assessed.method, assessed.verdict) == ("comparison", "unsupported")
    assert assessed.detail == f"premise 2: missing_value: {refused.message.removeprefix('input 2: ')}"
    abstained_naming(run, 1)


async def test_stale_measurement_comparison_is_unsupported_with_how_far_apart(tmp_path: Path) -> None:
    stale = "attached:runtime-stale.xlsx"
    failing = finishing(comparison(HAPPY, cell("B2", stale), cell("B3", stale)), citations=(stale,))
    run = await record(tmp_path, failing, failing, files=("spec.md", "runtime-stale.xlsx"))
    (assessed,) = last_finish(run)
    assert (assessed.method, assessed.verdict) == ("comparison", "unsupported")
    # A observed 2026-03-02, B 2025-01-10: 416 days apart.
    assert assessed.detail == "observed 416 days apart, beyond the tolerance of 30 days"
    abstained_naming(run, 1)


async def test_a_declaration_offered_as_a_measurement_is_unsupported(tmp_path: Path) -> None:
    offered = claim(
        "The measured runtime of the Northstar is 8\u201310 hours",
        [{"source": SPEC, "quote": "8\u201310 hours"}],
        "measurement",
        "measurement",
    )
    failing = finishing(offered, citations=(SPEC,))
    run = await record(tmp_path, failing, failing)
    (assessed,) = last_finish(run)
    assert (assessed.method, assessed.verdict) == ("measurement", "unsupported")
    assert [p.evidence_class for p in assessed.premises] == ["declaration"]
    assert assessed.detail == "premise 1 is a declaration: a declaration is not a measurement"
    abstained_naming(run, 1)


async def test_the_target_repaired_into_a_declaration_is_answered(tmp_path: Path) -> None:
    target = [{"source": SPEC, "quote": TARGET_QUOTE}]
    as_measured = claim(TARGET.replace("declares", "measured"), target, "measurement", "quote")
    as_declared = claim(TARGET, target, "declaration", "quote")
    run = await record(
        tmp_path, finishing(as_measured, citations=(SPEC,)), finishing(as_declared, citations=(SPEC,))
    )
    assert [(c.claimed_class, c.verdict) for c in run.of(ClaimAssessed)] == [
        ("measurement", "unsupported"),
        ("declaration", "supported"),
    ]
    answered = run.events[-1]
    assert isinstance(answered, Answered) and answered.evidence_classes == ("declaration",)


async def test_mixed_units_calculate_refuses_and_the_comparison_is_unsupported(tmp_path: Path) -> None:
    mixed = "attached:runtime-mixed-units.xlsx"
    hours, minutes = cell("B2", mixed, "Runtime"), cell("B2", mixed, "Bench")
    text = HAPPY.replace("7.5 h", "450 min")
    failing = finishing(comparison(text, hours, minutes), citations=(mixed,))
    run = await record(
        tmp_path,
        calculate("mean", hours, minutes),
        failing,
        failing,
        files=("spec.md", "runtime-mixed-units.xlsx"),
    )
    (refused,) = run.observed("calculate")
    assert isinstance(refused, ToolError) and refused.code == "mixed_units"
    (assessed,) = last_finish(run)
    assert (assessed.method, assessed.verdict) == ("comparison", "unsupported")
    assert assessed.detail == "mixed units: 'h' and 'min' (never converted)"
    abstained_naming(run, 1)


async def test_a_contradicting_second_workbook_makes_the_measurement_contradicted(tmp_path: Path) -> None:
    retest = "attached:runtime-retest.xlsx"
    measured = claim(
        "In the supplied workbook, prototype A's measured runtime is 9 h",
        [cell("B2")],
        "measurement",
        "measurement",
    )
    failing = finishing(measured, citations=(BOOK, retest))
    run = await record(tmp_path, failing, failing, files=("spec.md", "runtime.xlsx", "runtime-retest.xlsx"))
    (assessed,) = last_finish(run)
    assert (assessed.method, assessed.verdict) == ("measurement", "contradicted")
    assert assessed.detail == f"{retest} gives Prototype A's runtime as 8 h, not 9 h"
    abstained_naming(run, 1)


async def test_a_contradicting_second_workbook_contradicts_the_happy_comparison_too(tmp_path: Path) -> None:
    failing = finishing(comparison(), citations=(BOOK,))
    run = await record(tmp_path, failing, failing, files=("runtime.xlsx", "runtime-retest.xlsx"))
    (assessed,) = last_finish(run)
    assert assessed.verdict == "contradicted"
    abstained_naming(run, 1)


NOTE = "attached:image-note.txt"
NOTE_QUOTE = "the photo shows prototype A's status screen reading a runtime of 9.5 h."


async def test_a_generated_note_cannot_establish_a_measurement(tmp_path: Path) -> None:
    offered = claim(
        "Prototype A's measured runtime is 9.5 h",
        [{"source": NOTE, "quote": NOTE_QUOTE}],
        "measurement",
        "measurement",
    )
    failing = finishing(offered, citations=(NOTE,))
    run = await record(
        tmp_path, failing, failing, files=("spec.md", Attachment("image-note.txt", generated=True))
    )
    (admitted,) = [e.source for e in run.of(SourceAdmitted) if e.source.id == NOTE]
    assert admitted.evidence_class == "generated"
    (assessed,) = last_finish(run)
    assert (assessed.method, assessed.verdict) == ("measurement", "unsupported")
    assert assessed.detail == (
        "premise 1 is generated: a generated observation is admissible only as generated"
    )
    abstained_naming(run, 1)


async def test_a_generated_note_is_admissible_as_generated_when_the_claim_says_so(tmp_path: Path) -> None:
    labelled = claim(
        "A generated caption of a photo says prototype A's status screen reads a runtime of 9.5 h",
        [{"source": NOTE, "quote": NOTE_QUOTE}],
        "generated",
        "quote",
    )
    run = await record(
        tmp_path,
        finishing(labelled, citations=(NOTE,)),
        files=(Attachment("image-note.txt", generated=True),),
    )
    (assessed,) = run.of(ClaimAssessed)
    assert (assessed.claimed_class, assessed.method, assessed.verdict) == ("generated", "quote", "supported")
    answered = run.events[-1]
    assert isinstance(answered, Answered), answered
    assert answered.evidence_classes == ("generated",)


def plain_finish(answer: str, quote: str, source: str) -> str:
    payload = {"answer": answer, "citations": [source], "cannot_answer": False, "evidence": quote}
    return react("Done.", "finish", json.dumps(payload, ensure_ascii=False))


async def test_a_plain_answer_resting_on_a_generated_note_must_say_so(tmp_path: Path) -> None:
    unlabelled = plain_finish("Prototype A's runtime is 9.5 h.", NOTE_QUOTE, NOTE)
    labelled = plain_finish("A generated caption says prototype A's runtime reads 9.5 h.", NOTE_QUOTE, NOTE)
    # No support method configured: the class rule holds all the same.
    files = (Attachment("image-note.txt", generated=True),)
    run = await record(tmp_path, unlabelled, labelled, files=files, support=())
    (rejected,) = run.of(FinishRejected)
    assert rejected.code == "unsupported_answer"
    assert [(s.method, s.verdict) for s in rejected.support] == [("evidence-class", "unsupported")]
    answered = run.events[-1]
    assert isinstance(answered, Answered), answered
    assert answered.evidence_classes == ("generated",)
    assert [(s.method, s.verdict) for s in answered.support] == [("evidence-class", "supported")]


# -- what the fixture found: a value told as another row's, a calculation's inputs misquoted ----------


async def test_a_measurement_told_as_another_rows_value_is_unsupported(tmp_path: Path) -> None:
    as_b = claim(
        "In the supplied workbook, prototype B's measured runtime is 9 h",
        [cell("B2")],
        "measurement",
        "measurement",
    )
    unnamed = comparison(HAPPY.replace("prototype A", "prototype C").replace("prototype B", "prototype D"))
    failing = finishing(as_b, unnamed, citations=(BOOK,))
    run = await record(tmp_path, failing, failing)
    assert [(c.method, c.verdict, c.detail) for c in last_finish(run)] == [
        (
            "measurement",
            "unsupported",
            "does not name premise 1's row 'Prototype A': whose value it is stays unsaid",
        ),
        (
            "comparison",
            "unsupported",
            "does not name premise 1's row 'Prototype A': whose value it is stays unsaid",
        ),
    ]
    abstained_naming(run, 1, 2)


async def test_a_calculation_claim_that_misquotes_an_input_is_contradicted(tmp_path: Path) -> None:
    def misquoting(view: RunView) -> str:
        calc = the_calculation(view)
        text = "The mean of prototype A's and prototype B's measured runtimes 9 h and 7 h is 8.25 h"
        return finishing(claim(text, [calc.id], "calculation", "calculation"), citations=(BOOK,))

    run = await record(tmp_path, calculate("mean", cell("B2"), cell("B3")), misquoting, misquoting)
    (assessed,) = last_finish(run)
    assert (assessed.verdict, assessed.detail) == (
        "contradicted",
        "states 7 h, which is neither calc:0's result nor an input (9 h and 7.5 h)",
    )
    abstained_naming(run, 1)
