"""What a tool is: a named async callable over one string argument that returns an observation."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from citeloop.events import Observation


@runtime_checkable
class Tool(Protocol):
    """A tool the runtime can dispatch.

    `read_only` declares whether running the call again is safe (search, open). After a
    crash, a dispatched call with no observation is run again only when it is; a tool of
    unknown effect is recorded as `ToolOutcomeUnknown` instead.

    Expected failures are returned as `ToolError` observations; an exception is a bug
    that the runtime records as a `ToolError` with code `tool_raised`.
    """

    @property
    def name(self) -> str: ...

    @property
    def read_only(self) -> bool: ...

    async def __call__(self, argument: str) -> Observation: ...
