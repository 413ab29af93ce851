"""`RunState`: everything the runtime knows about a run, as a frozen value folded from its log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from citeloop.events import (
    Abstained,
    AbstainReason,
    ActionParsed,
    Answered,
    Hit,
    ToolDispatched,
    ToolSpec,
)

_EMPTY: Mapping[str, object] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class OpenedPage:
    """A page this run opened successfully, with the digest recorded when it was opened."""

    url: str
    title: str
    body: str
    sha256: str


def normalize_query(query: str) -> str:
    """Two searches are 'the same' when they differ only in case and white space."""
    return " ".join(query.casefold().split())


@dataclass(frozen=True, slots=True)
class RunState:
    """The fold of a run's events. Build it with `fold`; never by hand."""

    run_id: str = ""
    question: str = ""
    max_steps: int = 0
    allowlist: tuple[str, ...] = ()
    tools: Mapping[str, ToolSpec] = field(default_factory=lambda: MappingProxyType({}))
    policy: str = ""
    next_seq: int = 0
    steps: int = 0
    opened: Mapping[str, OpenedPage] = field(default_factory=lambda: MappingProxyType({}))
    searched: Mapping[str, tuple[Hit, ...]] = field(default_factory=lambda: MappingProxyType({}))
    open_attempts: int = 0
    open_failures: int = 0
    hits_seen: int = 0
    rejections: int = 0
    parse_rejections: int = 0
    pending: Mapping[str, ToolDispatched] = field(default_factory=lambda: MappingProxyType({}))
    # A parsed action whose consequence (dispatch, observation, gate verdict) is not in the
    # log yet: the process stopped in between, and resume must carry it out, not ask again.
    unhandled: ActionParsed | None = None
    outcome: Answered | Abstained | None = None

    @property
    def started(self) -> bool:
        return self.next_seq > 0

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def status(self) -> Literal["running", "answered", "abstained"]:
        if self.outcome is None:
            return "running"
        return "answered" if isinstance(self.outcome, Answered) else "abstained"

    @property
    def repair_used(self) -> bool:
        """Whether the one repair turn is spent: derived from the count of rejected finishes."""
        return self.rejections >= 1

    @property
    def budget_spent(self) -> bool:
        return self.steps >= self.max_steps

    def opened_bodies(self) -> dict[str, str]:
        """The gate's view: each successfully opened URL mapped to its body."""
        return {url: page.body for url, page in self.opened.items()}

    def own_abstain_reason(self) -> AbstainReason:
        """The reason for a policy's own abstention, read off what the run did (SPEC §5)."""
        if not self.opened and self.open_attempts and self.open_failures == self.open_attempts:
            return "not_found"
        if not self.opened and self.hits_seen == 0:
            return "no_hits"
        return "missing_fact"
