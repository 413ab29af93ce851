"""`citeloop fork RUN --at K`: a new run from a stored run's first K steps, printed like `ask`."""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers.cli import run_citeloop

FOUNDED = "Who founded Acme Robotics?"


def _env(tmp_path: Path, name: str = "runs.db") -> dict[str, str]:
    return {**os.environ, "CITELOOP_STORE": f"sqlite:///{tmp_path}/{name}"}


def _ask(tmp_path: Path) -> str:
    done = run_citeloop("ask", FOUNDED, "--policy", "scripted", "--json", cwd=tmp_path, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    run_id = json.loads(done.stdout)["run_id"]
    assert isinstance(run_id, str)
    return run_id


def test_fork_with_another_policy_prints_like_ask_and_keeps_its_lineage(tmp_path: Path) -> None:
    parent = _ask(tmp_path)
    env = _env(tmp_path)
    done = run_citeloop(
        "fork", parent[:8], "--at", "1", "--policy", "extractive", "--json", cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr
    forked = json.loads(done.stdout)  # exactly one JSON document on stdout
    assert forked["status"] == "answered" and forked["question"] == FOUNDED
    assert forked["forked_from"] == {"run_id": parent, "at_step": 1}
    assert forked["run_id"] != parent and forked["answer"] == "Ada Ortiz"  # the extractive policy's answer

    shown = run_citeloop("show", forked["run_id"], cwd=tmp_path, env=env)
    assert shown.returncode == 0, shown.stderr
    assert f"forked from {parent} at step 1" in shown.stdout
    assert f"step 0  copied from {parent}" in shown.stdout and "policy extractive" in shown.stdout
    as_json = json.loads(run_citeloop("show", forked["run_id"], "--json", cwd=tmp_path, env=env).stdout)
    assert as_json["forked_from"] == {"run_id": parent, "at_step": 1}
    assert as_json["policy"] == "extractive" and as_json["question"] == FOUNDED
    html = run_citeloop("show", forked["run_id"], "--html", "-o", "fork.html", cwd=tmp_path, env=env)
    assert html.returncode == 0, html.stderr
    assert f"forked from <code>{parent}</code> at step 1" in (tmp_path / "fork.html").read_text()

    checked = run_citeloop("replay", forked["run_id"], "--check", "--json", cwd=tmp_path, env=env)
    assert checked.returncode == 0, checked.stdout
    assert json.loads(checked.stdout)["ok"] is True

    listed = json.loads(run_citeloop("runs", "--json", cwd=tmp_path, env=env).stdout)
    assert {row["run_id"]: row["question"] for row in listed} == {parent: FOUNDED, forked["run_id"]: FOUNDED}

    # A forked run's file starts with Forked, then RunStarted, and imports into another store.
    exported = run_citeloop("export", forked["run_id"], "-o", "fork.jsonl", cwd=tmp_path, env=env)
    assert exported.returncode == 0, exported.stderr
    lines = (tmp_path / "fork.jsonl").read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines[:2]] == ["Forked", "RunStarted"]
    imported = run_citeloop("import", "fork.jsonl", cwd=tmp_path, env=_env(tmp_path, "other.db"))
    assert imported.returncode == 0, imported.stderr


def test_fork_without_policy_goes_on_with_the_runs_own(tmp_path: Path) -> None:
    parent = _ask(tmp_path)
    done = run_citeloop("fork", parent, "--at", "2", cwd=tmp_path, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Answer: Acme Robotics was founded by Ada Ortiz." in done.stdout
    assert f"run {parent} forked at step 2 as run" in done.stderr


def test_a_step_the_run_cannot_be_forked_at_is_one_line(tmp_path: Path) -> None:
    parent = _ask(tmp_path)
    env = _env(tmp_path)
    for at, said in (("3", "ended at step 2 (answered)"), ("-1", "0 or more")):
        refused = run_citeloop("fork", parent, "--at", at, cwd=tmp_path, env=env)
        assert refused.returncode == 1, refused.stdout
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
        assert said in refused.stderr, refused.stderr
    as_json = run_citeloop("fork", parent, "--at", "9", "--json", cwd=tmp_path, env=env)
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["code"] == 1
    missing = run_citeloop("fork", "nope", "--at", "0", cwd=tmp_path, env=env)
    assert missing.returncode == 1 and "Traceback" not in missing.stderr
    listed = json.loads(run_citeloop("runs", "--json", cwd=tmp_path, env=env).stdout)
    assert [row["run_id"] for row in listed] == [parent]  # nothing was recorded


def test_a_parent_that_breaks_its_chain_is_refused(tmp_path: Path) -> None:
    parent = _ask(tmp_path)
    exported = run_citeloop("export", parent, "-o", "run.jsonl", cwd=tmp_path, env=_env(tmp_path))
    assert exported.returncode == 0, exported.stderr
    lines = (tmp_path / "run.jsonl").read_text().splitlines()
    observed = json.loads(lines[3])
    assert observed["type"] == "ToolObserved"
    observed["input"] = "something else"  # seq 4 no longer names this event's hash
    lines[3] = json.dumps(observed)
    (tmp_path / "run.jsonl").write_text("\n".join(lines) + "\n")
    env = _env(tmp_path, "edited.db")
    assert run_citeloop("import", "run.jsonl", cwd=tmp_path, env=env).returncode == 0
    refused = run_citeloop("fork", parent, "--at", "2", cwd=tmp_path, env=env)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "hash chain broken" in refused.stderr, refused.stderr
