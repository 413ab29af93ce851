"""B1: the runtime's overhead per step over the bare-loop floor, sequential runs, per store.

Prints one JSON line: the floor (µs/step), and per store the µs/step and the overhead
above the floor, with the store's durability. Target (docs/benchmarks.md): SQLite at its default
durability ≤ 100 µs per step above the floor.

    python bench/step_overhead.py [--runs 2000] [--pages 200] [--latency-ms 0] [--store URL ...]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import anyio
from _standard import Workload, bare_loop, emit, postgres_if_reachable, question, versions
from citeloop.events import EventStore, open_store
from citeloop.runtime import Runtime

DURABILITY = {
    "memory": "none (process memory)",
    "jsonl": "write + fsync per group commit",
    "sqlite": "WAL, synchronous=NORMAL (default)",
    "sqlite-full": "WAL, synchronous=FULL (fsync per commit)",
    "postgresql": "server default (synchronous_commit=on)",
}


def default_stores(folder: Path) -> dict[str, str]:
    return {
        "memory": "memory://",
        "jsonl": f"jsonl:///{folder}/log.jsonl",
        "sqlite": f"sqlite:///{folder}/runs.db",
        "sqlite-full": f"sqlite:///{folder}/full.db?synchronous=full",
    }


async def floor_us_per_step(workload: Workload, runs: int) -> float:
    tools, policy = workload.tools(), workload.policy()
    steps = 0
    start = time.perf_counter()
    for i in range(runs):
        steps += await bare_loop(workload, tools, policy, question(i, len(workload.pages)))
    return (time.perf_counter() - start) / steps * 1e6


async def runtime_us_per_step(
    workload: Workload, make_store: Callable[[], EventStore], runs: int
) -> tuple[float, str]:
    store = make_store()
    n = len(workload.pages)
    async with store, Runtime(store=store, tools=workload.tools(), policy=workload.policy()) as rt:
        for i in range(min(50, runs)):  # warm caches, prepared statements, the file
            await rt.run(question(i, n))  # fresh ids: a stored run (a reused schema) never restarts
        steps = 0
        start = time.perf_counter()
        for i in range(runs):
            outcome = await rt.run(question(i, n))
            steps += outcome.steps
            if outcome.status != "answered":
                raise SystemExit(f"benchmark run {i} did not answer: {outcome}")
        elapsed = time.perf_counter() - start
    return elapsed / steps * 1e6, store.url


async def main(args: argparse.Namespace) -> None:
    workload = Workload.build(args.pages, args.latency_ms)
    with tempfile.TemporaryDirectory() as tmp:
        stores = default_stores(Path(tmp))
        postgres = postgres_if_reachable() if args.backend == "asyncio" and not args.no_postgres else None
        if postgres:
            stores["postgresql"] = postgres
        for url in args.store or ():
            stores[url.split(":", 1)[0]] = url
        floors = [await floor_us_per_step(workload, args.runs)]
        figures: dict[str, dict[str, object]] = {}
        for name, url in stores.items():
            per_step, shown_url = await runtime_us_per_step(
                workload, lambda url=url: open_store(url), args.runs
            )
            floors.append(await floor_us_per_step(workload, args.runs))
            figures[name] = {
                "url": shown_url,
                "durability": DURABILITY.get(name, "?"),
                "us_per_step": round(per_step, 1),
            }
    # The floor is sampled between the stores; the median resists the noise of a shared machine.
    floor = statistics.median(floors)
    for figure in figures.values():
        figure["overhead_us_per_step"] = round(float(figure["us_per_step"]) - floor, 1)  # type: ignore[arg-type]
    sqlite_overhead = figures["sqlite"]["overhead_us_per_step"]
    emit(
        {
            "bench": "B1 step_overhead",
            "params": {
                "runs": args.runs,
                "pages": args.pages,
                "latency_ms": args.latency_ms,
                "backend": args.backend,
            },
            "versions": versions(),
            "floor_us_per_step": round(floor, 1),
            "floor_samples_us": [round(f, 1) for f in floors],
            "stores": figures,
            "target": "sqlite overhead <= 100 us/step",
            "met": float(sqlite_overhead) <= 100,  # type: ignore[arg-type]
        }
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--store", action="append", help="an extra store URL (e.g. postgresql://...)")
    parser.add_argument("--backend", choices=("asyncio", "trio"), default="asyncio")
    parser.add_argument(
        "--no-postgres", action="store_true", help="skip PostgreSQL even when it is reachable"
    )
    arguments = parser.parse_args()
    anyio.run(main, arguments, backend=arguments.backend)
