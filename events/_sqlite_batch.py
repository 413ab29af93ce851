"""The SQLite store's batch transaction: each append checked against its run's head, then inserted.

Runs inside `BEGIN IMMEDIATE` on the writer connection (`_sqlite`), so the check and
the insert are one atomic step even when another process writes the same file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Final

from ._errors import ConcurrencyError, RunClosedError
from ._events import Event
from ._store import run_started, status_after

# A statement run inside the transaction of the append that carries it (if it is accepted).
Extra = Callable[[sqlite3.Connection], object]
# (run_id, events, expected_seq, extra)
Append = tuple[str, Sequence[Event], int, Extra | None]
Results = Sequence[BaseException | None]

# Heads cached for runs still running; past this many the cache starts over (a run not in
# it costs one indexed read, as every run did before the cache).
MAX_CACHED_HEADS: Final = 100_000


class HeadCheckedWriter:
    """Writes group-committed batches; caches the heads of the runs this connection wrote."""

    def __init__(self) -> None:
        # The next seq of runs this connection wrote, valid while `data_version` still
        # equals `version` (no other connection committed since our last commit).
        self.heads: dict[str, int] = {}
        self.version: int | None = None

    def forget(self) -> None:
        """Drop the cached heads (a rolled-back batch may be in them)."""
        self.version = None
        self.heads.clear()

    def write(
        self, conn: sqlite3.Connection, batch: Sequence[Append], encoded: list[list[bytes]]
    ) -> list[BaseException | None]:
        """Check each append against its run's head and insert the accepted ones (inside BEGIN IMMEDIATE)."""
        # The head of every run in the batch, under the write lock: nothing else can append
        # between this read and our insert. A head this connection wrote is trusted when no
        # other connection has committed since (`data_version` unchanged: it moves on every
        # commit by another connection, in this process or another, never on our own);
        # the others are read from the events' own (run_id, seq) index.
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self.version or len(self.heads) > MAX_CACHED_HEADS:
            self.heads.clear()
        self.version = version
        heads = self.heads
        # Runs that have ended: never cached as heads (an ended run is dropped from the
        # cache), so every append to one reads its status here and is refused.
        closed: set[str] = set()
        run_ids = list({run_id for run_id, _, _, _ in batch if run_id not in heads})
        for start in range(0, len(run_ids), 500):
            chunk = run_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for run_id, last_seq in conn.execute(
                f"SELECT run_id, MAX(seq) FROM events WHERE run_id IN ({marks}) GROUP BY run_id", chunk
            ):
                heads[run_id] = last_seq + 1
            closed.update(
                run_id
                for (run_id,) in conn.execute(
                    f"SELECT run_id FROM runs WHERE run_id IN ({marks}) AND status != 'running'", chunk
                )
            )
        for run_id in closed:
            heads.pop(run_id, None)
        results: list[BaseException | None] = []
        rows: list[tuple[str, int, str, bytes]] = []
        new_runs: list[tuple[str, str, str, str]] = []
        finished: list[tuple[str, str]] = []
        ended: list[str] = []
        extras: list[Extra] = []
        for (run_id, events, expected, extra), bodies in zip(batch, encoded, strict=True):
            if run_id in closed:
                results.append(RunClosedError(run_id))
                continue
            head = heads.get(run_id, 0)
            if head != expected:
                results.append(ConcurrencyError(run_id, expected, head))
                continue
            results.append(None)
            if extra is not None:
                extras.append(extra)
            heads[run_id] = expected + len(events)
            rows.extend((run_id, e.seq, e.type, body) for e, body in zip(events, bodies, strict=True))
            status = status_after(events)
            if expected == 0:
                first, started = events[0], run_started(events)
                question = started.question if started is not None else ""
                new_runs.append((run_id, question, status, first.at.isoformat()))
            elif status != "running":
                finished.append((status, run_id))
            if status != "running":
                ended.append(run_id)
                closed.add(run_id)
        for run_id in ended:  # no more appends expected: keep the cache small
            heads.pop(run_id, None)
        # The runs table changes only when a run starts or ends; its event count and last
        # update are read off the events at listing time, so most appends only insert.
        if new_runs:
            conn.executemany("INSERT INTO runs VALUES (?, ?, ?, ?)", new_runs)
        if rows:
            conn.executemany("INSERT INTO events (run_id, seq, type, body) VALUES (?, ?, ?, ?)", rows)
        if finished:
            conn.executemany("UPDATE runs SET status = ? WHERE run_id = ?", finished)
        for extra in extras:
            extra(conn)
        return results
