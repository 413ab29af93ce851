"""Bytes per run: what N runs of the standard workload leave in the SQLite (and PostgreSQL) store.

Runs N standard runs (3 steps, 9 events each: search, open the top hit, finish) sequentially
through `Runtime` on a fresh SQLite file, closes the store, and measures:
- `file_bytes_per_run`: the file with its `-wal`/`-shm` after close (what the peers report);
- `checkpointed_bytes_per_run`: `page_count * page_size` after `wal_checkpoint(TRUNCATE)`;
- `vacuumed_bytes_per_run`: the same after `VACUUM` (no free pages);
- `payload_bytes_per_run`: the stored event rows plus the page bodies table, without b-tree overhead.
With `K = i mod corpus`, each corpus page is opened N / corpus times: page bodies are
stored once per distinct page (docs/architecture.md, "Stores"), so bytes per run fall as
N grows. PostgreSQL (`pg_total_relation_size` of the store's tables, in a fresh schema that
is dropped afterwards) is included when a server answers on 127.0.0.1:5432.

    python bench/bytes_per_run.py [--runs 400,2000] [--corpus 200] [--no-postgres]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import anyio
from _standard import Workload, emit, postgres_if_reachable, question, versions
from citeloop.events import open_store
from citeloop.runtime import Runtime


async def _drive(url: str, workload: Workload, runs: int) -> float:
    store = open_store(url)
    n = len(workload.pages)
    started = time.perf_counter()
    async with store, Runtime(store=store, tools=workload.tools(), policy=workload.policy()) as rt:
        for i in range(runs):
            outcome = await rt.run(question(i, n))
            if outcome.status != "answered":
                raise SystemExit(f"benchmark run {i} did not answer: {outcome}")
    return time.perf_counter() - started


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def sqlite_figures(workload: Workload, runs: int, folder: Path) -> dict[str, Any]:
    path = folder / f"runs-{runs}.db"
    seconds = anyio.run(_drive, f"sqlite:///{path}", workload, runs)
    side = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    file_bytes = sum(p.stat().st_size for p in side if p.exists())
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        events, event_bytes = conn.execute(
            "SELECT count(*), coalesce(sum(length(body)), 0) FROM events"
        ).fetchone()
        bodies = body_bytes = 0
        if "bodies" in _tables(conn):
            bodies, body_bytes = conn.execute(
                "SELECT count(*), coalesce(sum(length(body)), 0) FROM bodies"
            ).fetchone()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        checkpointed = conn.execute("PRAGMA page_count").fetchone()[0] * page_size
        conn.execute("VACUUM")
        vacuumed = conn.execute("PRAGMA page_count").fetchone()[0] * page_size
    finally:
        conn.close()
    return {
        "runs": runs,
        "seconds": round(seconds, 2),
        "event_rows_per_run": round(events / runs, 2),
        "body_rows": bodies,
        "file_bytes_per_run": round(file_bytes / runs),
        "checkpointed_bytes_per_run": round(checkpointed / runs),
        "vacuumed_bytes_per_run": round(vacuumed / runs),
        "payload_bytes_per_run": round((event_bytes + body_bytes) / runs),
    }


def postgres_figures(url: str, workload: Workload, runs: int) -> dict[str, Any]:
    import psycopg
    from psycopg import sql

    schema = f"citeloop_bytes_{uuid.uuid4().hex[:8]}"
    base = url.split("?", 1)[0]
    try:
        seconds = anyio.run(_drive, f"{base}?schema={schema}", workload, runs)
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")  # settle the visibility and free space maps
            rows = conn.execute(
                "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class AS c "
                "JOIN pg_namespace AS n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind = 'r'",
                (schema,),
            ).fetchall()
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
    sizes = {name: int(size) for name, size in rows}
    log = {name: size for name, size in sizes.items() if name in ("events", "runs", "bodies")}
    return {
        "runs": runs,
        "seconds": round(seconds, 2),
        "relation_bytes": sizes,
        "bytes_per_run": round(sum(log.values()) / runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", default="400,2000", help="comma-separated run counts, one store each")
    parser.add_argument(
        "--corpus", type=int, default=200, help="pages in the corpus (run i opens page i mod this)"
    )
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    counts = [int(part) for part in args.runs.split(",") if part.strip()]
    workload = Workload.build(args.corpus)
    postgres = None if args.no_postgres else postgres_if_reachable()
    record: dict[str, Any] = {
        "bench": "bytes_per_run",
        "params": {"runs": counts, "corpus": args.corpus, "sqlite": "WAL, synchronous=NORMAL (default)"},
        "versions": versions(),
    }
    with tempfile.TemporaryDirectory(prefix="citeloop-bytes-") as tmp:
        record["sqlite"] = [sqlite_figures(workload, runs, Path(tmp)) for runs in counts]
    if postgres is not None:
        record["postgresql"] = [postgres_figures(postgres, workload, runs) for runs in counts]
    emit(record)


if __name__ == "__main__":
    main()
