"""A private PostgreSQL server a test can stop and start again: `initdb` in a temp folder, one port.

For the tests that need the server itself to go away (a restart), which the shared test
server must never do. Runs the server as the `postgres` user when the tests run as root
(PostgreSQL refuses root). Skips when the binaries are missing, fails under CI=true.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers.cli import in_ci


def _bin_dir() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PrivateServer:
    """One stopped-or-running server: `url` of its `postgres` database, `stop()`, `start()`."""

    bin_dir: Path
    data: Path
    port: int
    as_user: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        command = [*self.as_user, str(self.bin_dir / "pg_ctl"), "-D", str(self.data), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            pytest.fail(f"pg_ctl {' '.join(args)} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._ctl("-w", "-l", str(self.data / "server.log"), "-o", options, "start")

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server; `immediate` is a crash's abrupt end (every connection dropped)."""
        self._ctl("-w", "-m", mode, "stop")


@contextmanager
def private_server() -> Iterator[PrivateServer]:
    """A fresh server, running; stopped and removed afterwards."""
    bin_dir = _bin_dir()
    if bin_dir is None:
        reason = "initdb is not installed (the PostgreSQL server binaries)"
        if in_ci():
            pytest.fail(f"{reason} (CI=true: the PostgreSQL tests must run)")
        pytest.skip(reason)
    root = Path(tempfile.mkdtemp(prefix="citeloop-pg-"))
    data = root / "data"
    data.mkdir()
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser: cannot start a private PostgreSQL server")
        shutil.chown(root, "postgres")
        shutil.chown(data, "postgres")
        as_user = [runuser, "-u", "postgres", "--"]
    initdb = str(bin_dir / "initdb")
    init = [*as_user, initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
    done = subprocess.run(init, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"initdb failed: {done.stdout}{done.stderr}")
    server = PrivateServer(bin_dir, data, _free_port(), as_user)
    server.start()
    try:
        yield server
    finally:
        subprocess.run(
            [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=120,
            check=False,
        )
        shutil.rmtree(root, ignore_errors=True)
