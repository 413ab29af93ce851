"""What a policy is: anything with one async method from a run's view to a reply."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from citeloop.events import PolicyReply

from ._view import RunView


@runtime_checkable
class Policy(Protocol):
    """Proposes one step at a time.

    Return ReAct text (`Thought: ...\\nAction: ...\\nAction Input: ...`), or a
    `PolicyReply` carrying either that text or a structured tool call
    (`{"name": ..., "arguments": {...}}`) plus usage and latency. Either way the reply
    goes through the same strict checks and is recorded raw.
    """

    @property
    def name(self) -> str: ...

    async def next_step(self, view: RunView) -> str | PolicyReply: ...
