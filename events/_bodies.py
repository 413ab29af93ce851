"""Page bodies stored once: an opened page's body cut out of its event's encoding, and spliced back.

The SQLite and PostgreSQL stores keep each distinct page body once, in a `bodies` table keyed
by the page's sha256 (which the `Page` already carries), so a corpus page opened by a
thousand runs is stored once. An event row then holds the event's canonical encoding with the
body's JSON string replaced by `null` (`"body":null,"sha256":"<digest>"`): still valid JSON
(SQLite's `json_extract`, PostgreSQL's `json` column), and refused by the event schema, so a
reader that does not know the layout fails loudly instead of reading an empty page. A read
splices the body's JSON string back at that place, which gives back the very bytes that were
hashed into the chain; nothing is decoded or encoded again for it.

Only a `ToolObserved` whose `Page` digest matches its body is cut: a wrong digest is never
trusted as an address (the event is stored whole). A read splices only `ToolObserved` rows:
other events carry free JSON a policy wrote (a finish's payload, a structured reply, a run's
meta), which may spell the marker itself, and must never be read as a reference. In a
`ToolObserved` row the marker cannot occur but as the page's: every other field before it is
a JSON string (each `"` in it escaped) and the observation's fields are fixed. See
docs/architecture.md, "Stores".
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Final

from ._errors import CorruptLogError
from ._events import Event, ToolObserved
from ._observations import Page

MARK: Final = b'"body":null,"sha256":"'
_KEY: Final = len(b'"body":')
_NULL: Final = len(b"null")
_DIGEST: Final = 64  # hex characters of a sha256
# An event's type is its first key spelled this way: those before it (v, run_id, seq, at,
# prev) are numbers and JSON strings, in which a `"` is always escaped.
_TYPE: Final = b'"type":"'
_OBSERVED: Final = b'"type":"ToolObserved"'


@dataclass(frozen=True, slots=True)
class PageBody:
    """An event whose page body can be stored once: its row, and the body kept under `digest`."""

    digest: str
    body: bytes  # the body as a JSON string, exactly as the event's encoding holds it
    row: bytes  # the encoding with that JSON string replaced by `null`


def cut_page(event: Event, encoded: bytes) -> PageBody | None:
    """The row and body of `event` (whose canonical bytes are `encoded`), or None to store it whole."""
    if not isinstance(event, ToolObserved) or not isinstance(event.observation, Page):
        return None
    page = event.observation
    try:
        data = page.body.encode()
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 body, so no digest of one
        return None
    if hashlib.sha256(data).hexdigest() != page.sha256:
        return None
    # The body's JSON string runs from the quote after its key to the quote before the
    # digest's key; neither pattern can match inside a JSON string (unescaped quotes).
    start = encoded.find(b'"body":"')
    end = encoded.find(b'","sha256":"' + page.sha256.encode() + b'"', start)
    if start < 0 or end < 0:
        return None
    body = encoded[start + _KEY : end + 1]
    row = encoded[: start + _KEY] + b"null" + encoded[end + 1 :]
    if row.find(MARK) != start:  # a read splices at the first marker: it must be this one
        return None
    return PageBody(page.sha256, body, row)


def references(rows: Sequence[bytes]) -> dict[int, str]:
    """The rows that hold a page body by reference: index -> the body's digest.

    One scan of all the rows together, whether any does or not.
    """
    joined = b"".join(rows)
    at = joined.find(MARK)
    if at < 0:
        return {}
    # A marker never spans two rows (each is one JSON object, and the marker holds no `}`).
    ends = list(accumulate(map(len, rows)))
    found: dict[int, str] = {}
    while at >= 0:
        start = at + len(MARK)
        index = bisect_right(ends, at)
        if _observed(rows[index]):  # any other event's marker is text a policy wrote
            found[index] = joined[start : start + _DIGEST].decode("ascii", "replace")
        at = joined.find(MARK, start)
    return found


def _observed(row: bytes) -> bool:
    """Whether `row` encodes a `ToolObserved` (its first `"type":"` key says so)."""
    at = row.find(_TYPE)
    return at >= 0 and row.startswith(_OBSERVED, at)


def splice(rows: list[bytes], refs: Mapping[int, str], bodies: Mapping[str, bytes], store: str) -> None:
    """Put each referenced body back into its row, in place; a body not stored is damage."""
    for index, digest in refs.items():
        body = bodies.get(digest)
        if body is None:
            raise CorruptLogError(f"{store}: the page body {digest[:16]}... of an event is missing")
        row = rows[index]
        at = row.find(MARK) + _KEY
        rows[index] = row[:at] + body + row[at + _NULL :]
