"""The PostgreSQL store's connections: the pool, the schema created on first use, error translation.

Shared by the store (`_postgres`) and its run queue (`_postgres_queue`), which work on
the same tables through the same pool. Queries name tables as `{events}`, `{runs}`,
`{queue}` and `{fn}` (the append function); `query()` binds them to the store's schema
once and caches the result.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import anyio

from ._errors import CorruptLogError, StoreUnavailableError, UsageError

if TYPE_CHECKING:
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool


def psycopg_modules() -> Any:
    """`(psycopg, psycopg_pool)`, or a UsageError saying how to install them."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        raise UsageError("the PostgreSQL store needs psycopg 3: pip install 'citeloop[postgres]'") from None
    return psycopg, psycopg_pool


class PostgresDatabase:
    """One schema of one server, reached through a pool opened on first use."""

    def __init__(
        self, conninfo: str, *, schema: str, pool_size: int, url: str, readonly: bool = False
    ) -> None:
        self._conninfo = conninfo
        self.readonly = readonly
        self.schema = schema
        self.url = url  # redacted
        self._pool_size = pool_size
        self._pool: AsyncConnectionPool[Any] | None = None
        self._opening = anyio.Lock()
        self._sql: dict[str, Any] = {}
        self.closed = False

    def unavailable(self, exc: BaseException) -> StoreUnavailableError:
        detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return StoreUnavailableError(f"PostgreSQL store {self.url}: {detail}")

    @contextlib.contextmanager
    def translate(self) -> Iterator[None]:
        """Turn the driver's errors into the store's: a lost server, a corrupt row."""
        psycopg, psycopg_pool = psycopg_modules()
        try:
            yield
        except (psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout) as exc:
            raise self.unavailable(exc) from None
        except psycopg.DataError as exc:
            raise CorruptLogError(f"PostgreSQL store {self.url}: {exc}") from None

    async def _configure(self, conn: AsyncConnection[Any]) -> None:
        from psycopg.adapt import Loader

        class _RawJson(Loader):
            # Bodies go straight to pydantic's JSON validator; parsing them here would be waste.
            def load(self, data: Any) -> bytes:
                return bytes(data)

        conn.adapters.register_loader("json", _RawJson)

    async def connect(self) -> AsyncConnection[Any]:
        """A new autocommit connection (the caller closes it)."""
        psycopg, _ = psycopg_modules()
        self.check_usable()
        with self.translate():
            conn: AsyncConnection[Any] = await psycopg.AsyncConnection.connect(
                self._conninfo, autocommit=True
            )
        await self._configure(conn)
        return conn

    def check_writable(self) -> None:
        if self.readonly:
            raise UsageError(f"the PostgreSQL store {self.url} was opened read-only")

    def check_usable(self) -> None:
        if self.closed:
            raise StoreUnavailableError(f"the PostgreSQL store {self.url} is closed")
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            raise UsageError(
                "the PostgreSQL store runs on asyncio only (psycopg's async API is asyncio-only); "
                "run it under asyncio, not trio"
            ) from None

    async def pool(self) -> AsyncConnectionPool[Any]:
        """The connection pool, opened (and the schema created) on first use."""
        self.check_usable()
        if self._pool is not None:
            return self._pool
        async with self._opening:
            if self._pool is None:
                _, psycopg_pool = psycopg_modules()
                # The first connection creates the schema, and reports a bad server clearly
                # (a pool would only time out).
                conn = await self.connect()
                try:
                    with self.translate():
                        await self._create_schema(conn)
                finally:
                    await conn.close()
                pool = psycopg_pool.AsyncConnectionPool(
                    self._conninfo,
                    min_size=1,
                    max_size=self._pool_size,
                    open=False,
                    kwargs={"autocommit": True},
                    configure=self._configure,
                    timeout=30.0,
                )
                with self.translate():
                    await pool.open(wait=True, timeout=30.0)
                self._pool = pool
        return self._pool

    async def _create_schema(self, conn: AsyncConnection[Any]) -> None:
        from psycopg import sql

        from ._postgres_schema import SCHEMA_VERSION, ddl

        async with conn.transaction():
            # Serializes concurrent first opens: CREATE ... IF NOT EXISTS is not race-free.
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext('citeloop.ddl'), hashtext(%s))", (self.schema,)
            )
            found = await conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.schema}".meta',))
            row = await found.fetchone()
            if self.readonly:  # creates nothing: a missing schema is no store
                if row is None or not row[0]:
                    raise StoreUnavailableError(
                        f"no citeloop store in schema {self.schema!r} of {self.url} (nothing recorded there)"
                    )
                return
            version = None
            if row is not None and row[0]:
                cursor = await conn.execute(
                    sql.SQL("SELECT value FROM {} WHERE key = 'schema_version'").format(self.table("meta"))
                )
                stored = await cursor.fetchone()
                version = stored[0] if stored else None
            if version != str(SCHEMA_VERSION):
                # The DDL is idempotent and replaces the append function in place.
                await conn.execute(ddl(self.schema))
                await conn.execute(
                    sql.SQL(
                        "INSERT INTO {} VALUES ('schema_version', %s) "
                        "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                    ).format(self.table("meta")),
                    (str(SCHEMA_VERSION),),
                )

    def table(self, name: str) -> Any:
        """`schema.name` as a psycopg SQL identifier, for queries on this store's tables."""
        from psycopg import sql

        return sql.Identifier(self.schema, name)

    def query(self, key: str, text: str) -> Any:
        """A query with `{events}`, `{runs}`, `{queue}`, `{bodies}`, `{fn}` bound to this schema.

        Cached by `key`.
        """
        query = self._sql.get(key)
        if query is None:
            from psycopg import sql

            query = sql.SQL(text).format(
                events=self.table("events"),
                runs=self.table("runs"),
                queue=self.table("queue"),
                bodies=self.table("bodies"),
                fn=self.table("append_batch"),
            )
            self._sql[key] = query
        return query

    async def fetch(self, key: str, text: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run one statement on a pooled connection and return its rows."""
        pool = await self.pool()
        with self.translate():
            async with pool.connection() as conn:
                cursor = await conn.execute(self.query(key, text), params)
                rows: list[tuple[Any, ...]] = await cursor.fetchall()
                return rows

    async def close(self) -> None:
        """Refuse further work and close the pool. Idempotent."""
        self.closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            with anyio.CancelScope(shield=True):
                await pool.close()
