"""Crash safety: SIGKILL a process that appends, at random moments, then check the store.

After every kill the store must open cleanly, hold every event the child saw
acknowledged, have no seq gap in any run, and (SQLite) pass `PRAGMA integrity_check`.
50 kills per store under CI=true, 10 otherwise; `bench/crash_stress.py --kills N` runs more.
The child is forked (POSIX only), which is why this test is not run per anyio backend:
the child runs its own event loop (asyncio) and the checks open the store on asyncio.
"""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import anyio
import pytest
from citeloop.events import open_store
from helpers.crash_child import kill_at_random

KILLS = 50 if os.environ.get("CI") == "true" else 10


async def verify(url: str, acked: dict[str, int]) -> int:
    """Check the store after a kill; return how many events it holds."""
    async with open_store(url) as store:
        summaries = await store.runs()
        for summary in summaries:
            events = await store.read(summary.run_id)
            assert [e.seq for e in events] == list(range(len(events))), summary.run_id
            assert summary.events == len(events)
        for run_id, last in acked.items():
            stored = len(await store.read(run_id))
            assert stored > last, f"{run_id}: acknowledged seq {last} lost ({stored} stored)"
        return sum(s.events for s in summaries)


def check_after_kills(
    url: str, db: Path | None, kills: int, seed: int, max_delay: float = 0.05
) -> tuple[int, int]:
    """Kill a child `kills` times, checking the store after each; return (acked, stored) counts."""
    rng = random.Random(seed)
    acked: dict[str, int] = {}
    stored = 0
    for kill in range(kills):
        acked.update(kill_at_random(url, f"k{kill}", rng, max_delay))
        stored = anyio.run(verify, url, acked)
        if db is not None:
            with sqlite3.connect(db) as conn:
                assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    return sum(last + 1 for last in acked.values()), stored


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "jsonl"])
def test_sigkill_never_loses_an_acknowledged_event(kind: str, tmp_path: Path) -> None:
    if kind == "sqlite":
        url, db = f"sqlite:///{tmp_path}/runs.db", tmp_path / "runs.db"
    else:
        url, db = f"jsonl:///{tmp_path}/log.jsonl", None
    acked, stored = check_after_kills(url, db, KILLS, seed=20250101)
    assert acked > KILLS, "the children acknowledged almost nothing: the test proved little"
    assert stored >= acked
