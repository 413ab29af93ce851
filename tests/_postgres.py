"""PostgreSQL test helpers: find the server (skip, or fail under CI=true) and isolate each test.

Each test gets its own schema, dropped afterwards, so tests never see each other's runs
and never touch anything shared in the database. The server is
`CITELOOP_TEST_POSTGRES` (default `postgresql://postgres@127.0.0.1:5432/test`).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from functools import cache

import pytest

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


def server_url() -> str:
    """The base URL of the test server."""
    return os.environ.get("CITELOOP_TEST_POSTGRES", DEFAULT_URL)


@cache
def _unreachable_reason() -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install 'citeloop[postgres]')"
    try:
        with psycopg.connect(server_url(), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"PostgreSQL at {server_url()} is unreachable: {first}"
    return None


def require_postgres() -> str:
    """The server's URL; skips the test when it is unreachable, or fails it under CI=true."""
    reason = _unreachable_reason()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (CI=true: the PostgreSQL tests must run)")
        pytest.skip(reason)
    return server_url()


def drop_schema(schema: str) -> None:
    """Drop one test schema (and only it)."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(server_url(), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A store URL on a fresh schema of the test server, dropped after the test."""
    base = require_postgres()
    schema = f"citeloop_test_{uuid.uuid4().hex[:12]}"
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}schema={schema}"
    finally:
        drop_schema(schema)
