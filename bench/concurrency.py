"""B2 and B3: many concurrent runs in one process.

B2: 1,000 concurrent runs; overhead per step above a floor of 1,000 concurrent bare
loops, per store (group commit should make it no worse than sequential), and the
full-durability SQLite figure against the default (target within 2x).
B3: 10,000 concurrent runs with 20 ms tool latency; runs/s against the zero-latency
runs/s (target >= 80%), and peak RSS per in-flight run (target <= 20 KB).
B8: fairness: how late a 10 ms timer beside the 10,000 zero-latency runs fires (target
p99 <= 200 ms); `--unbounded` also measures it with admission off (`max_busy_runs`
= the number of runs), the behaviour before bounded admission, in the same process.

    python bench/concurrency.py [--concurrent 1000] [--hidden 10000] [--latency-ms 20] [--store URL ...]
        [--max-busy-runs N] [--unbounded]
"""

from __future__ import annotations

import argparse
import gc
import resource
import tempfile
import time
from pathlib import Path

import anyio
from _standard import Workload, bare_loop, emit, postgres_if_reachable, question, versions
from citeloop.events import open_store
from citeloop.runtime import Runtime
from citeloop.runtime._runtime import DEFAULT_MAX_BUSY_RUNS

TIMER_S = 0.010


def lateness(figures: dict[str, float]) -> dict[str, float]:
    return {
        key.removeprefix("timer_late_"): round(figures[key], 1)
        for key in ("timer_late_p50_ms", "timer_late_p99_ms", "timer_late_max_ms")
    } | {"fired": figures["timer_fired"]}


