"""B4: reopen (read + decode + fold) of a stored SQLite log vs the floor (read + orjson.loads).

Builds a SQLite log of `--events` events (standard runs of 9 events, ≈ 600 B each),
then, run by run, through the same read path:
- floor:  SELECT the run's rows, `orjson.loads` each body (no validation, no fold);
- reopen: SELECT the run's rows, `decode_events` (one validator call), check the hash
  chain over the rows' bytes (one sha256 per event, as the stores' `read` does), `fold`;
- reopen_unchained_check: the same without the chain check (the path before the chain).
The log is chained (every event names its predecessor's sha256) unless `--unchained`.
Also `store.read` + `fold` through the async store API, and the reopen time at N/4,
N/2 and N events (linearity). Target (docs/benchmarks.md): reopen <= 1.5x floor on >= 1,000,000
events; the default N is smaller to finish in under a minute; `--events 1000000`.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import orjson

sys.path.insert(0, str(Path(__file__).parent))
from _workload import run_events, versions
from citeloop.events import chain_hash, decode_events, encode_event, open_store
from citeloop.events._chain import first_break  # the stores' read path, measured as they run it
from citeloop.runtime import fold

TEMPLATE_ID = "run-0000000"  # same length as every generated run id, so bytes can be swapped in


def _chained(bodies: list[bytes]) -> list[bytes]:
    """Each body with `"prev"` (the previous body's sha256) where encode_event puts it: after `at`."""
    out: list[bytes] = []
    for body in bodies:
        if out:
            at_end = body.index(b',"type":')
            body = body[:at_end] + b',"prev":"' + chain_hash(out[-1]).encode() + b'"' + body[at_end:]
        out.append(body)
    return out


def build(path: Path, events: int, corpus: int, chained: bool = True) -> list[str]:
    """Write `events` rows (whole runs) straight into the store's schema; return the run ids."""

    async def create() -> None:  # let the store create its schema
        async with open_store(f"sqlite:///{path}"):
            pass

    anyio.run(create)
    templates = []
    for k in range(corpus):
        run = run_events(TEMPLATE_ID, k)
        templates.append([(e.seq, e.type, encode_event(e)) for e in run])
    per_run = len(templates[0])
    run_ids = [f"run-{i:07d}" for i in range(-(-events // per_run))]  # whole runs, at least `events`
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    tpl = TEMPLATE_ID.encode()
    for i, run_id in enumerate(run_ids):
        rid = run_id.encode()
        template = templates[i % corpus]
        bodies = [body.replace(tpl, rid) for _, _, body in template]
        if chained:
            bodies = _chained(bodies)
        rows = [(run_id, seq, typ, body) for (seq, typ, _), body in zip(template, bodies, strict=True)]
        conn.executemany("INSERT INTO events (run_id, seq, type, body) VALUES (?, ?, ?, ?)", rows)
        conn.execute(
            "INSERT INTO runs VALUES (?, ?, 'answered', '2025-01-01T00:00:00+00:00')",
            (run_id, f"Who founded Company {i % corpus}?"),
        )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return run_ids


def timed(path: Path, run_ids: list[str], work: Callable[[list[bytes]], object]) -> tuple[float, int]:
    conn = sqlite3.connect(path)
    query = "SELECT body FROM events WHERE run_id = ? AND seq > ? ORDER BY seq"
    count = 0
    started = time.perf_counter()
    for run_id in run_ids:
        rows = [row[0] for row in conn.execute(query, (run_id, -1))]
        count += len(rows)
        work(rows)
    elapsed = time.perf_counter() - started
    conn.close()
    return elapsed, count


def floor(rows: list[bytes]) -> object:
    return [orjson.loads(row) for row in rows]


def reopen(rows: list[bytes]) -> object:
    events = decode_events(rows)
    if first_break(events, rows) is not None:
        raise AssertionError("the benchmark's log breaks its chain")
    return fold(events)


def reopen_unchained_check(rows: list[bytes]) -> object:
    return fold(decode_events(rows))


async def via_store(path: Path, run_ids: list[str]) -> float:
    async with open_store(f"sqlite:///{path}") as store:
        started = time.perf_counter()
        for run_id in run_ids:
            fold(await store.read(run_id))
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=200_000, help="log size (the target needs 1000000)")
    parser.add_argument("--corpus", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many passes")
    parser.add_argument("--unchained", action="store_true", help="a log written before the hash chain")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="citeloop-b4-") as tmp:
        path = Path(tmp) / "log.db"
        started = time.perf_counter()
        run_ids = build(path, args.events, args.corpus, chained=not args.unchained)
        build_s = time.perf_counter() - started
        timed(path, run_ids, lambda rows: None)  # warm the page cache

        # Floor and reopen passes alternate, and each figure is the best of `--repeat`, so
        # both see the same machine (a shared, noisy one): the ratio compares like with like.
        kinds: dict[str, Callable[[list[bytes]], object]] = {
            "read": lambda rows: None,
            "floor": floor,
            "decode": decode_events,
            "reopen": reopen,
            "reopen_unchained_check": reopen_unchained_check,
        }
        shares = {"quarter": run_ids[: len(run_ids) // 4], "half": run_ids[: len(run_ids) // 2]}
        best: dict[str, tuple[float, int]] = {}
        for _ in range(args.repeat):
            for name, work in kinds.items():
                best[name] = min(best.get(name, (float("inf"), 0)), timed(path, run_ids, work))
            for name, ids in shares.items():
                best[name] = min(best.get(name, (float("inf"), 0)), timed(path, ids, reopen))
            best["store"] = min(
                best.get("store", (float("inf"), 0)), (anyio.run(via_store, path, run_ids), 0)
            )
        (read_only_s, n), (floor_s, _), (decode_s, _), (reopen_s, _) = (
            best["read"],
            best["floor"],
            best["decode"],
            best["reopen"],
        )
        store_s = best["store"][0]
        linear = {}
        for name in ("quarter", "half"):
            secs, count = best[name]
            linear[name] = {
                "events": count,
                "seconds": round(secs, 3),
                "us_per_event": round(secs / count * 1e6, 3),
            }
        linear["full"] = {
            "events": n,
            "seconds": round(reopen_s, 3),
            "us_per_event": round(reopen_s / n * 1e6, 3),
        }
    ratio = reopen_s / floor_s
    line: dict[str, Any] = {
        "bench": "B4-replay",
        "params": {
            "events": n,
            "runs": len(run_ids),
            "events_per_run": n // len(run_ids),
            "corpus": args.corpus,
            "repeat": args.repeat,
            "store": "sqlite (WAL)",
            "chained": not args.unchained,
        },
        "versions": versions(),
        "build_seconds": round(build_s, 2),
        "read_rows_seconds": round(read_only_s, 3),
        "floor_seconds": round(floor_s, 3),
        "decode_only_seconds": round(decode_s, 3),
        "reopen_seconds": round(reopen_s, 3),
        "reopen_without_chain_check_seconds": round(best["reopen_unchained_check"][0], 3),
        "ratio_without_chain_check": round(best["reopen_unchained_check"][0] / floor_s, 3),
        "ratio_reopen_to_floor": round(ratio, 3),
        "store_read_plus_fold_seconds": round(store_s, 3),
        "ratio_store_api_to_floor": round(store_s / floor_s, 3),
        "us_per_event": {
            "read": round(read_only_s / n * 1e6, 3),
            "floor": round(floor_s / n * 1e6, 3),
            "read_decode": round(decode_s / n * 1e6, 3),
            "reopen": round(reopen_s / n * 1e6, 3),
        },
        "linearity": linear,
        "target": {
            "ratio_max": 1.5,
            "met": ratio <= 1.5,
            "events_min": 1_000_000,
            "size_sufficient": n >= 1_000_000,
        },
    }
    print(f"floor {floor_s:.2f}s  reopen {reopen_s:.2f}s  ratio {ratio:.2f}  (n={n})", file=sys.stderr)
    print(json.dumps(line))


if __name__ == "__main__":
    main()
