"""The gate's checks that need the run itself, not only bodies: claims, their sources and the plan's gaps.

`validate_finish` (runtime/_gate.py) keeps its contract - a payload and the texts it may be
checked against - and accepts the shape of `claims` and `gaps`. What needs the `RunState`
(the admitted sources, the calculations, the plan) is here, checked right after it, in
docs/gate.md's order: `premise_uncited`, `claim_not_in_answer`, `unclaimed_statement`,
`undisclosed_gaps`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from citeloop.events import (
    ClaimAssessed,
    CsvRepresentation,
    EvidenceClass,
    Locator,
    PdfRepresentation,
    TextRepresentation,
    WorkbookRepresentation,
)

from ._claim_text import unclaimed_statement, unclaimed_text
from ._claims import assess_claims
from ._gate import GateCode, evidence_quotes, validate_finish
from ._state import RunState
from ._text import contains_normalized_any, normalize_ws


def carries_claims(payload: Mapping[str, Any]) -> bool:
    """Whether a finish carries claims (a non-empty `claims` list): its premises are then its evidence."""
    claims = payload.get("claims")
    return isinstance(claims, list) and bool(claims)


def needs_run_checks(payload: Mapping[str, Any], state: RunState) -> bool:
    """Whether a positive finish is held to `validate_claims`: it has claims or gaps, or the run a plan."""
    return bool(state.plan) or "claims" in payload or "gaps" in payload


def claim_texts(state: RunState) -> dict[str, str]:
    """The texts a finish with claims is checked against: every opened body and every admitted source.

    A text attachment is its text; a PDF its pages' texts; a workbook or CSV its cell values
    as text, one row a line (so a table's "Prototype A" is a word the answer may name). Keyed
    by URL or source id, so citing an admitted table is citing something "opened".
    """
    texts = state.opened_bodies()
    for source_id, source in state.sources.items():
        representation = source.representation
        if isinstance(representation, TextRepresentation):
            continue  # already among the opened bodies
        if isinstance(representation, PdfRepresentation):
            texts[source_id] = "\n\n".join(representation.pages)
        elif isinstance(representation, WorkbookRepresentation):
            lines = [sheet.name for sheet in representation.sheets]
            for sheet in representation.sheets:
                lines += [
                    "\t".join("" if value is None else str(value) for value in row) for row in sheet.rows
                ]
            texts[source_id] = "\n".join(lines)
        elif isinstance(representation, CsvRepresentation):
            texts[source_id] = "\n".join("\t".join(row) for row in representation.rows)
    return texts


def premise_sources(premise: object, state: RunState) -> tuple[str, ...]:
    """The sources a premise rests on: its `source`, or a calculation's inputs' sources."""
    if isinstance(premise, Mapping):
        source = premise.get("source")
        return (source,) if isinstance(source, str) else ()
    if isinstance(premise, str):
        calculation = state.calculations.get(premise)
        if calculation is not None:
            return tuple(dict.fromkeys(measure.locator.source for measure in calculation.inputs))
    return ()


def disclosed_gaps_expected(payload: Mapping[str, Any], state: RunState) -> set[int]:
    """The plan items no claim of the finish addresses: the gaps it must disclose (docs/evidence.md)."""
    claimed = {claim.get("item") for claim in payload.get("claims") or ()}
    return {index for index in range(1, len(state.plan) + 1) if index not in claimed}


def validate_claims(payload: Mapping[str, Any], state: RunState) -> GateCode | None:
    """The run-dependent checks of a positive finish that passed `validate_finish` (docs/gate.md).

    In order: `keys` (`gaps` without claims in a run without a plan), `types` (a claim's
    `item` past the plan's end), `evidence` (with claims, a quote found in no cited opened
    page or text attachment: PDF pages and tables are cited through premises),
    `premise_uncited`, `claim_not_in_answer`, `unclaimed_statement` (the answer outside its
    claims' texts states something of its own: `unclaimed_detail` says what),
    `undisclosed_gaps` (the disclosed gaps are not exactly the plan items no claim addresses;
    with every claim supported, as acceptance requires, those are the completion matrix's gaps).
    """
    claims: list[Mapping[str, Any]] = payload.get("claims") or []
    if "gaps" in payload and not claims and not state.plan:
        return "keys"
    if any(isinstance(claim.get("item"), int) and claim["item"] > len(state.plan) for claim in claims):
        return "types"
    cited = set(payload["citations"])
    if claims:
        citable = state.citable()
        bodies = [citable[url][0] for url in payload["citations"] if url in citable]
        for quote in evidence_quotes(payload["evidence"]):
            needle = normalize_ws(quote)
            if needle and not contains_normalized_any(bodies, needle):
                return "evidence"
    for claim in claims:
        for premise in claim["premises"]:
            if any(source not in cited for source in premise_sources(premise, state)):
                return "premise_uncited"
    answer = normalize_ws(payload["answer"])
    if any(normalize_ws(claim["text"]) not in answer for claim in claims):
        return "claim_not_in_answer"
    if claims and unclaimed_detail(payload) is not None:
        return "unclaimed_statement"
    disclosed = set(payload.get("gaps") or ())
    if (state.plan or "gaps" in payload) and disclosed != disclosed_gaps_expected(payload, state):
        return "undisclosed_gaps"
    return None


def unclaimed_detail(payload: Mapping[str, Any]) -> str | None:
    """What a finish's answer states outside its claims' texts (docs/evidence.md), or None.

    Only the claims are assessed, so anything else the answer says - a number, a name, a date,
    a comparison, a negation - would reach the reader unchecked: "... Correction: prototype B
    ran 9 h" after supported claims.
    """
    claims = payload.get("claims") or ()
    rest = unclaimed_text(payload["answer"], [claim["text"] for claim in claims])
    said = unclaimed_statement(rest)
    return (
        None if said is None else f"the answer outside its claims states {said}: make it a claim or drop it"
    )


# The answer of a run that abstains because its claims stayed unsupported after the repair turn.
UNSUPPORTED_CLAIMS_ANSWER: Final = (
    "cannot: some claims were not supported by their premises after the one repair turn"
)


def judge_finish(
    state: RunState, step: int, payload: dict[str, Any], at: datetime, seq: int
) -> tuple[GateCode | None, list[ClaimAssessed]]:
    """The gate's code for a finish (None: accepted so far) and its claims' verdicts, from seq `seq` on.

    Without claims this is `validate_finish` over the opened bodies (and `validate_claims`
    when the run has a plan or the finish discloses gaps). With claims, the texts are every
    admitted source's too (`claim_texts`); once the run-dependent checks pass, every claim
    is assessed, and any verdict but `supported` is `unsupported_claims`.
    """
    with_claims = carries_claims(payload)
    code = validate_finish(payload, claim_texts(state) if with_claims else state.opened_bodies())
    if code is None and payload["cannot_answer"] is False and needs_run_checks(payload, state):
        code = validate_claims(payload, state)
    if code is not None or not with_claims:
        return code, []
    assessed = assess_claims(state, step, payload["claims"], at, seq)
    if any(claim.verdict != "supported" for claim in assessed):
        code = "unsupported_claims"
    return code, assessed


def evidence_classes(
    state: RunState, locators: Sequence[Locator], assessed: Sequence[ClaimAssessed]
) -> tuple[EvidenceClass, ...]:
    """What an answer's evidence can establish: one class per locator, then one per claim premise.

    A locator's class is its source's (`retrieved` for an opened page, the attachment's own for
    a text attachment); the premises follow in claim order, each with its recorded class.
    """
    classes: list[EvidenceClass] = []
    for locator in locators:
        source = state.sources.get(locator.url)
        classes.append(
            "retrieved" if locator.url in state.opened or source is None else source.evidence_class
        )
    classes += [premise.evidence_class for claim in assessed for premise in claim.premises]
    return tuple(classes)


def disclosed_gaps(payload: Mapping[str, Any]) -> tuple[int, ...]:
    """The gaps an accepted finish discloses, as recorded: each item once, in plan order."""
    return tuple(sorted(set(payload.get("gaps") or ())))


def unsupported_detail(assessed: Sequence[ClaimAssessed]) -> str:
    """The claims that are not supported, by index and text, with their verdicts and why."""
    return "; ".join(
        f"claim {claim.index} {claim.verdict} ({claim.method}: {claim.detail}): {claim.text!r}"
        for claim in assessed
        if claim.verdict != "supported"
    )
