"""A report run through workers from the command line, each step its own process (SPEC §12 item 5).

`citeloop submit --report --review human`, a worker that leaves the run waiting, `citeloop
review RUN --accept --queue`, a new worker that finishes it: on an SQLite store and the
demo corpus. (The same through the Python API, also on PostgreSQL:
tests/runtime/test_report_workers.py.)
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers.cli import run_citeloop

FOUNDED = "Who founded Acme Robotics?"


def test_submit_a_report_pause_in_one_worker_review_and_finish_in_another(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_", "ANTHROPIC_"))}
    env["CITELOOP_CACHE_DIR"] = str(tmp_path / "cache")
    store = ("--store", "sqlite:///queue.db")

    def cli(*args: str) -> tuple[int, str, str]:
        done = run_citeloop(*args, cwd=tmp_path, env=env)
        return done.returncode, done.stdout, done.stderr

    code, out, err = cli("submit", FOUNDED, *store, "--report", "--review", "human", "--policy", "extractive")
    assert code == 0, err
    run_id = out.strip()

    code, _, err = cli("worker", *store, "--policy", "extractive", "--max-runs", "1")
    assert code == 0, err
    assert "1 run finished" in err
    code, out, err = cli("runs", "--json", *store)
    assert code == 0, err
    assert {row["run_id"]: row["status"] for row in json.loads(out)} == {run_id: "waiting"}

    code, out, err = cli("review", run_id, "--accept", "--queue", "--by", "ana", *store)
    assert code == 0, err
    assert "queued" in out
    code, out, err = cli("review", run_id, "--accept", "--queue", *store)  # the verdict is in: no second one
    assert code == 1 and "not waiting for a review" in err, (out, err)

    code, _, err = cli("worker", *store, "--policy", "extractive", "--max-runs", "1")
    assert code == 0, err
    code, out, err = cli("show", run_id, "--json", *store)
    assert code == 0, err
    assert json.loads(out)["status"] == "answered"
    code, out, err = cli("replay", run_id, "--check", *store)
    assert code == 0 and "no divergence" in out, (out, err)


def test_report_options_without_report_are_refused(tmp_path: Path) -> None:
    done = run_citeloop("submit", FOUNDED, "--store", "sqlite:///queue.db", "--review", "human", cwd=tmp_path)
    assert done.returncode == 1 and "go with --report" in done.stderr, done.stderr
