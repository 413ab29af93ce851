"""The PostgreSQL run queue: leases in the store's `queue` table, claimed with `FOR UPDATE SKIP LOCKED`.

The table lives in the store's schema (`_postgres_schema`), beside the log: a run is
queued (or requeued) by the same call of the append function that appends its events, and a
claim joins the `runs` table so that a finished run is never handed out. Leases run on
the server's clock (`now()`), so workers on machines with different clocks agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ._errors import LeaseLostError
from ._events import Event, RunStarted
from ._postgres import PostgresStore
from ._resource import AsyncResource


class PostgresQueue(AsyncResource):
    """A `RunQueue` on a `PostgresStore`'s schema, sharing the store's pool (the store owns it)."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self._db = store.database

    @property
    def url(self) -> str:
        return self._store.url

    async def enqueue(self, started: RunStarted) -> None:
        await self._store.append_and_queue(started.run_id, [started], 0)

    async def requeue(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        await self._store.append_and_queue(run_id, events, expected_seq)

    async def claim(self, owner: str, ttl: timedelta) -> str | None:
        rows = await self._db.fetch(
            "claim",
            "UPDATE {queue} AS q SET lease_owner = %s, lease_until = now() + %s, claims = q.claims + 1 "
            "WHERE q.run_id = ("
            "  SELECT q2.run_id FROM {queue} AS q2 JOIN {runs} AS r ON r.run_id = q2.run_id"
            "  WHERE r.status = 'running' AND (q2.lease_until IS NULL OR q2.lease_until < now())"
            "  ORDER BY q2.ord LIMIT 1 FOR UPDATE OF q2 SKIP LOCKED"
            ") RETURNING q.run_id",
            (owner, ttl),
        )
        return str(rows[0][0]) if rows else None

    async def renew(self, run_id: str, owner: str, ttl: timedelta) -> None:
        rows = await self._db.fetch(
            "renew",
            "UPDATE {queue} SET lease_until = now() + %s "
            "WHERE run_id = %s AND lease_owner = %s AND lease_until > now() RETURNING 1",
            (ttl, run_id, owner),
        )
        if not rows:
            raise LeaseLostError(run_id)

    async def release(self, run_id: str, owner: str, *, finished: bool) -> None:
        if finished:
            await self._db.fetch(
                "release_done",
                "DELETE FROM {queue} WHERE run_id = %s AND lease_owner = %s RETURNING 1",
                (run_id, owner),
            )
        else:
            await self._db.fetch(
                "release",
                "UPDATE {queue} SET lease_owner = NULL, lease_until = NULL "
                "WHERE run_id = %s AND lease_owner = %s RETURNING 1",
                (run_id, owner),
            )

    async def queued(self) -> list[str]:
        rows = await self._db.fetch(
            "queued",
            "SELECT q.run_id FROM {queue} AS q JOIN {runs} AS r ON r.run_id = q.run_id "
            "WHERE r.status = 'running' ORDER BY q.ord",
            (),
        )
        return [str(row[0]) for row in rows]

    async def aclose(self) -> None:
        """Nothing of the queue's own to release: the pool is the store's."""
