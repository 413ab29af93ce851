"""`Corpus.load` builds off the event loop and stops at its next checkpoint when cancelled (issue 14, #16)."""

from __future__ import annotations

import threading
from pathlib import Path

import anyio
import anyio.from_thread
import anyio.lowlevel
import pytest
from citeloop.tools import Corpus
from citeloop.tools import _documents as corpus_module  # where files are read
from citeloop.tools._files import Member

FILES = 400

pytestmark = pytest.mark.anyio


@pytest.fixture
def big(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "big"
    root.mkdir()
    for i in range(FILES):
        (root / f"page{i:04}.txt").write_text(f"Page {i} about otters and beavers.", encoding="utf-8")
    return root


async def test_cancelling_a_build_stops_it_at_the_next_file(
    big: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = corpus_module.read_member
    first = anyio.Event()
    count = 0

    def slow_read(root_fd: int, member: Member) -> bytes:
        # Each file takes a while, so the build is still reading when the scope is cancelled.
        nonlocal count
        count += 1
        if count == 1:
            anyio.from_thread.run_sync(first.set)
        threading.Event().wait(0.005)
        return read(root_fd, member)

    monkeypatch.setattr(corpus_module, "read_member", slow_read)
    with anyio.move_on_after(5) as scope:
        async with anyio.create_task_group() as group:

            async def build() -> None:
                await Corpus.load(big)

            group.start_soon(build)
            await first.wait()
            group.cancel_scope.cancel()
    assert not scope.cancelled_caught  # the cancelled build returned; the 5 s guard never fired
    stopped_at = count
    assert 1 <= stopped_at < FILES
    await anyio.sleep(0.05)
    assert count == stopped_at  # the worker thread stopped too: it does not read on in the background
    assert list((tmp_path / "cache").rglob("*.tmp")) == []  # no half-built index left behind
    monkeypatch.setattr(corpus_module, "read_member", read)
    corpus = await Corpus.load(big)
    assert len(corpus) == FILES and corpus.rebuilt
    corpus.close()


async def test_load_runs_the_build_off_the_event_loop(big: Path) -> None:
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as group:
        group.start_soon(tick)
        corpus = await Corpus.load(big)
        group.cancel_scope.cancel()
    assert len(corpus) == FILES
    assert ticks > 1  # the loop kept running while the files were read
    corpus.close()
