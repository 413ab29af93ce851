"""The Northstar fixture (tests/data/northstar), admitted by the loaders: each variant gives its verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from citeloop.events import Calculation
from citeloop.runtime import RunState
from citeloop.runtime._calculate import calculate
from citeloop.runtime._claims import assess_claim
from citeloop.tools import Attachment, admit_all
from helpers.claims import HAPPY, claim, state_for

pytest.importorskip("openpyxl")

DATA = Path(__file__).resolve().parents[1] / "data" / "northstar"
SPEC = "attached:spec.md"
MEASURED_A = "In the supplied workbook, prototype A's measured runtime is 9 h"


def admitted(*names: str, generated: tuple[str, ...] = ()) -> RunState:
    files = [Attachment(DATA / name) for name in names]
    files += [Attachment(DATA / name, generated=True) for name in generated]
    return state_for(*admit_all(files))


def cell(book: str, ref: str, sheet: str = "Runtime") -> dict[str, Any]:
    return {"source": f"attached:{book}", "sheet": sheet, "cell": ref}


def judged(one: dict[str, Any], state: RunState) -> tuple[str, str]:
    verdict = assess_claim(one, state)
    return verdict.verdict, verdict.detail


def test_the_happy_path_a_measured_comparison_and_the_mean_as_a_calculation() -> None:
    state = admitted("spec.md", "runtime.xlsx")
    comparison = claim(
        HAPPY, [cell("runtime.xlsx", "B2"), cell("runtime.xlsx", "B3")], "measurement", "comparison"
    )
    assert judged(comparison, state)[0] == "supported"
    request = json.dumps(
        {"operation": "mean", "inputs": [cell("runtime.xlsx", "B2"), cell("runtime.xlsx", "B3")]}
    )
    mean = calculate(request, state, 1)
    assert isinstance(mean, Calculation) and mean.result == 8.25
    with_mean = state_for(*state.sources.values(), calculations=[mean])
    text = "The mean measured runtime of prototypes A and B is 8.25 h"
    assert judged(claim(text, ["calc:1"], "calculation", "calculation"), with_mean) == (
        "supported",
        "states calc:1's mean, 8.25 h",
    )


def test_a_missing_cell_is_unsupported() -> None:
    state = admitted("runtime-missing.xlsx")
    premises = [cell("runtime-missing.xlsx", "B2"), cell("runtime-missing.xlsx", "B3")]
    verdict, detail = judged(claim(HAPPY, premises, "measurement", "comparison"), state)
    assert verdict == "unsupported" and "missing_value" in detail


def test_a_stale_measurement_is_unsupported() -> None:
    state = admitted("runtime-stale.xlsx")
    premises = [cell("runtime-stale.xlsx", "B2"), cell("runtime-stale.xlsx", "B3")]
    assert judged(claim(HAPPY, premises, "measurement", "comparison"), state) == (
        "unsupported",
        "observed 416 days apart, beyond the tolerance of 30 days",
    )


def test_a_declaration_offered_as_a_measurement_is_unsupported() -> None:
    state = admitted("spec.md")
    premise = {"source": SPEC, "quote": "declared at a capacity of 72 Wh"}
    text = "In the supplied workbook, the measured capacity is 72 Wh"
    assert judged(claim(text, [premise], "measurement", "measurement"), state) == (
        "unsupported",
        "premise 1 is a declaration: a declaration is not a measurement",
    )
    declared = "The specification declares a battery capacity of 72 Wh"
    assert judged(claim(declared, [premise], "declaration", "quote"), state)[0] == "supported"


def test_mixed_units_are_unsupported_never_converted() -> None:
    state = admitted("runtime-mixed-units.xlsx")
    premises = [cell("runtime-mixed-units.xlsx", "B2"), cell("runtime-mixed-units.xlsx", "B2", sheet="Bench")]
    text = "In the supplied workbook, prototype A's measured runtime is longer than prototype B's"
    assert judged(claim(text, premises, "measurement", "comparison"), state) == (
        "unsupported",
        "mixed units: 'h' and 'min' (never converted)",
    )


def test_a_contradicting_second_workbook() -> None:
    state = admitted("runtime.xlsx", "runtime-retest.xlsx")
    assert judged(claim(MEASURED_A, [cell("runtime.xlsx", "B2")], "measurement", "measurement"), state) == (
        "contradicted",
        "attached:runtime-retest.xlsx gives Prototype A's runtime as 8 h, not 9 h",
    )


def test_a_generated_image_note_is_admissible_only_as_generated() -> None:
    state = admitted(generated=("image-note.txt",))
    premise = {"source": "attached:image-note.txt", "quote": "reading a runtime of 9.5 h"}
    as_measured = claim("Prototype A's measured runtime is 9.5 h", [premise], "measurement", "quote")
    assert judged(as_measured, state) == (
        "unsupported",
        "premise 1 is generated: a generated observation is admissible only as generated",
    )
    labelled = claim("A generated image note reads a runtime of 9.5 h", [premise], "generated", "quote")
    assert judged(labelled, state)[0] == "supported"
