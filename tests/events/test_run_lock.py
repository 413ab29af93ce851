"""One driver per run: a second holder is refused at once, in this process or another,
and a dead holder's lock is gone with it."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from anyio.abc import Process
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
                print("held", flush=True)  # tell the test the lock is held
                time.sleep(600)  # until killed

    anyio.run(main)
    """
)


async def hold_in_child(url: str, run_id: str) -> Process:
    """A child process holding `run_id`'s lock, once it has said so."""
    child = await anyio.open_process([sys.executable, "-c", HOLDER, url, run_id])
    assert child.stdout is not None
    with anyio.fail_after(30):
        said = await child.stdout.receive()
    assert said.strip() == b"held", said
    return child


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
    child = await hold_in_child(url, "r1")
    try:
        async with open_store(url) as store:
            lock = run_lock(store)
            with pytest.raises(RunBusyError, match="another process"):
                async with lock.hold("r1"):
                    pass
            async with lock.hold("r2"):
                pass
            child.kill()
            await child.wait()
            async with lock.hold("r1"):  # the kernel dropped the dead process's lock
                pass
            await lock.aclose()
    finally:
        await stop(child)


async def stop(child: Process) -> None:
    if child.returncode is None:
        child.kill()
    await child.aclose()


@pytest.mark.postgres
@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # psycopg's async API is asyncio-only
async def test_postgres_advisory_locks_exclude_another_session(postgres_url: str) -> None:
    async with open_store(postgres_url):  # create the schema before the child uses it
        pass
    child = await hold_in_child(postgres_url, "r1")
    try:
        async with open_store(postgres_url) as store:
            lock = run_lock(store)
            with pytest.raises(RunBusyError, match="another process"):
                async with lock.hold("r1"):
                    pass
            child.kill()
            await child.wait()
            with anyio.fail_after(30):  # the server notices the lost session
                while True:
                    try:
                        async with lock.hold("r1"):
                            break
                    except RunBusyError:
                        await anyio.sleep(0.05)
            await lock.aclose()
    finally:
        await stop(child)
