"""White-space normalization and the evidence search shared by the gate and the locator.

The rule: a run of white space - whatever `str.isspace` says is white space, which
includes tabs, newlines, NBSP (U+00A0), U+2028, the U+2000 series and U+3000 - counts as
one space, and leading and trailing white space is dropped. That is `" ".join(s.split())`,
and the regex `\\s` of the `re` module is the same character class, so a search on the
original body can stand in for a search on its normalized form.

No Unicode normalization (NFC/NFKC) is applied, on purpose: evidence is a *copy* of the
opened body, so the same code points are expected, and keeping them lets every match be
mapped back to exact offsets in the original body. Zero-width characters (U+200B, U+FEFF,
soft hyphens) are not white space and must be copied too.

The search never normalizes a body. An exact `str.find` of the normalized evidence is
tried first, over every body in question (a body with single spaces there - the common
case - costs that one find); only when no body has it does a regex that allows any
white-space run between the evidence's words run over them. (Pre-checking each word with
`in` was measured slower than the regex itself: short needles defeat `str.find`'s skips.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def normalize_ws(text: str) -> str:
    """`text` with every white-space run turned into one space, stripped at both ends."""
    return " ".join(text.split())


def _pattern(words: list[str]) -> re.Pattern[str]:
    return re.compile(r"\s+".join(re.escape(word) for word in words))


def contains_normalized(body: str, needle: str) -> bool:
    """Whether `needle` (already normalized) is a substring of `normalize_ws(body)`."""
    if not needle:
        return True
    # A hit with single spaces is a hit in the normalized body as well: single spaces
    # between non-space characters survive normalization unchanged.
    if needle in body:
        return True
    if " " not in needle:
        return False  # one word: white space cannot be involved, and find already said no
    return _pattern(needle.split(" ")).search(body) is not None


def contains_normalized_any(bodies: Iterable[str], needle: str) -> bool:
    """`contains_normalized` for any of `bodies`: exact finds in all of them before any regex."""
    bodies = list(bodies)
    if any(needle in body for body in bodies):
        return True
    return any(contains_normalized(body, needle) for body in bodies)


def find_normalized(body: str, needle: str) -> tuple[int, int] | None:
    """The first `[start, end)` in the original `body` whose normalized text is `needle` (normalized).

    The span starts and ends on non-space characters, and white-space runs inside it are
    taken from the body as they are. None when there is no such span or `needle` is empty.
    """
    if not needle:
        return None
    start = body.find(needle)
    if " " not in needle:
        return None if start < 0 else (start, start + len(needle))
    words = needle.split(" ")
    # An earlier occurrence may be split by a newline, and only the regex sees it; but any
    # occurrence begins with the first word, so when that word is nowhere before the exact
    # hit, the hit is the first (the common case, and it spares compiling a regex).
    if start >= 0 and body.find(words[0], 0, start + len(words[0]) - 1) < 0:
        return start, start + len(needle)
    match = _pattern(words).search(body)
    return None if match is None else (match.start(), match.end())
