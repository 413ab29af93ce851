"""The base of every event, and the values events carry that are not events themselves.

Split from `_events` (the vocabulary) so that the report events (`_report_events`) and the run
events can both build on it.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

SCHEMA_VERSION: Final = 1

# A support method's verdict on an answer and its evidence (docs/gate.md, "Support").
SupportVerdict: TypeAlias = Literal["supported", "unsupported", "contradicted"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PolicyReply(_Frozen):
    """Exactly what the policy returned, so that replay never has to call it again."""

    text: str | None = None
    structured: dict[str, JsonValue] | None = None
    model: str | None = None
    usage: dict[str, int] | None = None
    latency_ms: float | None = None
    # Set when the reply was longer than the run's cap: its full size in characters, the
    # text holding the first ones (runtime/_limits.py). Left out of the encoding when None.
    truncated_from: int | None = Field(default=None, exclude_if=lambda value: value is None)


class ToolSpec(_Frozen):
    """A tool as the run knew it: its name and whether running it again is safe."""

    name: str
    read_only: bool


class Locator(_Frozen):
    """Where an evidence quote sits in the exact body that was opened.

    `start`/`end` are half-open code-point offsets into the original body, so
    `body[start:end] == quote`; the `_utf16` pair is the same span in UTF-16 units.
    """

    url: str
    sha256: str
    start: int
    end: int
    start_utf16: int
    end_utf16: int
    quote: str


class Support(_Frozen):
    """One named method's verdict on whether the evidence supports the answer (docs/gate.md)."""

    method: str
    verdict: SupportVerdict
    detail: str = ""


def _empty(value: tuple[object, ...]) -> bool:
    return not value


class _Event(_Frozen):
    v: Literal[1] = SCHEMA_VERSION
    run_id: str
    seq: int = Field(ge=0)
    at: AwareDatetime
    # The sha256 (hex) of the run's previous event's canonical encoding (docs/events.md,
    # the chain). Left out of the encoding when None, so a log written before the chain
    # (and every RunStarted) encodes to exactly the bytes it was stored as.
    prev: str | None = Field(default=None, exclude_if=lambda value: value is None)
