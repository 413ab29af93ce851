"""The PostgreSQL store: many processes and machines share one log (psycopg 3, asyncio).

Design, and why (the SQL side is explained in `_postgres_schema`):

- **asyncio only.** psycopg's async API is built on asyncio; under trio every method
  raises `UsageError` saying so, instead of failing somewhere inside the driver.
- **Group commit.** Appends waiting at the same time go to the server as one call of the
  `append_batch` function (one round trip, one commit); each is checked separately, so a
  stale one fails alone with `ConcurrencyError` and nothing of it is written.
- **Durability** is the server's `synchronous_commit` (default `on`: acknowledged
  appends survive a server crash).
- **Tailing every run** reads only rows below the transaction-id horizon, so an append
  that commits after a later position was already visible is still delivered, once, in
  position order. `LISTEN/NOTIFY` wakes tailers early; they poll anyway every
  `poll` seconds, so a lost notification delays an event and never loses it. A tailer
  whose connection is lost (a server restart) connects again and reads on from the last
  position it delivered (`_postgres_tail`).
- One schema per store (`?schema=NAME`, default `citeloop`), created on first use.

URL: `postgresql://user[:password]@host[:port]/db?schema=citeloop&pool_size=10&poll=0.2`;
every other query parameter goes to libpq unchanged (for example `connect_timeout`).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any, Final, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import orjson

from ._bodies import cut_page, references, splice
from ._chain import check_stored_chain, encodings
from ._errors import ConcurrencyError, CorruptLogError, RunClosedError, StoreURLError
from ._events import TERMINAL_TYPES, Event, decode_events
from ._grouping import GroupCommitter
from ._postgres_db import PostgresDatabase, psycopg_modules
from ._postgres_tail import Follower
from ._redact import redact_text
from ._resource import AsyncResource
from ._store import RunStatus, RunSummary, StoredEvent, check_batch, run_started, status_after

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

DEFAULT_SCHEMA: Final = "citeloop"
_HEAD_POSITION: Final = (
    "SELECT coalesce(max(position), -1) FROM {events} WHERE xid < pg_snapshot_xmin(pg_current_snapshot())"
)
_PAGE: Final = 1_000  # rows per query when tailing
_OPTIONS: Final = ("schema", "pool_size", "poll", "notify")
_READ: Final = "SELECT body FROM {events} WHERE run_id = %s AND seq > %s ORDER BY seq"
# From seq `after` itself, whose stored bytes the next event names as `prev` (docs/events.md).
_READ_CHAINED: Final = "SELECT seq, body FROM {events} WHERE run_id = %s AND seq >= %s ORDER BY seq"
_BODIES: Final = "SELECT sha256, body FROM {bodies} WHERE sha256 = ANY(%s)"
_SCHEMA_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")

# (run_id, events, expected_seq, queued)
_Append = tuple[str, Sequence[Event], int, bool]


def redact(url: str) -> str:
    """`url` with its password and secret parameters replaced by `***` (safe to print and log)."""
    return redact_text(url, mask="***")


class PostgresStore(AsyncResource):
    """An `EventStore` in a PostgreSQL schema, shared safely by many processes."""

    def __init__(
        self,
        conninfo: str,
        *,
        schema: str = DEFAULT_SCHEMA,
        pool_size: int = 10,
        poll_seconds: float = 0.2,
        notify: bool = True,
        url: str | None = None,
        readonly: bool = False,
    ) -> None:
        psycopg_modules()
        if not _SCHEMA_NAME.fullmatch(schema):
            raise StoreURLError(f"bad schema name {schema!r}: letters, digits and _ only")
        self._db = PostgresDatabase(
            conninfo, schema=schema, pool_size=pool_size, url=redact(url or conninfo), readonly=readonly
        )
        self._poll = poll_seconds
        self._notify = notify
        self._group: GroupCommitter[_Append] = GroupCommitter(self._commit)

    @classmethod
    def from_url(cls, url: str, *, readonly: bool = False) -> PostgresStore:
        """Open `postgresql://user@host/db` (`?schema=`, `?pool_size=`, `?poll=`, `?notify=off`)."""
        parts = urlsplit(url)
        if parts.scheme not in ("postgresql", "postgres"):
            raise StoreURLError(f"expected a postgresql:// URL, got {redact(url)!r}")
        query = parse_qsl(parts.query, keep_blank_values=True)
        ours = {k: v for k, v in query if k in _OPTIONS}
        libpq = [(k, v) for k, v in query if k not in _OPTIONS]
        conninfo = urlunsplit(parts._replace(scheme="postgresql", query=urlencode(libpq)))
        psycopg, _ = psycopg_modules()
        try:
            psycopg.conninfo.conninfo_to_dict(conninfo)
            pool_size = int(ours.get("pool_size", "10"))
            poll = float(ours.get("poll", "0.2"))
        except (psycopg.ProgrammingError, ValueError) as exc:
            raise StoreURLError(f"bad PostgreSQL URL {redact(url)!r}: {exc}") from None
        if pool_size < 1 or poll <= 0:
            raise StoreURLError(f"bad PostgreSQL URL {redact(url)!r}: pool_size and poll must be positive")
        notify = ours.get("notify", "on").lower() not in ("off", "false", "0", "no")
        return cls(
            conninfo,
            schema=ours.get("schema", DEFAULT_SCHEMA),
            pool_size=pool_size,
            poll_seconds=poll,
            notify=notify,
            url=url,
            readonly=readonly,
        )

    @property
    def url(self) -> str:
        return self._db.url

    @property
    def schema(self) -> str:
        """The PostgreSQL schema holding this store's tables."""
        return self._db.schema

    @property
    def database(self) -> PostgresDatabase:
        """The connections this store works through (its run queue shares them)."""
        return self._db

    async def connect(self) -> AsyncConnection[Any]:
        """A new autocommit connection of this store's (the caller closes it)."""
        return await self._db.connect()

    async def pool(self) -> AsyncConnectionPool[Any]:
        """The connection pool, opened (and the schema created) on first use."""
        return await self._db.pool()

    def table(self, name: str) -> Any:
        """`schema.name` as a psycopg SQL identifier, for queries on this store's tables."""
        return self._db.table(name)

    # -- writing -------------------------------------------------------------------

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        self._db.check_usable()
        self._db.check_writable()
        check_batch(run_id, events, expected_seq)
        await self._group.submit((run_id, events, expected_seq, False))

    async def append_and_queue(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        """Append as `append` does, and put the run in the `queue` table (free), in one transaction.

        The append function's `queued` flag does it: it inserts the run's queue row, or
        drops the lease of the row already there. `PostgresQueue.enqueue` and `requeue`
        are the callers.
        """
        self._db.check_usable()
        self._db.check_writable()
        check_batch(run_id, events, expected_seq)
        await self._group.submit((run_id, events, expected_seq, True))

    async def _commit(self, batch: Sequence[_Append]) -> Sequence[BaseException | None]:
        results: list[BaseException | None] = [None] * len(batch)
        # One round of the function sees each run at most once (its check reads the runs
        # table once); a second append to the same run in this batch waits for the next round.
        todo = list(range(len(batch)))
        while todo:
            first: dict[str, int] = {}
            round_: list[int] = []
            same: list[tuple[int, int]] = []  # (index, index of the earlier append it races)
            later: list[int] = []
            for index in todo:
                run_id, _, expected, _ = batch[index]
                if run_id not in first:
                    first[run_id] = index
                    round_.append(index)
                elif batch[first[run_id]][2] == expected:
                    same.append((index, first[run_id]))
                else:
                    later.append(index)
            outcomes = await self._call_append([batch[i] for i in round_])
            for index, outcome in zip(round_, outcomes, strict=True):
                results[index] = outcome
            # Two appends naming the same seq of one run: whatever happened to the first,
            # the run is no longer at that seq, so the second conflicts without a round trip.
            for index, winner in same:
                run_id, events, expected, _ = batch[winner]
                earlier = results[winner]
                done = expected + len(events)
                actual = earlier.actual_seq if isinstance(earlier, ConcurrencyError) else done
                if isinstance(earlier, RunClosedError):
                    results[index] = RunClosedError(run_id)
                else:
                    results[index] = ConcurrencyError(run_id, batch[index][2], actual)
            todo = later
        return results

    async def _call_append(self, batch: Sequence[_Append]) -> list[BaseException | None]:
        runs, expected, questions, statuses, started, updated, queued = [], [], [], [], [], [], []
        ev_index, ev_seq, ev_type, ev_body = [], [], [], []
        # Page bodies stored once (`_bodies`): a page event's row goes without its body.
        ev_digest: list[str | None] = []
        ev_page: list[str | None] = []
        for i, (run_id, events, exp, queue) in enumerate(batch, start=1):
            first = events[0]
            runs.append(run_id)
            expected.append(exp)
            started_by = run_started(events)  # a run's first batch; a later one names no question
            questions.append(orjson.dumps(started_by.question if started_by is not None else "").decode())
            statuses.append(status_after(events))
            started.append(first.at)
            updated.append(events[-1].at)
            queued.append(queue)
            for event, body in zip(events, encodings(events), strict=True):
                ev_index.append(i)
                ev_seq.append(event.seq)
                ev_type.append(event.type)
                page = cut_page(event, body) if event.type == "ToolObserved" else None
                ev_body.append((body if page is None else page.row).decode())
                ev_digest.append(None if page is None else page.digest)
                ev_page.append(None if page is None else page.body.decode())
        query = self._db.query(
            "append",
            # Binary parameters (%b): dumping 1,000 JSON bodies as a text array costs ~150x more.
            "SELECT {fn}(%b::text[], %b::bigint[], %b::text[], %b::text[], %b::timestamptz[], "
            "%b::timestamptz[], %b::boolean[], %b::integer[], %b::bigint[], %b::text[], %b::text[], %b, "
            "%b::text[], %b::text[])",
        )
        paged = any(digest is not None for digest in ev_digest)
        params = (
            *(runs, expected, questions, statuses, started, updated, queued),
            *(ev_index, ev_seq, ev_type, ev_body, self._notify),
            *((ev_digest, ev_page) if paged else (None, None)),
        )
        psycopg, _ = psycopg_modules()
        pool = await self._db.pool()
        try:
            with self._db.translate():
                async with pool.connection() as conn:
                    cursor = await conn.execute(query, params, prepare=True)
                    row = await cursor.fetchone()
        except psycopg.errors.UniqueViolation:
            # Someone wrote around the function (the per-run lock makes this unreachable
            # otherwise). Retry one by one so that only the offending append fails.
            if len(batch) > 1:
                out: list[BaseException | None] = []
                for item in batch:
                    out.extend(await self._call_append([item]))
                return out
            run_id, _, exp, _ = batch[0]
            return [ConcurrencyError(run_id, exp, await self._next_seq(run_id))]
        actual = cast(list[int], row[0]) if row else []
        return [
            None
            if seen == -1
            else RunClosedError(item[0])
            if seen == -2
            else ConcurrencyError(item[0], item[2], seen)
            for item, seen in zip(batch, actual, strict=True)
        ]

    async def _next_seq(self, run_id: str) -> int:
        rows = await self._db.fetch("next_seq", "SELECT next_seq FROM {runs} WHERE run_id = %s", (run_id,))
        return int(rows[0][0]) if rows else 0

    # -- reading -------------------------------------------------------------------

    async def _restore(self, rows: list[bytes], follower: Follower | None = None) -> None:
        """Page bodies stored once, spliced back into the rows read (in place).

        A subscription asks through its follower, which outlives a lost connection.
        """
        refs = references(rows)
        if not refs:
            return
        params = (list(set(refs.values())),)
        if follower is None:
            found = await self._db.fetch("bodies", _BODIES, params)
        else:
            found = await follower.fetch(self._db.query("bodies", _BODIES), params, wait_first=False)
        splice(rows, refs, {digest: body for digest, body in found}, f"PostgreSQL store {self.url}")

    def _decode(self, rows: list[bytes]) -> list[Event]:
        try:
            return decode_events(rows)
        except ValueError as exc:
            raise CorruptLogError(f"PostgreSQL store {self.url}: undecodable event ({exc})") from None

    async def read(self, run_id: str, after: int = -1) -> list[Event]:
        # `body` is `json`, which keeps the text as written: the bytes hashed are encode_event's.
        rows = await self._db.fetch("read_chained", _READ_CHAINED, (run_id, after))
        bodies: list[bytes] = [row[1] for row in rows]
        await self._restore(bodies)
        before = bodies.pop(0) if rows and rows[0][0] == after else None
        events = self._decode(bodies)
        check_stored_chain(f"PostgreSQL store {self.url}", run_id, events, bodies, before)
        return events

    async def runs(self) -> list[RunSummary]:
        rows = await self._db.fetch(
            "runs",
            "SELECT run_id, question, status, next_seq, started_at, updated_at FROM {runs} ORDER BY ord",
            (),
        )
        return [
            RunSummary(
                run_id=run_id,
                question=orjson.loads(question),
                status=cast(RunStatus, status),
                events=int(count),
                started_at=started,
                updated_at=updated,
            )
            for run_id, question, status, count, started, updated in rows
        ]

    async def _wait(self, conn: AsyncConnection[Any]) -> None:
        """Until a notification or the poll interval, whichever comes first."""
        with self._db.translate():
            async for _ in conn.notifies(timeout=self._poll, stop_after=1):
                pass

    async def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        # Per run, positions need no horizon: an append to a run waits for the previous
        # one's commit (the run lock), so seq k visible implies every seq below it is.
        # A lost connection is made again and read on from `last` (`_postgres_tail`).
        last = after
        idle = False
        async with Follower(self._db, self._wait) as follower:
            while True:
                rows = await follower.fetch(self._db.query("read", _READ), (run_id, last), wait_first=idle)
                bodies: list[bytes] = [row[0] for row in rows]
                await self._restore(bodies, follower)
                for event in self._decode(bodies):
                    last = event.seq
                    yield event
                    if event.type in TERMINAL_TYPES:
                        return
                idle = not rows

    async def head_position(self) -> int:
        # Only rows a tailer may return now (finished transactions: see subscribe_all); a row
        # still in flight has a higher position, so following from here misses nothing.
        rows = await self._db.fetch("head", _HEAD_POSITION, ())
        return int(rows[0][0])

    async def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        last = after
        idle = False
        query = self._db.query(
            "tail",
            "SELECT position, body FROM {events} "
            "WHERE position > %s AND xid < pg_snapshot_xmin(pg_current_snapshot()) "
            "ORDER BY position LIMIT %s",
        )
        async with Follower(self._db, self._wait) as follower:
            while True:
                rows = await follower.fetch(query, (last, _PAGE), wait_first=idle)
                bodies: list[bytes] = [row[1] for row in rows]
                await self._restore(bodies, follower)
                events = self._decode(bodies)
                for (position, _), event in zip(rows, events, strict=True):
                    last = int(position)
                    yield StoredEvent(last, event)
                idle = len(rows) < _PAGE

    # -- lifetime ------------------------------------------------------------------

    async def aclose(self) -> None:
        if self._db.closed:
            return
        await self._group.wait_idle()
        await self._db.close()
