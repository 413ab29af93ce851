"""Sinks: every appended event, fanned out to any number of callables.

A sink never stands between an event and the log: events are appended first, then
offered to each sink's bounded buffer. A sink that is too slow loses the overflow from
its *own* buffer (counted and reported, never silent); a sink that raises is counted
and logged. Neither blocks the runs.

No sink runs on the event loop's time: a sync sink (a plain callable, `JsonLinesSink`,
`StructlogSink`) is called in a thread of its own, which takes what its buffer holds in
one batch, so the loop pays a lock per append rather than a thread hop per event. An
async sink runs on the loop in a task of its own. At shutdown each sink gets the grace
period to drain; a sink still busy after it is abandoned (its thread is a daemon, left
blocked) and what it had not handled is counted as dropped.
"""

from __future__ import annotations

import inspect
import sys
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, TypeAlias

import anyio
import orjson
import structlog
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from citeloop.events import Event, redact

Sink: TypeAlias = Callable[[Event], Awaitable[None] | None]
"""A sink is any callable taking an event; it may be sync or async."""


def _log() -> Any:
    return structlog.get_logger("citeloop.sinks")


def event_record(event: Event) -> dict[str, Any]:
    """The redacted JSON-ready dict a sink prints for an event."""
    record: dict[str, Any] = redact(event.model_dump(mode="json"))
    return record


class StructlogSink:
    """Logs each event through structlog with `run_id` bound; the application owns rendering.

    Page bodies are cut to `max_body_chars` so a log line stays a line.
    """

    def __init__(self, logger: Any = None, *, max_body_chars: int = 200) -> None:
        self._logger = logger
        self._max_body_chars = max_body_chars

    def __call__(self, event: Event) -> None:
        logger = self._logger if self._logger is not None else structlog.get_logger("citeloop.events")
        record = event_record(event)
        record.pop("run_id", None)
        kind = record.pop("type")
        observation = record.get("observation")
        if isinstance(observation, dict) and isinstance(observation.get("body"), str):
            body = observation["body"]
            if len(body) > self._max_body_chars:
                observation["body"] = body[: self._max_body_chars] + "…"
        logger.bind(run_id=event.run_id).info(kind, **record)


class JsonLinesSink:
    """Writes one redacted JSON object per event to a text stream (stdout by default)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self._stream = stream

    def __call__(self, event: Event) -> None:
        stream = self._stream if self._stream is not None else sys.stdout
        stream.write(orjson.dumps(event_record(event)).decode() + "\n")
        stream.flush()


@dataclass
class SinkStats:
    """What happened to one sink's deliveries."""

    delivered: int = 0
    dropped: int = 0
    failed: int = 0
    abandoned: bool = False  # still busy when the shutdown grace period ran out


def _is_async(sink: Sink) -> bool:
    # A function, or an object whose class defines `async def __call__`.
    return inspect.iscoroutinefunction(sink) or inspect.iscoroutinefunction(type(sink).__call__)


def _failed(sink: Sink, stats: SinkStats, exc: BaseException) -> None:
    stats.failed += 1
    if stats.failed == 1 or stats.failed % 1000 == 0:
        _log().warning("sink_failed", sink=repr(sink), failures=stats.failed, error=repr(exc))


