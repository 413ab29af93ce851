"""`open_store(url)`: the one place that maps a store URL to a store."""

from __future__ import annotations

from urllib.parse import urlsplit

from ._errors import StoreURLError
from ._memory import MemoryStore
from ._store import EventStore

SCHEMES = ("memory", "jsonl", "sqlite", "postgresql")


def open_store(url: str) -> EventStore:
    """Open the store a URL names.

    `memory://`, `jsonl:///log.jsonl`, `sqlite:///runs.db` (`?synchronous=full` for an
    fsync on every commit), `postgresql://user@host/db`. As in SQLAlchemy, three slashes
    start a path relative to the working folder and four an absolute one.
    """
    scheme = urlsplit(url).scheme
    store: EventStore
    if scheme == "memory":
        return MemoryStore()
    if scheme == "jsonl":
        from ._jsonl import JsonlStore

        store = JsonlStore.from_url(url)
        return store
    if scheme == "sqlite":
        from ._sqlite import SqliteStore

        store = SqliteStore.from_url(url)
        return store
    if scheme in ("postgresql", "postgres"):
        from ._postgres import PostgresStore

        store = PostgresStore.from_url(url)
        return store
    raise StoreURLError(
        f"unknown store URL {url!r}: expected one of "
        + ", ".join(f"{s}://..." for s in SCHEMES)
    )
