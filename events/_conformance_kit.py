"""The conformance suite's kit: the harness, synthetic events and small helpers its checks share."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final, TypeVar

from ._actions import CallTool
from ._event_base import PolicyReply
from ._events import Abstained, ActionParsed, Answered, Event, RunStarted
from ._store import EventStore

EPOCH: Final = datetime(2025, 1, 1, tzinfo=UTC)
# Text that breaks naive codecs: astral characters, NUL, RTL, combining marks, and the
# characters JSON allows raw but a line-oriented file must not split on.
TRICKY_TEXT: Final = (
    '𝄞 😀 🇵🇹 \x00 nul | שלום مرحبا \u202eRTL\u202c | e\u0301 n\u0303 | \u2028 \u2029 \r\n\t "quoted" \\ back'
)
_GUARD_SECONDS: Final = 60  # a hung check fails instead of hanging the suite

_T = TypeVar("_T")


@asynccontextmanager
async def _closing(iterator: AsyncIterator[_T]) -> AsyncGenerator[AsyncIterator[_T], None]:
    """Close a subscription we stop reading early (async generators must not be left to the GC)."""
    try:
        yield iterator
    finally:
        aclose = getattr(iterator, "aclose", None)
        if aclose is not None:
            await aclose()


@dataclass(frozen=True)
class StoreHarness:
    """How the suite opens the store under test.

    `open()` must return the *same* underlying store on every call (so that a reopened
    store sees what was written before closing); `persistent` is false for stores that
    forget everything on close, such as memory.
    """

    open: Callable[[], EventStore]
    persistent: bool = True


Check = Callable[[StoreHarness], Awaitable[None]]


def _run_id(tag: str) -> str:
    return f"conf-{tag}-{uuid.uuid4().hex[:12]}"


def make_run_started(run_id: str, question: str = "Who founded Acme Robotics?") -> RunStarted:
    """A valid first event for a synthetic run."""
    return RunStarted(
        run_id=run_id,
        seq=0,
        at=EPOCH,
        question=question,
        max_steps=6,
        tools=(),
        allowlist=("search", "open", "finish"),
        policy="conformance",
    )


def make_step(run_id: str, seq: int, note: str = "") -> ActionParsed:
    """A valid non-terminal event at `seq` (its thought carries `note`)."""
    return ActionParsed(
        run_id=run_id,
        seq=seq,
        at=EPOCH + timedelta(milliseconds=seq),
        step=seq,
        reply=PolicyReply(text=f"Thought: {note}"),
        thought=note,
        action=CallTool(tool="search", input=f"query {seq}"),
    )


def _abstained(run_id: str, seq: int) -> Abstained:
    return Abstained(
        run_id=run_id,
        seq=seq,
        at=EPOCH + timedelta(seconds=1),
        step=seq,
        reason="no_hits",
        answer="cannot: no hits",
    )


def _answered(run_id: str, seq: int) -> Answered:
    return Answered(
        run_id=run_id,
        seq=seq,
        at=EPOCH + timedelta(seconds=2),
        step=seq,
        answer="Ada Ortiz",
        citations=("https://wiki.example/acme",),
        evidence="founded by Ada Ortiz",
        locators=(),
        answer_sha256=hashlib.sha256(b"Ada Ortiz").hexdigest(),
    )


async def _start(store: EventStore, run_id: str, steps: int = 0) -> list[Event]:
    events: list[Event] = [make_run_started(run_id), *(make_step(run_id, s) for s in range(1, steps + 1))]
    await store.append(run_id, events, 0)
    return events


async def _expect_failure(kind: type[Exception], call: Awaitable[None], what: str) -> Exception:
    try:
        await call
    except kind as exc:
        return exc
    raise AssertionError(f"{what}: expected {kind.__name__}, nothing was raised")
