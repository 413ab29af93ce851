"""The PostgreSQL store's followers: the listening connection a subscription polls through.

A subscription outlives server restarts: when its connection is lost (the server
restarted, its backend was terminated), the follower connects again, with backoff, and
the subscription queries again after the last position it delivered, so no event is lost
or delivered twice. Only a closed store or a corrupt row ends it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, Self

import anyio
import structlog

from ._errors import CorruptLogError, StoreUnavailableError
from ._postgres_db import PostgresDatabase, psycopg_modules

if TYPE_CHECKING:
    from types import TracebackType

    from psycopg import AsyncConnection

_FIRST_DELAY: Final = 0.1
_MAX_DELAY: Final = 5.0


class Follower:
    """A `LISTEN`ing connection for one subscription, re-established whenever it is lost."""

    def __init__(self, db: PostgresDatabase, wait: Callable[[AsyncConnection[Any]], Awaitable[None]]) -> None:
        self._db = db
        self._wait = wait  # until a notification or the poll interval
        self._conn: AsyncConnection[Any] | None = None

    async def __aenter__(self) -> Self:
        self._conn = await self._listen()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with anyio.CancelScope(shield=True):
                await _close_quietly(conn)

    async def fetch(self, query: Any, params: tuple[Any, ...], *, wait_first: bool) -> list[tuple[Any, ...]]:
        """The rows of `query`; first, with `wait_first`, until a notification or the poll interval.

        A lost connection is replaced and the query asked again (the wait is skipped then:
        what was missed while away is read at once).
        """
        while True:
            assert self._conn is not None, "use the follower as `async with`"
            try:
                self._db.check_usable()
                with self._db.translate():
                    if wait_first:
                        await self._wait(self._conn)
                    cursor = await self._conn.execute(query, params)
                    rows: list[tuple[Any, ...]] = await cursor.fetchall()
                    return rows
            except CorruptLogError:
                raise
            except StoreUnavailableError as lost:
                if self._db.closed:
                    raise
                await self._reconnect(lost)
                wait_first = False

    async def _listen(self) -> AsyncConnection[Any]:
        from psycopg import sql

        from ._postgres_schema import channel

        await self._db.pool()  # the schema exists before anyone listens
        conn = await self._db.connect()
        try:
            with self._db.translate():
                await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel(self._db.schema))))
        except BaseException:
            with anyio.CancelScope(shield=True):
                await _close_quietly(conn)
            raise
        return conn

    async def _reconnect(self, lost: StoreUnavailableError) -> None:
        """Connect again (backoff from 0.1 s doubling to 5 s) until it works or the store is closed."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with anyio.CancelScope(shield=True):
                await _close_quietly(conn)
        log = structlog.get_logger("citeloop.events")
        log.warning("postgres_subscription_lost", store=self._db.url, error=str(lost))
        delay = _FIRST_DELAY
        attempts = 1
        while True:
            self._db.check_usable()
            try:
                self._conn = await self._listen()
            except CorruptLogError:
                raise
            except StoreUnavailableError as exc:
                log.warning("postgres_reconnect_failed", store=self._db.url, attempt=attempts, error=str(exc))
                await anyio.sleep(delay)
                delay = min(delay * 2, _MAX_DELAY)
                attempts += 1
                continue
            log.info("postgres_subscription_reconnected", store=self._db.url, attempts=attempts)
            return


async def _close_quietly(conn: AsyncConnection[Any]) -> None:
    """Close a connection that may already be broken: closing a lost one must not raise."""
    psycopg, _ = psycopg_modules()
    with contextlib.suppress(psycopg.Error, OSError):
        await conn.close()
