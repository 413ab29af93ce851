"""Crash stress: SIGKILL a process of concurrent appenders many times; check the log after each kill.

    python bench/crash_stress.py --kills 1000 [--store sqlite --store sqlite-full --store jsonl]
        [--appenders 8] [--max-delay 0.2] [--rotate 100] [--seed 1]

The child is forked (the imports are warm, so a kill costs milliseconds) and runs
`--appenders` tasks that append to ONE store at once, each to runs of its own, in
batches of 1-3 events: the store's group commit then holds several appends when the
kill lands. Event bodies of 0.5-8 KB give each child life megabytes of WAL, so SQLite
checkpoints run (and are killed) too; the script counts the kills during which the
database file grew, which in WAL mode only a checkpoint does. Each appender reports an
acknowledgement on a pipe only after its append returned.

After every kill the parent opens the store and checks, without `assert` (so `python -O`
checks the same):

- every acknowledged event is stored, and every stored event of the child's runs,
  acknowledged or not, is byte for byte the event its appender sent (an event is a pure
  function of its run id and seq, so the parent rebuilds it);
- every run's seqs are 0..n-1 and its summary counts n events;
- SQLite: `PRAGMA integrity_check` says ok.

Prints one JSON line. Any failure sets `"ok": false`, lists the first problems and exits 1.
A store is started afresh every `--rotate` kills so that the checks stay cheap.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import anyio
import structlog
from _workload import versions
from citeloop.events import Event, open_store
from citeloop.events.testing import make_run_started, make_step

BATCHES = (1, 2, 3, 1, 2, 3, 2, 1)  # a run is its start, then these batch sizes: 16 events
STORES = ("sqlite", "sqlite-full", "jsonl")
MAX_PROBLEMS = 10


def expected_event(run_id: str, seq: int) -> Event:
    """The event an appender sends at `seq` of `run_id`: a pure function of the two."""
    if seq == 0:
        return make_run_started(run_id)
    digest = hashlib.sha256(f"{run_id}/{seq}".encode()).hexdigest()
    size = 512 + int(digest[:4], 16) % 7680  # 0.5-8 KB
    return make_step(run_id, seq, (digest * (size // 64 + 1))[:size])


def encoded(event: Event) -> bytes:
    return event.__pydantic_serializer__.to_json(event)


# -- the child ---------------------------------------------------------------------------


async def appender(store: object, tag: str, out: int) -> None:
    run = 0
    while True:
        run_id = f"{tag}-{run}"
        seq = 0
        for size in (1, *BATCHES):
            batch = [expected_event(run_id, seq + i) for i in range(size)]
            await store.append(run_id, batch, seq)  # type: ignore[attr-defined]
            seq += size
            os.write(out, f"{run_id} {seq - 1}\n".encode())
        run += 1


async def append_forever(url: str, tag: str, appenders: int, out: int) -> None:
    async with open_store(url) as store:
        os.write(out, b"ready\n")
        async with anyio.create_task_group() as group:
            for i in range(appenders):
                group.start_soon(appender, store, f"{tag}.{i}", out)


def kill_at_random(
    url: str, tag: str, appenders: int, rng: random.Random, max_delay: float
) -> tuple[dict[str, int], str | None]:
    """Fork the appenders, SIGKILL them at a random moment; ({run_id: last acked seq}, problem)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into the caller's code
        try:
            os.close(read_end)
            anyio.run(append_forever, url, tag, appenders, write_end)
        finally:
            os._exit(1)
    os.close(write_end)
    data = b""
    while not data.startswith(b"ready\n"):
        chunk = os.read(read_end, 65536)
        if not chunk:
            os.waitpid(pid, 0)
            os.close(read_end)
            return {}, f"{tag}: the child died before it was ready"
        data += chunk
    time.sleep(rng.uniform(0.0, max_delay))
    os.kill(pid, signal.SIGKILL)
    while chunk := os.read(read_end, 65536):
        data += chunk
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    problem = None
    if not os.WIFSIGNALED(status) or os.WTERMSIG(status) != signal.SIGKILL:
        problem = f"{tag}: the child ended by itself (status {status}) before it was killed"
    acked: dict[str, int] = {}
    for line in data.split(b"\n")[1:-1]:  # skip `ready`; the last piece may be a cut line
        run_id, seq = line.decode().split()
        acked[run_id] = max(acked.get(run_id, -1), int(seq))
    return acked, problem


# -- the checks --------------------------------------------------------------------------


