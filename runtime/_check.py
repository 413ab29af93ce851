"""`check`: replay a stored run through today's parser and gate, and report where they now differ.

Like Temporal's replayer reporting non-determinism: the recorded policy replies are
parsed again, every recorded finish is judged again against exactly the pages the run
had opened at that point, answer locators are recomputed, and every opened body is
hashed again against its recorded digest. Nothing is dispatched, no policy is called.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    Event,
    Finish,
    FinishRejected,
    Page,
    ParseRejected,
    ToolObserved,
)
from citeloop.policies import Parsed, parse_policy_reply

from ._fold import fold
from ._gate import validate_finish
from ._locate import locate_evidence
from ._state import RunState

DivergenceKind = Literal["parse", "gate", "locators", "digest"]


@dataclass(frozen=True, slots=True)
class Divergence:
    """One step where today's code decides differently from what the log recorded."""

    seq: int
    step: int
    kind: DivergenceKind
    recorded: str
    today: str


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The result of `check`: empty `divergences` means today's code agrees with the log."""

    run_id: str
    events: int
    divergences: tuple[Divergence, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.divergences

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "events": self.events,
            "ok": self.ok,
            "divergences": [
                {"seq": d.seq, "step": d.step, "kind": d.kind, "recorded": d.recorded, "today": d.today}
                for d in self.divergences
            ],
        }


def _describe_parse(event: ActionParsed | ParseRejected) -> str:
    if isinstance(event, ParseRejected):
        return f"rejected: {event.code}"
    return f"action: {event.action.model_dump_json()}"


def _verdict_of(events: Sequence[Event], start: int) -> tuple[str, Event | None]:
    """What the log recorded right after a finish's ActionParsed at index `start`."""
    for event in events[start + 1 :]:
        if isinstance(event, FinishRejected):
            return f"rejected: {event.code}", event
        if isinstance(event, Answered | Abstained):
            return "accepted", event
        break
    return "no verdict recorded", None


def check_events(events: Sequence[Event]) -> CheckReport:
    """Replay `events` (one run's whole log) through today's parser and gate."""
    divergences: list[Divergence] = []
    state = RunState()
    for index, event in enumerate(events):
        if isinstance(event, ActionParsed | ParseRejected):
            today = parse_policy_reply(event.reply, state.allowlist)
            today_text = (
                f"action: {today.action.model_dump_json()}"
                if isinstance(today, Parsed)
                else f"rejected: {today.code}"
            )
            if today_text != _describe_parse(event):
                divergences.append(
                    Divergence(event.seq, event.step, "parse", _describe_parse(event), today_text)
                )
            if isinstance(event, ActionParsed) and isinstance(event.action, Finish):
                divergences.extend(_check_finish(state, events, index, event, event.action))
        elif isinstance(event, ToolObserved) and isinstance(event.observation, Page):
            page = event.observation
            digest = hashlib.sha256(page.body.encode("utf-8")).hexdigest()
            if digest != page.sha256:
                divergences.append(Divergence(event.seq, event.step, "digest", page.sha256, digest))
        state = fold((event,), state)
    run_id = events[0].run_id if events else ""
    return CheckReport(run_id=run_id, events=len(events), divergences=tuple(divergences))


def _check_finish(
    state: RunState, events: Sequence[Event], index: int, parsed: ActionParsed, finish: Finish
) -> list[Divergence]:
    found: list[Divergence] = []
    code = validate_finish(finish.payload, state.opened_bodies())
    today = "accepted" if code is None else f"rejected: {code}"
    recorded, verdict = _verdict_of(events, index)
    if verdict is not None and today != recorded:
        found.append(Divergence(parsed.seq, parsed.step, "gate", recorded, today))
    if isinstance(verdict, Answered) and code is None:
        pages = {
            url: (page.body, page.sha256) for url, page in state.opened.items() if url in verdict.citations
        }
        relocated = locate_evidence(verdict.evidence, verdict.citations, pages)
        if relocated != verdict.locators:
            found.append(
                Divergence(
                    verdict.seq,
                    verdict.step,
                    "locators",
                    repr([(loc.url, loc.start, loc.end) for loc in verdict.locators]),
                    repr([(loc.url, loc.start, loc.end) for loc in relocated]),
                )
            )
    return found
