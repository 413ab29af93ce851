"""What a run is about to wait on, for watchers such as the command line's spinner.

Not an event: nothing of it is recorded. Sinks see only what is durable, and a read-only
tool's step is durable only after the tool returns (docs/architecture.md), so a sink
cannot say "waiting for the search tool" while the search runs. A watcher is told just
before the run awaits its policy or a tool.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias


@dataclass(frozen=True, slots=True)
class Waiting:
    """The run `run_id` is about to wait on its policy (for step `step`) or on a tool call."""

    run_id: str
    step: int  # numbered as in the log, from 0
    on: Literal["policy", "tool"]
    policy: str  # the run's policy, as its RunStarted names it
    tool: str | None = None
    input: str | None = None


# Called on the event loop, before the wait: it must return at once and not block.
Watcher: TypeAlias = Callable[[Waiting], None]
