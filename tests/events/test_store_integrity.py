"""Damage is an error, never a shorter run (JSONL records, SQLite pages); read-only opens change nothing."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import anyio
import pytest
from citeloop.events import (
    CorruptLogError,
    Event,
    StoreUnavailableError,
    UsageError,
    open_store,
)
from citeloop.events._jsonl import encode_record
from citeloop.events.testing import make_run_started, make_step
from structlog.testing import capture_logs

pytestmark = pytest.mark.anyio


async def _write(url: str, steps: int = 2) -> list[Event]:
    events: list[Event] = [make_run_started("a"), *(make_step("a", s) for s in range(1, steps + 1))]
    async with open_store(url) as store:
        await store.append("a", events[:1], 0)
        for event in events[1:]:
            await store.append("a", [event], event.seq)
    return events


# -- JSONL: a complete record is never a torn tail (item 4) ---------------------------------


async def test_jsonl_last_complete_record_with_a_flipped_bit_is_corruption(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    await _write(f"jsonl:///{path}")
    data = path.read_bytes()
    last = data.rindex(b"\n", 0, len(data) - 1) + 1
    damaged = data[:last] + data[last:].replace(b"query 2", b"query 3")
    path.write_bytes(damaged)
    for readonly in (True, False):
        match = rf"{path}: the record at byte {last} is complete but damaged"
        with pytest.raises(CorruptLogError, match=match):
            open_store(f"jsonl:///{path}", readonly=readonly)
    assert path.read_bytes() == damaged  # nothing acknowledged was dropped
    assert os.listdir(tmp_path) == [path.name]


async def test_jsonl_lost_newline_merging_the_last_records_is_corruption(tmp_path: Path) -> None:
    """A newline flipped between the last two records: one complete line that fails its checksum."""
    path = tmp_path / "log.jsonl"
    await _write(f"jsonl:///{path}")
    data = path.read_bytes()
    cut = data.rindex(b"\n", 0, len(data) - 1)
    path.write_bytes(data[:cut] + b" " + data[cut + 1 :])
    with pytest.raises(CorruptLogError, match="complete but damaged"):
        open_store(f"jsonl:///{path}")


async def test_jsonl_lost_final_newline_before_a_torn_tail_is_corruption(tmp_path: Path) -> None:
    """The last complete record lost its newline and runs into a torn write: not a tail to cut."""
    path = tmp_path / "log.jsonl"
    await _write(f"jsonl:///{path}")
    data = path.read_bytes()
    torn = encode_record([make_step("a", 3)])[:30]
    path.write_bytes(data[:-1] + torn)
    last = data.rindex(b"\n", 0, len(data) - 1) + 1
    with pytest.raises(CorruptLogError, match=f"record at byte {last} lost its newline"):
        open_store(f"jsonl:///{path}")
    assert path.read_bytes() == data[:-1] + torn


async def test_jsonl_read_only_open_reads_up_to_a_torn_tail_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    url = f"jsonl:///{path}"
    events = await _write(url)
    torn = path.read_bytes() + encode_record([make_step("a", 3)])[:-20]
    path.write_bytes(torn)
    with capture_logs() as logs:
        async with open_store(url, readonly=True) as store:
            assert await store.read("a") == events
            with pytest.raises(UsageError, match="read-only"):
                await store.append("a", [make_step("a", 3)], 3)
    assert [entry["event"] for entry in logs] == ["jsonl_torn_tail_ignored"]
    assert path.read_bytes() == torn
    assert os.listdir(tmp_path) == [path.name]


# -- JSONL: a valid checksum over a bad record (item 11) ------------------------------------


@pytest.mark.parametrize("damage", ["gap", "foreign"])
async def test_jsonl_record_with_valid_checksum_but_a_bad_seq_or_run_is_corruption(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "log.jsonl"
    await _write(f"jsonl:///{path}")
    good = path.read_bytes()
    if damage == "gap":
        record = encode_record([make_step("a", 3), make_step("a", 5)])
        match = r"run 'a' jumps from seq 4 to seq 5"
    else:
        record = encode_record([make_step("a", 3), make_step("b", 4)])
        match = r"record at byte \d+ of run 'a' holds an event of run 'b' \(seq 4\)"
    path.write_bytes(good + record)
    with pytest.raises(CorruptLogError, match=match) as caught:
        open_store(f"jsonl:///{path}", readonly=True)
    assert str(path) in str(caught.value) and f"byte {len(good)}" in str(caught.value)


# -- SQLite: a damaged database is an error, never a shorter run (item 14) -----------------


async def test_sqlite_read_with_a_seq_gap_is_corruption(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    await _write(f"sqlite:///{path}", steps=5)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM events WHERE run_id = 'a' AND seq IN (2, 3, 4)")
    for readonly in (False, True):
        async with open_store(f"sqlite:///{path}", readonly=readonly) as store:
            with pytest.raises(CorruptLogError, match=r"run 'a' jumps from seq 1 to seq 5"):
                await store.read("a")


async def test_sqlite_undecodable_event_names_run_and_seq(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    await _write(f"sqlite:///{path}")
    with sqlite3.connect(path) as conn:
        body = b'{"type":"ActionParsed","seq":1}'
        conn.execute("UPDATE events SET body = ? WHERE seq = 1", (body,))
    async with open_store(f"sqlite:///{path}", readonly=True) as store:
        with pytest.raises(CorruptLogError, match=r"run 'a' seq 1 cannot be decoded") as caught:
            await store.read("a")
    assert "\n" not in str(caught.value) and "validation error" not in str(caught.value)


async def test_sqlite_corrupt_page_fails_a_read_only_open(tmp_path: Path) -> None:
    """Garbage over the events table's root page: `quick_check` reports it before any read."""
    path = tmp_path / "runs.db"
    await _write(f"sqlite:///{path}", steps=8)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()[0]
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((root - 1) * page_size + 8)
        file.write(b"\xff" * 64)
    with pytest.raises(CorruptLogError, match=rf"SQLite store {path}"):
        open_store(f"sqlite:///{path}", readonly=True)


# -- Read-only opens never create or modify a store -----------------------------------------


@pytest.mark.parametrize("scheme", ["sqlite", "jsonl"])
async def test_read_only_open_of_a_missing_file_creates_nothing(tmp_path: Path, scheme: str) -> None:
    with pytest.raises(StoreUnavailableError):
        open_store(f"{scheme}:///{tmp_path}/typo.db", readonly=True)
    assert os.listdir(tmp_path) == []


async def test_sqlite_read_only_store_refuses_appends_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    events = await _write(f"sqlite:///{path}")
    async with open_store(f"sqlite:///{path}", readonly=True) as store:
        assert await store.read("a") == events
        with pytest.raises(UsageError, match="read-only"):
            await store.append("a", [make_step("a", 3)], 3)
    async with open_store(f"sqlite:///{path}") as store:
        assert await store.read("a") == events


async def test_sqlite_busy_timeout_is_a_url_option(tmp_path: Path) -> None:
    async with open_store(f"sqlite:///{tmp_path}/runs.db?busy_timeout=2500") as store:
        await anyio.lowlevel.checkpoint()
        assert store.url.endswith("busy_timeout=2500")
    with pytest.raises(UsageError, match="busy_timeout"):
        open_store(f"sqlite:///{tmp_path}/runs.db?busy_timeout=soon")
