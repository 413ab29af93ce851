"""`open_store(url)` and `open_queue(store)`: the one place mapping a URL to a store, a store to its queue."""

from __future__ import annotations

from urllib.parse import urlsplit

from ._errors import StoreURLError, UsageError
from ._memory import MemoryStore
from ._queue import RunQueue
from ._store import EventStore

SCHEMES = ("memory", "jsonl", "sqlite", "postgresql")


def open_store(url: str, *, readonly: bool = False) -> EventStore:
    """Open the store a URL names.

    `memory://`, `jsonl:///log.jsonl`, `sqlite:///runs.db` (`?synchronous=full` for an
    fsync on every commit, `?busy_timeout=MS` for how long a writer waits for another
    process's lock), `postgresql://user@host/db`. As in SQLAlchemy, three slashes start a
    path relative to the working folder and four an absolute one.

    `readonly=True` (for commands that only read) never creates or modifies anything: a
    missing file or schema is `StoreUnavailableError`, a JSONL torn tail is read around
    and left in place, SQLite's `quick_check` runs on open, and appends are refused.
    """
    scheme = urlsplit(url).scheme
    store: EventStore
    if scheme == "memory":
        return MemoryStore()
    if scheme == "jsonl":
        from ._jsonl import JsonlStore

        store = JsonlStore.from_url(url, readonly=readonly)
        return store
    if scheme == "sqlite":
        from ._sqlite import SqliteStore

        store = SqliteStore.from_url(url, readonly=readonly)
        return store
    if scheme in ("postgresql", "postgres"):
        from ._postgres import PostgresStore

        store = PostgresStore.from_url(url, readonly=readonly)
        return store
    raise StoreURLError(
        f"unknown store URL {url!r}: expected one of " + ", ".join(f"{s}://..." for s in SCHEMES)
    )


def open_queue(store: EventStore) -> RunQueue:
    """The run queue that lives beside `store`'s log, for `submit` and workers.

    SQLite stores (workers on one machine) and PostgreSQL stores (workers anywhere) have
    one. The memory and JSONL stores do not: a memory store dies with its one process,
    and a JSONL file is locked by its one writer process, so no second process could
    submit to it or work on it. Closing the queue leaves the store open.
    """
    from ._postgres import PostgresStore
    from ._sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        from ._sqlite_queue import SqliteQueue

        return SqliteQueue(store)
    if isinstance(store, PostgresStore):
        from ._postgres_queue import PostgresQueue

        return PostgresQueue(store)
    raise UsageError(
        f"the store {store.url} has no run queue: submit and workers need a sqlite:// store "
        "(one machine) or a postgresql:// store (many)"
    )
