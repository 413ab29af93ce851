"""Answer-edit invalidation: does an edited answer still match its run's evidence relation? (docs/evidence.md)

An accepted answer is bound to its evidence by its digest (`Answered.answer_sha256`), its
locators, and, with claims, by every claim's text occurring in it. `verify_answer` takes
the run's log and an answer text (say, the answer after someone edited it) and reports
exactly what no longer matches: the digest, each locator re-verified against the log
(`verify_locator`: the source's recorded text, not a file on disk), each claim whose text
is no longer in the answer. Pure: the log and the text in, a report out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from citeloop.events import Answered, Event, TextLocator, UsageError

from ._completion import settling_claims
from ._fold import fold
from ._locate import answer_digest
from ._locator_check import verify_locator
from ._text import normalize_ws

MismatchKind = Literal["digest", "locator", "premise", "claim"]


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One thing that no longer matches: what kind, which (`where`), and how it differs."""

    kind: MismatchKind
    where: str
    detail: str


@dataclass(frozen=True, slots=True)
class AnswerCheck:
    """The verdict on an answer text against a run's log: empty `mismatches` means it all still holds."""

    run_id: str
    recorded_sha256: str
    answer_sha256: str
    locators: int
    claims: int
    mismatches: tuple[Mismatch, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def lines(self) -> list[str]:
        """The report as the command line prints it."""
        if self.ok:
            noun = "locator" if self.locators == 1 else "locators"
            claims = f", all {self.claims} claims still occur in it" if self.claims else ""
            return [
                f"{self.run_id}: all {self.locators} {noun} still hold; the answer digest matches{claims}"
            ]
        count = len(self.mismatches)
        head = f"{self.run_id}: {count} mismatch{'es' if count != 1 else ''}"
        return [head, *(f"  [{m.kind}] {m.where}: {m.detail}" for m in self.mismatches)]

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "ok": self.ok,
            "recorded_sha256": self.recorded_sha256,
            "answer_sha256": self.answer_sha256,
            "locators": self.locators,
            "claims": self.claims,
            "mismatches": [{"kind": m.kind, "where": m.where, "detail": m.detail} for m in self.mismatches],
        }


def _first_difference(recorded: str, edited: str) -> int:
    for index, (mine, theirs) in enumerate(zip(recorded, edited, strict=False)):
        if mine != theirs:
            return index
    return min(len(recorded), len(edited))


def verify_answer(events: Sequence[Event], answer: str) -> AnswerCheck:
    """What of the run's evidence relation no longer matches `answer` (`UsageError`: no answer to check)."""
    state = fold(events)
    answered = state.outcome
    if not isinstance(answered, Answered):
        raise UsageError(f"run {state.run_id} did not answer ({state.status}): there is no answer to verify")
    found: list[Mismatch] = []
    digest = answer_digest(answer)
    if digest != answered.answer_sha256:
        at = _first_difference(answered.answer, answer)
        said = f"sha256 {digest[:16]}… is not the recorded {answered.answer_sha256[:16]}…"
        found.append(Mismatch("digest", "answer", f"{said} (the text differs from character {at + 1} on)"))
    checked = 0
    for number, locator in enumerate(answered.locators, start=1):
        checked += 1
        as_text = TextLocator(
            source=locator.url,
            sha256=locator.sha256,
            start=locator.start,
            end=locator.end,
            start_utf16=locator.start_utf16,
            end_utf16=locator.end_utf16,
            quote=locator.quote,
        )
        problem = verify_locator(as_text, state)
        if problem is not None:
            found.append(Mismatch("locator", f"locator {number}", problem))
    claims = settling_claims(state)  # the accepted finish's own
    text = normalize_ws(answer)
    for claim in claims:
        for number, premise in enumerate(claim.premises, start=1):
            where = f"claim {claim.index} premise {number}"
            if premise.locator is not None:
                checked += 1
                problem = verify_locator(premise.locator, state)
                if problem is not None:
                    found.append(Mismatch("premise", where, problem))
                continue
            calculation = state.calculations.get(premise.calculation or "")
            if calculation is None:
                found.append(
                    Mismatch("premise", where, f"{premise.calculation} is not a calculation in the log")
                )
                continue
            for measure in calculation.inputs:
                checked += 1
                problem = verify_locator(measure.locator, state)
                if problem is not None:
                    found.append(Mismatch("premise", f"{where} ({calculation.id})", problem))
        if normalize_ws(claim.text) not in text:
            found.append(
                Mismatch("claim", f"claim {claim.index}", f"{claim.text!r} no longer occurs in the answer")
            )
    return AnswerCheck(
        run_id=state.run_id,
        recorded_sha256=answered.answer_sha256,
        answer_sha256=digest,
        locators=checked,
        claims=len(claims),
        mismatches=tuple(found),
    )
