"""The Northstar example on the command line, over the real model path (issue 12, README "Evidence classes").

`citeloop ask --attach spec.md --attach runtime.xlsx --policy openai:m` against the loopback
fake Chat Completions server (tests/helpers/fake_openai.py): the model asks `calculate` for
the mean, then finishes with three claims; `show` prints them and the completion matrix, and
`verify --answer` holds for the answer as given and names what an edit broke.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers.cli import run_citeloop
from helpers.fake_openai import Say, serve

pytest.importorskip("openpyxl")

DATA = Path(__file__).resolve().parents[1] / "data" / "northstar"
SPEC = "attached:spec.md"
BOOK = "attached:runtime.xlsx"
QUESTION = "Which Northstar prototype runs longer, what is their mean runtime, and what capacity is declared?"
PLAN = ("Which prototype runs longer?", "What is their mean runtime?", "What capacity is declared?")

COMPARISON = (
    "In the supplied workbook, prototype A's measured runtime is longer than prototype B's (9 h versus 7.5 h)"
)
MEAN = "The mean measured runtime of prototypes A and B is 8.25 h"
CAPACITY = "The specification declares a battery capacity of 72 Wh"
ANSWER = f"{COMPARISON}. {MEAN}. {CAPACITY}."


def cell(ref: str) -> dict[str, str]:
    return {"source": BOOK, "sheet": "Runtime", "cell": ref}


CALCULATE = {"operation": "mean", "inputs": [cell("B2"), cell("B3")]}
FINISH: dict[str, Any] = {
    "answer": ANSWER,
    "citations": [SPEC, BOOK],
    "cannot_answer": False,
    "evidence": [],
    "claims": [
        {
            "text": COMPARISON,
            "premises": [cell("B2"), cell("B3")],
            "class": "measurement",
            "method": "comparison",
            "item": 1,
        },
        # The calculation is the run's first step (steps count from 0): its id is calc:0.
        {"text": MEAN, "premises": ["calc:0"], "class": "calculation", "method": "calculation", "item": 2},
        {
            "text": CAPACITY,
            "premises": [
                {"source": SPEC, "quote": "The Northstar battery pack is declared at a capacity of 72 Wh."}
            ],
            "class": "declaration",
            "method": "quote",
            "item": 3,
        },
    ],
    "gaps": [],
}


@pytest.fixture(scope="module")
def northstar(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], str, Any]:
    """One answered run, asked through the CLI of a model on 127.0.0.1: (cwd, env, run id, requests)."""
    cwd = tmp_path_factory.mktemp("northstar")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
    env |= {"CITELOOP_STORE": f"sqlite:///{cwd}/runs.db", "COLUMNS": "200", "OPENAI_API_KEY": "test"}
    with serve() as fake:
        fake.push(
            Say(
                f"Thought: average the two runtimes\nAction: calculate\nAction Input: {json.dumps(CALCULATE)}"
            ),
            Say(f"Thought: all three settled\nAction: finish\nAction Input: {json.dumps(FINISH)}"),
        )
        asked = run_citeloop(
            "ask", QUESTION,
            "--attach", str(DATA / "spec.md"), "--attach", str(DATA / "runtime.xlsx"),
            *(arg for item in PLAN for arg in ("--require", item)),
            "--policy", "openai:m", "--base-url", fake.base_url, "--json",
            cwd=cwd, env=env,
        )  # fmt: skip
        requests = list(fake.requests)
    assert asked.returncode == 0, asked.stderr + asked.stdout
    outcome = json.loads(asked.stdout)
    assert outcome["status"] == "answered", outcome
    return cwd, env, outcome["run_id"], requests


def test_the_model_is_shown_the_attachments_the_plan_and_how_to_claim(northstar: Any) -> None:
    _, _, _, requests = northstar
    first = requests[0].body["messages"]
    system, question = first[0]["content"], first[1]["content"]
    assert "calculate" in system and '"claims"' in system and "calc:<step>" in system
    assert "1. Which prototype runs longer?" in question
    assert "Runtime!B2 | row: Prototype A | column: Runtime (h) | 9" in question
    assert "The Northstar battery pack is declared at a capacity of 72 Wh." in question
    # The calculation came back to the model as an observation, before it finished.
    second = requests[1].body["messages"]
    assert "8.25" in second[-1]["content"]


def test_show_prints_the_claims_their_verdicts_and_the_completion_matrix(northstar: Any) -> None:
    cwd, env, run_id, _ = northstar
    shown = run_citeloop("show", run_id, cwd=cwd, env=env)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert f"1 supported · comparison · measurement · item 1 · {COMPARISON}" in out
    assert f"2 supported · calculation · calculation · item 2 · {MEAN}" in out
    assert f"3 supported · quote · declaration · item 3 · {CAPACITY}" in out
    assert f"premise: {BOOK} Runtime!B2 = 9 (measurement)" in out
    assert "1 supported · Which prototype runs longer? (measurement)" in out
    assert "2 supported · What is their mean runtime? (calculation)" in out
    assert "3 supported · What capacity is declared? (declaration)" in out

    data = json.loads(run_citeloop("show", run_id, "--json", cwd=cwd, env=env).stdout)
    assert [(c["index"], c["method"], c["verdict"]) for c in data["claims"]] == [
        (1, "comparison", "supported"),
        (2, "calculation", "supported"),
        (3, "quote", "supported"),
    ]
    assert [item["status"] for item in data["completion"]] == ["supported"] * 3
    assert data["final"]["evidence_classes"] == [
        "measurement",
        "measurement",
        "calculation",
        "declaration",
    ]
    checked = run_citeloop("replay", run_id, "--check", cwd=cwd, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_verify_answer_holds_for_the_answer_and_names_an_edit(northstar: Any) -> None:
    cwd, env, run_id, _ = northstar
    same = cwd / "answer.txt"
    same.write_text(ANSWER + "\n", encoding="utf-8")
    held = run_citeloop("verify", run_id, "--answer", str(same), cwd=cwd, env=env)
    assert held.returncode == 0, held.stdout + held.stderr
    assert "the answer digest matches, all 3 claims still occur in it" in held.stdout

    edited = cwd / "edited.txt"
    edited.write_text(ANSWER.replace("8.25 h", "8.5 h"), encoding="utf-8")
    broken = run_citeloop("verify", run_id, "--answer", str(edited), cwd=cwd, env=env)
    assert broken.returncode == 3, broken.stdout + broken.stderr
    lines = broken.stdout.splitlines()
    assert lines[0] == f"{run_id}: 2 mismatches"
    assert lines[1].startswith("  [digest] answer: sha256 ")
    assert lines[1].endswith(f"(the text differs from character {ANSWER.index('8.25 h') + 3} on)")  # 1-based
    assert lines[2] == f"  [claim] claim 2: {MEAN!r} no longer occurs in the answer"
