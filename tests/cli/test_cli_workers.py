"""`citeloop submit` and `citeloop worker` on one machine: an SQLite store, no PostgreSQL.

(The same commands on PostgreSQL: tests/cli/test_cli.py.)
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers.cli import run_citeloop

FOUNDED = "Who founded Acme Robotics?"


def test_submit_then_a_worker_drives_the_queued_run_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
    env["CITELOOP_CACHE_DIR"] = str(tmp_path / "cache")
    store = ("--store", "sqlite:///queue.db")

    def cli(*args: str) -> tuple[int, str, str]:
        done = run_citeloop(*args, cwd=tmp_path, env=env)
        return done.returncode, done.stdout, done.stderr

    code, out, err = cli("submit", FOUNDED, *store, "--policy", "scripted")
    assert code == 0, err
    run_id = out.strip()
    code, out, err = cli("runs", "--json", *store)
    assert code == 0, err
    assert {row["run_id"]: row["status"] for row in json.loads(out)} == {run_id: "queued"}

    code, _, err = cli("worker", *store, "--policy", "scripted", "--max-runs", "1")
    assert code == 0, err
    assert "1 run finished" in err
    code, out, err = cli("runs", "--json", *store)
    assert code == 0, err
    assert [row["status"] for row in json.loads(out)] == ["answered"]
    code, out, err = cli("replay", run_id, "--check", *store)
    assert code == 0 and "no divergence" in out, (out, err)

    code, _, err = cli("submit", FOUNDED, "--store", "memory://")
    assert code == 1 and err.startswith("citeloop: error: ") and "no run queue" in err, err
