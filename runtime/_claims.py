"""Claims with premises: every premise resolved, every claim assessed under a named method (docs/evidence.md).

A verdict is a mechanical check, not a proof: `supported` means the method found nothing
wrong. Each method is deterministic and returns its verdict with a short detail saying why.
The class rules apply before any method: every premise must be of the class the claim
asserts (a declaration is not a measurement; a generated observation is admissible only as
generated), and the claim text must keep the qualifier its class needs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Final, NamedTuple, TypeAlias

from citeloop.events import (
    Calculation,
    CellLocator,
    ClaimAssessed,
    ClaimPremise,
    CsvLocator,
    CsvRepresentation,
    Measurement,
    PdfLocator,
    SupportVerdict,
    TextLocator,
    WorkbookRepresentation,
)

from ._claim_text import (
    Stated,
    as_decimal,
    canonical_unit,
    direction_of,
    rounds_to,
    shown,
    stated_numbers,
    stated_unit,
)
from ._gate import claimed_words
from ._premises import PremiseError, column_letters, read_measurement, resolve_premise
from ._quantities import fold_text
from ._state import RunState

CLAIM_METHODS: Final = ("quote", "measurement", "comparison", "calculation")
# The method a claim is recorded under when one of its premises does not resolve.
LOCATOR_METHOD: Final = "locator"
# How far apart two compared measurements may have been observed, unless the claim says
# otherwise with "tolerance_days" (docs/evidence.md, "Claims").
DEFAULT_TOLERANCE_DAYS: Final = 30.0

# The words a claim of a class must keep, so that a reader is not told more than the evidence holds.
QUALIFIERS: Final[Mapping[str, tuple[str, ...]]] = {
    "measurement": ("measured", "in the supplied workbook", "in the workbook", "in the supplied data"),
    "declaration": ("declared", "declares", "states", "specified", "according to"),
    "generated": ("generated",),
}
Outcome: TypeAlias = tuple[SupportVerdict, str]


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


# Words that turn a statement around. The methods match numbers, names and direction words,
# none of which sees a negation, so a claim holding one is never judged supported.
_NEGATION: Final = re.compile(
    r"(?<![\w'])(?:not|no|never|neither|nor|none|nothing|without|cannot)(?![\w'])|n['\u2019]t\b",
    re.IGNORECASE,
)


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
    negated = _NEGATION.search(text)
    if negated is not None:
        # No method reads negation: "is no longer than" would pass as "is longer than".
        detail = f"negation ({negated.group(0)!r}) is not assessed: state the claim positively"
        return ClaimVerdict(method, premises, "unsupported", detail)
    verdict, detail = judge(text, claim, premises, state)
    return ClaimVerdict(method, premises, verdict, detail)


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


# -- measurements ------------------------------------------------------------------------------


def _measurements(premises: Sequence[ClaimPremise], state: RunState) -> list[Measurement] | str:
    """Each premise read as a measurement, or why one cannot be."""
    found: list[Measurement] = []
    for number, premise in enumerate(premises, start=1):
        locator = premise.locator
        if not isinstance(locator, CellLocator | CsvLocator):
            kind = "a calculation" if locator is None else "a quote"
            return f"premise {number} is {kind}: a measurement is read from a workbook or CSV value"
        source = state.sources[locator.source]  # resolved: the source was admitted
        measured = read_measurement(locator, source)
        if isinstance(measured, PremiseError):
            return f"premise {number}: {measured.code}: {measured.detail}"
        found.append(measured)
    return found


def _numbers_problem(text: str, measures: Sequence[Measurement], *, every: bool) -> Outcome | None:
    """Whether the numbers `text` states are the measurements' values in their units (`every`: all stated)."""
    units = {canonical_unit(measure.unit) for measure in measures}
    rows = [measure.locator.row_header for measure in measures]
    stated = stated_numbers(text, leave_out=rows)
    values = [(as_decimal(measure.value), canonical_unit(measure.unit), measure) for measure in measures]
    for number in stated:
        unit = stated_unit(number, units)
        same = [measure for value, _, measure in values if value == number.value]
        if unit is None:
            if same:
                return "unsupported", f"states {number.text} without its unit {same[0].unit!r}"
            return "unsupported", f"states {number.text}, which no premise gives"
        if unit not in units:
            said = ", ".join(sorted(units))
            return (
                "unsupported",
                f"states {number.text}; the premises are in {said}: units are never converted",
            )
        if not any(value == number.value and their == unit for value, their, _ in values):
            given = " and ".join(shown(measure.value, measure.unit) for measure in measures)
            return "contradicted", f"states {number.text}; the premises give {given}"
    if every:
        for index, (value, unit, measure) in enumerate(values, start=1):
            if not any(n.value == value and stated_unit(n, units) == unit for n in stated):
                return (
                    "unsupported",
                    f"does not state premise {index}'s value {shown(measure.value, measure.unit)}",
                )
    return None