def rss_kb() -> int:
    """Current resident set size in KB (Linux)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() // 1024


async def floor_concurrent(workload: Workload, runs: int) -> tuple[float, int]:
    tools, policy = workload.tools(), workload.policy()
    steps = 0

    async def one(i: int) -> None:
        nonlocal steps
        steps += await bare_loop(workload, tools, policy, question(i, len(workload.pages)))

    start = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(runs):
            tg.start_soon(one, i)
    return time.perf_counter() - start, steps


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def runtime_concurrent(
    workload: Workload,
    url: str,
    runs: int,
    sample_rss: bool = False,
    timer: bool = False,
    max_busy_runs: int | None = None,
) -> dict[str, float]:
    store = open_store(url)
    n = len(workload.pages)
    steps = 0
    peak = 0
    lateness: list[float] = []
    bound = {} if max_busy_runs is None else {"max_busy_runs": max_busy_runs}  # None: the default
    runtime = Runtime(store=store, tools=workload.tools(), policy=workload.policy(), **bound)
    async with store, runtime as rt:
        await rt.run(question(0, n))  # a warm-up run (a fresh id: a stored run never takes a second start)
        gc.collect()
        base = rss_kb()
        done = anyio.Event()

        async def one(i: int) -> None:
            nonlocal steps
            outcome = await rt.run(question(i, n))
            steps += outcome.steps

        async def sampler() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, rss_kb())
                await anyio.sleep(0.005)

        async def ticker() -> None:
            # A 10 ms timer beside the runs: how late it fires is how long the loop was held.
            while not done.is_set():
                asked = time.perf_counter()
                await anyio.sleep(TIMER_S)
                lateness.append(time.perf_counter() - asked - TIMER_S)

        start = time.perf_counter()
        async with anyio.create_task_group() as outer:
            if sample_rss:
                outer.start_soon(sampler)
            if timer:
                outer.start_soon(ticker)
            async with anyio.create_task_group() as tg:
                for i in range(runs):
                    tg.start_soon(one, i)
            elapsed = time.perf_counter() - start
            done.set()
    return {
        "seconds": elapsed,
        "steps": steps,
        "runs_per_s": runs / elapsed,
        "us_per_step": elapsed / steps * 1e6,
        "peak_rss_kb_above_base": max(0, peak - base),
        "timer_fired": len(lateness),
        "timer_late_p50_ms": percentile(lateness, 0.5) * 1e3,
        "timer_late_p99_ms": percentile(lateness, 0.99) * 1e3,
        "timer_late_max_ms": max(lateness, default=0.0) * 1e3,
    }


async def main(args: argparse.Namespace) -> None:
    workload = Workload.build(args.pages)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        stores = {
            "memory": "memory://",
            "sqlite": f"sqlite:///{folder}/b2.db",
            "sqlite-full": f"sqlite:///{folder}/b2full.db?synchronous=full",
        }
        postgres = postgres_if_reachable() if args.backend == "asyncio" and not args.no_postgres else None
        if postgres:
            stores["postgresql"] = postgres
        for url in args.store or ():
            stores[url.split(":", 1)[0]] = url
        floor_seconds, floor_steps = await floor_concurrent(workload, args.concurrent)
        floor = floor_seconds / floor_steps * 1e6
        b2: dict[str, dict[str, float]] = {}
        for name, url in stores.items():
            figures = await runtime_concurrent(workload, url, args.concurrent)
            b2[name] = {
                "us_per_step": round(figures["us_per_step"], 1),
                "overhead_us_per_step": round(figures["us_per_step"] - floor, 1),
            }
        full_vs_default = b2["sqlite-full"]["us_per_step"] / b2["sqlite"]["us_per_step"]

        fast = await runtime_concurrent(
            workload,
            f"sqlite:///{folder}/b3fast.db",
            args.hidden,
            timer=True,
            max_busy_runs=args.max_busy_runs,
        )
        slow_workload = Workload.build(args.pages, args.latency_ms)
        slow = await runtime_concurrent(
            slow_workload,
            f"sqlite:///{folder}/b3slow.db",
            args.hidden,
            sample_rss=True,
            timer=True,
            max_busy_runs=args.max_busy_runs,
        )
        unbounded = None
        if args.unbounded:
            unbounded = await runtime_concurrent(
                workload, f"sqlite:///{folder}/b8open.db", args.hidden, timer=True, max_busy_runs=args.hidden
            )
    ratio = slow["runs_per_s"] / fast["runs_per_s"]
    b8 = {
        "timer_ms": TIMER_S * 1e3,
        "max_busy_runs": args.max_busy_runs or f"default ({DEFAULT_MAX_BUSY_RUNS})",
        "zero_latency": lateness(fast),
        f"latency_{args.latency_ms:g}ms": lateness(slow),
        "target": "p99 lateness <= 200 ms beside the zero-latency runs",
        "met": fast["timer_late_p99_ms"] <= 200,
    }
    if unbounded is not None:
        b8["unbounded_zero_latency"] = {
            **lateness(unbounded),
            "runs_per_s": round(unbounded["runs_per_s"], 1),
        }
        b8["p99_unbounded_vs_bounded"] = round(
            unbounded["timer_late_p99_ms"] / max(fast["timer_late_p99_ms"], 1e-3), 1
        )
    per_run_kb = slow["peak_rss_kb_above_base"] / args.hidden
    emit(
        {
            "bench": "B2/B3 concurrency",
            "params": {
                "concurrent": args.concurrent,
                "hidden": args.hidden,
                "latency_ms": args.latency_ms,
                "pages": args.pages,
                "backend": args.backend,
                "b3_store": "sqlite (WAL, synchronous=NORMAL)",
                "max_busy_runs": args.max_busy_runs or f"default ({DEFAULT_MAX_BUSY_RUNS})",
            },
            "versions": versions(),
            "b2": {
                "floor_us_per_step": round(floor, 1),
                "stores": b2,
                "sqlite_full_vs_default": round(full_vs_default, 2),
                "target": "full durability within 2x of the default",
                "met": full_vs_default <= 2,
            },
            "b3": {
                "zero_latency_runs_per_s": round(fast["runs_per_s"], 1),
                "latency_runs_per_s": round(slow["runs_per_s"], 1),
                "ratio": round(ratio, 3),
                "peak_rss_kb_per_in_flight_run": round(per_run_kb, 2),
                "target": "ratio >= 0.8; <= 20 KB per in-flight run",
                "met": ratio >= 0.8 and per_run_kb <= 20,
            },
            "b8": b8,
        }
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--concurrent", type=int, default=1000)
    parser.add_argument("--hidden", type=int, default=10000)
    parser.add_argument("--latency-ms", type=float, default=20.0)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--store", action="append", help="an extra store URL for B2 (e.g. postgresql://...)")
    parser.add_argument("--backend", choices=("asyncio", "trio"), default="asyncio")
    parser.add_argument(
        "--no-postgres", action="store_true", help="skip PostgreSQL even when it is reachable"
    )
    parser.add_argument(
        "--max-busy-runs", type=int, help="Runtime(max_busy_runs=...); its default if not given"
    )
    parser.add_argument(
        "--unbounded", action="store_true", help="B8 also without admission (one more 10,000-run pass)"
    )
    arguments = parser.parse_args()
    anyio.run(main, arguments, backend=arguments.backend)
