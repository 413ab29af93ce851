"""Page bodies stored once in the SQLite and PostgreSQL stores (docs/architecture.md, "Stores").

Each test runs on SQLite (asyncio and trio) and on PostgreSQL (asyncio only: psycopg's async
API is asyncio-only), on a fresh file or schema, and looks at the tables themselves: how many
body rows, what an event row holds, what an edited or missing body row does to a read.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from citeloop.events import (
    CorruptLogError,
    Event,
    Page,
    TamperedLogError,
    ToolObserved,
    decode_event,
    encode_event,
    open_store,
    stamp_chain,
    verify_chain,
)
from citeloop.events._bodies import cut_page, references, splice
from citeloop.events._chain import ChainedBatch
from citeloop.events._postgres_schema import SCHEMA_VERSION
from citeloop.events.testing import make_run_started, make_step
from citeloop.runtime import Runtime
from citeloop.runtime.cli._transfer import export, import_run
from helpers.postgres import CompanyOpen, CompanyPolicy, CompanySearch, company_question
from helpers.postgres import postgres_url as postgres_url
from hypothesis import given, settings
from hypothesis import strategies as st

FILLER = b"Filler text. "  # in every body CompanyOpen returns, and nowhere else in a run

_OLD_SQLITE_SCHEMA = """
CREATE TABLE events (
    position INTEGER PRIMARY KEY, run_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
    body BLOB NOT NULL, UNIQUE (run_id, seq)
);
CREATE TABLE runs (
    run_id TEXT PRIMARY KEY, question TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL
);
"""


class Db:
    """One store under test, and direct access to its tables."""

    url: str

    def query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def body_rows(self) -> int:
        return int(self.query("SELECT count(*) FROM {bodies}")[0][0])

    def event_rows(self, run_id: str) -> list[bytes]:
        rows = self.query("SELECT body FROM {events} WHERE run_id = %s ORDER BY seq", (run_id,))
        return [row[0] for row in rows]

    def edit_bodies(self, old: str, new: str) -> None:
        raise NotImplementedError


class SqliteDb(Db):
    def __init__(self, folder: Path) -> None:
        self.path = folder / "log.db"
        self.url = f"sqlite:///{self.path}"

    def query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        sql = sql.format(bodies="bodies", events="events").replace("%s", "?")
        with sqlite3.connect(self.path) as conn:
            rows = conn.execute(sql, tuple(params)).fetchall()
        return [tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in rows]

    def edit_bodies(self, old: str, new: str) -> None:
        self.query("UPDATE {bodies} SET body = CAST(replace(CAST(body AS TEXT), %s, %s) AS BLOB)", (old, new))


class PostgresDb(Db):
    def __init__(self, url: str) -> None:
        self.url = url
        self.base = url.split("?", 1)[0]
        self.schema = url.rsplit("schema=", 1)[1]

    def query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        import psycopg

        sql = sql.format(bodies=f'"{self.schema}".bodies', events=f'"{self.schema}".events')
        with psycopg.connect(self.base, autocommit=True) as conn:
            cursor = conn.execute(sql.encode(), tuple(params))
            return cursor.fetchall() if cursor.description else []

    def event_rows(self, run_id: str) -> list[bytes]:
        rows = self.query("SELECT body::text FROM {events} WHERE run_id = %s ORDER BY seq", (run_id,))
        return [str(row[0]).encode() for row in rows]

    def edit_bodies(self, old: str, new: str) -> None:
        self.query("UPDATE {bodies} SET body = replace(body::text, %s, %s)::json", (old, new))


@pytest.fixture(
    params=[
        pytest.param(("sqlite", "asyncio"), id="sqlite-asyncio"),
        pytest.param(("sqlite", "trio"), id="sqlite-trio"),
        pytest.param(("postgresql", "asyncio"), id="postgresql", marks=pytest.mark.postgres),
    ]
)
def combo(request: pytest.FixtureRequest) -> tuple[str, str]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def anyio_backend(combo: tuple[str, str]) -> str:
    return combo[1]


def _db(kind: str, request: pytest.FixtureRequest, folder: Path) -> Db:
    if kind == "postgresql":
        return PostgresDb(request.getfixturevalue("postgres_url"))
    return SqliteDb(folder)


@pytest.fixture
def db(combo: tuple[str, str], request: pytest.FixtureRequest, tmp_path: Path) -> Db:
    return _db(combo[0], request, tmp_path)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def destination(request: pytest.FixtureRequest, tmp_path: Path) -> Db:
    """A store to import into (the tests that use it are synchronous: no backend to choose)."""
    folder = tmp_path / "destination"
    folder.mkdir()
    return _db(str(request.param), request, folder)


async def _ask(url: str, questions: Sequence[str]) -> list[str]:
    """Run the company workload (search, open the top hit, finish) once per question; the run ids."""
    async with (
        open_store(url) as store,
        Runtime(store=store, tools=[CompanySearch(), CompanyOpen()], policy=CompanyPolicy()) as runtime,
    ):
        run_ids = []
        for question in questions:
            outcome = await runtime.run(question)
            assert outcome.status == "answered", outcome
            run_ids.append(outcome.run_id)
        return run_ids


async def _read(url: str, run_id: str, after: int = -1) -> list[Event]:
    async with open_store(url) as store:
        return await store.read(run_id, after)


def _page_seq(events: Sequence[Event]) -> int:
    (seq,) = [e.seq for e in events if isinstance(e, ToolObserved) and isinstance(e.observation, Page)]
    return seq


_MARKERISH = st.sampled_from(
    ['"body":null,"sha256":"', '","sha256":"', '"body":"', "\\", '"', "\x00", "\u2028"]
)
_TEXT = st.lists(st.one_of(st.text(), _MARKERISH), max_size=8).map("".join)


@settings(max_examples=300, deadline=None)
@given(body=_TEXT, title=_TEXT, url=_TEXT)
def test_a_cut_page_splices_back_to_its_exact_encoding(body: str, title: str, url: str) -> None:
    """Whatever a page holds (JSON escapes, the marker itself, in any field), the splice is exact."""
    page = Page(url=url, title=title, body=body, sha256=hashlib.sha256(body.encode()).hexdigest())
    event = _chained_run("run-p", page)[2]
    encoded = encode_event(event)
    cut = cut_page(event, encoded)
    assert cut is not None and cut.digest == page.sha256
    rows = [encode_event(make_run_started("run-p")), cut.row]
    refs = references(rows)
    assert refs == {1: page.sha256}
    splice(rows, refs, {cut.digest: cut.body}, "test")
    assert rows[1] == encoded


@pytest.mark.anyio
async def test_runs_opening_one_page_store_its_body_once(db: Db) -> None:
    run_ids = await _ask(db.url, [company_question(7)] * 5 + [company_question(8)])
    assert db.body_rows() == 2
    for run_id in run_ids:
        events = await _read(db.url, run_id)
        rows = db.event_rows(run_id)
        page_seq = _page_seq(events)
        assert b'"body":null,"sha256":"' in rows[page_seq] and FILLER not in rows[page_seq]
        page = events[page_seq]
        assert isinstance(page, ToolObserved) and isinstance(page.observation, Page)
        assert hashlib.sha256(page.observation.body.encode()).hexdigest() == page.observation.sha256
        assert FILLER in page.observation.body.encode()
        # The chain hashed the bytes the writer encoded: a splice a byte off would break it.
        assert verify_chain(events).status == "chained"
        spliced = encode_event(page)
        assert encode_event(decode_event(spliced)) == spliced
        assert await _read(db.url, run_id, page_seq) == events[page_seq + 1 :]


def _chained_run(run_id: str, page: Page) -> ChainedBatch:
    events: list[Event] = [make_run_started(run_id), make_step(run_id, 1, "open it")]
    observed = ToolObserved(
        run_id=run_id,
        seq=2,
        at=datetime(2025, 1, 1, tzinfo=UTC) + timedelta(seconds=2),
        step=1,
        call_id="c1",
        tool="open",
        input=page.url,
        observation=page,
    )
    batch, _ = stamp_chain([*events, observed, make_step(run_id, 3, "read it")], None)
    return batch


@pytest.mark.anyio
async def test_a_page_whose_digest_does_not_match_is_stored_whole(db: Db) -> None:
    body = "Filler text. " * 20
    wrong = Page(url="https://x.example/", title="x", body=body, sha256=hashlib.sha256(b"other").hexdigest())
    batch = _chained_run("run-wrong", wrong)
    async with open_store(db.url) as store:
        await store.append("run-wrong", batch, 0)
        back = await store.read("run-wrong")
    assert db.body_rows() == 0
    assert db.event_rows("run-wrong") == list(batch.encoded)
    assert back == list(batch)


@pytest.mark.anyio
async def test_an_edited_body_row_is_caught_on_read_in_every_run_that_names_it(db: Db) -> None:
    run_ids = await _ask(db.url, [company_question(3)] * 2)
    seqs = [_page_seq(await _read(db.url, run_id)) for run_id in run_ids]
    db.edit_bodies("Filler text.", "Filler test.")
    for run_id, seq in zip(run_ids, seqs, strict=True):
        with pytest.raises(TamperedLogError) as caught:
            await _read(db.url, run_id)
        assert (caught.value.run_id, caught.value.seq) == (run_id, seq + 1)


@pytest.mark.anyio
async def test_a_missing_body_row_is_damage(db: Db) -> None:
    (run_id,) = await _ask(db.url, [company_question(4)])
    db.query("DELETE FROM {bodies}")
    with pytest.raises(CorruptLogError, match=r"page body .* is missing"):
        await _read(db.url, run_id)


@pytest.mark.anyio
async def test_a_stored_body_that_differs_keeps_later_pages_whole(db: Db) -> None:
    """A body row edited (or written by another serializer) is never spliced into a new run."""
    (first,) = await _ask(db.url, [company_question(5)])
    db.edit_bodies("Filler text.", "Filler test.")
    (second,) = await _ask(db.url, [company_question(5)])
    events = await _read(db.url, second)
    rows = db.event_rows(second)
    assert FILLER in rows[_page_seq(events)]  # stored whole
    assert [encode_event(e) for e in events] == rows
    assert verify_chain(events).status == "chained"
    assert db.body_rows() == 1
    with pytest.raises(TamperedLogError):
        await _read(db.url, first)


def test_export_then_import_is_self_contained_and_dedups_again(destination: Db, tmp_path: Path) -> None:
    """An exported run holds its bodies inline; imported into another store, they are stored once again."""
    source = f"sqlite:///{tmp_path}/source.db"
    run_ids = anyio.run(_ask, source, [company_question(9)] * 3)
    exported = []
    for n, run_id in enumerate(run_ids):
        path = tmp_path / f"run-{n}.jsonl"
        export(run_id, store=source, output=path)
        lines = path.read_bytes().splitlines()
        assert any(FILLER in line for line in lines)
        assert not any(b'"body":null' in line for line in lines)
        exported.append(path)
        import_run(path, store=destination.url)
    assert destination.body_rows() == 1
    for n, run_id in enumerate(run_ids):
        original = anyio.run(_read, source, run_id)
        imported = anyio.run(_read, destination.url, run_id)
        assert imported == original
        assert [encode_event(e) for e in imported] == exported[n].read_bytes().splitlines()
        again = tmp_path / f"again-{n}.jsonl"
        export(run_id, store=destination.url, output=again)
        assert again.read_bytes() == exported[n].read_bytes()


# -- older layouts ------------------------------------------------------------------------


def _old_run(run_id: str) -> ChainedBatch:
    body = "Filler text. " * 30
    page = Page(
        url="https://x.example/", title="x", body=body, sha256=hashlib.sha256(body.encode()).hexdigest()
    )
    return _chained_run(run_id, page)


@pytest.mark.anyio
async def test_an_sqlite_file_of_the_older_layout_reads_then_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = _old_run("run-old")
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(_OLD_SQLITE_SCHEMA)
        conn.executemany(
            "INSERT INTO events (run_id, seq, type, body) VALUES (?, ?, ?, ?)",
            [("run-old", e.seq, e.type, body) for e, body in zip(old, old.encoded, strict=True)],
        )
        conn.execute("INSERT INTO runs VALUES ('run-old', 'q', 'running', '2025-01-01T00:00:00+00:00')")
    url = f"sqlite:///{path}"
    async with open_store(url, readonly=True) as store:  # changes nothing
        assert await store.read("run-old") == list(old)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    new = _old_run("run-new")
    async with open_store(url) as store:  # a writer upgrades the file in place
        await store.append("run-new", new, 0)
        assert await store.read("run-old") == list(old)
        assert await store.read("run-new") == list(new)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM bodies").fetchone()[0] == 1
        rows = dict(conn.execute("SELECT run_id, body FROM events WHERE seq = 2").fetchall())
    assert rows["run-old"] == old.encoded[2]  # the old rows stay as they were
    assert b'"body":null' in rows["run-new"]
    async with open_store(url, readonly=True) as store:
        assert await store.read("run-new") == list(new)


@pytest.mark.anyio
@pytest.mark.postgres
@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # the PostgreSQL store is asyncio-only
async def test_a_postgres_schema_of_the_older_layout_is_upgraded_in_place(postgres_url: str) -> None:
    db = PostgresDb(postgres_url)
    async with open_store(postgres_url) as store:
        await store.read("nothing")  # creates the schema
    # Back to version 4: no bodies table, the append function of 12 arguments.
    db.query(f'DROP TABLE "{db.schema}".bodies')
    db.query(f'DROP FUNCTION "{db.schema}".append_batch')
    db.query(
        f'CREATE FUNCTION "{db.schema}".append_batch(text[], bigint[], text[], text[], timestamptz[], '
        "timestamptz[], boolean[], integer[], bigint[], text[], text[], boolean) RETURNS bigint[] "
        "LANGUAGE sql AS 'SELECT NULL::bigint[]'"
    )
    db.query(f"UPDATE \"{db.schema}\".meta SET value = '4' WHERE key = 'schema_version'")
    old = _old_run("run-old")
    for event, body in zip(old, old.encoded, strict=True):
        db.query(
            "INSERT INTO {events} (run_id, seq, type, body) VALUES (%s, %s, %s, %s::json)",
            ("run-old", event.seq, event.type, body.decode()),
        )
    new = _old_run("run-new")
    async with open_store(postgres_url) as store:
        assert await store.read("run-old") == list(old)
        await store.append("run-new", new, 0)
        assert await store.read("run-new") == list(new)
    functions = db.query(
        "SELECT count(*) FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace "
        "WHERE n.nspname = %s AND p.proname = 'append_batch'",
        (db.schema,),
    )
    assert functions[0][0] == 1
    version = db.query(f"SELECT value FROM \"{db.schema}\".meta WHERE key = 'schema_version'")
    assert version == [(str(SCHEMA_VERSION),)]
    assert db.body_rows() == 1
    assert db.event_rows("run-old")[2] == old.encoded[2]
