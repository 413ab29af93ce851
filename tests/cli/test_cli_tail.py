"""`citeloop tail` (issue 15): continuing from a position, and outliving a PostgreSQL restart.

The restart is the server dropping the tail's connections: `pg_terminate_backend` on every
backend the tail holds (found by an `application_name` of its own), while another process
keeps appending. What the tail printed must then be every event exactly once, in order.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest
from citeloop.events import Event, EventStore, open_store
from citeloop.events.testing import make_run_started, make_step
from helpers.cli import require_citeloop, run_citeloop
from helpers.postgres import postgres_url, server_url

__all__ = ["postgres_url"]  # the fixture, imported so that pytest finds it here

FOUNDED = "Who founded Acme Robotics?"
HANG_GUARD = 60.0  # seconds before a missing line fails the test instead of hanging it


class Tail:
    """A `citeloop tail` subprocess whose stdout lines are collected as they come."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [str(require_citeloop()), "tail", *args],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.lines: list[dict[str, object]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def wait_for(self, count: int) -> list[dict[str, object]]:
        """The first `count` lines, parsed (fails, rather than hangs, when they do not come)."""
        while len(self.lines) < count:
            try:
                line = self._lines.get(timeout=HANG_GUARD)
            except queue.Empty:
                pytest.fail(f"tail printed {len(self.lines)} of {count} lines; stderr: {self.stop()}")
            if line is None:
                pytest.fail(f"tail ended after {len(self.lines)} of {count} lines; stderr: {self.stop()}")
            self.lines.append(json.loads(line))
        return self.lines[:count]

    def close(self) -> None:
        """Kill the tail if it still runs and close its pipes, so that no file outlives the test."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._reader.join(timeout=HANG_GUARD)  # it ends at the killed process's end of output
        for pipe in (self.process.stdout, self.process.stderr):
            if pipe is not None:
                pipe.close()

    def stop(self) -> str:
        """Ctrl-C the tail (if it still runs) and return its stderr."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=HANG_GUARD)
        return err


@contextmanager
def tailing(args: list[str], cwd: Path) -> Iterator[Tail]:
    tail = Tail(args, cwd)
    try:
        yield tail
    finally:
        tail.close()


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "CITELOOP_STORE": f"sqlite:///{tmp_path}/runs.db"}


def _ask(tmp_path: Path) -> str:
    asked = run_citeloop("ask", FOUNDED, "--json", cwd=tmp_path, env=_env(tmp_path))
    assert asked.returncode == 0, asked.stderr
    return str(json.loads(asked.stdout)["run_id"])


def test_tail_run_after_a_seq_prints_only_what_follows_it(tmp_path: Path) -> None:
    run_id = _ask(tmp_path)
    whole = run_citeloop("tail", run_id, "--from-start", cwd=tmp_path, env=_env(tmp_path))
    seqs = [json.loads(line)["seq"] for line in whole.stdout.splitlines()]
    assert seqs == list(range(len(seqs))) and len(seqs) > 3
    rest = run_citeloop("tail", run_id[:6], "--after", "2", cwd=tmp_path, env=_env(tmp_path))
    assert rest.returncode == 0, rest.stderr
    assert [json.loads(line)["seq"] for line in rest.stdout.splitlines()] == seqs[3:]
    # After the terminal event there is nothing to wait for: it ends at once, printing nothing.
    done = run_citeloop("tail", run_id, "--after", str(seqs[-1]), cwd=tmp_path, env=_env(tmp_path))
    assert done.returncode == 0 and done.stdout == "", done.stderr


def test_tail_lines_carry_positions_and_after_continues_from_one(tmp_path: Path) -> None:
    first, second = _ask(tmp_path), _ask(tmp_path)
    store = _env(tmp_path)["CITELOOP_STORE"]
    with tailing(["--from-start", "--store", store], tmp_path) as tail:
        every = iter_until_both(tail, first, second)
        tail.stop()
    positions = [int(str(line["position"])) for line in every]
    assert positions == sorted(set(positions))
    middle = positions[len(positions) // 2]
    with tailing(["--after", str(middle), "--store", store], tmp_path) as tail:
        expected = [line for line in every if int(str(line["position"])) > middle]
        assert tail.wait_for(len(expected)) == expected
        tail.stop()


def _has_open(pid: int, path: Path) -> bool:
    target = str(path.resolve())
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd) == target:
                return True
        except FileNotFoundError:  # closed between the listing and the read: not this one
            continue
    return False


def test_a_live_tail_starts_at_the_head_and_prints_no_history(tmp_path: Path) -> None:
    # Without --from-start the tail follows from the store's head (head_position), never
    # reading the history: the finished run's events must not appear, a later run's must.
    old = _ask(tmp_path)
    store = _env(tmp_path)["CITELOOP_STORE"]
    with tailing(["--store", store], tmp_path) as tail:
        # Once the tail holds the database open it asks for the head at once; a new `ask`
        # needs far longer to start than that, so what it appends comes after the head.
        deadline = time.monotonic() + HANG_GUARD
        while not _has_open(tail.process.pid, tmp_path / "runs.db"):
            assert time.monotonic() < deadline, f"the tail never opened the store: {tail.stop()}"
            time.sleep(0.05)
        new = _ask(tmp_path)
        lines = iter_until_both(tail, new)
        tail.stop()
    assert {line["run_id"] for line in lines} == {new} and old != new
    assert [line["seq"] for line in lines] == list(range(len(lines)))  # the whole new run, in order


