"""One run driven by scripted replies, for tests of what the gate does with them."""

from __future__ import annotations

from typing import Any

from citeloop.events import Event, MemoryStore
from citeloop.runtime import Runtime
from citeloop.tools import Corpus

from helpers.fakes import ReplyQueue


async def replied_run(corpus: Corpus, question: str, *replies: str, **options: Any) -> list[Event]:
    """The stored events of one run of `question` over `corpus`, the policy replying `replies` in turn
    (the last one repeats); `options` go to the `Runtime`."""
    store = MemoryStore()
    async with Runtime(store=store, tools=corpus.tools(), policy=ReplyQueue(*replies), **options) as rt:
        outcome = await rt.run(question)
    return await store.read(outcome.run_id)
