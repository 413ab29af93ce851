"""Claims with premises: every premise resolved, every claim assessed under a named method (docs/evidence.md).

A verdict is a mechanical check, not a proof: `supported` means the method found nothing
wrong. Each method is deterministic and returns its verdict with a short detail saying why.
The class rules apply before any method: every premise must be of the class the claim
asserts (a declaration is not a measurement; a generated observation is admissible only as
generated), and the claim text must keep the qualifier its class needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final, NamedTuple, TypeAlias

from citeloop.events import (
    ClaimAssessed,
    ClaimPremise,
    Measurement,
    PdfLocator,
    SupportVerdict,
    TextLocator,
)

from ._claim_calculation import judge_calculation
from ._claim_rows import (
    Outcome,
    contradiction_of,
    measures_of,
    numbers_problem,
    unnamed_quantity,
    unnamed_row,
)
from ._claim_text import (
    NEGATION,
    canonical_unit,
    direction_of,
    missing_item_word,
    shown,
    stated_numbers,
    stated_unit,
)
from ._gate import claimed_words
from ._premises import PremiseError, resolve_premise
from ._quantities import fold_text
from ._state import RunState

CLAIM_METHODS: Final = ("quote", "measurement", "comparison", "calculation")
# The method a claim is recorded under when one of its premises does not resolve.
LOCATOR_METHOD: Final = "locator"
# How far apart two compared measurements may have been observed. A claim's "tolerance_days"
# may only tighten it: a wider one is unsupported, never applied (docs/evidence.md, "Claims").
DEFAULT_TOLERANCE_DAYS: Final = 30.0

# The words a claim of a class must keep, so that a reader is not told more than the evidence holds.
QUALIFIERS: Final[Mapping[str, tuple[str, ...]]] = {
    "measurement": ("measured", "in the supplied workbook", "in the workbook", "in the supplied data"),
    "declaration": ("declared", "declares", "states", "specified", "according to"),
    "generated": ("generated",),
}


class ClaimVerdict(NamedTuple):
    """One claim's assessment: the method it was judged by, its premises as located, the verdict."""

    method: str
    premises: tuple[ClaimPremise, ...]
    verdict: SupportVerdict
    detail: str


def assess_claims(
    state: RunState, step: int, claims: Sequence[Mapping[str, Any]], at: datetime, seq: int
) -> list[ClaimAssessed]:
    """One `ClaimAssessed` per claim of a finish, numbered from 1, at seq `seq` onwards."""
    events: list[ClaimAssessed] = []
    for index, claim in enumerate(claims, start=1):
        judged = assess_claim(claim, state)
        item = claim.get("item")
        events.append(
            ClaimAssessed(
                run_id=state.run_id,
                seq=seq + index - 1,
                at=at,
                step=step,
                index=index,
                text=claim["text"],
                claimed_class=claim["class"],
                method=judged.method,
                premises=judged.premises,
                verdict=judged.verdict,
                detail=judged.detail,
                item=item if isinstance(item, int) else None,
            )
        )
    return events


# Words that turn a statement around (`NEGATION`, runtime/_claim_text.py). The methods match
# numbers, names and direction words, none of which sees a negation, so a claim holding one is
# never judged supported.


def assess_claim(claim: Mapping[str, Any], state: RunState) -> ClaimVerdict:
    """A claim (as the gate's `types` check let it through) judged against what the run admitted."""
    method, text, claimed = claim["method"], claim["text"], claim["class"]
    resolved: list[ClaimPremise] = []
    for number, raw in enumerate(claim["premises"], start=1):
        premise = resolve_premise(raw, state)
        if isinstance(premise, PremiseError):
            detail = f"premise {number}: {premise.code}: {premise.detail}"
            return ClaimVerdict(LOCATOR_METHOD, tuple(resolved), "unsupported", detail)
        resolved.append(premise)
    premises = tuple(resolved)
    if not premises:
        return ClaimVerdict(method, premises, "unsupported", "no premises: a claim rests on at least one")
    judge = _METHODS.get(method)
    if judge is None:
        known = ", ".join(CLAIM_METHODS)
        return ClaimVerdict(
            method, premises, "unsupported", f"unknown method {method!r} (the methods: {known})"
        )
    problem = class_problem(claimed, text, premises)
    if problem is not None:
        return ClaimVerdict(method, premises, "unsupported", problem)
    negated = NEGATION.search(text)
    if negated is not None:
        # No method reads negation: "is no longer than" would pass as "is longer than".
        detail = f"negation ({negated.group(0)!r}) is not assessed: state the claim positively"
        return ClaimVerdict(method, premises, "unsupported", detail)
    off_item = item_problem(text, claim.get("item"), state.plan)
    if off_item is not None:
        return ClaimVerdict(method, premises, "unsupported", off_item)
    verdict, detail = judge(text, claim, premises, state)
    return ClaimVerdict(method, premises, verdict, detail)


