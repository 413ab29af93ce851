"""One driver per run: a second holder is refused at once, in this process or another,
and a dead holder's lock is gone with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from citeloop.events import MemoryStore, RunBusyError, open_store, run_lock
from helpers.postgres import postgres_url as postgres_url

pytestmark = pytest.mark.anyio

HOLDER = textwrap.dedent(
    """
    import sys, time, anyio
    from citeloop.events import open_store, run_lock

    async def main() -> None:
        async with open_store(sys.argv[1]) as store:
            lock = run_lock(store)
            async with lock.hold(sys.argv[2]):
                open(sys.argv[3], "w").close()  # tell the test the lock is held
                time.sleep(600)  # until killed

    anyio.run(main)
    """
)


async def wait_for(path: Path) -> None:
    with anyio.fail_after(30):
        while not path.exists():
            await anyio.sleep(0.02)


async def test_a_second_holder_in_this_process_is_refused() -> None:
    store = MemoryStore()
    lock = run_lock(store)
    async with lock.hold("r1"):
        with pytest.raises(RunBusyError, match="r1"):
            async with lock.hold("r1"):
                pass
        async with lock.hold("r2"):  # another run is another lock
            pass
    async with lock.hold("r1"):  # released on exit
        pass
    await lock.aclose()


async def test_sqlite_locks_exclude_another_process_until_it_dies(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    held = tmp_path / "held"
    child = subprocess.Popen([sys.executable, "-c", HOLDER, url, "r1", str(held)])
    try:
        await wait_for(held)
        async with open_store(url) as store:
            lock = run_lock(store)
            with pytest.raises(RunBusyError, match="another process"):
                async with lock.hold("r1"):
                    pass
            async with lock.hold("r2"):
                pass
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            async with lock.hold("r1"):  # the kernel dropped the dead process's lock
                pass
            await lock.aclose()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.postgres
@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # psycopg's async API is asyncio-only
async def test_postgres_advisory_locks_exclude_another_session(postgres_url: str) -> None:
    held = Path(os.environ.get("TMPDIR", "/tmp")) / f"citeloop-held-{os.getpid()}-{id(postgres_url)}"
    held.unlink(missing_ok=True)
    async with open_store(postgres_url):  # create the schema before the child uses it
        pass
    child = subprocess.Popen([sys.executable, "-c", HOLDER, postgres_url, "r1", str(held)])
    try:
        await wait_for(held)
        async with open_store(postgres_url) as store:
            lock = run_lock(store)
            with pytest.raises(RunBusyError, match="another process"):
                async with lock.hold("r1"):
                    pass
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            with anyio.fail_after(30):  # the server notices the lost session
                while True:
                    try:
                        async with lock.hold("r1"):
                            break
                    except RunBusyError:
                        await anyio.sleep(0.05)
            await lock.aclose()
    finally:
        held.unlink(missing_ok=True)
        if child.poll() is None:
            child.kill()
            child.wait()