async def verify(url: str, tag: str, acked: dict[str, int]) -> tuple[list[str], int, int]:
    """Check the store after the kill of child `tag`: (problems, runs checked, events stored)."""
    problems: list[str] = []
    async with open_store(url) as store:
        summaries = await store.runs()
        counts = {summary.run_id: summary.events for summary in summaries}
        mine = {run_id for run_id in counts if run_id.startswith(f"{tag}.")} | set(acked)
        for run_id in sorted(mine):
            events = await store.read(run_id)
            if counts.get(run_id) != len(events):
                problems.append(f"{run_id}: summary says {counts.get(run_id)} events, read {len(events)}")
            if run_id in acked and len(events) <= acked[run_id]:
                problems.append(f"{run_id}: acknowledged seq {acked[run_id]} lost ({len(events)} stored)")
            for position, event in enumerate(events):
                if event.seq != position or event.run_id != run_id:
                    problems.append(f"{run_id}: event {position} is {event.run_id!r} seq {event.seq}")
                    break
                if encoded(event) != encoded(expected_event(run_id, position)):
                    problems.append(f"{run_id}: seq {position} differs from what its appender sent")
                    break
        return problems, len(mine), sum(counts.values())


def integrity(db: Path) -> str | None:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    conn.close()
    return None if rows == [("ok",)] else f"integrity_check: {rows[:3]}"


def stress(kind: str, args: argparse.Namespace) -> dict[str, object]:
    rng = random.Random(f"{args.seed}/{kind}")
    problems: list[str] = []
    acked_events = stored_events = checkpointed = runs_checked = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="citeloop-crash-") as tmp:
        kill = 0
        while kill < args.kills and not problems:
            db = Path(tmp) / f"runs-{kill // args.rotate}.db"
            url = {
                "sqlite": f"sqlite:///{db}",
                "sqlite-full": f"sqlite:///{db}?synchronous=full",
                "jsonl": f"jsonl:///{tmp}/log-{kill // args.rotate}.jsonl",
            }[kind]
            before = db.stat().st_size if db.exists() else 0
            tag = f"k{kill}"
            acked: dict[str, int] = {}
            runs = stored = 0
            try:
                acked, problem = kill_at_random(url, tag, args.appenders, rng, args.max_delay)
                if problem:
                    problems.append(problem)
                if kind != "jsonl" and db.exists() and db.stat().st_size > before:
                    checkpointed += 1  # in WAL mode the database file grows only by a checkpoint
                found, runs, stored = anyio.run(verify, url, tag, acked)
                problems += found
                if kind != "jsonl":
                    bad = integrity(db)
                    if bad:
                        problems.append(f"{tag}: {bad}")
            except Exception as exc:  # a store that cannot even be opened is a failure, reported
                problems.append(f"{tag}: {type(exc).__name__}: {exc}")
            acked_events += sum(last + 1 for last in acked.values())
            runs_checked += runs
            kill += 1
            if kill % args.rotate == 0 or kill == args.kills:
                stored_events += stored
    if kind != "jsonl" and args.kills >= 20 and checkpointed == 0:
        problems.append("no kill saw a WAL checkpoint: the run did not exercise them")
    return {
        "store": kind,
        "kills": kill,
        "appenders": args.appenders,
        "acked_events": acked_events,
        "stored_events": stored_events,
        "runs_checked": runs_checked,
        "kills_during_which_a_checkpoint_ran": checkpointed if kind != "jsonl" else None,
        "seconds": round(time.perf_counter() - started, 2),
        "problems": problems[:MAX_PROBLEMS],
        "ok": not problems,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=100, help="kills per store")
    parser.add_argument("--store", choices=STORES, action="append")
    parser.add_argument("--appenders", type=int, default=8, help="concurrent appenders in the child")
    parser.add_argument("--max-delay", type=float, default=0.2, help="longest wait before a kill, s")
    parser.add_argument("--rotate", type=int, default=100, help="kills per store file")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # The stores' warnings (a torn JSONL tail repaired after a kill) go to stderr: stdout
    # carries the one JSON line.
    structlog.configure(logger_factory=structlog.PrintLoggerFactory(sys.stderr))
    if args.kills < 1 or args.appenders < 1 or args.rotate < 1:
        parser.error("--kills, --appenders and --rotate must be at least 1")
    kinds = args.store or STORES
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:  # import every store now: the whole run tests one version of the code
            anyio.run(
                verify, f"jsonl:///{tmp}/warm.jsonl" if kind == "jsonl" else f"sqlite:///{tmp}/w.db", "w", {}
            )
    results = []
    for kind in kinds:
        result = stress(kind, args)
        results.append(result)
        print(
            f"{kind}: {result['kills']} kills, {result['acked_events']} acknowledged, "
            f"{'ok' if result['ok'] else 'FAILED: ' + '; '.join(result['problems'])}",  # type: ignore[arg-type]
            file=sys.stderr,
        )
    ok = all(result["ok"] for result in results)
    print(
        json.dumps(
            {
                "bench": "crash-stress",
                "params": vars(args),
                "versions": versions(),
                "results": results,
                "ok": ok,
            }
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
