"""The SQLite store's file: its schema, opening connections (writable or read-only, checked),
the background checkpointer, and the classification of SQLite's errors.

Split from `_sqlite` (the store's appends, reads and subscriptions), which uses these.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final
from urllib.parse import quote

from ._errors import CorruptLogError, StoreUnavailableError

BUSY_TIMEOUT_MS: Final = 10_000

# The layout's version, in SQLite's own `PRAGMA user_version` (0: a file written before it
# was kept). A writable open upgrades an older file in place; a newer one is left as it is.
SCHEMA_VERSION: Final = 1  # 1: the `bodies` table (page bodies stored once, docs/architecture.md)

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
CREATE TABLE IF NOT EXISTS bodies (
    sha256 TEXT PRIMARY KEY,
    body BLOB NOT NULL
);
"""


# Each run with its last event (found through the (run_id, seq) index), oldest run first.
LIST_RUNS: Final = """
SELECT r.run_id, r.question, r.status, e.seq + 1, r.started_at,
       json_extract(CAST(e.body AS TEXT), '$.at')
FROM runs AS r
JOIN events AS e
  ON e.run_id = r.run_id AND e.seq = (SELECT MAX(seq) FROM events WHERE run_id = r.run_id)
ORDER BY r.rowid
"""


def connect(
    path: Path, synchronous: str, *, open_busy_ms: int, busy_ms: int, setup: bool
) -> sqlite3.Connection:
    """A writable connection (creating the file, WAL mode and the tables when `setup`)."""
    try:
        # isolation_level=None: the store issues BEGIN/COMMIT itself.
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreUnavailableError(f"cannot open SQLite store {path}: {exc}") from None
    try:
        # Opening waits for other processes' locks even when the writer's commits will
        # not: another process may be creating the file, switching it to WAL or
        # creating the tables right now (several `citeloop ask` at once).
        conn.execute(f"PRAGMA busy_timeout={open_busy_ms}")
        if setup:
            _retry_busy(lambda: _set_up(conn), open_busy_ms)
        conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
        conn.execute(f"PRAGMA busy_timeout={busy_ms}")
    except sqlite3.Error as exc:
        conn.close()
        raise StoreUnavailableError(
            f"cannot open SQLite store {path}: {exc} (is it a SQLite database?)"
        ) from None
    return conn


def connect_readonly(path: Path, *, busy_ms: int) -> sqlite3.Connection:
    """A read-only connection to an existing store, checked by `PRAGMA quick_check`.

    Never creates the file. SQLite may add its `-wal`/`-shm` side files beside a WAL
    database, which changes nothing stored. A corrupt page fails here, so a command
    that reads never reports a run cut short by damage as if it were whole.
    """
    if not path.is_file():
        raise StoreUnavailableError(f"no SQLite store at {path} (nothing has been recorded there)")
    try:
        conn = sqlite3.connect(
            f"file:{quote(str(path.absolute()))}?mode=ro",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error as exc:
        raise StoreUnavailableError(f"cannot open SQLite store {path}: {exc}") from None
    try:
        conn.execute(f"PRAGMA busy_timeout={busy_ms}")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"events", "runs"} <= tables:
            raise StoreUnavailableError(f"{path} is a SQLite database but not a citeloop store")
        problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check(5)")]
    except sqlite3.Error as exc:
        conn.close()
        if is_corrupt(exc):
            raise CorruptLogError(f"SQLite store {path} is corrupt: {exc}") from None
        raise StoreUnavailableError(
            f"cannot open SQLite store {path}: {exc} (is it a SQLite database?)"
        ) from None
    except BaseException:
        conn.close()
        raise
    if problems != ["ok"]:
        conn.close()
        raise CorruptLogError(f"SQLite store {path} is corrupt (PRAGMA quick_check): " + "; ".join(problems))
    return conn


class Checkpointer:
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
    """WAL mode and the tables, written only when missing or older (a second opener only reads).

    An older file gains the tables it lacks (`bodies`); its rows stay as they are, and read
    as before (an event stored whole needs nothing from `bodies`).
    """
    if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        conn.execute("PRAGMA journal_mode=WAL")
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if not {"events", "runs", "bodies"} <= tables or version < SCHEMA_VERSION:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
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
            if not is_busy(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(random.uniform(0.005, 0.05))


@contextlib.contextmanager
def read_errors(path: Path) -> Iterator[None]:
    """A failed read of the store at `path` as the store's error: corrupt, or unavailable."""
    try:
        yield
    except sqlite3.Error as exc:
        if is_corrupt(exc):
            raise CorruptLogError(f"SQLite store {path} is corrupt: {exc}") from None
        raise StoreUnavailableError(f"cannot read SQLite store {path}: {exc}") from None


def is_corrupt(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in str(exc)


class Busy(Exception):
    """Raised inside the store when an inline commit finds the write lock taken by another process."""


def is_busy(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or (
        "locked" in str(exc)
    )
