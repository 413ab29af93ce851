"""What a policy sees of a run: a projection of its log, built by the runtime on every turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from citeloop.events import Action, AdmittedSource, Hit, Observation, Page, PolicyReply


@dataclass(frozen=True, slots=True)
class Turn:
    """One earlier step as the policy is shown it.

    `action` is None when the reply was rejected by the parser. `shown` is the text of
    the observation as a text policy reads it (bodies fenced as untrusted data, cut to
    the prompt limit); `observation` is the typed result, when a tool ran.
    """

    step: int
    reply: PolicyReply
    thought: str
    action: Action | None
    shown: str
    observation: Observation | None = None


@dataclass(frozen=True, slots=True)
class RunView:
    """The question, the rules, and the earlier turns of one run.

    `pages` and `searched` are the structured record of what the run opened and found,
    for deterministic policies; a language-model policy renders `turns` into a prompt.
    `sources` are the run's attachments (docs/evidence.md), and `sources_shown` the text a
    text policy reads of them after the question (fenced as untrusted data, cut).
    """

    run_id: str
    question: str
    allowlist: tuple[str, ...]
    step: int
    max_steps: int
    turns: tuple[Turn, ...] = ()
    pages: Mapping[str, Page] = field(default_factory=lambda: MappingProxyType({}))
    searched: Mapping[str, tuple[Hit, ...]] = field(default_factory=lambda: MappingProxyType({}))
    failed_opens: frozenset[str] = frozenset()
    repair_used: bool = False
    sources: Mapping[str, AdmittedSource] = field(default_factory=lambda: MappingProxyType({}))
    sources_shown: str = ""
    # The research plan (RunStarted.plan): items a finish settles with claims or lists in `gaps`.
    plan: tuple[str, ...] = ()

    @property
    def steps_left(self) -> int:
        return self.max_steps - self.step