class _ThreadFeed:
    """A sync sink's bounded buffer and the daemon thread that drains it in batches."""

    def __init__(self, index: int, sink: Sink, stats: SinkStats, capacity: int) -> None:
        self._sink = sink
        self._stats = stats
        self._capacity = capacity
        self._buffer: deque[Event] = deque()
        self._taken = 0  # events the thread took from the buffer and has not counted yet
        self._closing = False
        self._abandoned = False
        self._ready = threading.Condition(threading.Lock())
        self._shutdown = anyio.Event()  # set by `close`, on the loop
        self._thread = threading.Thread(target=self._work, name=f"citeloop-sink-{index}", daemon=True)
        self._thread.start()

    def offer(self, events: Sequence[Event]) -> None:
        with self._ready:
            if self._closing:
                self._stats.dropped += len(events)
                return
            room = max(0, self._capacity - len(self._buffer))
            self._buffer.extend(events[:room])
            self._stats.dropped += max(0, len(events) - room)
            self._ready.notify()

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._buffer and not self._closing:
                    self._ready.wait()
                if not self._buffer or self._abandoned:
                    return
                batch, self._buffer = self._buffer, deque()
                self._taken = len(batch)
            for event in batch:
                failure: BaseException | None = None
                try:
                    result = self._sink(event)
                    if inspect.isawaitable(result):
                        close = getattr(result, "close", None)
                        if close is not None:
                            close()
                        failure = TypeError("a sync sink returned an awaitable: declare it `async def`")
                except Exception as exc:  # a sink's bug must not stop the others or the runs
                    failure = exc
                with self._ready:
                    if self._abandoned:
                        return  # counted as dropped when it was abandoned
                    self._taken -= 1
                    if failure is None:
                        self._stats.delivered += 1
                    else:
                        _failed(self._sink, self._stats, failure)

    def close(self) -> None:
        with self._ready:
            self._closing = True
            self._ready.notify()
        self._shutdown.set()

    async def finished(self) -> None:
        """Wait for shutdown, then (polling) for the thread to drain; abandon it if cancelled."""
        try:
            await self._shutdown.wait()
            pause = 0.001
            while self._thread.is_alive():
                await anyio.sleep(pause)
                pause = min(pause * 2, 0.05)
        finally:
            with self._ready:
                if self._thread.is_alive() and not self._abandoned:
                    self._abandoned = True
                    self._stats.abandoned = True
                    self._stats.dropped += self._taken + len(self._buffer)
                    self._buffer.clear()
            _report(self._sink, self._stats)


def _report(sink: Sink, stats: SinkStats) -> None:
    if stats.dropped or stats.failed:
        _log().warning(
            "sink_lost_events",
            sink=repr(sink),
            dropped=stats.dropped,
            failed=stats.failed,
            delivered=stats.delivered,
            abandoned=stats.abandoned,
        )


class SinkHub:
    """Fans events out to sinks, each behind its own bounded buffer (runtime/_sinks.py)."""

    def __init__(self, sinks: tuple[Sink, ...], *, buffer: int = 10_000) -> None:
        self._sinks = sinks
        self._buffer = buffer
        self._senders: list[tuple[int, MemoryObjectSendStream[Event]]] = []
        self._feeds: list[_ThreadFeed] = []
        self._closed = False
        self.stats: list[SinkStats] = [SinkStats() for _ in sinks]

    def start(self, task_group: TaskGroup) -> None:
        for index, sink in enumerate(self._sinks):
            if _is_async(sink):
                send, receive = anyio.create_memory_object_stream[Event](self._buffer)
                self._senders.append((index, send))
                task_group.start_soon(self._drain, index, sink, receive)
            else:
                feed = _ThreadFeed(index, sink, self.stats[index], self._buffer)
                self._feeds.append(feed)
                task_group.start_soon(feed.finished)

    def offer(self, events: Sequence[Event]) -> None:
        """Hand events to every sink without waiting: a full buffer drops and counts."""
        if self._closed:
            for stats in self.stats:
                stats.dropped += len(events)
            return
        for feed in self._feeds:
            feed.offer(events)
        for index, send in self._senders:
            for event in events:
                try:
                    send.send_nowait(event)
                except anyio.WouldBlock:
                    self.stats[index].dropped += 1
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    self.stats[index].dropped += 1

    async def _drain(self, index: int, sink: Sink, receive: MemoryObjectReceiveStream[Event]) -> None:
        stats = self.stats[index]
        in_flight = False
        try:
            async with receive:
                async for event in receive:
                    in_flight = True
                    try:
                        result = sink(event)
                        if inspect.isawaitable(result):
                            await result
                        stats.delivered += 1
                    except Exception as exc:  # a sink's bug must not stop the others or the runs
                        _failed(sink, stats, exc)
                    in_flight = False
        finally:
            # Cut off at shutdown (the grace period ran out): what it still held is lost to it.
            lost = int(in_flight) + receive.statistics().current_buffer_used
            stats.dropped += lost
            stats.abandoned = lost > 0
            _report(sink, stats)

    def close(self) -> None:
        """Stop accepting events; the sinks finish what is buffered, then end."""
        self._closed = True
        for _, send in self._senders:
            send.close()
        self._senders.clear()
        for feed in self._feeds:
            feed.close()
