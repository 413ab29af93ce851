"""A finish, judged: the gate's verdict on a policy's `finish` as the events that record it.

`decide_action` (runtime/_decide.py) hands every parsed `Finish` here; the driver and
`check` reach it only through that one path, so a finish is judged once (docs/gate.md).
What a verdict turns into — the claims assessed, an `Answered` with its locators and
support, a `FinishRejected`, and after the one repair turn an `Abstained` — lives here;
the rules themselves live in runtime/_gate.py, runtime/_claims_gate.py and runtime/_support.py.

Pure like every decision: no I/O, no clock (the caller passes `at`), no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from citeloop.events import Abstained, AbstainReason, Answered, Event, FinishRejected, Locator, Support

from ._claims_gate import (
    UNSUPPORTED_CLAIMS_ANSWER,
    disclosed_gaps,
    evidence_classes,
    judge_finish,
    unsupported_detail,
)
from ._gate import abstain_hint
from ._locate import answer_digest, locate_evidence, locate_quotes
from ._state import RunState
from ._support import SUPPORT_METHODS, SupportMethod, assess_support, is_supported

INVALID_FINISH_ANSWER = "cannot: no finish passed the grounding gate after the one repair turn"


def decide_finish(
    state: RunState,
    step: int,
    payload: dict[str, Any],
    at: datetime,
    *,
    offset: int = 0,
    support_methods: Mapping[str, SupportMethod] = SUPPORT_METHODS,
) -> list[Event]:
    """The gate's verdict on a finish, as the events that record it (docs/gate.md).

    A positive finish the gate accepts is then held to the run's support methods
    (`state.support`, looked up in `support_methods`): their verdicts go on the `Answered`,
    or on a `FinishRejected(unsupported_answer)` when one of them is not `supported`.
    """
    seq = state.next_seq + offset
    # With claims, one `ClaimAssessed` per claim comes first; the claims are then the support.
    code, assessed = judge_finish(state, step, payload, at, seq)
    seq += len(assessed)
    support: tuple[Support, ...] = ()
    if code is None and not payload["cannot_answer"] and not assessed:
        question, answer, evidence = state.question, payload["answer"], payload["evidence"]
        if not isinstance(evidence, str):  # a multi-quote finish: the methods read the quotes together
            evidence = "\n".join(evidence)
        cited = [(page.title, page.body) for url, page in state.opened.items() if url in payload["citations"]]
        opened = [page.body for page in state.opened.values()]
        support = assess_support(question, answer, evidence, state.support, support_methods, cited, opened)
        support = (*support, *_generated_label(state, payload))
        if not is_supported(support):
            code = "unsupported_answer"
    if code is None:
        if payload["cannot_answer"]:
            return [_own_abstention(state, step, payload, at, seq)]
        citations = tuple(payload["citations"])
        pages = {url: page for url, page in state.citable().items() if url in citations}
        locators = _locate(payload["evidence"], citations, pages)
        return [
            *assessed,
            Answered(
                run_id=state.run_id,
                seq=seq,
                at=at,
                step=step,
                answer=payload["answer"],
                citations=citations,
                evidence=_recorded_evidence(payload["evidence"]),
                locators=locators,
                answer_sha256=answer_digest(payload["answer"]),
                support=support,
                evidence_classes=evidence_classes(state, locators, assessed),
                gaps=disclosed_gaps(payload),
            ),
        ]
    rejected = FinishRejected(
        run_id=state.run_id, seq=seq, at=at, step=step, code=code, payload=payload, support=support
    )
    if not state.repair_used:
        return [*assessed, rejected]
    if code == "unsupported_claims":
        reason: AbstainReason = "unsupported_claims"
        answer, detail = UNSUPPORTED_CLAIMS_ANSWER, unsupported_detail(assessed)
    else:
        reason, answer, detail = "invalid_finish", INVALID_FINISH_ANSWER, code
    final = Abstained(
        run_id=state.run_id, seq=seq + 1, at=at, step=step, reason=reason, answer=answer, detail=detail
    )
    return [*assessed, rejected, final]


def _generated_label(state: RunState, payload: dict[str, Any]) -> tuple[Support, ...]:
    """The class rule for a plain answer that cites a generated note (docs/evidence.md).

    A generated observation is never admissible as a declaration or a measurement, so an
    answer resting on one must say that it is generated; a verdict only when one is cited.
    """
    generated = [
        url
        for url in payload["citations"]
        if (source := state.sources.get(url)) is not None and source.evidence_class == "generated"
    ]
    if not generated:
        return ()
    names = ", ".join(dict.fromkeys(generated))
    if "generated" in payload["answer"].casefold():
        return (Support(method="evidence-class", verdict="supported", detail=f"says {names} is generated"),)
    detail = f"rests on {names}, a generated note, and does not say so"
    return (Support(method="evidence-class", verdict="unsupported", detail=detail),)


def _recorded_evidence(evidence: str | list[str]) -> str | tuple[str, ...]:
    # One quote is recorded as it always was (a str), so single-quote logs keep their bytes.
    return evidence if isinstance(evidence, str) else tuple(evidence)


def _locate(
    evidence: str | list[str], citations: tuple[str, ...], pages: dict[str, tuple[str, str]]
) -> tuple[Locator, ...]:
    if isinstance(evidence, str):
        return locate_evidence(evidence, citations, pages)
    return locate_quotes(evidence, citations, pages)


def _own_abstention(state: RunState, step: int, payload: dict[str, Any], at: datetime, seq: int) -> Abstained:
    """A policy's abstention that passed the gate: its reason read off the log and its hint."""
    hint = abstain_hint(payload)
    reason = state.own_abstain_reason(None if hint is None else hint.reason)
    fields: dict[str, Any] = {}
    if hint is not None and reason == hint.reason:
        fields = {"candidate": hint.candidate, "score": hint.score}
    elif hint is not None:
        fields = {"detail": f"asked for {hint.reason}"}
    answer = payload["answer"]
    return Abstained(run_id=state.run_id, seq=seq, at=at, step=step, reason=reason, answer=answer, **fields)
