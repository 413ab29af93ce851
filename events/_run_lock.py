"""One driver per run at a time: a lock per run, held by whoever drives it, per store kind.

Appends name the seq they expect, so two drivers can never both *write* a step; but a
second process resuming a run while the first is still inside a tool call would take
the missing observation for a crash — record `ToolOutcomeUnknown`, or run a read-only
tool a second time at once. A run lock closes that gap: `run` and `resume` hold it
while they drive, and a second holder gets `RunBusyError` at once.

Per store kind:
- SQLite: a byte-range lock (`fcntl.lockf`) in a side file `<db>-runlocks`, at an
  offset derived from the run id. The kernel drops it when the process dies, so a
  crashed driver never leaves a run locked.
- PostgreSQL: a session-level advisory lock on one connection the store keeps for its
  locks; a lost session (a dead process, a restarted server) releases it.
- JSONL: only one process can write a JSONL log at all (the file is flocked), so the
  process-local registry below is enough. Memory: the same.
A lock held by another task of the same process is seen in a process-wide registry,
since byte-range and advisory locks are per process or per session.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import anyio

from ._errors import RunBusyError, StoreUnavailableError

if TYPE_CHECKING:
    from ._postgres import PostgresStore


class RunLock(Protocol):
    """Holds runs for one driver at a time."""

    def hold(self, run_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold `run_id` for the duration of the block; `RunBusyError` when someone else holds it."""
        ...

    async def aclose(self) -> None:
        """Release what the lock keeps open (a file, a connection). Idempotent."""
        ...


_registry_guard = threading.Lock()
_held_here: set[tuple[str, str]] = set()


@contextlib.contextmanager
def _held_in_process(scope: str, run_id: str) -> Any:
    key = (scope, run_id)
    with _registry_guard:
        if key in _held_here:
            raise RunBusyError(f"run {run_id!r} is being driven by another task of this process")
        _held_here.add(key)
    try:
        yield
    finally:
        with _registry_guard:
            _held_here.discard(key)


class ProcessRunLock:
    """For stores that only one process can write (memory, JSONL): a process-wide registry."""

    def __init__(self, scope: str) -> None:
        self._scope = scope

    @contextlib.asynccontextmanager
    async def hold(self, run_id: str) -> AsyncIterator[None]:
        with _held_in_process(self._scope, run_id):
            yield

    async def aclose(self) -> None:
        pass


def _offset(run_id: str) -> int:
    # 62 bits of the id's digest: distinct runs share a byte with negligible probability.
    return int.from_bytes(hashlib.sha256(run_id.encode("utf-8")).digest()[:8], "big") >> 2


class FileRunLock:
    """Byte-range locks in `<db>-runlocks`: exclusive across processes, dropped by the kernel on exit."""

    def __init__(self, database: Path) -> None:
        self._path = Path(f"{database}-runlocks")
        self._scope = str(database.resolve())
        self._fd: int | None = None
        self._open_guard = threading.Lock()

    def _descriptor(self) -> int:
        with self._open_guard:
            if self._fd is None:
                try:
                    self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
                except OSError as exc:
                    raise StoreUnavailableError(f"cannot open run-lock file {self._path}: {exc}") from None
            return self._fd

    @contextlib.asynccontextmanager
    async def hold(self, run_id: str) -> AsyncIterator[None]:
        import fcntl

        with _held_in_process(self._scope, run_id):
            fd, offset = self._descriptor(), _offset(run_id)
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, offset)
            except BlockingIOError:
                raise RunBusyError(f"run {run_id!r} is being driven by another process") from None
            except OSError as exc:
                raise StoreUnavailableError(f"cannot lock run {run_id!r} in {self._path}: {exc}") from None
            try:
                yield
            finally:
                fcntl.lockf(fd, fcntl.LOCK_UN, 1, offset)

    async def aclose(self) -> None:
        with self._open_guard:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


class AdvisoryRunLock:
    """PostgreSQL session-level advisory locks, on one connection kept for the purpose."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self._conn: Any = None
        self._guard = anyio.Lock()  # one statement at a time on the shared connection

    def _key(self, run_id: str) -> int:
        # A signed 64-bit key, namespaced by schema so two schemas never block each other.
        digest = hashlib.sha256(f"{self._store.schema}/{run_id}".encode()).digest()
        return int.from_bytes(digest[:8], "big", signed=True)

    async def _execute(self, sql: str, key: int) -> bool:
        async with self._guard:
            if self._conn is None or self._conn.closed:
                self._conn = await self._store.database.connect()
            with self._store.database.translate():
                cursor = await self._conn.execute(sql, (key,))
                row = await cursor.fetchone()
        return bool(row[0]) if row is not None else False

    @contextlib.asynccontextmanager
    async def hold(self, run_id: str) -> AsyncIterator[None]:
        with _held_in_process(f"postgresql:{self._store.url}:{self._store.schema}", run_id):
            key = self._key(run_id)
            if not await self._execute("SELECT pg_try_advisory_lock(%s)", key):
                raise RunBusyError(f"run {run_id!r} is being driven by another process")
            try:
                yield
            finally:
                with anyio.CancelScope(shield=True), contextlib.suppress(StoreUnavailableError):
                    # A lost session has released the lock already.
                    await self._execute("SELECT pg_advisory_unlock(%s)", key)

    async def aclose(self) -> None:
        async with self._guard:
            if self._conn is not None:
                await self._conn.close()
                self._conn = None


def run_lock(store: object) -> RunLock:
    """The run lock that fits `store`; a store may provide its own as a `run_lock()` method."""
    own = getattr(store, "run_lock", None)
    if callable(own):
        lock: RunLock = own()
        return lock
    from ._postgres import PostgresStore
    from ._sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        return FileRunLock(store.path)
    if isinstance(store, PostgresStore):
        return AdvisoryRunLock(store)
    # Memory, JSONL, and stores of unknown kind: exclusive within this process.
    return ProcessRunLock(f"{type(store).__name__}:{id(store)}")
