"""The SQLite run queue: a `queue` table in the store's own file, for workers on one machine.

- **Enqueue** and **requeue** go through the store's group commit
  (`SqliteStore.append_with`): the events and the queue row are written in one transaction.
- **Claims** run in `BEGIN IMMEDIATE`, so a claimer holds the write lock while it picks
  the oldest free run and leases it: two claimers, in this process or another, never
  get the same run. Renewals and releases are single conditional `UPDATE`s (atomic on
  their own), so a lease that ran out or changed hands is never extended.
- **The clock** is the machine's (`time.time()`, injectable): every process sharing the
  file reads the same one.
- The queue has its own connection, used from a worker thread (a claim may wait for the
  write lock) and one operation at a time, so it never blocks the event loop or the
  store's own writer.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Final, TypeVar

import anyio
import anyio.to_thread

from ._errors import LeaseLostError, StoreUnavailableError
from ._events import Event, RunStarted
from ._resource import AsyncResource
from ._sqlite import SqliteStore
from ._sqlite_db import BUSY_TIMEOUT_MS

_T = TypeVar("_T")

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS queue (
    ord INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL UNIQUE,
    lease_owner TEXT,
    lease_until REAL,
    claims INTEGER NOT NULL DEFAULT 0
);
"""

_FREE: Final = """
SELECT q.run_id FROM queue AS q JOIN runs AS r ON r.run_id = q.run_id
WHERE r.status = 'running' AND (q.lease_until IS NULL OR q.lease_until < ?)
ORDER BY q.ord LIMIT 1
"""


class SqliteQueue(AsyncResource):
    """A `RunQueue` in a `SqliteStore`'s file. Closing it closes its connection, never the store."""

    def __init__(self, store: SqliteStore, *, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._path = store.path
        self._clock = clock
        self._busy = anyio.Lock()
        self._closed = False
        try:
            self._conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"cannot open the SQLite run queue {self._path}: {exc}") from None
        try:
            self._conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            self._conn.close()
            raise StoreUnavailableError(f"cannot open the SQLite run queue {self._path}: {exc}") from None

    @property
    def url(self) -> str:
        return self._store.url

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        async with self._busy:
            if self._closed:
                raise StoreUnavailableError(f"the SQLite run queue {self._path} is closed")
            try:
                return await anyio.to_thread.run_sync(work, self._conn)
            except sqlite3.Error as exc:
                raise StoreUnavailableError(f"SQLite run queue {self._path}: {exc}") from None

    async def enqueue(self, started: RunStarted) -> None:
        if self._closed:
            raise StoreUnavailableError(f"the SQLite run queue {self._path} is closed")

        def queue_it(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT OR IGNORE INTO queue (run_id) VALUES (?)", (started.run_id,))

        await self._store.append_with(started.run_id, [started], 0, queue_it)

    async def requeue(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        if self._closed:
            raise StoreUnavailableError(f"the SQLite run queue {self._path} is closed")

        def queue_it_free(conn: sqlite3.Connection) -> None:
            # Still queued (its worker has not released it yet): free it, so that the
            # holder's release, which names its owner, leaves it queued for everyone.
            conn.execute(
                "INSERT INTO queue (run_id) VALUES (?) "
                "ON CONFLICT (run_id) DO UPDATE SET lease_owner = NULL, lease_until = NULL",
                (run_id,),
            )

        await self._store.append_with(run_id, events, expected_seq, queue_it_free)

    async def claim(self, owner: str, ttl: timedelta) -> str | None:
        seconds = ttl.total_seconds()

        def claim(conn: sqlite3.Connection) -> str | None:
            now = self._clock()
            conn.execute("BEGIN IMMEDIATE")  # the write lock first: nobody claims between
            try:
                row = conn.execute(_FREE, (now,)).fetchone()
                if row is not None:
                    conn.execute(
                        "UPDATE queue SET lease_owner = ?, lease_until = ?, claims = claims + 1 "
                        "WHERE run_id = ?",
                        (owner, now + seconds, row[0]),
                    )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return None if row is None else str(row[0])

        return await self._run(claim)

    async def renew(self, run_id: str, owner: str, ttl: timedelta) -> None:
        seconds = ttl.total_seconds()

        def renew(conn: sqlite3.Connection) -> int:
            now = self._clock()
            return conn.execute(
                "UPDATE queue SET lease_until = ? WHERE run_id = ? AND lease_owner = ? AND lease_until > ?",
                (now + seconds, run_id, owner, now),
            ).rowcount

        if not await self._run(renew):
            raise LeaseLostError(run_id)

    async def release(self, run_id: str, owner: str, *, finished: bool) -> None:
        if finished:
            statement = "DELETE FROM queue WHERE run_id = ? AND lease_owner = ?"
        else:
            statement = (
                "UPDATE queue SET lease_owner = NULL, lease_until = NULL WHERE run_id = ? AND lease_owner = ?"
            )
        await self._run(lambda conn: conn.execute(statement, (run_id, owner)))

    async def queued(self) -> list[str]:
        rows = await self._run(
            lambda conn: conn.execute(
                "SELECT q.run_id FROM queue AS q JOIN runs AS r ON r.run_id = q.run_id "
                "WHERE r.status = 'running' ORDER BY q.ord"
            ).fetchall()
        )
        return [str(row[0]) for row in rows]

    async def aclose(self) -> None:
        with anyio.CancelScope(shield=True):
            async with self._busy:  # after the operation in flight, if any
                if not self._closed:
                    self._closed = True
                    self._conn.close()
