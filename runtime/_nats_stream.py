"""The JetStream stream a run's events live on: where they go, how it is reached, how a run is read back.

A run's events are on `<subject_prefix>.<run_id>` (`run_subject`), each with a
`Nats-Msg-Id: <run_id>:<seq>` header (`MSG_ID`), the JetStream duplicate check's key and the
one `_already_stored` reads back before a retry. Here too is what both the sink
(runtime/_nats_sink.py) and the readers need of the broker: the names a stream and a prefix
may take, a connection with nats-py's own reconnection off, which errors waiting may cure,
and the stream's creation; then `rebuild_run` and `compare_with_store`, which read a run
back from the stream and check it against the store's log (docs/observability.md).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

import anyio
from citeloop.events import (
    Event,
    EventStore,
    StoreUnavailableError,
    UsageError,
    decode_events,
    encode_event,
    redact_url,
)

if TYPE_CHECKING:
    from nats.aio.client import Client
    from nats.js import JetStreamContext

DEFAULT_SERVERS: Final = "nats://127.0.0.1:4222"
DEFAULT_STREAM: Final = "CITELOOP"
DEFAULT_PREFIX: Final = "citeloop.runs"
MSG_ID: Final = "Nats-Msg-Id"

_T = TypeVar("_T")
# A subject token may hold anything but whitespace, `.`, `*` and `>`; a run id outside this
# safe set is spelled in hex behind `=` (which no safe token contains), so tokens never collide.
_SAFE_TOKEN: Final = re.compile(r"[A-Za-z0-9_\-]+")
_STREAM_NAME: Final = re.compile(r"[A-Za-z0-9_\-]+")
_PREFIX: Final = re.compile(r"[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*")


def _nats() -> Any:
    try:
        import nats
    except ImportError as exc:
        raise UsageError("the JetStream sink needs nats-py: pip install 'citeloop[nats]'") from exc
    return nats


def run_subject(run_id: str, subject_prefix: str = DEFAULT_PREFIX) -> str:
    """The subject a run's events are published on."""
    token = run_id if _SAFE_TOKEN.fullmatch(run_id) else "=" + run_id.encode("utf-8").hex()
    return f"{subject_prefix}.{token}"


def _check_names(stream: str, subject_prefix: str) -> None:
    if not _STREAM_NAME.fullmatch(stream):
        raise UsageError(f"a JetStream stream name is letters, digits, '-' and '_': {stream!r}")
    if not _PREFIX.fullmatch(subject_prefix):
        raise UsageError(
            f"a subject prefix is dot-separated tokens of letters, digits, '-', '_': {subject_prefix!r}"
        )


def _is_transient(exc: BaseException) -> bool:
    """Whether waiting may cure it: the broker is away, restarting, or JetStream not ready yet."""
    nats = _nats()
    from nats.js.errors import APIError

    if isinstance(exc, APIError):
        return exc.code in (None, 408, 503)
    if isinstance(
        exc, nats.errors.MaxPayloadError | nats.errors.BadSubjectError | nats.errors.BadHeaderError
    ):
        return False
    return isinstance(exc, nats.errors.Error | OSError | TimeoutError)


def _connect_timeout(request_timeout: float) -> int:
    return max(1, round(request_timeout))


async def _connect(servers: str, request_timeout: float) -> Client:
    """A client that closes on its first disconnection: the caller reconnects, with its own backoff.

    nats-py's own reconnection is off: a client it leaves reconnecting (or one it closed after
    `max_reconnect_attempts`) holds the sink's publishes in limbo, buffered and timing out; a
    closed client is replaced by a new connection instead (JetStreamSink._jetstream).
    """
    nats = _nats()

    async def ignore(exc: Exception) -> None:
        # nats-py logs each failed attempt at ERROR; the caller retries and logs once instead.
        del exc

    client: Client = await nats.connect(
        servers,
        connect_timeout=_connect_timeout(request_timeout),
        allow_reconnect=False,
        # These bound the first connection too (not only reconnections): two tries, 0.2 s apart.
        # Not 0, which is "no limit" there: the default (60 tries, 2 s apart) would hold it for 2 min.
        max_reconnect_attempts=1,
        reconnect_time_wait=0.2,
        error_cb=ignore,
        name="citeloop",
    )
    return client


