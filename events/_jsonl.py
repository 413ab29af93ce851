"""The JSONL store: one append-only file, one framed record per append batch.

Each line is one JSON object with a fixed frame in front of the events:

    {"c":"<crc32 of the events array, 8 hex digits>","n":<count>,"e":[...events...]}

so a batch is atomic (one record) and every line is still plain JSON for `jq`. On open
the file is scanned and every record verified. A damaged *tail* (no final newline, a bad
checksum, bad JSON) is what a crash mid-write leaves: it was never acknowledged, so the
file is cut back to the last complete record and a warning says how many bytes were
dropped. A bad record *followed by good ones* cannot come from a crash: that is
corruption, and opening fails with `CorruptLogError` rather than drop acknowledged events.

An append is acknowledged only after write + fsync. Waiting appends are group-committed
(`_grouping.GroupCommitter`): the leader checks them against the in-memory index, writes
all their records with one write and one fsync in a worker thread, then updates the index.

One writer process per file: the store takes an exclusive `flock` on it when opened, and a
second process opening the same file gets `StoreUnavailableError`. That is what makes the
in-memory index (built at open) the truth for the expected-seq check.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import zlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Final

import anyio
import anyio.lowlevel
import anyio.to_thread
import structlog

from ._errors import (
    ConcurrencyError,
    CorruptLogError,
    RunClosedError,
    StoreUnavailableError,
    StoreURLError,
)
from ._events import TERMINAL_TYPES, Event, decode_events, encode_event
from ._grouping import GroupCommitter
from ._index import EventIndex
from ._resource import AsyncResource
from ._store import RunSummary, StoredEvent, check_batch
from ._urls import file_url_parts

_FRAME: Final = re.compile(rb'\{"c":"([0-9a-f]{8})","n":([0-9]+),"e":')

_Append = tuple[str, Sequence[Event], int]


def encode_record(events: Sequence[Event]) -> bytes:
    """One framed line holding a batch of events."""
    array = b"[" + b",".join(encode_event(e) for e in events) + b"]"
    return b'{"c":"%08x","n":%d,"e":%s}\n' % (zlib.crc32(array), len(events), array)


def _parse_record(line: bytes) -> list[Event] | None:
    """The events of one complete line, or None if the line is damaged."""
    match = _FRAME.match(line)
    if match is None or not line.endswith(b"}"):
        return None
    array = line[match.end() : -1]
    if int(match[1], 16) != zlib.crc32(array):
        return None
    try:
        events = decode_events([array[1:-1]]) if array != b"[]" else []
    except ValueError:
        return None
    if len(events) != int(match[2]) or not events:
        return None
    return events


class JsonlStore(AsyncResource):
    """An `EventStore` in one JSONL file, with an in-memory index built when opened."""

    def __init__(self, path: Path, *, url: str | None = None) -> None:
        self._path = path
        self._url = url or f"jsonl:///{path}"
        self._events = EventIndex()
        self._closed = False
        self._broken: str | None = None
        self._group: GroupCommitter[_Append] = GroupCommitter(self._commit)
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError as exc:
            raise StoreUnavailableError(f"cannot open JSONL store {path}: {exc.strerror}") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._fd)
            raise StoreUnavailableError(
                f"JSONL store {path} is in use by another process (one writer process per JSONL file)"
            ) from None
        try:
            self._load()
        except BaseException:
            os.close(self._fd)
            raise

    @classmethod
    def from_url(cls, url: str) -> JsonlStore:
        """Open `jsonl:///relative.jsonl` or `jsonl:////absolute.jsonl`."""
        path, options = file_url_parts(url, "jsonl")
        if options:
            raise StoreURLError(f"unknown option(s) {sorted(options)} in {url!r}")
        return cls(path, url=url)

    @property
    def url(self) -> str:
        return self._url

    def _load(self) -> None:
        try:
            data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        except OSError as exc:
            raise StoreUnavailableError(f"cannot read JSONL store {self._path}: {exc.strerror}") from None
        good_end = 0  # byte offset just past the last good record
        bad_at: int | None = None  # offset of the first damaged record, if any
        start = 0
        number = 0
        while start < len(data):
            end = data.find(b"\n", start)
            line = data[start:] if end < 0 else data[start:end]
            number += 1
            events = None if end < 0 else _parse_record(line)
            if events is None:
                bad_at = start if bad_at is None else bad_at
            elif bad_at is not None:
                raise CorruptLogError(
                    f"JSONL store {self._path}: damaged record at byte {bad_at} is followed by "
                    f"good records (line {number}); refusing to drop acknowledged events"
                )
            else:
                try:
                    self._events.add(events)
                except ValueError as exc:
                    raise CorruptLogError(f"JSONL store {self._path}: {exc}") from None
                good_end = end + 1
            start = len(data) if end < 0 else end + 1
        if bad_at is not None:
            dropped = len(data) - good_end
            os.ftruncate(self._fd, good_end)
            os.fsync(self._fd)
            structlog.get_logger("citeloop.events").warning(
                "jsonl_torn_tail_dropped",
                path=str(self._path),
                dropped_bytes=dropped,
                kept_bytes=good_end,
            )

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError(f"the JSONL store {self._path} is closed")
        if self._broken is not None:
            raise StoreUnavailableError(self._broken)

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        self._check_open()
        check_batch(run_id, events, expected_seq)
        await self._group.submit((run_id, events, expected_seq))

    async def _commit(self, batch: Sequence[_Append]) -> Sequence[BaseException | None]:
        self._check_open()
        # Check each append against the index plus the earlier appends of this batch.
        next_seqs: dict[str, int] = {}
        ended: set[str] = set()  # runs a terminal event of this batch ends
        results: list[BaseException | None] = []
        accepted: list[Sequence[Event]] = []
        records: list[bytes] = []
        for run_id, events, expected in batch:
            if run_id in ended or self._events.ended(run_id):
                results.append(RunClosedError(run_id))
                continue
            current = next_seqs.get(run_id, self._events.head(run_id))
            if current != expected:
                results.append(ConcurrencyError(run_id, expected, current))
                continue
            if events[-1].type in TERMINAL_TYPES:
                ended.add(run_id)
            next_seqs[run_id] = expected + len(events)
            results.append(None)
            accepted.append(events)
            records.append(encode_record(events))
        if records:
            size = os.fstat(self._fd).st_size
            try:
                await anyio.to_thread.run_sync(_write_all, self._fd, b"".join(records))
            except OSError as exc:
                self._broken = f"cannot write JSONL store {self._path}: {exc.strerror}"
                with contextlib.suppress(OSError):  # take back a half-written tail
                    os.ftruncate(self._fd, size)
                raise StoreUnavailableError(self._broken) from None
            for events in accepted:
                self._events.add(events)
        return results

    async def read(self, run_id: str, after: int = -1) -> list[Event]:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return self._events.read(run_id, after)

    async def runs(self) -> list[RunSummary]:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return self._events.summaries()

    def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        return self._events.subscribe(run_id, after, self._check_open)

    def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        return self._events.subscribe_all(after, self._check_open)

    async def aclose(self) -> None:
        if self._closed:
            return
        await self._group.wait_idle()
        self._closed = True
        os.close(self._fd)  # also releases the flock
        self._events.wake()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)
