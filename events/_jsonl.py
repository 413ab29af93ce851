"""The JSONL store: one append-only file, one framed record per append batch.

Each line is one JSON object with a fixed frame in front of the events:

    {"c":"<crc32 of the events array, 8 hex digits>","n":<count>,"e":[...events...]}

so a batch is atomic (one record) and every line is still plain JSON for `jq`. On open
the file is scanned and every record verified. Only a final record *without its newline*
is what a crash mid-write leaves (a torn tail): it was never acknowledged, so a writer
moves those bytes to `<log>.torn-<offset>`, cuts the file back to the last complete
record and warns; a read-only open reads up to the tail and changes nothing. A
*complete* record (newline-terminated) that fails its checksum, holds a foreign run id
or a seq gap, or a tail that is a whole record whose newline was lost, cannot come from
a crash: opening fails with `CorruptLogError` naming the byte offset.

An append is acknowledged only after write + fsync. Waiting appends are group-committed
(`_grouping.GroupCommitter`): the leader checks them against the in-memory index, writes
all their records with one write and one fsync in a worker thread, then updates the index.

One writer process per file: the store takes an exclusive `flock` on it when opened, and a
second process opening the same file gets `StoreUnavailableError`. That is what makes the
in-memory index (built at open) the truth for the expected-seq check. A read-only open
(`open_store(url, readonly=True)`) takes a shared lock, never creates the file, and
refuses appends.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
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

from ._chain import ChainReader, encodings
from ._errors import (
    ConcurrencyError,
    CorruptLogError,
    RunClosedError,
    StoreUnavailableError,
    StoreURLError,
    UsageError,
)
from ._events import TERMINAL_TYPES, Event, decode_events
from ._grouping import GroupCommitter
from ._index import EventIndex
from ._resource import AsyncResource
from ._store import RunSummary, StoredEvent, check_batch
from ._urls import file_url_parts

_FRAME: Final = re.compile(rb'\{"c":"([0-9a-f]{8})","n":([0-9]+),"e":')

_Append = tuple[str, Sequence[Event], int]


def encode_record(events: Sequence[Event]) -> bytes:
    """One framed line holding a batch of events."""
    array = b"[" + b",".join(encodings(events)) + b"]"
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

    def __init__(self, path: Path, *, url: str | None = None, readonly: bool = False) -> None:
        self._path = path
        self._url = url or f"jsonl:///{path}"
        self._readonly = readonly
        self._events = EventIndex()
        self._chains = ChainReader(f"JSONL store {path}")
        self._closed = False
        self._broken: str | None = None
        self._group: GroupCommitter[_Append] = GroupCommitter(self._commit)
        # Read-only: never create the file, and share the lock with other readers.
        flags, lock = (os.O_RDONLY, fcntl.LOCK_SH)
        if not readonly:
            flags, lock = (os.O_RDWR | os.O_CREAT | os.O_APPEND, fcntl.LOCK_EX)
        try:
            self._fd = os.open(path, flags, 0o644)
        except OSError as exc:
            raise StoreUnavailableError(f"cannot open JSONL store {path}: {exc.strerror}") from None
        try:
            fcntl.flock(self._fd, lock | fcntl.LOCK_NB)
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
    def from_url(cls, url: str, *, readonly: bool = False) -> JsonlStore:
        """Open `jsonl:///relative.jsonl` or `jsonl:////absolute.jsonl`."""
        path, options = file_url_parts(url, "jsonl")
        if options:
            raise StoreURLError(f"unknown option(s) {sorted(options)} in {url!r}")
        return cls(path, url=url, readonly=readonly)

    @property
    def url(self) -> str:
        return self._url

    def _load(self) -> None:
        try:
            data = os.pread(self._fd, os.fstat(self._fd).st_size, 0)
        except OSError as exc:
            raise StoreUnavailableError(f"cannot read JSONL store {self._path}: {exc.strerror}") from None
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            if end < 0:  # only a record without its newline can be a write cut short
                self._torn_tail(data, start)
                return
            self._index_record(data[start:end], start)
            start = end + 1

    def _index_record(self, line: bytes, offset: int) -> None:
        """Index one complete (newline-terminated) record, or fail naming where it is wrong.

        A complete record was written whole before any later one, so a bad checksum, a
        foreign run id or a seq gap inside it is damage, never a crash's leftover.
        """
        events = _parse_record(line)
        if events is None:
            raise CorruptLogError(
                f"JSONL store {self._path}: the record at byte {offset} is complete but damaged "
                "(bad checksum, count or JSON); refusing to drop acknowledged events"
            )
        run_id = events[0].run_id
        head = self._events.head(run_id)
        for index, event in enumerate(events):
            if event.run_id != run_id:
                raise CorruptLogError(
                    f"JSONL store {self._path}: the record at byte {offset} of run {run_id!r} "
                    f"holds an event of run {event.run_id!r} (seq {event.seq})"
                )
            if event.seq != head + index:
                raise CorruptLogError(
                    f"JSONL store {self._path}: the record at byte {offset}: run {run_id!r} "
                    f"jumps from seq {head + index} to seq {event.seq}"
                )
        self._events.add(events)

    def _torn_tail(self, data: bytes, offset: int) -> None:
        """A final record without its newline: never acknowledged, unless it hides a lost newline.

        A writer moves the cut bytes to `<log>.torn-<offset>` and truncates the file; a
        read-only open reads up to the tail and leaves the file as it is.
        """
        tail = data[offset:]
        if _holds_merged_record(tail):
            raise CorruptLogError(
                f"JSONL store {self._path}: the record at byte {offset} lost its newline and runs "
                "into the next one; refusing to drop acknowledged events"
            )
        log = structlog.get_logger("citeloop.events")
        if self._readonly:
            log.warning("jsonl_torn_tail_ignored", path=str(self._path), offset=offset, torn_bytes=len(tail))
            return
        side = self._path.with_name(f"{self._path.name}.torn-{offset}")
        try:
            _write_file(side, tail)
            os.ftruncate(self._fd, offset)
            os.fsync(self._fd)
        except OSError as exc:
            raise StoreUnavailableError(
                f"cannot repair the torn tail of JSONL store {self._path}: {exc.strerror}"
            ) from None
        log.warning(
            "jsonl_torn_tail_dropped",
            path=str(self._path),
            dropped_bytes=len(tail),
            kept_bytes=offset,
            saved_to=str(side),
        )

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError(f"the JSONL store {self._path} is closed")
        if self._broken is not None:
            raise StoreUnavailableError(self._broken)

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        self._check_open()
        if self._readonly:
            raise UsageError(f"the JSONL store {self._path} was opened read-only")
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
        log = self._events.read(run_id)
        self._chains.check(run_id, log)  # the hash chain (docs/events.md), checked once per event
        return log[after + 1 :]

    async def runs(self) -> list[RunSummary]:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return self._events.summaries()

    def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        return self._events.subscribe(run_id, after, self._check_open)

    def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        return self._events.subscribe_all(after, self._check_open)

    async def head_position(self) -> int:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return self._events.head_position()

    async def aclose(self) -> None:
        if self._closed:
            return
        await self._group.wait_idle()
        self._closed = True
        os.close(self._fd)  # also releases the flock
        self._events.wake()


def _holds_merged_record(tail: bytes) -> bool:
    """Whether `tail` starts with a whole JSON value followed by more bytes (a newline lost)."""
    try:
        _, end = json.JSONDecoder().raw_decode(tail.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return end < len(tail.decode("utf-8"))


def _write_file(path: Path, data: bytes) -> None:
    """Write `data` to a new file durably (the file and its directory entry)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)
