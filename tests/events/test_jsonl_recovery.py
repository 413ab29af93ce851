"""JSONL crash recovery: only an incomplete final record is a torn tail (cut back into a side file,
by a writer only); a complete record that is damaged is corruption, wherever it is."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from citeloop.events import CorruptLogError, Event, StoreUnavailableError, open_store
from citeloop.events._jsonl import encode_record
from citeloop.events.testing import make_run_started, make_step
from structlog.testing import capture_logs


async def _write_two_runs(url: str) -> list[Event]:
    events: list[Event] = [make_run_started("a"), make_step("a", 1), make_step("a", 2)]
    async with open_store(url) as store:
        await store.append("a", events[:1], 0)
        await store.append("a", events[1:], 1)
    return events


async def _read(url: str) -> list[Event]:
    async with open_store(url) as store:
        return await store.read("a")


@pytest.mark.anyio
@pytest.mark.parametrize(
    "tail",
    [
        b'{"c":"0000',  # cut inside the frame
        encode_record([make_step("a", 3)])[:-40],  # cut inside the events, no newline
        encode_record([make_step("a", 3)]).replace(b"query 3", b"query 4")[:-1],  # no newline
        b"\x00" * 300,  # zeros left by a crash that extended the file
    ],
    ids=["frame", "events", "checksum-unterminated", "zeros"],
)
async def test_torn_tail_is_dropped_with_a_warning(tmp_path: Path, tail: bytes) -> None:
    path = tmp_path / "log.jsonl"
    url = f"jsonl:///{path}"
    events = await _write_two_runs(url)
    good = path.read_bytes()
    path.write_bytes(good + tail)
    with capture_logs() as logs:
        assert await _read(url) == events
    warnings = [entry for entry in logs if entry["event"] == "jsonl_torn_tail_dropped"]
    assert len(warnings) == 1 and warnings[0]["log_level"] == "warning"
    assert warnings[0]["dropped_bytes"] == len(tail)
    assert path.read_bytes() == good  # cut back to the last complete record
    side = tmp_path / f"log.jsonl.torn-{len(good)}"
    assert warnings[0]["saved_to"] == str(side) and side.read_bytes() == tail  # the cut bytes are kept
    # The repaired log accepts appends, and reopens without another warning.
    async with open_store(url) as store:
        await store.append("a", [make_step("a", 3)], 3)
    with capture_logs() as logs:
        assert [e.seq for e in await _read(url)] == [0, 1, 2, 3]
    assert logs == []


@pytest.mark.anyio
async def test_damage_before_good_records_is_corruption(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    url = f"jsonl:///{path}"
    await _write_two_runs(url)
    lines = path.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b"Acme", b"Acne")  # checksum no longer matches
    damaged = b"\n".join(lines)
    path.write_bytes(damaged)
    with pytest.raises(CorruptLogError, match="record at byte 0 is complete but damaged"):
        open_store(url)
    assert path.read_bytes() == damaged  # nothing acknowledged was dropped


@pytest.mark.anyio
async def test_every_line_is_plain_json_with_a_frame(tmp_path: Path) -> None:
    import json

    path = tmp_path / "log.jsonl"
    await _write_two_runs(f"jsonl:///{path}")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["n"] for r in records] == [1, 2]
    assert [e["seq"] for r in records for e in r["e"]] == [0, 1, 2]


@pytest.mark.anyio
async def test_a_second_writer_process_is_refused(tmp_path: Path) -> None:
    """flock is per open file description, so a second open in this process stands in for a second process."""
    url = f"jsonl:///{tmp_path}/log.jsonl"
    async with open_store(url):
        with pytest.raises(StoreUnavailableError, match="in use by another process"):
            open_store(url)
    async with open_store(url):  # released on close
        await anyio.lowlevel.checkpoint()
