"""`citeloop show` with claims and the completion matrix, `verify RUN --answer FILE`, `ask --require`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from citeloop.events import open_store
from citeloop.policies import react
from citeloop.runtime import Runtime
from helpers.claims import HAPPY, book, finish, happy_claim, spec
from helpers.cli import run_citeloop
from helpers.fakes import ReplyQueue, page_tools

STORE = "sqlite:///claims.db"
PLAN = ["Which prototype runs longer?", "What capacity is declared?"]
ANSWER = f"{HAPPY}. The capacity was not checked."


def record_run(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A run that finishes with one supported claim and discloses plan item 2 as a gap."""
    monkeypatch.chdir(cwd)
    reply = react("Done.", "finish", json.dumps(finish([happy_claim(item=1)], answer=ANSWER, gaps=[2])))

    async def go() -> str:
        async with open_store(STORE) as store:
            tools, _ = page_tools()
            policy: Any = ReplyQueue(reply)
            async with Runtime(store=store, tools=tools, policy=policy) as runtime:
                outcome = await runtime.run("Which runs longer?", attachments=[spec(), book()], plan=PLAN)
        assert outcome.status == "answered", outcome
        return outcome.run_id

    return anyio.run(go)


def citeloop(cwd: Path, *args: str) -> tuple[int, str, str]:
    done = run_citeloop(*args, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


def test_show_prints_the_claims_and_the_completion_matrix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = record_run(tmp_path, monkeypatch)
    code, out, err = citeloop(tmp_path, "show", run_id, "--store", STORE)
    assert code == 0, err
    assert "claims:" in out
    assert f"1 supported · comparison · measurement · item 1 · {HAPPY}" in out
    assert "premise: attached:runtime.xlsx Runtime!B2 = 9 (measurement)" in out
    assert "premise: attached:runtime.xlsx Runtime!B3 = 7.5 (measurement)" in out
    assert "completion:" in out
    assert "1 supported · Which prototype runs longer? (measurement)" in out
    assert "2 gap · What capacity is declared?" in out

    code, out, err = citeloop(tmp_path, "show", run_id, "--store", STORE, "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["plan"] == PLAN
    (claim,) = shown["claims"]
    assert (claim["index"], claim["verdict"], claim["method"], claim["item"]) == (
        1,
        "supported",
        "comparison",
        1,
    )
    assert [premise["locator"]["cell"] for premise in claim["premises"]] == ["B2", "B3"]
    assert shown["completion"] == [
        {"item": 1, "text": PLAN[0], "status": "supported", "claims": [1], "classes": ["measurement"]},
        {"item": 2, "text": PLAN[1], "status": "gap", "claims": [], "classes": []},
    ]
    assert shown["final"]["gaps"] == [2]


def test_verify_answer_unchanged_then_edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = record_run(tmp_path, monkeypatch)
    same = tmp_path / "same.txt"
    same.write_text(ANSWER + "\n", encoding="utf-8")  # as an editor saves it: one final line break
    code, out, err = citeloop(tmp_path, "verify", run_id, "--answer", str(same), "--store", STORE)
    assert code == 0, err
    assert out.strip() == (
        f"{run_id}: all 2 locators still hold; the answer digest matches, all 1 claims still occur in it"
    )

    edited = tmp_path / "edited.txt"
    edited.write_text(ANSWER.replace("7.5 h", "7 h"), encoding="utf-8")
    code, out, _ = citeloop(tmp_path, "verify", run_id, "--answer", str(edited), "--store", STORE)
    assert code == 3
    lines = out.splitlines()
    assert lines[0] == f"{run_id}: 2 mismatches"
    assert lines[1].startswith("  [digest] answer: sha256 ")
    assert lines[1].endswith(f"(the text differs from character {ANSWER.index('7.5 h') + 2} on)")  # 1-based
    assert lines[2] == f"  [claim] claim 1: {HAPPY!r} no longer occurs in the answer"

    code, out, _ = citeloop(tmp_path, "verify", run_id, "--answer", str(edited), "--store", STORE, "--json")
    assert code == 3
    report = json.loads(out)
    assert report["ok"] is False
    assert [m["kind"] for m in report["mismatches"]] == ["digest", "claim"]


def test_verify_answer_needs_one_answered_run(tmp_path: Path) -> None:
    answer = tmp_path / "a.txt"
    answer.write_text("x", encoding="utf-8")
    code, _, err = citeloop(tmp_path, "verify", "--all", "--answer", str(answer), "--store", STORE)
    assert code == 1
    assert "--answer checks one run" in err


def test_ask_require_records_the_plan_and_a_plain_answer_leaves_it_a_gap(tmp_path: Path) -> None:
    store = "sqlite:///ask.db"
    code, out, err = citeloop(
        tmp_path,
        "ask",
        "Who founded Acme Robotics?",
        "--require",
        "Who founded it?",
        "--json",
        "--store",
        store,
    )
    outcome = json.loads(out)
    # The extractive policy makes no claims and discloses no gaps: the plan's item stays undisclosed.
    assert (code, outcome["status"]) == (2, "abstained"), err
    code, out, err = citeloop(tmp_path, "show", outcome["run_id"], "--json", "--store", store)
    assert code == 0, err
    shown = json.loads(out)
    assert shown["plan"] == ["Who founded it?"]
    assert [item["status"] for item in shown["completion"]] == ["gap"]
    rejected = [
        step["decision"]
        for step in shown["steps"]
        if (step["decision"] or {}).get("kind") == "finish_rejected"
    ]
    assert rejected and {decision["code"] for decision in rejected} == {"undisclosed_gaps"}
