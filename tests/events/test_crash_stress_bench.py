"""bench/crash_stress.py checks content, not counts, and its checks survive `python -O`.

The script forks (POSIX only) and runs its own event loops, so these tests are sync.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from citeloop.events import open_store
from citeloop.events.testing import make_step

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
import crash_stress  # noqa: E402


async def store_run(url: str, run_id: str, change_seq: int | None) -> None:
    events = [crash_stress.expected_event(run_id, seq) for seq in range(5)]
    if change_seq is not None:  # same seq, same size, one character different
        original = crash_stress.expected_event(run_id, change_seq)
        note = original.thought  # type: ignore[union-attr]
        events[change_seq] = make_step(run_id, change_seq, note[:-1] + ("x" if note[-1] != "x" else "y"))
    async with open_store(url) as store:
        await store.append(run_id, events, 0)


@pytest.mark.parametrize("kind", ["sqlite", "jsonl"])
def test_a_changed_byte_is_a_problem_even_when_the_counts_match(kind: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/runs.db" if kind == "sqlite" else f"jsonl:///{tmp_path}/log.jsonl"
    anyio.run(store_run, url, "k0.0-0", None)
    anyio.run(store_run, url, "k0.1-0", 3)
    acked = {"k0.0-0": 4, "k0.1-0": 4}
    problems, runs, stored = anyio.run(crash_stress.verify, url, "k0", acked)
    assert runs == 2 and stored == 10
    assert problems == ["k0.1-0: seq 3 differs from what its appender sent"]


def test_a_lost_acknowledged_event_is_a_problem(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/runs.db"
    anyio.run(store_run, url, "k0.0-0", None)
    problems, _, _ = anyio.run(crash_stress.verify, url, "k0", {"k0.0-0": 6})
    assert problems == ["k0.0-0: acknowledged seq 6 lost (5 stored)"]


def run_script(*code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-O", "-c", "\n".join(("import sys", f"sys.path.insert(0, {str(BENCH)!r})", *code))],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_under_python_O_a_clean_run_is_one_json_line_with_ok_true() -> None:
    done = run_script(
        "import crash_stress",
        "sys.argv = ['crash_stress', '--kills', '2', '--store', 'sqlite', '--appenders', '3']",
        "sys.exit(crash_stress.main())",
    )
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    report = json.loads(line)
    assert report["ok"] is True
    [result] = report["results"]
    assert result["kills"] == 2 and result["acked_events"] > 0 and result["problems"] == []


def test_under_python_O_a_difference_is_ok_false_and_exit_1() -> None:
    # In the parent only, the event expected at seq 3 differs from what the child appended:
    # the checks must report it (an `assert` would vanish under -O and print ok: true).
    done = run_script(
        "import os, crash_stress",
        "from citeloop.events.testing import make_step",
        "real, parent = crash_stress.expected_event, os.getpid()",
        "crash_stress.expected_event = lambda r, s: (",
        "    make_step(r, s, 'changed') if s == 3 and os.getpid() == parent else real(r, s))",
        "sys.argv = ['crash_stress', '--kills', '1', '--store', 'jsonl',",
        "            '--appenders', '2', '--max-delay', '0.3']",
        "sys.exit(crash_stress.main())",
    )
    assert done.returncode == 1, done.stderr
    [line] = done.stdout.splitlines()
    report = json.loads(line)
    assert report["ok"] is False
    assert any("seq 3 differs" in problem for problem in report["results"][0]["problems"])
