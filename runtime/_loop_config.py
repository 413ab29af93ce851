"""What every run of one `Runtime` shares: the store, tools, policy, limits and timeouts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType

from citeloop.events import EventStore, ToolSpec
from citeloop.policies import Policy, Reviewer, Writer
from citeloop.tools import Tool

from ._admission import Admission
from ._limits import DEFAULT_LIMITS, Limits
from ._project import ViewOptions
from ._sinks import SinkHub
from ._support import DEFAULT_SUPPORT, SUPPORT_METHODS, SupportMethod
from ._waiting import Watcher


@dataclass(frozen=True, slots=True)
class LoopConfig:
    """What every run of one `Runtime` shares."""

    store: EventStore
    tools: Mapping[str, Tool]
    policy: Policy
    clock: Callable[[], datetime]
    tool_timeout: float
    policy_timeout: float | None
    view_options: ViewOptions
    hub: SinkHub
    admission: Admission
    limits: Limits = DEFAULT_LIMITS
    # The support methods new runs are held to (recorded in RunStarted), and the methods by
    # name that judge any run's finishes: a run is held to the names its log records.
    support: tuple[str, ...] = DEFAULT_SUPPORT
    support_methods: Mapping[str, SupportMethod] = field(default_factory=lambda: SUPPORT_METHODS)
    watchers: tuple[Watcher, ...] = ()  # told what each run is about to wait on (runtime/_waiting.py)
    # Who writes and reviews a report run's drafts (docs/reports.md); unused by ordinary runs.
    writer: Writer | None = None
    reviewer: Reviewer | None = None

    # The tool table every decision trusts: what each tool declares now (built once).
    specs: Mapping[str, ToolSpec] = field(init=False)

    def __post_init__(self) -> None:
        specs = {name: ToolSpec(name=name, read_only=tool.read_only) for name, tool in self.tools.items()}
        object.__setattr__(self, "specs", MappingProxyType(specs))
