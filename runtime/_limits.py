"""Caps on what one run records, and how a cut is recorded: as a fact in the event, never silently.

A page body longer than `Limits.max_page_chars` is cut before its `ToolObserved` is
written: the stored `Page` holds the first characters, its `sha256` is the digest of the
stored body, and `truncated_from` is the length the tool returned. A policy reply longer
than `Limits.max_reply_chars` is recorded cut the same way (`PolicyReply.truncated_from`)
and refused with the parse code `too_long`. Both cuts are made by the pure decisions
(runtime/_decide.py), so `check` replays a cut run identically; cutting what is already
cut changes nothing. docs/protocol.md, "Caps".
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Final

from citeloop.events import Observation, Page, PolicyReply, UsageError

DEFAULT_MAX_PAGE_CHARS: Final = 2_000_000
DEFAULT_MAX_REPLY_CHARS: Final = 100_000


@dataclass(frozen=True, slots=True)
class Limits:
    """What one run may record: page bodies and policy replies longer than these are cut, and say so."""

    max_page_chars: int = DEFAULT_MAX_PAGE_CHARS
    max_reply_chars: int = DEFAULT_MAX_REPLY_CHARS

    def __post_init__(self) -> None:
        for name in ("max_page_chars", "max_reply_chars"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise UsageError(f"{name} must be a positive int, got {value!r}")


DEFAULT_LIMITS: Final = Limits()


def _structured_text(reply: PolicyReply) -> str:
    return "" if reply.structured is None else json.dumps(reply.structured, ensure_ascii=False)


def reply_chars(reply: PolicyReply) -> int:
    """The size of a reply as the cap counts it: its text plus its structured call as JSON."""
    return len(reply.text or "") + len(_structured_text(reply))


def cap_reply(reply: PolicyReply, max_chars: int) -> PolicyReply:
    """`reply` as the log records it: unchanged when within `max_chars`, else cut and marked.

    A cut reply keeps its first `max_chars` characters as text (a structured call is kept
    as its JSON, after any text and a newline) and `truncated_from`, its full size.
    """
    size = reply_chars(reply)
    if size <= max_chars:
        return reply
    whole = "\n".join(part for part in (reply.text or "", _structured_text(reply)) if part)
    size = _first(reply.truncated_from, size)
    return reply.model_copy(update={"text": whole[:max_chars], "structured": None, "truncated_from": size})


def _first(claimed: int | None, size: int) -> int:
    # A reply or page that was cut before (by a tool, or by an earlier cap) keeps its first length.
    return size if claimed is None else max(claimed, size)


def cap_observation(observation: Observation, max_page_chars: int) -> Observation:
    """A `Page` whose body is over the cap, cut and marked (its digest of the stored body); else as given."""
    if not isinstance(observation, Page) or len(observation.body) <= max_page_chars:
        return observation
    body = observation.body[:max_page_chars]
    return observation.model_copy(
        update={
            "body": body,
            "sha256": hashlib.sha256(body.encode("utf-8")).hexdigest(),
            "truncated_from": _first(observation.truncated_from, len(observation.body)),
        }
    )
