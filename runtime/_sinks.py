"""Sinks: every appended event, fanned out to any number of callables.

A sink never stands between an event and the log: events are appended first, then
offered to each sink's bounded buffer. A sink that is too slow loses the overflow from
its *own* buffer (counted and reported, never silent); a sink that raises is counted
and logged. Neither blocks the runs.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Awaitable, Callable
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


class SinkHub:
    """Fans events out to sinks, each behind its own bounded buffer and task."""

    def __init__(self, sinks: tuple[Sink, ...], *, buffer: int = 10_000) -> None:
        self._sinks = sinks
        self._buffer = buffer
        self._senders: list[MemoryObjectSendStream[Event]] = []
        self._closed = False
        self.stats: list[SinkStats] = [SinkStats() for _ in sinks]

    def start(self, task_group: TaskGroup) -> None:
        for index, sink in enumerate(self._sinks):
            send, receive = anyio.create_memory_object_stream[Event](self._buffer)
            self._senders.append(send)
            task_group.start_soon(self._drain, index, sink, receive)

    def offer(self, events: list[Event]) -> None:
        """Hand events to every sink without waiting: a full buffer drops and counts."""
        if self._closed:
            for stats in self.stats:
                stats.dropped += len(events)
            return
        for index, send in enumerate(self._senders):
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
                        stats.failed += 1
                        if stats.failed == 1 or stats.failed % 1000 == 0:
                            _log().warning(
                                "sink_failed", sink=repr(sink), failures=stats.failed, error=repr(exc)
                            )
                    in_flight = False
        finally:
            # Cut off at shutdown (the grace period ran out): what it still held is lost to it.
            stats.dropped += int(in_flight) + receive.statistics().current_buffer_used
            if stats.dropped or stats.failed:
                _log().warning(
                    "sink_lost_events",
                    sink=repr(sink),
                    dropped=stats.dropped,
                    failed=stats.failed,
                    delivered=stats.delivered,
                )

    def close(self) -> None:
        """Stop accepting events; the drain tasks finish what is buffered, then end."""
        self._closed = True
        for send in self._senders:
            send.close()
        self._senders.clear()
