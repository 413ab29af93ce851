"""The victim of the crash-kill test: a forked child that appends forever and reports each ack.

`kill_at_random(url, tag, rng)` forks a child (the parent's imports are warm, so a kill
costs milliseconds, not an interpreter start), lets it append runs to the store at `url`,
SIGKILLs it after a random delay, and returns the last acknowledged seq of every run.
The child writes `<run_id> <seq>\\n` to a pipe with one unbuffered write per append,
*after* the append returned, so every line the parent reads is an acknowledged event.
"""

from __future__ import annotations

import os
import random
import signal
import time
from datetime import UTC, datetime

import anyio
from citeloop.events import open_store
from citeloop.events.testing import make_run_started, make_step


async def append_forever(url: str, tag: str, out: int) -> None:
    """Append runs in batches of varied size; report each acknowledgement on `out`."""
    async with open_store(url) as store:
        os.write(out, b"ready\n")
        run = 0
        while True:
            run_id = f"{tag}-{run}"
            await store.append(run_id, [make_run_started(run_id)], 0)
            os.write(out, f"{run_id} 0\n".encode())
            seq = 1
            for size in (1, 2, 3, 1, 2):  # varied sizes, so kills also land inside big batches
                batch = [make_step(run_id, seq + i, f"at {datetime.now(UTC)}") for i in range(size)]
                await store.append(run_id, batch, seq)
                seq += size
                os.write(out, f"{run_id} {seq - 1}\n".encode())
            run += 1


def kill_at_random(url: str, tag: str, rng: random.Random, max_delay: float = 0.05) -> dict[str, int]:
    """Fork a child appending to `url`, SIGKILL it at a random moment, return {run_id: last acked seq}."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's code
        try:
            os.close(read_end)
            anyio.run(append_forever, url, tag, write_end)
        finally:
            os._exit(1)
    os.close(write_end)
    data = b""
    while not data.startswith(b"ready\n"):
        chunk = os.read(read_end, 65536)
        if not chunk:
            os.waitpid(pid, 0)
            os.close(read_end)
            raise RuntimeError(f"the child died before it was ready (store {url})")
        data += chunk
    time.sleep(rng.uniform(0.0, max_delay))
    os.kill(pid, signal.SIGKILL)
    while chunk := os.read(read_end, 65536):
        data += chunk
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if not os.WIFSIGNALED(status) or os.WTERMSIG(status) != signal.SIGKILL:
        raise RuntimeError(f"the child ended by itself (status {status}) before it was killed")
    acked: dict[str, int] = {}
    for line in data.split(b"\n")[1:-1]:  # skip `ready`; the last piece may be a cut line
        run_id, seq = line.decode().split()
        acked[run_id] = max(acked.get(run_id, -1), int(seq))
    return acked
