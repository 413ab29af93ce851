"""Each opened page's body, cut into segments so that the cited quotes can be marked where they sit.

Pure: built from the events alone. A locator's `start`/`end` are code-point offsets into the
body that was opened (the body stored in the log), so a Python slice is the quote; a locator
whose slice is not its quote, or whose digest names another body, is shown as such and not
marked. Bodies longer than `MAX_BODY_CHARS` are shown in part: their first `MAX_BODY_CHARS`
code points and a window of `QUOTE_CONTEXT` around each cited quote, with the gaps counted,
so that a 2 MB page costs a browser about as much as a 200 kB one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Answered, Event, Locator, Page, ToolObserved

# What one page's body may put on a run page at most (code points), beside the windows
# around its quotes: documented in README.md ("A run viewer in the browser").
MAX_BODY_CHARS: Final = 200_000
QUOTE_CONTEXT: Final = 400


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of a body: plain text, a marked quote (`quote` is its citation's index), or a gap."""

    text: str
    quote: int | None = None
    skipped: int = 0  # a gap: how many code points are not shown here


@dataclass(frozen=True, slots=True)
class Cited:
    """One locator of the answer, and whether the opened body bears it out."""

    index: int
    locator: Locator
    page: int | None  # which shown body holds it (None: no opened page has that digest)
    problem: str = ""  # empty when body[start:end] == quote at that digest
    anchor: int | None = None  # the marked quote a link goes to (an overlapped quote: the mark over it)


@dataclass(frozen=True, slots=True)
class ShownPage:
    """One opened page as the run page shows it."""

    index: int
    url: str
    title: str
    sha256: str
    digest_ok: bool  # the stored body hashes to the recorded digest
    length: int
    truncated_from: int | None
    segments: tuple[Segment, ...]
    cut: bool  # some of the body is not shown (see MAX_BODY_CHARS)


@dataclass(frozen=True, slots=True)
class Evidence:
    """The opened pages of a run, and the answer's locators placed in them."""

    pages: tuple[ShownPage, ...]
    cited: tuple[Cited, ...]


def _opened(events: Sequence[Event]) -> list[Page]:
    """Each distinct body opened during the run, in the order first opened."""
    seen: set[tuple[str, str]] = set()
    pages: list[Page] = []
    for event in events:
        if isinstance(event, ToolObserved) and isinstance(event.observation, Page):
            page = event.observation
            if (page.url, page.sha256) not in seen:
                seen.add((page.url, page.sha256))
                pages.append(page)
    return pages


def _problem(locator: Locator, page: Page | None) -> str:
    if page is None:
        return "no opened page has this URL and digest"
    if not 0 <= locator.start <= locator.end <= len(page.body):
        return f"offsets {locator.start}..{locator.end} lie outside the body ({len(page.body)} chars)"
    if page.body[locator.start : locator.end] != locator.quote:
        return "the body at these offsets is not the quote"
    return ""


def _shown_ranges(length: int, marks: Sequence[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """The ranges of a body to show: all of it when short, else the head and a window per quote."""
    if length <= MAX_BODY_CHARS:
        return [(0, length)]
    wanted = [(0, MAX_BODY_CHARS)]
    wanted += [(max(0, s - QUOTE_CONTEXT), min(length, e + QUOTE_CONTEXT)) for s, e, _ in marks]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(wanted):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _disjoint(marks: Sequence[tuple[int, int, int]]) -> tuple[list[tuple[int, int, int]], dict[int, int]]:
    """The marks to draw (sorted, none overlapping) and, per citation index, the mark it links to."""
    kept: list[tuple[int, int, int]] = []
    anchors: dict[int, int] = {}
    for mark in sorted(marks):
        if kept and mark[0] < kept[-1][1]:
            anchors[mark[2]] = kept[-1][2]  # overlaps the mark before: link there
            continue
        kept.append(mark)
        anchors[mark[2]] = mark[2]
    return kept, anchors


def segments(body: str, kept: Sequence[tuple[int, int, int]]) -> tuple[tuple[Segment, ...], bool]:
    """`body` cut at the marks (start, end, citation index; sorted, disjoint), and whether it is cut short."""
    ranges = _shown_ranges(len(body), kept)
    out: list[Segment] = []
    shown_to = 0
    for start, end in ranges:
        if start > shown_to:
            out.append(Segment("", skipped=start - shown_to))
        at = start
        for mark_start, mark_end, index in kept:
            if mark_end <= start or mark_start >= end:
                continue
            if mark_start > at:
                out.append(Segment(body[at:mark_start]))
            out.append(Segment(body[mark_start:mark_end], quote=index))
            at = mark_end
        if at < end:
            out.append(Segment(body[at:end]))
        shown_to = end
    if shown_to < len(body):
        out.append(Segment("", skipped=len(body) - shown_to))
    return tuple(out), len(ranges) != 1 or ranges[0] != (0, len(body))


def evidence(events: Sequence[Event]) -> Evidence:
    """The run's opened pages with the final answer's quotes marked (none for an unanswered run)."""
    pages = _opened(events)
    by_key = {(page.url, page.sha256): i for i, page in enumerate(pages)}
    final = events[-1] if events else None
    locators = final.locators if isinstance(final, Answered) else ()
    cited: list[Cited] = []
    marks: dict[int, list[tuple[int, int, int]]] = {}
    for index, locator in enumerate(locators):
        where = by_key.get((locator.url, locator.sha256))
        problem = _problem(locator, None if where is None else pages[where])
        cited.append(Cited(index, locator, where, problem))
        if where is not None and not problem:
            marks.setdefault(where, []).append((locator.start, locator.end, index))
    shown = []
    anchors: dict[int, int] = {}
    for i, page in enumerate(pages):
        kept, links = _disjoint(marks.get(i, []))
        anchors.update(links)
        parts, cut = segments(page.body, kept)
        digest_ok = hashlib.sha256(page.body.encode("utf-8")).hexdigest() == page.sha256
        shown.append(
            ShownPage(
                i,
                page.url,
                page.title,
                page.sha256,
                digest_ok,
                len(page.body),
                page.truncated_from,
                parts,
                cut,
            )
        )
    linked = tuple(Cited(c.index, c.locator, c.page, c.problem, anchors.get(c.index)) for c in cited)
    return Evidence(tuple(shown), linked)
