"""`citeloop resume` holds a run to the policy it was started with (issue 15).

The log was written with one policy's decisions; another one going on from it is refused
(exit 1, one line naming both) unless `--force-policy`. Without `--policy`, resume builds
the recorded one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers.cli import run_citeloop

FOUNDED = "Who founded Acme Robotics?"


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "CITELOOP_STORE": f"sqlite:///{tmp_path}/runs.db"}


def _submit(tmp_path: Path, policy: str) -> str:
    done = run_citeloop("submit", FOUNDED, "--policy", policy, cwd=tmp_path, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _recorded_policy(tmp_path: Path, run_id: str) -> str:
    shown = run_citeloop("export", run_id, cwd=tmp_path, env=_env(tmp_path))
    assert shown.returncode == 0, shown.stderr
    started = json.loads(shown.stdout.splitlines()[0])
    return str(started["policy"])


def test_resume_with_another_policy_is_refused_unless_forced(tmp_path: Path) -> None:
    run_id = _submit(tmp_path, "scripted")
    refused = run_citeloop("resume", run_id, "--policy", "extractive", cwd=tmp_path, env=_env(tmp_path))
    assert refused.returncode == 1, refused.stdout
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert "'scripted'" in refused.stderr and "'extractive'" in refused.stderr
    assert "--force-policy" in refused.stderr
    as_json = run_citeloop(
        "resume", run_id, "--policy", "extractive", "--json", cwd=tmp_path, env=_env(tmp_path)
    )
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["code"] == 1
    # Nothing was driven: the run is still queued.
    listed = json.loads(run_citeloop("runs", "--json", cwd=tmp_path, env=_env(tmp_path)).stdout)
    assert [row["status"] for row in listed] == ["queued"]

    forced = run_citeloop(
        "resume", run_id, "--policy", "extractive", "--force-policy", "--json",
        cwd=tmp_path, env=_env(tmp_path),
    )
    assert forced.returncode == 0, forced.stderr
    assert json.loads(forced.stdout)["status"] == "answered"


def test_resume_without_policy_builds_the_recorded_one(tmp_path: Path) -> None:
    run_id = _submit(tmp_path, "scripted")
    assert _recorded_policy(tmp_path, run_id) == "scripted"
    resumed = run_citeloop("resume", run_id[:6], "--json", cwd=tmp_path, env=_env(tmp_path))
    assert resumed.returncode == 0, resumed.stderr
    # The scripted policy answers with the whole sentence (the extractive one with the name).
    assert json.loads(resumed.stdout)["answer"] == "Acme Robotics was founded by Ada Ortiz."
    same = _submit(tmp_path, "extractive")
    named = run_citeloop("resume", same, "--policy", "extractive", cwd=tmp_path, env=_env(tmp_path))
    assert named.returncode == 0, named.stderr


def test_a_finished_run_is_printed_whatever_the_policy(tmp_path: Path) -> None:
    asked = run_citeloop("ask", FOUNDED, "--json", cwd=tmp_path, env=_env(tmp_path))
    run_id = json.loads(asked.stdout)["run_id"]
    printed = run_citeloop("resume", run_id, "--policy", "scripted", cwd=tmp_path, env=_env(tmp_path))
    assert printed.returncode == 0, printed.stderr
    assert "Ada Ortiz" in printed.stdout