def _same_row_and_quantity(measure: Measurement, state: RunState) -> Iterator[Measurement]:
    """Measurements other admitted tables give the same row (by its header) and quantity."""
    row_name = fold_text(measure.locator.row_header)
    for source in state.sources.values():
        if source.id == measure.locator.source or source.evidence_class != "measurement":
            continue
        representation = source.representation
        premises: list[dict[str, object]] = []
        if isinstance(representation, WorkbookRepresentation):
            for sheet in representation.sheets:
                for row_number, row in enumerate(sheet.rows[1:], start=2):
                    if row and fold_text(str(row[0] or "")) == row_name:
                        premises += [
                            {
                                "source": source.id,
                                "sheet": sheet.name,
                                "cell": f"{column_letters(c)}{row_number}",
                            }
                            for c in range(2, len(row) + 1)
                        ]
        elif isinstance(representation, CsvRepresentation) and representation.rows:
            header = representation.rows[0]
            for row_number, values in enumerate(representation.rows[1:], start=1):
                if values and fold_text(values[0]) == row_name:
                    premises += [
                        {"source": source.id, "row": row_number, "column": name} for name in header[1:]
                    ]
        for premise in premises:
            resolved = resolve_premise(premise, state)
            if isinstance(resolved, PremiseError) or not isinstance(
                resolved.locator, CellLocator | CsvLocator
            ):
                continue
            other = read_measurement(resolved.locator, source)
            if isinstance(other, Measurement) and other.quantity == measure.quantity:
                yield other


def _contradiction(measures: Sequence[Measurement], state: RunState) -> str | None:
    for measure in measures:
        for other in _same_row_and_quantity(measure, state):
            same_unit = canonical_unit(other.unit) == canonical_unit(measure.unit)
            if same_unit and as_decimal(other.value) != as_decimal(measure.value):
                row, quantity = measure.locator.row_header, measure.quantity
                return (
                    f"{other.locator.source} gives {row}'s {quantity} as {shown(other.value, other.unit)}, "
                    f"not {shown(measure.value, measure.unit)}"
                )
    return None


def _unnamed_row(text: str, measures: Sequence[Measurement]) -> str | None:
    """Why `text` does not say whose values it states: a premise's row header (with a letter) it never names.

    Without this, one row's value could be told as another's ("prototype B ran 9 h" on A's cell).
    """
    folded = fold_text(text)
    for index, measure in enumerate(measures, start=1):
        row = measure.locator.row_header
        if any(char.isalpha() for char in row) and not has_phrase(folded, fold_text(row)):
            return f"does not name premise {index}'s row {row!r}: whose value it is stays unsaid"
    return None


