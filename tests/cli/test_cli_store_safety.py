"""The command line and damaged or shared stores: reading commands never modify a store, a
damaged log is one line and exit 1, and several `citeloop ask` share one SQLite file."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from citeloop.events import Event
from citeloop.events._jsonl import encode_record
from citeloop.events.testing import make_run_started, make_step
from helpers.cli import require_citeloop, run_citeloop

FOUNDED = "Who founded Acme Robotics?"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
    env["CITELOOP_CACHE_DIR"] = str(tmp_path / "cache")
    return env


def _one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("citeloop: error:")]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def test_six_parallel_asks_share_one_new_sqlite_file(tmp_path: Path) -> None:
    """Six processes create, switch to WAL and write one file at once: every one succeeds."""
    script = require_citeloop()
    url = f"sqlite:///{tmp_path}/shared.db"
    env = _env(tmp_path)
    # Build the demo corpus's index once, so that the processes race on the store only.
    warm = run_citeloop("ask", FOUNDED, "--store", "memory://", cwd=tmp_path, env=env)
    assert warm.returncode == 0, warm.stderr
    asks = [
        subprocess.Popen(
            [str(script), "ask", FOUNDED, "--store", url, "--json"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    results = [(ask.wait(timeout=120), *ask.communicate()) for ask in asks]
    assert [code for code, _, _ in results] == [0] * 6, [err for _, _, err in results]
    listed = run_citeloop("runs", "--store", url, "--json", cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.count('"answered"') == 6


def test_tail_of_a_missing_store_is_one_line_and_creates_nothing(tmp_path: Path) -> None:
    done = run_citeloop("tail", "--store", "sqlite:///typo.db", cwd=tmp_path, env=_env(tmp_path), timeout=30)
    assert done.returncode == 1
    assert "typo.db" in _one_error_line(done.stderr)
    assert not (tmp_path / "typo.db").exists()


def _jsonl_log(path: Path, *records: list[Event]) -> bytes:
    data = b"".join(encode_record(batch) for batch in records)
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("command", [("show", "a"), ("replay", "a"), ("replay", "a", "--check"), ("runs",)])
def test_a_record_with_a_seq_gap_is_one_line_not_a_fold_error(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    log = tmp_path / "log.jsonl"
    data = _jsonl_log(log, [make_run_started("a")], [make_step("a", 1), make_step("a", 3)])
    done = run_citeloop(*command, "--store", f"jsonl:///{log}", cwd=tmp_path, env=_env(tmp_path))
    assert done.returncode == 1, done.stdout
    line = _one_error_line(done.stderr)
    assert "jumps from seq 2 to seq 3" in line and str(log) in line
    assert log.read_bytes() == data


@pytest.mark.parametrize("command", [("runs", "--json"), ("show", "a"), ("export", "a"), ("replay", "a")])
def test_reading_commands_leave_a_torn_tail_in_place(tmp_path: Path, command: tuple[str, ...]) -> None:
    log = tmp_path / "log.jsonl"
    good = _jsonl_log(log, [make_run_started("a")], [make_step("a", 1)])
    torn = good + encode_record([make_step("a", 2)])[:-25]
    log.write_bytes(torn)
    done = run_citeloop(*command, "--store", f"jsonl:///{log}", cwd=tmp_path, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "jsonl_torn_tail_ignored" in done.stderr
    assert log.read_bytes() == torn
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("log")) == ["log.jsonl"]
