"""PostgreSQL test helpers: find the server (skip, or fail under CI=true) and isolate each test.

Each test gets its own schema, dropped afterwards, so tests never see each other's runs
and never touch anything shared in the database. The server is
`CITELOOP_TEST_POSTGRES` (default `postgresql://postgres@127.0.0.1:5432/test`).
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import uuid
from collections.abc import Iterator
from functools import cache

import anyio
import pytest
from citeloop.events import Hit, Observation, Page, SearchHits, ToolError
from citeloop.policies import RunView, abstain_reply, finish_reply, react

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


# -- a small workload for the worker tests ---------------------------------------------
# Company K's page says who founded it; the policy searches, opens the top hit and
# finishes with the founding sentence (the standard workload of docs/benchmarks.md, in miniature).
# Tools may be slow (`latency`), so that runs are in flight long enough to be disturbed.


def company_url(k: int) -> str:
    return f"https://corp.example/{k}"


def company_sentence(k: int) -> str:
    return f"Company {k} was founded by Person {k} in {1900 + k} in City {k}."


def company_question(k: int) -> str:
    return f"Who founded Company {k}?"


class CompanySearch:
    """Finds Company K's page for any query naming `Company K`."""

    name = "search"
    read_only = True

    def __init__(self, latency: tuple[float, float] = (0.0, 0.0), calls: list[str] | None = None) -> None:
        self._latency = latency
        self.calls = calls if calls is not None else []

    async def __call__(self, argument: str) -> Observation:
        self.calls.append(f"search\t{argument}")
        await anyio.sleep(random.uniform(*self._latency))
        found = re.search(r"Company (\d+)", argument)
        hits: tuple[Hit, ...] = ()
        if found:
            k = int(found.group(1))
            hits = (Hit(url=company_url(k), title=f"Company {k}", snippet=company_sentence(k), score=1.0),)
        return SearchHits(query=argument, hits=hits)


class CompanyOpen:
    """Opens Company K's page."""

    name = "open"
    read_only = True

    def __init__(self, latency: tuple[float, float] = (0.0, 0.0), calls: list[str] | None = None) -> None:
        self._latency = latency
        self.calls = calls if calls is not None else []

    async def __call__(self, argument: str) -> Observation:
        self.calls.append(f"open\t{argument}")
        await anyio.sleep(random.uniform(*self._latency))
        found = re.fullmatch(r"https://corp\.example/(\d+)", argument)
        if not found:
            return ToolError(code="not_found", url=argument)
        body = company_sentence(int(found.group(1))) + " " + "Filler text. " * 40
        digest = hashlib.sha256(body.encode()).hexdigest()
        return Page(url=argument, title="Company", body=body, sha256=digest)


class CompanyPolicy:
    """Search, open the top hit, finish with its first sentence as answer and evidence."""

    name = "company"

    async def next_step(self, view: RunView) -> str:
        if not view.searched:
            return react("look it up", "search", view.question)
        if not view.pages:
            hits = [hit for found in view.searched.values() for hit in found]
            if not hits:
                return abstain_reply("nothing found", "no hits")
            return react("read the top hit", "open", hits[0].url)
        url, page = next(iter(view.pages.items()))
        sentence = page.body.split(". ")[0] + "."
        return finish_reply("found it", sentence, [url], sentence)
