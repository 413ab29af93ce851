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
  a hop to a worker thread costs ≈ 180 µs (BENCH.md), which alone would spend the
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
import random
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Final, cast
from urllib.parse import quote

import anyio
import anyio.lowlevel
import anyio.to_thread
from pydantic import ValidationError

from ._chain import check_stored_chain
from ._errors import (
    ConcurrencyError,
    CorruptLogError,
    RunClosedError,
    StoreUnavailableError,
    StoreURLError,
    UsageError,
)
from ._events import TERMINAL_TYPES, Event, RunStarted, decode_events, encode_event
from ._grouping import GroupCommitter
from ._resource import AsyncResource
from ._store import RunStatus, RunSummary, StoredEvent, check_batch, status_after
from ._urls import file_url_parts

POLL_SECONDS: Final = 0.15
BUSY_TIMEOUT_MS: Final = 10_000
_PAGE: Final = 2_000  # rows per query when tailing the whole store
# A background checkpoint after this many commits or bytes of event bodies, whichever
# comes first: about SQLite's own default of 1,000 WAL pages (4 MB), since a small commit
# writes three or four whole pages (the events' leaf, their index's leaf, the runs').
_CHECKPOINT_COMMITS: Final = 300
_CHECKPOINT_BYTES: Final = 2_000_000

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    body BLOB NOT NULL,
    UNIQUE (run_id, seq)
);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    status TEXT NOT NULL,
    started_at TEXT NOT NULL
);
"""

# Each run with its last event (found through the (run_id, seq) index), oldest run first.
_LIST_RUNS: Final = """
SELECT r.run_id, r.question, r.status, e.seq + 1, r.started_at,
       json_extract(CAST(e.body AS TEXT), '$.at')
FROM runs AS r
JOIN events AS e
  ON e.run_id = r.run_id AND e.seq = (SELECT MAX(seq) FROM events WHERE run_id = r.run_id)