def _measurement(
    text: str, claim: Mapping[str, Any], premises: Sequence[ClaimPremise], state: RunState
) -> Outcome:
    measures = _measurements(premises, state)
    if isinstance(measures, str):
        return "unsupported", measures
    unnamed = _unnamed_row(text, measures)
    if unnamed is not None:
        return "unsupported", unnamed
    problem = _numbers_problem(text, measures, every=True)
    if problem is not None:
        return problem
    contradiction = _contradiction(measures, state)
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
    measures = _measurements(premises, state)
    if isinstance(measures, str):
        return "unsupported", measures
    first, second = measures
    if first.quantity != second.quantity:
        return "unsupported", f"different quantities: {first.quantity!r} and {second.quantity!r}"
    if canonical_unit(first.unit) != canonical_unit(second.unit):
        return "unsupported", f"mixed units: {first.unit!r} and {second.unit!r} (never converted)"
    tolerance = float(claim.get("tolerance_days", DEFAULT_TOLERANCE_DAYS))
    apart = _days_apart(first, second)
    if isinstance(apart, str):
        return "unsupported", apart
    if apart is not None and apart > tolerance:
        return "unsupported", f"observed {apart:g} days apart, beyond the tolerance of {tolerance:g} days"
    unnamed = _unnamed_row(text, measures)
    if unnamed is not None:
        return "unsupported", unnamed
    problem = _numbers_problem(text, measures, every=False)
    if problem is not None:
        return problem
    contradiction = _contradiction(measures, state)
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


# -- calculation ------------------------------------------------------------------------------


_COMPARED: Final = {"greater": 1, "less": -1, "equal": 0}


def _misstated_input(stated: Sequence[Stated], calc: Calculation, units: set[str]) -> str | None:
    """A number in the calculation's unit that is neither its result nor one of its inputs' values.

    A claim stating the right mean of wrongly quoted inputs ("the mean of 9 h and 7 h is 8.25 h")
    tells its reader something the calculation did not use.
    """
    unit = canonical_unit(calc.unit)
    inputs = {as_decimal(measure.value) for measure in calc.inputs}
    for number in stated:
        if unit and stated_unit(number, units) != unit:
            continue
        if number.value not in inputs and not rounds_to(float(calc.result), number):
            given = " and ".join(shown(measure.value, measure.unit) for measure in calc.inputs)
            return f"states {number.text}, which is neither {calc.id}'s result nor an input ({given})"
    return None


def _calculation(
    text: str, claim: Mapping[str, Any], premises: Sequence[ClaimPremise], state: RunState
) -> Outcome:
    if len(premises) != 1 or premises[0].calculation is None:
        return "unsupported", "a calculation claim rests on exactly one calc:<step> premise"
    calc: Calculation = state.calculations[premises[0].calculation]
    if isinstance(calc.result, str):
        direction = direction_of(fold_text(text))
        if direction is None:
            return "unsupported", f"does not state the comparison's result ({calc.result})"
        if direction[0] != _COMPARED.get(calc.result):
            return "contradicted", f"says {direction[1]!r}; {calc.id} found the first input {calc.result}"
        return "supported", f"{direction[1]!r} agrees with {calc.id} ({calc.result})"
    result, unit = calc.result, canonical_unit(calc.unit)
    if not math.isfinite(result):
        return "unsupported", f"{calc.id}'s result is not finite"
    units = {unit} if unit else set()
    stated = stated_numbers(text, leave_out=[m.locator.row_header for m in calc.inputs])
    said = shown(result, calc.unit)
    for number in stated:
        if unit and stated_unit(number, units) != unit:
            continue
        if rounds_to(result, number):
            wrong = _misstated_input(stated, calc, units)
            if wrong is not None:
                return "contradicted", wrong
            return "supported", f"states {calc.id}'s {calc.operation}, {said}"
    for number in stated:
        if (stated_unit(number, units) or "") == unit:
            return "contradicted", f"states {number.text}; {calc.id}'s {calc.operation} is {said}"
    for number in stated:
        if stated_unit(number, units) is not None:
            return (
                "unsupported",
                f"states {number.text}; {calc.id} is in {calc.unit!r}: units are never converted",
            )
        if rounds_to(result, number):
            return "unsupported", f"states {number.text} without its unit {calc.unit!r}"
    return "unsupported", f"does not state {calc.id}'s result {said}"


_Judge: TypeAlias = Callable[[str, Mapping[str, Any], Sequence[ClaimPremise], RunState], Outcome]
_METHODS: Final[Mapping[str, _Judge]] = {
    "quote": _quote,
    "measurement": _measurement,
    "comparison": _comparison,
    "calculation": _calculation,
}
