"""The `calculate` tool: named operations over cited measurements, refusals by code, answered from the log."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path

import pytest
from citeloop.events import (
    AdmittedSource,
    Calculation,
    CellValue,
    ClaimPremise,
    Event,
    MemoryStore,
    PolicyReply,
    SourceAdmitted,
    ToolError,
    ToolObserved,
    ToolSpec,
)
from citeloop.policies import abstain_reply, react
from citeloop.runtime import Runtime, check_events, fold
from citeloop.runtime._calculate import CALCULATE_RULES, calculate
from citeloop.runtime._decide import decide_reply, decide_start
from citeloop.runtime._premises import resolve_premise
from helpers.fakes import ReplyQueue, page_tools
from helpers.premise_sources import (
    csv_source,
    runtime_workbook,
    state_with,
    text_source,
    workbook_source,
)

WB = "attached:runtime.xlsx"
A = {"source": WB, "sheet": "Runtime", "cell": "B2"}  # 9 h
B = {"source": WB, "sheet": "Runtime", "cell": "B3"}  # 7.5 h
EMPTY = {"source": WB, "sheet": "Runtime", "cell": "B4"}
NOT_NUMBER = {"source": WB, "sheet": "Runtime", "cell": "B5"}
WORKBOOK = runtime_workbook()
SPEC = text_source("attached:spec.md", "The target runtime is 8 to 10 h.")
STATE = state_with(WORKBOOK, SPEC)


def request(operation: object, *inputs: object) -> str:
    return json.dumps({"operation": operation, "inputs": list(inputs)})


def run(operation: object, *inputs: object, state: object = STATE, step: int = 3) -> Calculation | ToolError:
    return calculate(request(operation, *inputs), state, step)  # type: ignore[arg-type]


def result(operation: str, *inputs: object, state: object = STATE) -> float | str:
    calculation = run(operation, *inputs, state=state)
    assert isinstance(calculation, Calculation), calculation
    return calculation.result


def refusal(text: str, state: object = STATE) -> ToolError:
    observation = calculate(text, state, 3)  # type: ignore[arg-type]
    assert isinstance(observation, ToolError), observation
    return observation


def column(*values: CellValue, header: str = "Runtime (h)") -> AdmittedSource:
    rows: list[tuple[CellValue, ...]] = [("name", header)]
    rows += [(f"r{index}", value) for index, value in enumerate(values, start=2)]
    return workbook_source(WB, {"S": rows})


def cells(count: int) -> list[dict[str, object]]:
    return [{"source": WB, "sheet": "S", "cell": f"B{row}"} for row in range(2, count + 2)]


# -- results against hand computations --------------------------------------------------------


@pytest.mark.parametrize(
    ("operation", "inputs", "expected"),
    [
        ("sum", (A, B), 16.5),
        ("mean", (A, B), 8.25),
        ("min", (A, B), 7.5),
        ("max", (A, B), 9.0),
        ("sum", (A,), 9.0),
        ("mean", (B,), 7.5),
        ("difference", (A, B), 1.5),
        ("difference", (B, A), -1.5),
        ("ratio", (A, B), 1.2),
        ("ratio", (B, A), 7.5 / 9),
        ("compare", (A, B), "greater"),
        ("compare", (B, A), "less"),
        ("compare", (A, A), "equal"),
    ],
)
def test_each_operation_against_a_hand_computation(
    operation: str, inputs: tuple[object, ...], expected: float | str
) -> None:
    assert result(operation, *inputs) == expected


def test_sum_and_mean_are_exact_sums() -> None:
    tenths = state_with(column(*[0.1] * 10))
    assert sum([0.1] * 10) != 1.0  # a naive sum would be off
    assert result("sum", *cells(10), state=tenths) == 1.0
    assert result("mean", *cells(10), state=tenths) == 0.1
    cancelling = state_with(column(1e16, 1.0, -1e16))
    assert result("sum", *cells(3), state=cancelling) == 1.0


def test_a_mean_of_large_values_does_not_overflow_but_their_sum_does() -> None:
    large = state_with(column(1e308, 1e308))
    assert result("mean", *cells(2), state=large) == 1e308
    assert refusal(request("sum", *cells(2)), large).code == "non_finite"


def test_units_follow_the_operation() -> None:
    units = {
        operation: run(operation, A, B) for operation in ("sum", "mean", "min", "max", "difference", "ratio")
    }
    assert {name: getattr(calc, "unit", None) for name, calc in units.items()} == {
        "sum": "h",
        "mean": "h",
        "min": "h",
        "max": "h",
        "difference": "h",
        "ratio": "",
    }
    compared = run("compare", A, B)
    assert isinstance(compared, Calculation) and compared.unit == "h"


def test_a_calculation_records_its_provenance() -> None:
    calculation = run("mean", A, B, step=7)
    assert isinstance(calculation, Calculation)
    located = [resolve_premise(premise, STATE) for premise in (A, B)]
    assert all(isinstance(premise, ClaimPremise) for premise in located)
    assert calculation.id == "calc:7"
    assert calculation.operation == "mean"
    assert calculation.missing == "refuse"
    assert (calculation.rules, calculation.version) == (CALCULATE_RULES, None)
    assert [item.locator for item in calculation.inputs] == [
        premise.locator for premise in located if isinstance(premise, ClaimPremise)
    ]
    assert [(item.value, item.unit, item.quantity, item.observed_at) for item in calculation.inputs] == [
        (9.0, "h", "runtime", "2026-03-02T10:00:00"),
        (7.5, "h", "runtime", "2026-03-02T11:00:00"),
    ]
    assert all(item.evidence_class == "measurement" for item in calculation.inputs)
    # It survives the log: what the fold keeps is what was decided.
    assert Calculation.model_validate_json(calculation.model_dump_json()) == calculation


def test_csv_values_are_measurements_too() -> None:
    csv = csv_source("attached:r.csv", [("name", "Runtime [h]"), ("A", "9"), ("B", "7.5 h")])
    state = state_with(csv)
    first = {"source": "attached:r.csv", "row": 1, "column": "runtime [h]"}
    second = {"source": "attached:r.csv", "row": 2, "column": "Runtime [h]"}
    assert result("difference", first, second, state=state) == 1.5


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("mean of B2 and B3", "bad_input"),
        ("[1, 2]", "bad_input"),
        (json.dumps({"operation": "sum"}), "bad_input"),
        (json.dumps({"operation": "sum", "inputs": [A], "unit": "h"}), "bad_input"),
        (json.dumps({"operation": ["sum"], "inputs": [A]}), "bad_input"),
        (json.dumps({"operation": "sum", "inputs": A}), "bad_input"),
        (request("sum", {"source": WB, "cell": "B2"}), "bad_input"),
        (request("sum", 9), "bad_input"),
        (request("median", A, B), "unknown_operation"),
        (request("Sum", A), "unknown_operation"),
        (request("__import__('os').system('true')", A), "unknown_operation"),
        (request("A1+B1", A), "unknown_operation"),
        (request("sum"), "arity"),
        (request("mean"), "arity"),
        (request("difference", A), "arity"),
        (request("ratio", A, B, A), "arity"),
        (request("compare", A), "arity"),
        (request("sum", A, {"source": WB, "sheet": "Runtime", "cell": "Z99"}), "bad_locator"),
        (request("sum", {"source": "attached:other.xlsx", "sheet": "Runtime", "cell": "B2"}), "bad_locator"),
        (request("sum", A, {"source": "attached:spec.md", "quote": "8 to 10 h"}), "not_a_measurement"),
        (request("sum", A, EMPTY), "missing_value"),
        (request("min", EMPTY), "missing_value"),
        (request("max", A, NOT_NUMBER), "not_a_number"),
    ],
)
def test_refusals(text: str, code: str) -> None:
    assert refusal(text).code == code


def test_a_missing_cell_is_refused_never_read_as_zero() -> None:
    error = refusal(request("sum", A, EMPTY))
    assert error == ToolError(
        code="missing_value",
        message="input 2: attached:runtime.xlsx Runtime!B4 is empty: a missing value is never read as zero",
    )


def test_a_declared_target_is_not_a_measurement() -> None:
    declared = runtime_workbook("declaration")
    error = refusal(request("mean", A, B), state_with(declared))
    assert error.code == "not_a_measurement"
    assert error.message.startswith(
        "input 1: attached:runtime.xlsx was admitted as declaration, not measurement"
    )
    generated = runtime_workbook("generated")
    assert refusal(request("max", A), state_with(generated)).code == "not_a_measurement"


def test_a_calculation_is_not_an_input() -> None:
    earlier = run("sum", A, B, step=2)
    assert isinstance(earlier, Calculation)
    state = STATE._replace(calculations={earlier.id: earlier})
    error = refusal(request("sum", "calc:2", A), state)
    assert error == ToolError(
        code="not_a_measurement", message="input 1: calc:2 is not a cell or CSV value of a measurement source"
    )


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "nan", "1e999"])
def test_a_non_finite_input_is_refused(value: CellValue) -> None:
    assert refusal(request("max", *cells(2)), state_with(column(1.0, value))).code == "non_finite"


def test_a_non_finite_result_is_refused() -> None:
    state = state_with(column(1e308, -1e308, 1e-308))
    first, second, tiny = cells(3)
    assert refusal(request("difference", first, second), state).code == "non_finite"
    assert refusal(request("ratio", first, tiny), state).code == "non_finite"
    assert result("difference", first, first, state=state) == 0.0


def test_mixed_units_and_mixed_quantities_are_refused() -> None:
    book = workbook_source(
        WB,
        {
            "S": [
                ("name", "Runtime (h)", "Runtime (min)", "Charge time (h)"),
                ("A", 9, 540, 2),
            ]
        },
    )
    state = state_with(book)
    hours, minutes, charge = ({"source": WB, "sheet": "S", "cell": f"{col}2"} for col in "BCD")
    assert refusal(request("compare", hours, minutes), state) == ToolError(
        code="mixed_units", message="the inputs are in different units: 'h', 'min'"
    )
    assert refusal(request("sum", hours, charge), state) == ToolError(
        code="mixed_quantities", message="the inputs measure different quantities: 'charge time', 'runtime'"
    )
    assert refusal(request("mean", hours, charge, minutes), state).code == "mixed_units"


def test_division_by_zero_is_refused() -> None:
    state = state_with(column(3.0, 0, -0.0))
    first, zero, negative_zero = cells(3)
    assert refusal(request("ratio", first, zero), state) == ToolError(
        code="division_by_zero", message="the ratio's second input is zero"
    )
    assert refusal(request("ratio", first, negative_zero), state).code == "division_by_zero"
    assert result("ratio", zero, first, state=state) == 0.0


def test_the_same_request_gives_the_same_observation() -> None:
    assert run("mean", A, B) == run("mean", A, B)
    assert refusal(request("sum", A, EMPTY)) == refusal(request("sum", A, EMPTY))


# -- answered from the log, and `check` agrees --------------------------------------------------

AT = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)
CALCULATE = ToolSpec(name="calculate", read_only=True)
ALLOWLIST = ("search", "open", "calculate", "finish")


def start(sources: list[AdmittedSource], tools: dict[str, ToolSpec]) -> list[Event]:
    started = decide_start(
        "run-calc",
        "How long does A run?",
        max_steps=6,
        allowlist=ALLOWLIST,
        policy="test",
        tools=tools,
        at=AT,
    )
    admitted = [
        SourceAdmitted(run_id="run-calc", seq=number, at=AT, source=source)
        for number, source in enumerate(sources, start=1)
    ]
    return [started, *admitted]


def reply(events: list[Event], text: str) -> list[Event]:
    state = fold(events)
    decided = decide_reply(state, PolicyReply(text=text), fold(events[:1]).tools, AT)
    return [*events, *decided]


def calculating_run(tools: dict[str, ToolSpec]) -> list[Event]:
    events = start([WORKBOOK, SPEC], tools)
    events = reply(events, react("Average the two runtimes.", "calculate", request("mean", A, B)))
    events = reply(events, react("Compare them.", "calculate", request("compare", A, EMPTY)))
    return reply(events, abstain_reply("Enough.", "the question needs no answer here"))


def test_a_run_answers_calculate_from_the_log_and_check_agrees() -> None:
    events = calculating_run({"calculate": CALCULATE})
    observed = [event for event in events if isinstance(event, ToolObserved)]
    assert [(event.tool, event.call_id, event.step) for event in observed] == [
        ("calculate", None, 0),
        ("calculate", None, 1),
    ]
    calculation = observed[0].observation
    assert isinstance(calculation, Calculation)
    assert (calculation.id, calculation.result, calculation.unit) == ("calc:0", 8.25, "h")
    assert observed[1].observation == ToolError(
        code="missing_value",
        message="input 2: attached:runtime.xlsx Runtime!B4 is empty: a missing value is never read as zero",
    )
    state = fold(events)
    assert dict(state.calculations) == {"calc:0": calculation}
    assert state.pending == {}
    report = check_events(events)
    assert report.ok, report.divergences


def test_check_finds_a_calculation_edited_in_the_log() -> None:
    events = calculating_run({"calculate": CALCULATE})
    index = next(i for i, event in enumerate(events) if isinstance(event, ToolObserved))
    observed = events[index]
    assert isinstance(observed, ToolObserved) and isinstance(observed.observation, Calculation)
    forged = observed.observation.model_copy(update={"result": 9.0})
    events[index] = observed.model_copy(update={"observation": forged})
    report = check_events(events)
    assert not report.ok
    assert report.divergences[0].seq == observed.seq


def test_without_calculate_in_the_run_s_tools_it_is_an_unknown_tool() -> None:
    events = reply(start([WORKBOOK], {}), react("Average.", "calculate", request("mean", A, B)))
    observation = events[-1]
    assert isinstance(observation, ToolObserved)
    assert observation.observation.kind == "tool_error"
    assert getattr(observation.observation, "code", None) == "unknown_tool"
    assert fold(events).calculations == {}


@pytest.mark.anyio
async def test_the_runtime_offers_calculate_for_an_attached_table_and_check_agrees(tmp_path: Path) -> None:
    table = tmp_path / "runtime.csv"
    table.write_text("prototype,Runtime (h),observed_at\nA,9,2026-03-02\nB,7.5,2026-03-02\nC,,2026-03-03\n")
    column = {"source": "attached:runtime.csv", "column": "Runtime (h)"}
    mean = request("mean", {**column, "row": 1}, {**column, "row": 2})
    missing = request("sum", {**column, "row": 1}, {**column, "row": 3})
    policy = ReplyQueue(
        react("Average the runtimes.", "calculate", mean),
        react("Add the missing one.", "calculate", missing),
        abstain_reply("Stop.", "the question is a test"),
    )
    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=policy, attachments=[table]) as runtime:
        outcome = await runtime.run("How long does each prototype run?")
    events = await store.read(outcome.run_id)
    calculation = fold(events).calculations["calc:0"]
    assert (calculation.result, calculation.unit, len(calculation.inputs)) == (8.25, "h", 2)
    assert [item.locator.row_header for item in calculation.inputs] == ["A", "B"]
    assert len(counter) == 0  # nothing was dispatched to a tool
    shown = [turn.shown for turn in policy.views[-1].turns]
    assert shown[0].startswith("calculation calc:0: mean(")
    assert shown[1].startswith("tool error: missing_value: input 2: attached:runtime.csv row 3")
    report = check_events(events)
    assert report.ok, report.divergences
