"""Locators: where an accepted answer's evidence sits in the exact bodies that were opened (docs/gate.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from citeloop.events import Locator

from ._text import find_normalized, normalize_ws


def _utf16_units(text: str) -> int:
    # surrogatepass: a lone surrogate in a body is one UTF-16 unit, not an error.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def locate_quotes(
    quotes: Sequence[str], citations: Sequence[str], pages: Mapping[str, tuple[str, str]]
) -> tuple[Locator, ...]:
    """One locator per quote of a multi-quote finish (`locate_evidence` for each), in quote order."""
    return tuple(locator for quote in quotes for locator in locate_evidence(quote, citations, pages))


def locate_evidence(
    evidence: str, citations: Sequence[str], pages: Mapping[str, tuple[str, str]]
) -> tuple[Locator, ...]:
    """One locator for the evidence span, or () when no cited page holds it.

    The evidence is one span: the whole (white-space normalized) evidence string. It
    resolves to its first occurrence in the first cited page, in citation order, that
    contains it. `pages` maps a URL to `(body, sha256)` of the opened body. Offsets are
    half-open code-point offsets into the original body (white space inside the quote is
    the body's own), so `body[start:end] == quote`; the `_utf16` pair is the same span in
    UTF-16 code units.
    """
    needle = normalize_ws(evidence)
    if not needle:
        return ()
    for url in dict.fromkeys(citations):
        page = pages.get(url)
        if page is None:
            continue
        body, sha256 = page
        span = find_normalized(body, needle)
        if span is None:
            continue
        start, end = span
        quote = body[start:end]
        start_utf16 = _utf16_units(body[:start])
        return (
            Locator(
                url=url,
                sha256=sha256,
                start=start,
                end=end,
                start_utf16=start_utf16,
                end_utf16=start_utf16 + _utf16_units(quote),
                quote=quote,
            ),
        )
    return ()


def answer_digest(answer: str) -> str:
    """The sha256 hex digest of the answer's UTF-8 bytes (a lone surrogate is kept as-is, not an error)."""
    return hashlib.sha256(answer.encode("utf-8", "surrogatepass")).hexdigest()
