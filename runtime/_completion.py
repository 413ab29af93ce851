"""The completion matrix: each plan item supported, contradicted or a gap, off the log (docs/evidence.md).

A pure function of the run's plan (`RunStarted.plan`) and the claim verdicts of its latest
finish that carried claims (`RunState.claims`): no I/O, nothing but the fold's own facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, TypeAlias

from citeloop.events import Answered, ClaimAssessed, EvidenceClass

from ._state import RunState

ItemStatus: TypeAlias = Literal["supported", "contradicted", "gap"]


class CompletionItem(NamedTuple):
    """One plan item (`item` counts from 1): how the claims settle it, and what evidence they rest on.

    `claims` are the indexes of the claims made for the item; `classes` the evidence classes of
    the premises of its supported claims (or, when none is supported, of its contradicted ones),
    each once, in the order first met.
    """

    item: int
    text: str
    status: ItemStatus
    claims: tuple[int, ...]
    classes: tuple[EvidenceClass, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "text": self.text,
            "status": self.status,
            "claims": list(self.claims),
            "classes": list(self.classes),
        }


def completion_of(plan: Sequence[str], claims: Sequence[ClaimAssessed]) -> tuple[CompletionItem, ...]:
    """The matrix for `plan` given `claims`: a supported claim settles its item; else a contradicted
    one marks it `contradicted`; else it is a `gap` (no claim, or only unsupported ones)."""
    items: list[CompletionItem] = []
    for index, text in enumerate(plan, start=1):
        mine = [claim for claim in claims if claim.item == index]
        supported = [claim for claim in mine if claim.verdict == "supported"]
        contradicted = [claim for claim in mine if claim.verdict == "contradicted"]
        status: ItemStatus = "supported" if supported else "contradicted" if contradicted else "gap"
        settling = supported or contradicted
        classes = tuple(
            dict.fromkeys(premise.evidence_class for claim in settling for premise in claim.premises)
        )
        items.append(CompletionItem(index, text, status, tuple(claim.index for claim in mine), classes))
    return tuple(items)


def completion(state: RunState) -> tuple[CompletionItem, ...]:
    """The run's completion matrix (empty for a run without a plan).

    An answered run is judged by the claims of the finish that was accepted (none, when it
    carried none: a rejected finish's claims settle nothing); any other run by its latest
    finish that carried claims.
    """
    return completion_of(state.plan, settling_claims(state))


def settling_claims(state: RunState) -> tuple[ClaimAssessed, ...]:
    """The claims the matrix reads: an answer's own (right before its `Answered`), else the latest."""
    claims, outcome = state.claims, state.outcome
    if isinstance(outcome, Answered) and not (claims and claims[-1].seq == outcome.seq - 1):
        return ()
    return claims


def gaps_of(matrix: Sequence[CompletionItem]) -> tuple[int, ...]:
    """The items of a matrix that are gaps, in plan order."""
    return tuple(item.item for item in matrix if item.status == "gap")
