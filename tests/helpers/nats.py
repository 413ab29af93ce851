"""NATS test helpers: find the server (skip, or fail under CI=true), isolate each test, run a private server.

The shared server is `CITELOOP_TEST_NATS` (default `nats://127.0.0.1:4222`, JetStream on);
each test uses a stream of its own, deleted afterwards. A broker-restart test starts its
own `nats-server` on a free port, so killing it disturbs nobody else.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from functools import cache
from pathlib import Path
from typing import Any

import pytest

DEFAULT_URL = "nats://127.0.0.1:4222"
NATS_SERVER = "/usr/sbin/nats-server"


def server_url() -> str:
    return os.environ.get("CITELOOP_TEST_NATS", DEFAULT_URL)


async def _jetstream_reachable(url: str) -> None:
    import nats

    async def ignore(exc: Exception) -> None:  # nats-py logs each refused attempt at ERROR otherwise
        del exc

    client = await nats.connect(
        url, connect_timeout=2, max_reconnect_attempts=1, allow_reconnect=False, error_cb=ignore
    )
    try:
        await client.jetstream().account_info()
    finally:
        await client.close()


@cache
def _unreachable_reason() -> str | None:
    try:
        import nats  # noqa: F401
    except ImportError:
        return "nats-py is not installed (pip install 'citeloop[nats]')"
    try:
        asyncio.run(_jetstream_reachable(server_url()))
    except Exception as exc:
        return f"NATS JetStream at {server_url()} is unreachable: {exc!r}"
    return None


def require_nats() -> str:
    """The server's URL; skips the test when it is unreachable, or fails it under CI=true."""
    reason = _unreachable_reason()
    if reason is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (CI=true: the NATS tests must run)")
        pytest.skip(reason)
    return server_url()


def unique_stream() -> str:
    return f"CITELOOP_TEST_{uuid.uuid4().hex[:12]}"


async def _call(url: str, work: Any) -> Any:
    import nats

    client = await nats.connect(url, connect_timeout=2, max_reconnect_attempts=1)
    try:
        return await work(client.jetstream())
    finally:
        await client.close()


def with_jetstream(url: str, work: Any, timeout: float = 60) -> Any:
    """Run `work(js)` against the server, synchronously, on a loop of its own (any test backend), bounded."""
    return asyncio.run(asyncio.wait_for(_call(url, work), timeout))


def delete_stream(url: str, stream: str) -> None:
    async def delete(js: Any) -> None:
        from nats.js.errors import NotFoundError

        with contextlib.suppress(NotFoundError):
            await js.delete_stream(stream)

    with_jetstream(url, delete)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class NatsServer:
    """A private nats-server with JetStream on a free port and a store directory that outlives restarts."""

    def __init__(self, store_dir: Path) -> None:
        if not Path(NATS_SERVER).exists() and shutil.which("nats-server") is None:
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail("nats-server is not installed (CI=true: the NATS tests must run)")
            pytest.skip("nats-server is not installed")
        self.binary = NATS_SERVER if Path(NATS_SERVER).exists() else str(shutil.which("nats-server"))
        self.port = free_port()
        self.store_dir = store_dir
        self.url = f"nats://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "-js", "-a", "127.0.0.1", "-p", str(self.port), "-sd", str(self.store_dir)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                asyncio.run(_jetstream_reachable(self.url))
                return
            except Exception:
                time.sleep(0.1)
        raise RuntimeError(f"nats-server on {self.url} did not come up")

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, as a crash would: no orderly shutdown."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None