async def _ensure_stream(js: JetStreamContext, stream: str, subject_prefix: str, window: float) -> None:
    from nats.js.errors import BadRequestError, NotFoundError

    subjects = f"{subject_prefix}.>"
    try:
        info = await js.stream_info(stream)
    except NotFoundError:
        try:
            await js.add_stream(name=stream, subjects=[subjects], duplicate_window=window)
        except BadRequestError:  # another sink made it meanwhile
            info = await js.stream_info(stream)
        else:
            return
    if subjects not in (info.config.subjects or []):
        raise UsageError(f"the JetStream stream {stream!r} exists without the subjects {subjects!r}")


async def _already_stored(js: JetStreamContext, stream: str, subject: str, seq: int) -> bool:
    """Whether the run's subject already holds event `seq` (events of a run are published in order)."""
    from nats.js.errors import NotFoundError

    try:
        last = await js.get_msg(stream, subject=subject)
    except NotFoundError:
        return False
    msg_id = (last.headers or {}).get(MSG_ID, "")
    stored = msg_id.rpartition(":")[2]
    return stored.isdigit() and int(stored) >= seq


# -- reading a run back ---------------------------------------------------------------------


async def _in_worker(work: Coroutine[Any, Any, _T]) -> _T:
    """Run an asyncio coroutine (nats-py) from asyncio or trio: on a fresh loop in a worker thread."""
    return await anyio.to_thread.run_sync(asyncio.run, work)


async def _read_rows(servers: str, stream: str, subject: str, request_timeout: float) -> list[bytes]:
    from nats.js.errors import NotFoundError

    try:
        client = await _connect(servers, request_timeout)
    except Exception as exc:
        raise StoreUnavailableError(f"NATS at {redact_url(servers)} is unreachable: {exc!r}") from exc
    try:
        js = client.jetstream(timeout=request_timeout)
        try:
            await js.stream_info(stream)
        except NotFoundError:
            raise UsageError(f"no JetStream stream {stream!r} at {redact_url(servers)}") from None
        rows: list[bytes] = []
        seq = 1
        while True:
            try:
                message = await js.get_msg(stream, seq=seq, subject=subject, next=True)
            except NotFoundError:
                return rows
            rows.append(message.data or b"")
            seq = (message.seq or seq) + 1
    finally:
        await client.close()


async def rebuild_run(
    run_id: str,
    *,
    servers: str = DEFAULT_SERVERS,
    stream: str = DEFAULT_STREAM,
    subject_prefix: str = DEFAULT_PREFIX,
    request_timeout: float = 5.0,
) -> list[Event]:
    """A run's events as the stream holds them, in stream order (a duplicate would show twice)."""
    _nats()
    _check_names(stream, subject_prefix)
    rows = await _in_worker(_read_rows(servers, stream, run_subject(run_id, subject_prefix), request_timeout))
    return decode_events(rows)


@dataclass(frozen=True)
class StreamDiff:
    """How a run in the stream differs from the store, by event seq."""

    run_id: str
    missing: tuple[int, ...]  # in the store, not in the stream
    extra: tuple[int, ...]  # in the stream, not in the store
    changed: tuple[int, ...]  # in both, with other bytes
    duplicated: tuple[int, ...]  # more than once in the stream

    @property
    def same(self) -> bool:
        """The stream holds exactly the stored run: each event once, byte for byte."""
        return not (self.missing or self.extra or self.changed or self.duplicated)


async def compare_with_store(
    store: EventStore,
    run_id: str,
    *,
    servers: str = DEFAULT_SERVERS,
    stream: str = DEFAULT_STREAM,
    subject_prefix: str = DEFAULT_PREFIX,
    request_timeout: float = 5.0,
) -> StreamDiff:
    """Rebuild a run from the stream and compare it, event by event, with the store's log."""
    streamed = await rebuild_run(
        run_id, servers=servers, stream=stream, subject_prefix=subject_prefix, request_timeout=request_timeout
    )
    stored = {event.seq: encode_event(event) for event in await store.read(run_id)}
    counts = Counter(event.seq for event in streamed)
    changed = {
        event.seq for event in streamed if event.seq in stored and encode_event(event) != stored[event.seq]
    }
    return StreamDiff(
        run_id=run_id,
        missing=tuple(sorted(set(stored) - set(counts))),
        extra=tuple(sorted(set(counts) - set(stored))),
        changed=tuple(sorted(changed)),
        duplicated=tuple(sorted(seq for seq, count in counts.items() if count > 1)),
    )
