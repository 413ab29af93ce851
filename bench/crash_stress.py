"""Crash stress: SIGKILL an appending child many times against SQLite and JSONL, check after each.

    python bench/crash_stress.py --kills 500 [--store sqlite --store jsonl] [--max-delay 0.05]

Prints one JSON line: kills, acknowledged and stored events per store, seconds. Any lost
acknowledged event, seq gap or failed `PRAGMA integrity_check` stops it with an error.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent / "tests"), str(Path(__file__).parent)]
from _workload import versions  # noqa: E402
from test_crash_kill import check_after_kills  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=100, help="kills per store")
    parser.add_argument("--store", choices=("sqlite", "jsonl"), action="append")
    parser.add_argument("--max-delay", type=float, default=0.05, help="longest wait before a kill, s")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = []
    for kind in args.store or ["sqlite", "jsonl"]:
        with tempfile.TemporaryDirectory(prefix="citeloop-crash-") as tmp:
            db = Path(tmp) / "runs.db"
            url = f"sqlite:///{db}" if kind == "sqlite" else f"jsonl:///{tmp}/log.jsonl"
            started = time.perf_counter()
            acked, stored = check_after_kills(
                url, db if kind == "sqlite" else None, args.kills, args.seed, args.max_delay
            )
            seconds = round(time.perf_counter() - started, 2)
        results.append(
            {
                "store": kind,
                "kills": args.kills,
                "acked_events": acked,
                "stored_events": stored,
                "seconds": seconds,
            }
        )
        print(
            f"{kind}: {args.kills} kills, {acked} acknowledged, {stored} stored, none lost", file=sys.stderr
        )
    print(
        json.dumps(
            {
                "bench": "crash-stress",
                "params": vars(args),
                "versions": versions(),
                "results": results,
                "ok": True,
            }
        )
    )


if __name__ == "__main__":
    main()
