"""Instructions per iteration of the runtime's hot paths, under callgrind: load-independent figures.

Wall-clock figures move with whatever else runs on a shared machine; instruction counts do
not. Each scenario runs `--lo` and `--hi` iterations in a child interpreter under
`valgrind --tool=callgrind`, and (hi - lo) / (hi - lo iterations) is the cost of one
iteration: imports, set-up and warm-up cancel out. The collector is frozen after set-up
(`gc.freeze`), so a full collection of the imported modules does not land in one count and
not the other.

Scenarios (the standard workload, docs/benchmarks.md):
- `fold_run`: `fold` of a finished 9-event run (the fold of every reopen, B4);
- `fold_one`: the 9 one-event folds of that run (the loop's fold per append);
- `gate`: `validate_finish` on an accepted single-quote finish over the run's opened page (B6);
- `stamp`: `stamp_chain` of the run's 9 events (copy, encode, sha256);
- `decode`: `decode_events` of the run's 9 stored rows;
- `read_sqlite` / `reopen_sqlite`: `store.read` / `Runtime.reopen` of a finished run from SQLite;
- `run_mem` / `run_sqlite`: one whole 3-step run on the memory store / on SQLite (WAL, NORMAL).

    python bench/hot_paths.py [--scenario fold_run ...]       # needs valgrind; ~1 min a scenario
    python bench/hot_paths.py --child SCENARIO N               # one count's process (what it runs)

To compare two trees, run it with each on the import path (a worktree and `PYTHONPATH`).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).parent))
from _standard import Workload, emit, question, versions

# (lo, hi) iterations: enough that the difference dwarfs the noise of one process's set-up.
ITERATIONS: dict[str, tuple[int, int]] = {
    "fold_run": (100, 1100),
    "fold_one": (100, 600),
    "gate": (200, 2200),
    "stamp": (200, 2200),
    "decode": (200, 2200),
    "read_sqlite": (50, 550),
    "reopen_sqlite": (50, 550),
    "run_mem": (20, 220),
    "run_sqlite": (20, 220),
}
_IN_MEMORY = ("fold_run", "fold_one", "gate", "stamp", "decode")


async def child(scenario: str, n: int) -> None:
    from citeloop.events import decode_events, encode_event, open_store, stamp_chain
    from citeloop.runtime import Runtime, fold, validate_finish
    from citeloop.runtime._fold import apply

    folder = tempfile.mkdtemp(prefix="hot-paths-")
    workload = Workload.build(200)
    if scenario in ("run_mem", "run_sqlite"):
        url = "memory://" if scenario == "run_mem" else f"sqlite:///{folder}/runs.db"
        store = open_store(url)
        async with store, Runtime(store=store, tools=workload.tools(), policy=workload.policy()) as rt:
            for i in range(20):  # warm-up: every cache and the page bodies of the first runs
                await rt.run(question(i, 200))
            gc.collect()
            gc.freeze()
            for i in range(n):
                await rt.run(question(i, 200))
        return
    store = open_store("memory://" if scenario in _IN_MEMORY else f"sqlite:///{folder}/runs.db")
    async with store, Runtime(store=store, tools=workload.tools(), policy=workload.policy()) as rt:
        run_ids = [(await rt.run(question(i, 200))).run_id for i in range(40)]
        events = await store.read(run_ids[0])
        gc.collect()
        gc.freeze()
        if scenario == "fold_run":
            for _ in range(n):
                fold(events)
        elif scenario == "fold_one":
            pairs = [(fold(events[:i]), event) for i, event in enumerate(events)]
            for _ in range(n):
                for state, event in pairs:
                    apply(state, event)
        elif scenario == "gate":
            state = fold(events)
            opened = state.opened_bodies()
            url = next(iter(state.opened))
            evidence = state.opened[url].body.split(". ", 1)[0] + "."
            payload: dict[str, Any] = {
                "answer": "Person 0",
                "citations": [url],
                "cannot_answer": False,
                "evidence": evidence,
            }
            assert validate_finish(payload, opened) is None
            for _ in range(n):
                validate_finish(payload, opened)
        elif scenario == "stamp":
            fresh = [event.model_copy(update={"prev": None}) for event in events]
            for _ in range(n):
                stamp_chain(fresh, None)
        elif scenario == "decode":
            rows = [encode_event(event) for event in events]
            for _ in range(n):
                decode_events(rows)
        elif scenario == "read_sqlite":
            for i in range(n):
                await store.read(run_ids[i % 40])
        elif scenario == "reopen_sqlite":
            for i in range(n):
                await rt.reopen(run_ids[i % 40])
        else:
            raise SystemExit(f"unknown scenario {scenario!r}")


def count(scenario: str, n: int) -> int:
    """Instructions of one child process running `scenario` `n` times."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        scenario,
        str(n),
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{scenario}: valgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenario", action="append", choices=sorted(ITERATIONS))
    parser.add_argument("--child", nargs=2, metavar=("SCENARIO", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        anyio.run(child, args.child[0], int(args.child[1]))
        return
    figures: dict[str, int] = {}
    for scenario in args.scenario or list(ITERATIONS):
        lo, hi = ITERATIONS[scenario]
        figures[scenario] = (count(scenario, hi) - count(scenario, lo)) // (hi - lo)
        print(f"{scenario:14s} {figures[scenario]:>12,} instructions per iteration", file=sys.stderr)
    import citeloop.runtime

    emit(
        {
            "bench": "hot_paths",
            "unit": "instructions per iteration (callgrind)",
            "tree": str(Path(citeloop.runtime.__file__).parent.parent),
            "iterations": {name: ITERATIONS[name] for name in figures},
            "versions": versions(),
            "figures": figures,
        }
    )


if __name__ == "__main__":
    main()
