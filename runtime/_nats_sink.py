"""A sink to NATS JetStream: every event on a subject per run, at least once, stored once.

Each event is published to `<subject_prefix>.<run_id>` with `Nats-Msg-Id: <run_id>:<seq>`,
its payload the event's canonical encoding, and the publish waits for JetStream's PubAck.
While the broker is away the sink retries with backoff; the events behind it wait, in
order, in the sink's bounded buffer (runtime/_sinks.py), and the runs go on. A retried
event is never stored twice: JetStream's duplicate window drops a second copy, and before
a retry the sink reads the last message of the run's subject, so an event stored before
the ack was lost is not sent again even after the window (docs/observability.md).

nats-py is asyncio-only. The sink is a sync sink that owns a private asyncio loop in a
thread of its own, so a runtime on either backend (asyncio or trio) can use it, and
`rebuild_run` / `compare_with_store` run their client in a worker thread the same way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Coroutine
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

import anyio
import structlog
from citeloop.events import Event, StoreUnavailableError, UsageError, encode_event, redact_url

# The stream's side (subjects, connection, setup, reading a run back) lives in _nats_stream;
# its public names are re-exported here, where they were first imported from.
from ._nats_stream import DEFAULT_PREFIX as DEFAULT_PREFIX
from ._nats_stream import DEFAULT_SERVERS as DEFAULT_SERVERS
from ._nats_stream import DEFAULT_STREAM as DEFAULT_STREAM
from ._nats_stream import MSG_ID as MSG_ID
from ._nats_stream import StreamDiff as StreamDiff
from ._nats_stream import (
    _already_stored,
    _check_names,
    _connect,
    _connect_timeout,
    _ensure_stream,
    _is_transient,
    _nats,
)
from ._nats_stream import compare_with_store as compare_with_store
from ._nats_stream import rebuild_run as rebuild_run
from ._nats_stream import run_subject as run_subject

if TYPE_CHECKING:
    from nats.aio.client import Client
    from nats.js import JetStreamContext

_T = TypeVar("_T")


def _log() -> Any:
    return structlog.get_logger("citeloop.sinks.jetstream")


class JetStreamSink:
    """Publishes every event to JetStream (`Runtime(sinks=[JetStreamSink()])`), at least once, stored once.

    The stream (subjects `<subject_prefix>.>`) is created when missing. A publish waits for
    the PubAck; a broker that is away is retried with backoff up to `max_backoff` seconds
    apart, on a new connection, for up to `give_up_after` seconds per event: then the event
    fails (StoreUnavailableError, counted by the runtime as failed, never silent) and the
    sink goes on with the next. Every wait is bounded: an attempt (connect, stream check,
    publish) by `attempt_timeout`, the caller's wait by the whole retry budget. Close it
    (`close`, `aclose`, or a `with` / `async with`) after the runtime: in-flight publishes
    get `close_grace` seconds, then are cancelled, and the connection drains. The payload
    is the log itself (the canonical encoding, not redacted): the stream is a replica of
    the log, to be guarded as the store is.
    """

    def __init__(
        self,
        servers: str = DEFAULT_SERVERS,
        stream: str = DEFAULT_STREAM,
        subject_prefix: str = DEFAULT_PREFIX,
        *,
        ack_timeout: float = 2.0,
        max_backoff: float = 2.0,
        duplicate_window: float = 120.0,
        close_grace: float = 5.0,
        give_up_after: float = 300.0,
    ) -> None:
        _nats()
        _check_names(stream, subject_prefix)
        self.servers = servers
        self.stream = stream
        self.subject_prefix = subject_prefix
        self._ack_timeout = ack_timeout
        self._max_backoff = max_backoff
        self._duplicate_window = duplicate_window
        self._close_grace = close_grace
        self._give_up_after = give_up_after
        # One attempt: a connection (TCP, INFO, PONG: a connect timeout each), the stream
        # check (up to three requests), the last-message check and the publish.
        self.attempt_timeout = 3 * _connect_timeout(ack_timeout) + 5 * ack_timeout
        # The caller's wait for one event: the retry budget, its last attempt, and slack.
        self._wait_timeout = give_up_after + self.attempt_timeout + max_backoff + 5.0
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._in_flight = 0
        self._closing = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: Client | None = None
        self._publishing: set[asyncio.Task[None]] = set()  # on the private loop only
        self._ready = False  # the stream is known to exist on the connected broker
        self.published = 0  # events acknowledged by JetStream (a duplicate's ack included)
        self.retries = 0

    def __repr__(self) -> str:
        return f"JetStreamSink({redact_url(self.servers)!r}, stream={self.stream!r})"

    # -- the private loop ---------------------------------------------------------------

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._closing.is_set():
                raise UsageError("this JetStreamSink is closed")
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="citeloop-jetstream", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            self._in_flight += 1
            return self._loop

    def _submit(self, work: Coroutine[Any, Any, _T]) -> _T:
        """Run `work` on the private loop and wait for it (called from a sink's thread)."""
        try:
            loop = self._running_loop()
        except BaseException:
            work.close()
            raise
        future = asyncio.run_coroutine_threadsafe(work, loop)
        try:
            return future.result(timeout=self._wait_timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()  # the publish itself gives up sooner: this is the backstop
            raise StoreUnavailableError(
                f"JetStream at {redact_url(self.servers)}: no answer in {self._wait_timeout:.0f}s"
            ) from None
        except concurrent.futures.CancelledError:  # the sink closed under it
            raise StoreUnavailableError(
                f"JetStream sink for {redact_url(self.servers)} closed before the event was stored"
            ) from None
        finally:
            with self._lock:
                self._in_flight -= 1
                self._idle.notify_all()

    # -- publishing ---------------------------------------------------------------------

    def __call__(self, event: Event) -> None:
        self._submit(self._publish(event))

    async def _jetstream(self) -> JetStreamContext:
        if self._client is not None and not self._client.is_connected:
            await self._drop_client()  # closed (or worse): a new connection, never a client in limbo
        if self._client is None:
            self._client, self._ready = await _connect(self.servers, self._ack_timeout), False
        js = self._client.jetstream(timeout=self._ack_timeout)
        if not self._ready:
            await _ensure_stream(js, self.stream, self.subject_prefix, self._duplicate_window)
            self._ready = True
        return js

    async def _publish(self, event: Event) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._publishing.add(task)
        try:
            await self._publish_until_stored(event)
        finally:
            self._publishing.discard(task)

    async def _publish_until_stored(self, event: Event) -> None:
        from nats.js.errors import APIError

        subject = run_subject(event.run_id, self.subject_prefix)
        msg_id = f"{event.run_id}:{event.seq}"
        payload = encode_event(event)
        delay, attempt = 0.05, 0
        deadline = time.monotonic() + self._give_up_after

        async def attempt_once(check_first: bool) -> None:
            js = await self._jetstream()
            if check_first and await _already_stored(js, self.stream, subject, event.seq):
                return
            await js.publish(subject, payload, stream=self.stream, headers={MSG_ID: msg_id})

        while True:
            try:
                await asyncio.wait_for(attempt_once(attempt > 0), self.attempt_timeout)
                break
            except Exception as exc:
                if not _is_transient(exc):
                    raise
                self._ready = False  # a broker back from a restart may have lost the stream
                if not isinstance(exc, APIError):  # no answer on this connection: take a new one
                    await self._drop_client()
                if self._closing.is_set():
                    raise StoreUnavailableError(
                        f"JetStream at {redact_url(self.servers)} did not take event {msg_id} before close"
                    ) from exc
                if time.monotonic() + delay > deadline:
                    raise StoreUnavailableError(
                        f"JetStream at {redact_url(self.servers)} did not take event {msg_id}"
                        f" in {self._give_up_after:.0f}s ({attempt + 1} attempts): {exc!r}"
                    ) from exc
                attempt += 1
                self.retries += 1
                if attempt == 1 or attempt % 50 == 0:
                    _log().warning(
                        "jetstream_retrying", servers=redact_url(self.servers), msg_id=msg_id, error=repr(exc)
                    )
                await asyncio.sleep(delay)
                delay = min(delay * 2, self._max_backoff)
        self.published += 1

    async def _drop_client(self) -> None:
        """Close the current connection (bounded, errors ignored); the next attempt makes a new one."""
        client, self._client, self._ready = self._client, None, False
        if client is not None and not client.is_closed:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), timeout=self._ack_timeout + 1)

    # -- closing ------------------------------------------------------------------------

    def close(self) -> None:
        """Let in-flight publishes finish (up to `close_grace` seconds), then drain and close. Idempotent."""
        with self._lock:
            self._idle.wait_for(lambda: self._in_flight == 0, timeout=self._close_grace)
            self._closing.set()  # a publish still retrying gives up now (the sink counts it failed)
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        try:
            # `_disconnect` waits up to `close_grace` for the cancelled publishes, then for the drain.
            disconnect = asyncio.run_coroutine_threadsafe(self._disconnect(), loop)
            disconnect.result(timeout=2 * self._close_grace + 5)
        except Exception as exc:  # closing must not raise over the caller's own exit
            _log().warning("jetstream_close_failed", error=repr(exc))
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=5)
            if not thread.is_alive():
                loop.close()

    async def _disconnect(self) -> None:
        # A publish still retrying is cancelled (its caller's `_submit` raises), never left
        # pending on a loop about to stop, which would block its caller forever.
        pending = list(self._publishing)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=self._close_grace)
        client, self._client = self._client, None
        if client is not None and not client.is_closed:
            try:
                await asyncio.wait_for(client.drain(), timeout=self._close_grace)
            except Exception:
                await client.close()

    async def aclose(self) -> None:
        """`close`, in a worker thread, so the event loop goes on meanwhile."""
        await anyio.to_thread.run_sync(self.close)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
