"""The SQLite store: the embedded default (WAL, group commit, `(run_id, seq)` unique).

Design, and why:

- **Tables**: `events(position INTEGER PRIMARY KEY, run_id, seq, type, body, UNIQUE(run_id,
  seq))` (events are never deleted, so a new position is always above every earlier one and
  `subscribe_all` can resume from one; no AUTOINCREMENT, whose `sqlite_sequence` row is one
  more page written and checkpointed per commit, ≈ 15 µs of a ≈ 60 µs commit) and
  `runs(run_id, question, status, started_at)`, written in the same transaction as the
  events, but only when a run starts or ends: its event count and last update are read
  off the events when listing, so a typical append is pure inserts.
- **WAL** with writes in `BEGIN IMMEDIATE`, so a writer takes the write lock before it
  reads each run's last seq (from the `(run_id, seq)` index): the expected-seq check and
  the insert are one atomic step even when another *process* writes the same file. The
  heads this connection wrote are cached and trusted only while `PRAGMA data_version`
  (read under the write lock) shows that no other connection has committed since.
- **Durability**: `synchronous=NORMAL` by default (a commit survives a process crash; a
  power loss may lose the last commits, never corrupt the file); `?synchronous=full`
  fsyncs every commit.
- **Group commit without a background task** (`_grouping.GroupCommitter`): waiting
  appends are committed in ONE transaction, each checked separately, so a stale one
  fails alone with `ConcurrencyError` and writes nothing of itself.
- **Where commits run**: at NORMAL a commit costs a few tens of µs with no fsync, while
  a hop to a worker thread costs ≈ 180 µs (docs/benchmarks.md), which alone would spend the
  per-step budget; so the commit runs inline on the event-loop thread. At FULL the fsync
  dominates and the batch runs in `anyio.to_thread.run_sync`, while new appends queue up
  and form the next batch. Inline commits use `busy_timeout=0`; if another process holds
  the write lock, the batch is retried in a worker thread that may wait for it.
- **Checkpoints** (copying the WAL back into the database, with two fsyncs) cost ≈ 60 µs
  per commit on average when SQLite runs them inside the committing call, i.e. on the
  event loop. At NORMAL the writer's auto-checkpoint is off and a thread of the store's
  own runs a PASSIVE checkpoint (which never blocks writers) on its own connection after
  every `_CHECKPOINT_BYTES` written, in parallel with the loop.
- **Reads** run inline on a second connection (WAL readers see committed data only and
  are not blocked by the writer).
- **Subscriptions** wake on appends made through this object, and poll every
  `POLL_SECONDS` so that a writer in another process is seen too.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Final, cast

import anyio
import anyio.lowlevel
import anyio.to_thread
from pydantic import ValidationError

from ._chain import check_stored_chain, encodings
from ._errors import (
    CorruptLogError,
    StoreUnavailableError,
    StoreURLError,
    UsageError,
)
from ._events import TERMINAL_TYPES, Event, decode_events
from ._grouping import GroupCommitter
from ._resource import AsyncResource
from ._sqlite_batch import Append, Extra, HeadCheckedWriter, Results
from ._sqlite_bodies import cut, insert, restore
from ._sqlite_db import (
    BUSY_TIMEOUT_MS,
    LIST_RUNS,
    Busy,
    Checkpointer,
    connect,
    connect_readonly,
    is_busy,
    read_errors,
)
from ._store import RunStatus, RunSummary, StoredEvent, check_batch
from ._urls import file_url_parts

POLL_SECONDS: Final = 0.15
_PAGE: Final = 2_000  # rows per query when tailing the whole store
# A background checkpoint after this many commits or bytes of event bodies, whichever
# comes first: about SQLite's own default of 1,000 WAL pages (4 MB), since a small commit
# writes three or four whole pages (the events' leaf, their index's leaf, the runs').
_CHECKPOINT_COMMITS: Final = 300
_CHECKPOINT_BYTES: Final = 2_000_000


class SqliteStore(AsyncResource):
    """An `EventStore` in one SQLite file. Several processes may share the file."""

    def __init__(
        self,
        path: Path,
        *,
        synchronous: str = "normal",
        url: str | None = None,
        readonly: bool = False,
        busy_ms: int = BUSY_TIMEOUT_MS,
    ) -> None:
        if synchronous not in ("normal", "full"):
            raise StoreURLError(f"synchronous must be 'normal' or 'full', not {synchronous!r}")
        self._path = path
        self._url = url or f"sqlite:///{path}"
        self._full = synchronous == "full"
        self._readonly = readonly
        self._busy_ms = busy_ms
        if readonly:
            # One connection that cannot write; `_writer` is the same one, and never used.
            self._reader = self._writer = connect_readonly(path, busy_ms=busy_ms)
        else:
            self._writer = connect(
                path, synchronous, open_busy_ms=busy_ms, busy_ms=busy_ms if self._full else 0, setup=True
            )
            self._reader = connect(path, synchronous, open_busy_ms=busy_ms, busy_ms=busy_ms, setup=False)
        self._checkpointer: Checkpointer | None = None
        self._unchecked = 0  # body bytes committed since the last checkpoint request
        self._commits = 0  # commits since the last checkpoint request
        if not self._full and not readonly:  # at FULL the commit runs in a worker thread anyway
            self._writer.execute("PRAGMA wal_autocheckpoint=0")
        self._group: GroupCommitter[Append] = GroupCommitter(self._commit)
        self._batches = HeadCheckedWriter()
        self._appended: anyio.Event | None = None
        self._closed = False

    @classmethod
    def from_url(cls, url: str, *, readonly: bool = False) -> SqliteStore:
        """Open `sqlite:///relative.db` or `sqlite:////absolute.db` (`?synchronous=`, `?busy_timeout=`)."""
        path, options = file_url_parts(url, "sqlite")
        unknown = set(options) - {"synchronous", "busy_timeout"}
        if unknown:
            raise StoreURLError(f"unknown option(s) {sorted(unknown)} in {url!r}")
        busy = options.get("busy_timeout", str(BUSY_TIMEOUT_MS))
        if not busy.isdigit():
            raise StoreURLError(f"busy_timeout must be a number of milliseconds, not {busy!r}, in {url!r}")
        return cls(
            path,
            synchronous=options.get("synchronous", "normal"),
            url=url,
            readonly=readonly,
            busy_ms=int(busy),
        )

    @property
    def url(self) -> str:
        return self._url

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    @property
    def synchronous(self) -> str:
        """The durability setting: 'normal' or 'full'."""
        return "full" if self._full else "normal"

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError(f"the SQLite store {self._path} is closed")

    def _check_writable(self) -> None:
        if self._readonly:
            raise UsageError(f"the SQLite store {self._path} was opened read-only")

    # -- writing -------------------------------------------------------------------

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        self._check_open()
        self._check_writable()
        check_batch(run_id, events, expected_seq)
        await self._group.submit((run_id, events, expected_seq, None))

    async def append_with(
        self, run_id: str, events: Sequence[Event], expected_seq: int, extra: Extra
    ) -> None:
        """Append as `append` does, and run `extra` on the write connection in the same transaction.

        `extra` runs only when the batch is accepted, after its events are inserted; it is
        how a table beside the log (the run queue's) changes atomically with it.
        """
        self._check_open()
        self._check_writable()
        check_batch(run_id, events, expected_seq)
        await self._group.submit((run_id, events, expected_seq, extra))

    def _commit(self, batch: Sequence[Append]) -> Results | Awaitable[Results]:
        self._check_open()
        # Encoding is pure CPU work; doing it here keeps the worker thread's share small.
        encoded = [encodings(events) for _, events, _, _ in batch]
        if self._full:
            return self._commit_in_thread(batch, encoded)
        # Inline and synchronous: the results go back as they are, so the group committer
        # needs no cancel shield for this batch (nothing awaits, nothing can cancel it).
        try:
            results = self._write(batch, encoded, False)
        except Busy:
            return self._commit_in_thread(batch, encoded)
        self._wake_subscribers()
        self._count_written(encoded)
        return results

    async def _commit_in_thread(self, batch: Sequence[Append], encoded: list[list[bytes]]) -> Results:
        results = await anyio.to_thread.run_sync(self._write, batch, encoded, True)
        self._wake_subscribers()
        if not self._full:
            self._count_written(encoded)
        return results

    def _count_written(self, encoded: list[list[bytes]]) -> None:
        self._unchecked += sum(len(body) for bodies in encoded for body in bodies)
        self._commits += 1
        if self._unchecked >= _CHECKPOINT_BYTES or self._commits >= _CHECKPOINT_COMMITS:
            self._unchecked = self._commits = 0
            if self._checkpointer is None:
                try:
                    self._checkpointer = Checkpointer(self._path)
                except (sqlite3.Error, RuntimeError):
                    # No connection or thread to spare: back to SQLite's own checkpoints
                    # (its default of 1,000 pages), and never ask again. The batch itself
                    # is committed, so nothing here may raise.
                    with contextlib.suppress(sqlite3.Error):
                        self._writer.execute("PRAGMA wal_autocheckpoint=1000")
                    self._unchecked = self._commits = -(2**62)
                    return
            self._checkpointer.request()

    def _wake_subscribers(self) -> None:
        wakeup, self._appended = self._appended, None
        if wakeup is not None:
            wakeup.set()

    def _write(
        self, batch: Sequence[Append], encoded: list[list[bytes]], may_wait: bool
    ) -> list[BaseException | None]:
        conn = self._writer
        try:
            if may_wait and not self._full:
                conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not may_wait and is_busy(exc):
                    raise Busy from None
                raise
            try:
                # Page bodies stored once (`_sqlite_bodies`): each page event's row without
                # its body, and the bodies not stored yet, inserted for accepted appends only.
                rows, needs = cut(conn, batch, encoded)
                results = self._batches.write(conn, batch, rows)
                insert(conn, needs, results)
                conn.execute("COMMIT")
            except BaseException:
                self._batches.forget()  # the cached heads may include this batch
                conn.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError as exc:
            raise CorruptLogError(
                f"SQLite store {self._path}: a constraint failed where none can ({exc})"
            ) from None
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"cannot write SQLite store {self._path}: {exc}") from None
        finally:
            if may_wait and not self._full:
                conn.execute("PRAGMA busy_timeout=0")
        return results

    # -- reading -------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
        self._check_open()
        with read_errors(self._path):
            return self._reader.execute(sql, params).fetchall()

    def _restore(self, rows: list[bytes]) -> None:
        """Page bodies stored once, spliced back into the rows read (in place)."""
        with read_errors(self._path):
            restore(self._reader, rows, f"SQLite store {self._path}")

    def _decode(self, rows: list[bytes], keys: Sequence[tuple[object, object]] = ()) -> list[Event]:
        """Decode bodies; an undecodable one is named by its (run, seq) from `keys`, not dumped."""
        try:
            return decode_events(rows)
        except ValueError:
            pass
        for index, body in enumerate(rows):
            try:
                decode_events([body])
            except ValueError as exc:
                where = "an event"
                if index < len(keys):
                    where = f"run {keys[index][0]!r} seq {keys[index][1]}"
                reason = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else type(exc).__name__
                raise CorruptLogError(
                    f"SQLite store {self._path}: {where} cannot be decoded ({reason})"
                ) from None
        raise CorruptLogError(f"SQLite store {self._path}: undecodable events")

    def _check_seqs(self, run_id: str, after: int, seqs: Sequence[object]) -> None:
        """A read that skips a seq (0, 1, 5) is damage, never a shorter run."""
        expected = after + 1
        for seq in seqs:
            if cast(int, seq) <= after:
                continue
            if seq != expected:
                raise CorruptLogError(
                    f"SQLite store {self._path}: run {run_id!r} jumps from seq {expected - 1} to seq {seq} "
                    "(rows are missing: the database is damaged)"
                )
            expected += 1

    async def read(self, run_id: str, after: int = -1) -> list[Event]:
        await anyio.lowlevel.checkpoint()
        # From seq `after` itself: its stored bytes are what the first event returned must
        # name as `prev` (the chain, docs/events.md); it is hashed, not decoded.
        rows = self._query(
            "SELECT seq, body FROM events WHERE run_id = ? AND seq >= ? ORDER BY seq", (run_id, after)
        )
        bodies = [cast(bytes, row[1]) for row in rows]
        self._restore(bodies)
        before = bodies.pop(0) if rows and rows[0][0] == after else None
        self._check_seqs(run_id, after, [row[0] for row in rows])
        events = self._decode(bodies, [(run_id, row[0]) for row in rows if cast(int, row[0]) > after])
        check_stored_chain(f"SQLite store {self._path}", run_id, events, bodies, before)
        return events

    async def runs(self) -> list[RunSummary]:
        await anyio.lowlevel.checkpoint()
        rows = self._query(LIST_RUNS, ())
        return [
            RunSummary(
                run_id=cast(str, run_id),
                question=cast(str, question),
                status=cast(RunStatus, status),
                events=cast(int, count),
                started_at=datetime.fromisoformat(cast(str, started)),
                updated_at=datetime.fromisoformat(cast(str, updated)),
            )
            for run_id, question, status, count, started, updated in rows
        ]

    def _wakeup(self) -> anyio.Event:
        if self._appended is None:
            self._appended = anyio.Event()
        return self._appended

    async def _wait(self, wakeup: anyio.Event) -> None:
        with anyio.move_on_after(POLL_SECONDS):
            await wakeup.wait()

    async def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        last = after
        while True:
            wakeup = self._wakeup()  # taken before reading, so no append slips between
            for event in await self.read(run_id, last):
                last = event.seq
                yield event
                if event.type in TERMINAL_TYPES:
                    return
            await self._wait(wakeup)

    async def head_position(self) -> int:
        await anyio.lowlevel.checkpoint()
        (row,) = self._query("SELECT coalesce(max(position), -1) FROM events", ())
        return cast(int, row[0])

    async def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        last = after
        while True:
            wakeup = self._wakeup()
            await anyio.lowlevel.checkpoint()
            rows = self._query(
                "SELECT position, body FROM events WHERE position > ? ORDER BY position LIMIT ?",
                (last, _PAGE),
            )
            bodies = [cast(bytes, row[1]) for row in rows]
            self._restore(bodies)
            events = self._decode(bodies)
            for (position, _), event in zip(rows, events, strict=True):
                last = cast(int, position)
                yield StoredEvent(last, event)
            if len(rows) < _PAGE:
                await self._wait(wakeup)

    # -- lifetime ------------------------------------------------------------------

    async def aclose(self) -> None:
        if self._closed:
            return
        await self._group.wait_idle()
        self._closed = True
        if self._checkpointer is not None:
            self._checkpointer.close()
        self._writer.close()
        self._reader.close()
        wakeup, self._appended = self._appended, None
        if wakeup is not None:
            wakeup.set()