def item_problem(text: str, item: object, plan: Sequence[str]) -> str | None:
    """Why a claim does not address the plan item it settles, or None (docs/evidence.md, "Completion").

    A cheap rule: the claim's text shares every content word of the item (`missing_item_word`),
    so a claim about charge time cannot settle "runtime of prototype A".
    """
    if not isinstance(item, int) or not 1 <= item <= len(plan):
        return None
    missing = missing_item_word(text, plan[item - 1])
    if missing is None:
        return None
    return f"does not address plan item {item} ({plan[item - 1]!r}): it never says {missing!r}"


# -- the class rules -------------------------------------------------------------------------


def _article(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def has_phrase(folded: str, phrase: str) -> bool:
    """Whether folded text holds `phrase` as whole words."""
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", folded) is not None


def class_problem(claimed: str, text: str, premises: Sequence[ClaimPremise]) -> str | None:
    """Why the premises cannot establish a claim of class `claimed`, or None when they can."""
    for number, premise in enumerate(premises, start=1):
        got = premise.evidence_class
        if got == claimed:
            continue
        if got == "generated":
            return f"premise {number} is generated: a generated observation is admissible only as generated"
        if claimed == "measurement":
            return f"premise {number} is {_article(got)}: {_article(got)} is not a measurement"
        return f"premise {number} is {got} evidence, not {claimed}: it cannot establish this claim"
    qualifiers = QUALIFIERS.get(claimed)
    if qualifiers is not None:
        folded = fold_text(text)
        if not any(has_phrase(folded, qualifier) for qualifier in qualifiers):
            said = ", ".join(repr(qualifier) for qualifier in qualifiers)
            return f"{_article(claimed)} claim must say so: its text keeps none of {said}"
    return None


# -- quote ---------------------------------------------------------------------------------


def _quote(text: str, claim: Mapping[str, Any], premises: Sequence[ClaimPremise], state: RunState) -> Outcome:
    quotes: list[str] = []
    for position, premise in enumerate(premises, start=1):
        locator = premise.locator
        if not isinstance(locator, TextLocator | PdfLocator):
            kind = "a calculation" if locator is None else "a table value"
            return "unsupported", f"premise {position} is {kind}, not a quote: use its own method"
        quotes.append(locator.quote)
    joined = "\n".join(quotes)
    missing = [word for word in claimed_words(text) if word not in joined]
    if missing:
        return "unsupported", f"names {missing[0]!r}, which its premises do not"
    given = stated_numbers(joined)
    units = {canonical_unit(number.word) for number in given if number.word is not None}
    for number in stated_numbers(text):
        unit = stated_unit(number, units)
        if any(
            other.value == number.value and (unit is None or stated_unit(other, units) in (None, unit))
            for other in given
        ):
            continue
        rival = next(
            (other for other in given if unit is not None and stated_unit(other, units) == unit), None
        )
        if rival is not None:
            return "contradicted", f"states {number.text}; its premises give {rival.text}"
        return "unsupported", f"states {number.text}, which its premises do not"
    return "supported", "its numbers and names occur in its premises"


def _measurement(
    text: str, claim: Mapping[str, Any], premises: Sequence[ClaimPremise], state: RunState
) -> Outcome:
    measures = measures_of(premises, state)
    if isinstance(measures, str):
        return "unsupported", measures
    unnamed = unnamed_row(text, measures) or unnamed_quantity(text, measures)
    if unnamed is not None:
        return "unsupported", unnamed
    problem = numbers_problem(text, measures, every=True)
    if problem is not None:
        return problem
    contradiction = contradiction_of(measures, state)
    if contradiction is not None:
        return "contradicted", contradiction
    said = ", ".join(f"{m.locator.row_header} {shown(m.value, m.unit)}" for m in measures)
    return "supported", f"states the measured values: {said}"


# -- comparison -------------------------------------------------------------------------------


def _days_apart(first: Measurement, second: Measurement) -> float | str | None:
    """Days between two observation times; None when neither row gives one; a str saying what is wrong."""
    if first.observed_at is None and second.observed_at is None:
        return None
    times: list[datetime] = []
    for measure in (first, second):
        where = measure.locator.row_header
        if measure.observed_at is None:
            return f"{where} has no observation time, the other has: they cannot be held to a tolerance"
        try:
            moment = datetime.fromisoformat(measure.observed_at)
        except ValueError:
            return f"{where}'s observation time {measure.observed_at!r} is not an ISO date"
        times.append(moment.replace(tzinfo=None))
    return abs((times[0] - times[1]).total_seconds()) / 86400


def _ordered(folded: str, measures: list[Measurement]) -> list[Measurement]:
    """The measurements in the order the claim names their rows (else in premise order)."""
    places = []
    for measure in measures:
        match = re.search(rf"(?<!\w){re.escape(fold_text(measure.locator.row_header))}(?!\w)", folded)
        places.append(match.start() if match is not None and measure.locator.row_header else None)
    first, second = places
    if first is not None and second is not None and second < first:
        return [measures[1], measures[0]]
    return measures


def _sign(difference: float) -> int:
    return (difference > 0) - (difference < 0)


def _comparison(
    text: str, claim: Mapping[str, Any], premises: Sequence[ClaimPremise], state: RunState
) -> Outcome:
    if len(premises) != 2:
        return "unsupported", f"a comparison needs exactly two measurements, not {len(premises)}"
    measures = measures_of(premises, state)
    if isinstance(measures, str):
        return "unsupported", measures
    first, second = measures
    if first.quantity != second.quantity:
        return "unsupported", f"different quantities: {first.quantity!r} and {second.quantity!r}"
    if canonical_unit(first.unit) != canonical_unit(second.unit):
        return "unsupported", f"mixed units: {first.unit!r} and {second.unit!r} (never converted)"
    tolerance = float(claim.get("tolerance_days", DEFAULT_TOLERANCE_DAYS))
    if tolerance > DEFAULT_TOLERANCE_DAYS:
        return "unsupported", (
            f"tolerance_days {tolerance:g} widens the default of {DEFAULT_TOLERANCE_DAYS:g} days: "
            "a claim may only tighten it"
        )
    apart = _days_apart(first, second)
    if isinstance(apart, str):
        return "unsupported", apart
    if apart is not None and apart > tolerance:
        return "unsupported", f"observed {apart:g} days apart, beyond the tolerance of {tolerance:g} days"
    unnamed = unnamed_row(text, measures) or unnamed_quantity(text, measures)
    if unnamed is not None:
        return "unsupported", unnamed
    problem = numbers_problem(text, measures, every=False)
    if problem is not None:
        return problem
    contradiction = contradiction_of(measures, state)
    if contradiction is not None:
        return "contradicted", contradiction
    folded = fold_text(text)
    direction = direction_of(folded)
    if direction is None:
        return "unsupported", "states no direction (longer, more, higher ... or shorter, less, lower ...)"
    sign, word = direction
    one, other = _ordered(folded, measures)
    actual = _sign(one.value - other.value)
    given = (
        f"{one.locator.row_header} {shown(one.value, one.unit)}, "
        f"{other.locator.row_header} {shown(other.value, other.unit)}"
    )
    if actual != sign:
        return "contradicted", f"says {word!r}, but the premises give {given}"
    when = "" if apart is None else f", observed {apart:g} days apart (tolerance {tolerance:g})"
    return "supported", f"{word!r} agrees with {given}{when}"

    return None


_Judge: TypeAlias = Callable[[str, Mapping[str, Any], Sequence[ClaimPremise], RunState], Outcome]
_METHODS: Final[Mapping[str, _Judge]] = {
    "quote": _quote,
    "measurement": _measurement,
    "comparison": _comparison,
    "calculation": judge_calculation,
}