ORDER BY r.rowid
"""

# A statement run inside the transaction of the append that carries it (if it is accepted).
Extra = Callable[[sqlite3.Connection], object]
# (run_id, events, expected_seq, extra)
_Append = tuple[str, Sequence[Event], int, Extra | None]
_Results = Sequence[BaseException | None]

# Heads cached for runs still running; past this many the cache starts over (a run not in
# it costs one indexed read, as every run did before the cache).
_MAX_CACHED_HEADS: Final = 100_000


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
            self._reader = self._writer = self._connect_readonly()
        else:
            self._writer = self._connect(synchronous, busy_ms=busy_ms if self._full else 0, setup=True)
            self._reader = self._connect(synchronous, busy_ms=busy_ms, setup=False)
        self._checkpointer: _Checkpointer | None = None
        self._unchecked = 0  # body bytes committed since the last checkpoint request
        self._commits = 0  # commits since the last checkpoint request
        if not self._full and not readonly:  # at FULL the commit runs in a worker thread anyway
            self._writer.execute("PRAGMA wal_autocheckpoint=0")
        self._group: GroupCommitter[_Append] = GroupCommitter(self._commit)
        # The next seq of runs this connection wrote, valid while `data_version` still
        # equals `_version` (no other connection committed since our last commit).
        self._heads: dict[str, int] = {}
        self._version: int | None = None
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

    def _connect(self, synchronous: str, *, busy_ms: int, setup: bool) -> sqlite3.Connection:
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves.
            conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"cannot open SQLite store {self._path}: {exc}") from None
        try:
            # Opening waits for other processes' locks even when the writer's commits will
            # not: another process may be creating the file, switching it to WAL or
            # creating the tables right now (several `citeloop ask` at once).
            conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
            if setup:
                _retry_busy(lambda: _set_up(conn), self._busy_ms)
            conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
            conn.execute(f"PRAGMA busy_timeout={busy_ms}")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreUnavailableError(
                f"cannot open SQLite store {self._path}: {exc} (is it a SQLite database?)"
            ) from None
        return conn

    def _connect_readonly(self) -> sqlite3.Connection:
        """A read-only connection to an existing store, checked by `PRAGMA quick_check`.

        Never creates the file. SQLite may add its `-wal`/`-shm` side files beside a WAL
        database, which changes nothing stored. A corrupt page fails here, so a command
        that reads never reports a run cut short by damage as if it were whole.
        """
        if not self._path.is_file():
            raise StoreUnavailableError(f"no SQLite store at {self._path} (nothing has been recorded there)")
        try:
            conn = sqlite3.connect(
                f"file:{quote(str(self._path.absolute()))}?mode=ro",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"cannot open SQLite store {self._path}: {exc}") from None
        try:
            conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"events", "runs"} <= tables:
                raise StoreUnavailableError(f"{self._path} is a SQLite database but not a citeloop store")
            problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(5)")]
        except sqlite3.Error as exc:
            conn.close()
            if _is_corrupt(exc):
                raise CorruptLogError(f"SQLite store {self._path} is corrupt: {exc}") from None
            raise StoreUnavailableError(
                f"cannot open SQLite store {self._path}: {exc} (is it a SQLite database?)"
            ) from None
        except BaseException:
            conn.close()
            raise
        if problems != ["ok"]:
            conn.close()
            raise CorruptLogError(
                f"SQLite store {self._path} is corrupt (PRAGMA quick_check): " + "; ".join(problems)
            )
        return conn

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

    def _commit(self, batch: Sequence[_Append]) -> _Results | Awaitable[_Results]:
        self._check_open()
        # Encoding is pure CPU work; doing it here keeps the worker thread's share small.
        encoded = [[encode_event(e) for e in events] for _, events, _, _ in batch]
        if self._full:
            return self._commit_in_thread(batch, encoded)
        # Inline and synchronous: the results go back as they are, so the group committer
        # needs no cancel shield for this batch (nothing awaits, nothing can cancel it).
        try:
            results = self._write(batch, encoded, False)
        except _Busy:
            return self._commit_in_thread(batch, encoded)
        self._wake_subscribers()
        self._count_written(encoded)
        return results

    async def _commit_in_thread(self, batch: Sequence[_Append], encoded: list[list[bytes]]) -> _Results:
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
                    self._checkpointer = _Checkpointer(self._path)
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
        self, batch: Sequence[_Append], encoded: list[list[bytes]], may_wait: bool
    ) -> list[BaseException | None]:
        conn = self._writer
        try:
            if may_wait and not self._full:
                conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not may_wait and _is_busy(exc):
                    raise _Busy from None
                raise
            try:
                results = self._write_locked(conn, batch, encoded)
                conn.execute("COMMIT")
            except BaseException:
                self._version = None  # the cached heads may include this batch: drop them
                self._heads.clear()
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

    def _write_locked(
        self, conn: sqlite3.Connection, batch: Sequence[_Append], encoded: list[list[bytes]]
    ) -> list[BaseException | None]:
        # The head of every run in the batch, under the write lock: nothing else can append
        # between this read and our insert. A head this connection wrote is trusted when no
        # other connection has committed since (`data_version` unchanged: it moves on every
        # commit by another connection, in this process or another, never on our own);
        # the others are read from the events' own (run_id, seq) index.
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version or len(self._heads) > _MAX_CACHED_HEADS:
            self._heads.clear()
        self._version = version
        heads = self._heads
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
                first = events[0]
                question = first.question if isinstance(first, RunStarted) else ""
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

    # -- reading -------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
        self._check_open()
        try:
            return self._reader.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            if _is_corrupt(exc):
                raise CorruptLogError(f"SQLite store {self._path} is corrupt: {exc}") from None
            raise StoreUnavailableError(f"cannot read SQLite store {self._path}: {exc}") from None

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
        before = bodies.pop(0) if rows and rows[0][0] == after else None
        self._check_seqs(run_id, after, [row[0] for row in rows])
        events = self._decode(bodies, [(run_id, row[0]) for row in rows if cast(int, row[0]) > after])
        check_stored_chain(f"SQLite store {self._path}", run_id, events, bodies, before)
        return events

    async def runs(self) -> list[RunSummary]:
        await anyio.lowlevel.checkpoint()
        rows = self._query(_LIST_RUNS, ())
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

    async def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        last = after
        while True:
            wakeup = self._wakeup()
            await anyio.lowlevel.checkpoint()
            rows = self._query(
                "SELECT position, body FROM events WHERE position > ? ORDER BY position LIMIT ?",
                (last, _PAGE),
            )
            events = self._decode([cast(bytes, row[1]) for row in rows])
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


class _Checkpointer:
    """A thread that runs a PASSIVE WAL checkpoint on its own connection when asked."""

    def __init__(self, path: Path) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")  # RESTART waits its turn
        self._wanted = threading.Event()
        self._stopping = False
        # A daemon: a checkpoint cut short by the process's exit is harmless (SQLite
        # redoes it from the intact WAL).
        self._thread = threading.Thread(target=self._run, name="citeloop-sqlite-checkpoint", daemon=True)
        self._thread.start()

    def request(self) -> None:
        self._wanted.set()

    def _run(self) -> None:
        try:
            while True:
                self._wanted.wait()
                self._wanted.clear()
                if self._stopping:
                    return
                # PASSIVE first: it copies the bulk of the WAL without blocking writers.
                # But SQLite restarts the WAL from its beginning only when a writer starts
                # while every frame is copied, which steady writing never allows; so a
                # RESTART follows, holding the write lock just for the few frames written
                # meanwhile (an inline commit that meets it moves to a worker thread that
                # waits). On failure the WAL just grows until the next request.
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self._conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()
        finally:
            self._conn.close()

    def close(self) -> None:
        """Stop the thread, after the checkpoint it may be running (a few ms at most)."""
        self._stopping = True
        self._wanted.set()
        self._thread.join()


def _set_up(conn: sqlite3.Connection) -> None:
    """WAL mode and the tables, written only when missing (a second opener only reads)."""
    if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        conn.execute("PRAGMA journal_mode=WAL")
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"events", "runs"} <= tables:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def _retry_busy(step: Callable[[], None], busy_ms: int) -> None:
    """Run `step`, again while another process holds a lock it needs, for up to `busy_ms`.

    SQLite's busy handler does not cover every case (a journal-mode switch, a read
    transaction that must become a write one), so a concurrent creator is waited for here.
    """
    deadline = time.monotonic() + busy_ms / 1000
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(random.uniform(0.005, 0.05))


def _is_corrupt(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in str(exc)


class _Busy(Exception):
    """Raised inside the store when an inline commit finds the write lock taken by another process."""


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or (
        "locked" in str(exc)
    )
