"""B5: append throughput per store, with 1 writer and with 1,000 concurrent writers.

Each writer appends whole standard runs the way the runtime does (6 appends, 9 events:
[RunStarted] [ActionParsed ToolDispatched] [ToolObserved] ... [ActionParsed Answered]).
Events are built before the clock starts: the figure is the store's work (encode, check,
commit, wake). Prints one JSON line. Target (docs/benchmarks.md): SQLite at default durability with
1,000 writers >= 50,000 events/s.

    python bench/append.py                       # memory, jsonl, sqlite, sqlite full
    python bench/append.py --store postgresql://user@127.0.0.1/db --store sqlite:///x.db
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from _standard import postgres_if_reachable
from _workload import run_events, versions
from citeloop.events import Event, EventStore, open_store

PG_BENCH = "postgresql://postgres@127.0.0.1:5432/test?schema=citeloop_bench_append"

BATCHES = ((0, 1), (1, 3), (3, 4), (4, 6), (6, 7), (7, 9))  # event index ranges of the 6 appends


def build(prefix: str, writers: int, runs: int) -> list[list[list[Event]]]:
    return [[run_events(f"{prefix}-w{w}-r{r}", w * runs + r) for r in range(runs)] for w in range(writers)]


async def measure(store: EventStore, plan: list[list[list[Event]]]) -> dict[str, float]:
    async def writer(runs: list[list[Event]]) -> None:
        for events in runs:
            for lo, hi in BATCHES:
                await store.append(events[0].run_id, events[lo:hi], lo)

    events = sum(len(run) for runs in plan for run in runs)
    started = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for runs in plan:
            tg.start_soon(writer, runs)
    elapsed = time.perf_counter() - started
    return {
        "events": events,
        "appends": events * 6 // 9,
        "seconds": round(elapsed, 4),
        "events_per_s": round(events / elapsed),
        "us_per_append": round(elapsed / (events * 6 / 9) * 1e6, 1),
    }


async def bench_store(url: str, args: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {"url": url}
    store = open_store(url)
    result["durability"] = getattr(store, "synchronous", "n/a")
    async with store:
        tag = f"b{time.time_ns()}"
        result["writers_1"] = await measure(store, build(f"{tag}-one", 1, args.single_runs))
        result[f"writers_{args.writers}"] = await measure(
            store, build(f"{tag}-many", args.writers, args.runs_per_writer)
        )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", action="append", help="store URL (repeat); default: the embedded four")
    parser.add_argument("--writers", type=int, default=1000)
    parser.add_argument("--runs-per-writer", type=int, default=3)
    parser.add_argument("--single-runs", type=int, default=300, help="runs appended by the lone writer")
    parser.add_argument("--backend", choices=("asyncio", "trio"), default="asyncio")
    parser.add_argument(
        "--no-postgres", action="store_true", help="skip PostgreSQL even when it is reachable"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="citeloop-b5-") as tmp:
        urls = args.store or [
            "memory://",
            f"jsonl:///{tmp}/log.jsonl",
            f"sqlite:///{tmp}/normal.db",
            f"sqlite:///{tmp}/full.db?synchronous=full",
        ]
        postgres = (
            postgres_if_reachable(PG_BENCH) if args.backend == "asyncio" and not args.no_postgres else None
        )
        if not args.store and postgres:
            urls.append(postgres)  # the PostgreSQL store is asyncio-only
        results = [anyio.run(bench_store, url, args, backend=args.backend) for url in urls]
    sqlite_default = next(
        (r for r in results if r["url"].startswith("sqlite") and r["durability"] == "normal"), None
    )
    many = f"writers_{args.writers}"
    line = {
        "bench": "B5-append",
        "params": {
            "writers": args.writers,
            "runs_per_writer": args.runs_per_writer,
            "single_runs": args.single_runs,
            "backend": args.backend,
            "events_per_run": 9,
            "appends_per_run": 6,
        },
        "versions": versions(),
        "stores": results,
        "target": {
            "sqlite_normal_1000_writers_events_per_s": 50_000,
            "measured": sqlite_default[many]["events_per_s"] if sqlite_default else None,
            "met": bool(sqlite_default and sqlite_default[many]["events_per_s"] >= 50_000),
        },
    }
    for r in results:
        print(
            f"{r['url']:<50} {r['durability']:<7} 1 writer {r['writers_1']['events_per_s']:>8} ev/s   "
            f"{args.writers} writers {r[many]['events_per_s']:>8} ev/s",
            file=sys.stderr,
        )
    print(json.dumps(line))


if __name__ == "__main__":
    main()