def iter_until_both(tail: Tail, *run_ids: str) -> list[dict[str, object]]:
    """Lines until every named run's terminal event has been printed."""
    count = 1
    while True:
        lines = tail.wait_for(count)
        ended = {line["run_id"] for line in lines if line["type"] in ("Answered", "Abstained")}
        if ended >= set(run_ids):
            return lines
        count += 1


def test_tail_refuses_a_bad_after(tmp_path: Path) -> None:
    for args in (["--after", "-3"], ["--after", "2", "--from-start"]):
        done = run_citeloop("tail", *args, cwd=tmp_path, env=_env(tmp_path))
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
        assert "--after" in done.stderr


# -- PostgreSQL: the server drops the tail's connections ----------------------------------


def _terminate(name: str, already: set[int]) -> set[int]:
    """Terminate the backends of `application_name` = name, once at least one new one exists."""
    import psycopg

    deadline = time.monotonic() + HANG_GUARD
    with psycopg.connect(server_url(), autocommit=True) as conn:
        while time.monotonic() < deadline:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (name,)
            ).fetchall()
            pids = {int(row[0]) for row in rows} - already
            if pids:
                for pid in pids:
                    conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
                return pids
            time.sleep(0.05)
    pytest.fail(f"the tail never connected again as {name}")


def _append(url: str, batches: list[list[Event]]) -> None:
    async def write() -> None:
        async with open_store(url) as store:
            for batch in batches:
                await _append_batch(store, batch)

    anyio.run(write, backend="asyncio")


async def _append_batch(store: EventStore, batch: list[Event]) -> None:
    await store.append(batch[0].run_id, batch, batch[0].seq)


def _stored_order(conninfo: str, schema: str) -> list[tuple[str, int]]:
    """Every stored event's (run, seq), in position order, read straight from the table."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(conninfo, autocommit=True) as conn:
        table = sql.Identifier(schema, "events")
        query = sql.SQL("SELECT run_id, seq FROM {} ORDER BY position").format(table)
        return [(str(run_id), int(seq)) for run_id, seq in conn.execute(query).fetchall()]


@pytest.mark.postgres
def test_tail_outlives_the_server_dropping_its_connections(tmp_path: Path, postgres_url: str) -> None:
    name = f"tail_{uuid.uuid4().hex[:10]}"
    tail_url = f"{postgres_url}&application_name={name}"
    runs = [f"run-{k}-{uuid.uuid4().hex[:6]}" for k in range(3)]
    _append(postgres_url, [[make_run_started(run)] for run in runs])  # the schema exists before the tail
    with (
        tailing(["--from-start", "--store", tail_url], tmp_path) as every,
        tailing([runs[0], "--from-start", "--store", tail_url], tmp_path) as one,
    ):
        every.wait_for(3)
        one.wait_for(1)
        killed: set[int] = set()
        seq = 1
        for _ in range(4):
            # Appended before and after the tails lose their connections.
            _append(postgres_url, [[make_step(run, seq), make_step(run, seq + 1)] for run in runs])
            killed |= _terminate(name, killed)
            _append(postgres_url, [[make_step(run, seq + 2)] for run in runs])
            seq += 3
        expected = _stored_order(server_url(), postgres_url.rsplit("schema=", 1)[1])
        assert len(expected) == 3 * seq
        printed = every.wait_for(len(expected))
        assert [(line["run_id"], line["seq"]) for line in printed] == expected
        positions = [int(str(line["position"])) for line in printed]
        assert positions == sorted(set(positions))
        assert [line["seq"] for line in one.wait_for(seq)] == list(range(seq))
        errors = every.stop() + one.stop()
    assert len(every.lines) == len(expected)  # nothing more came before the stop, nothing twice
    assert "postgres_subscription_lost" in errors and "postgres_subscription_reconnected" in errors
    assert "Traceback" not in errors


@pytest.mark.postgres
def test_tail_of_a_postgresql_schema_holding_no_store_is_one_line(tmp_path: Path, postgres_url: str) -> None:
    done = run_citeloop("tail", "--store", postgres_url, cwd=tmp_path, env=_env(tmp_path), timeout=60)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "no citeloop store in schema" in done.stderr


@pytest.mark.slow
@pytest.mark.postgres
def test_tail_continues_across_a_server_restart(tmp_path: Path) -> None:
    """A private server (tests/helpers/postgres_server.py) crashes and starts again under the tail."""
    from helpers.postgres_server import private_server

    with private_server() as server:
        runs = [f"run-{k}-{uuid.uuid4().hex[:6]}" for k in range(3)]
        _append(server.url, [[make_run_started(run)] for run in runs])
        with tailing(["--from-start", "--store", server.url], tmp_path) as every:
            _append(server.url, [[make_step(run, 1), make_step(run, 2)] for run in runs])
            every.wait_for(3 * len(runs))  # the tail is connected and following
            server.stop("immediate")  # every connection dropped, as in a crash
            server.start()
            _append(server.url, [[make_step(run, 3), make_step(run, 4)] for run in runs])
            expected = _stored_order(server.url, "citeloop")
            assert len(expected) == 5 * len(runs)
            printed = every.wait_for(len(expected))
            assert [(line["run_id"], line["seq"]) for line in printed] == expected
            errors = every.stop()
        assert len(every.lines) == len(expected)
        assert "postgres_subscription_lost" in errors and "postgres_subscription_reconnected" in errors
