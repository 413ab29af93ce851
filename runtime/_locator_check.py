"""Verifying a recorded locator: does it still select what it recorded, under its digest?

Split out of runtime/_premises.py: a locator is resolved again from its own coordinates by
`resolve_premise` and every recorded field compared (docs/evidence.md, "Locators"). Used by
runtime/_answer_check.py (`verify --answer`) and runtime/_measurements.py.
"""

from __future__ import annotations

import math

from citeloop.events import CellLocator, CsvLocator, EvidenceLocator, PdfLocator, TextLocator

from ._premise_error import PremiseError
from ._premises import resolve_premise
from ._state import RunState


def verify_locator(locator: EvidenceLocator, state: RunState) -> str | None:
    """None when the locator still selects its quote or value under its digest in this run; else what differs.

    The locator is resolved again from its own coordinates (never from its quote alone), and
    every recorded field is compared with what that resolution gives.
    """
    match locator:
        case TextLocator():
            premise: dict[str, object] = {
                "source": locator.source,
                "quote": locator.quote,
                "start": locator.start,
                "end": locator.end,
            }
        case PdfLocator():
            premise = {
                "source": locator.source,
                "page": locator.page,
                "quote": locator.quote,
                "start": locator.start,
                "end": locator.end,
            }
        case CellLocator():
            premise = {"source": locator.source, "sheet": locator.sheet, "cell": locator.cell}
        case CsvLocator():
            premise = {"source": locator.source, "row": locator.row, "column": locator.column}
    resolved = resolve_premise(premise, state)
    if isinstance(resolved, PremiseError):
        return resolved.detail
    assert resolved.locator is not None
    return _difference(locator, resolved.locator)


def _difference(recorded: EvidenceLocator, today: EvidenceLocator) -> str | None:
    where = place_of(recorded)
    if recorded.sha256 != today.sha256:
        return f"{where}: digest {recorded.sha256[:12]}... is now {today.sha256[:12]}..."
    mine, theirs = recorded.model_dump(), today.model_dump()
    for name, value in mine.items():
        if not _same(value, theirs[name]):
            return f"{where}: {name} {value!r} is now {theirs[name]!r}"
    return None


def _same(recorded: object, today: object) -> bool:
    # A NaN cell is the same NaN it was (it is refused as a measurement, not as a locator),
    # and 9 (an int) is not the 9.0 or "9" of another reading.
    if type(recorded) is not type(today):
        return False
    if isinstance(recorded, float) and isinstance(today, float) and math.isnan(recorded):
        return math.isnan(today)
    return recorded == today


def place_of(locator: EvidenceLocator) -> str:
    """Where a locator points, as a refusal names it: source and offsets, page, cell or row."""
    match locator:
        case TextLocator():
            return f"{locator.source} [{locator.start}, {locator.end})"
        case PdfLocator():
            return f"{locator.source} page {locator.page} [{locator.start}, {locator.end})"
        case CellLocator():
            return f"{locator.source} {locator.sheet}!{locator.cell}"
        case CsvLocator():
            return f"{locator.source} row {locator.row} {locator.column!r}"
