"""Reading a reviewer's reply (docs/reports.md): a strict verdict line, `ACCEPT` or `REVISE`, then notes.

The reply's first non-blank line, white space around it ignored, is exactly `ACCEPT`,
exactly `REVISE`, or `REVISE:` followed by notes; the keyword is case-sensitive. Lines
after it are notes too. Anything else is a `ReviewRejected` with a code, never a guess: a
reviewer that says "Looks good" has not accepted, and one whose reply holds both verdicts
has given neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from citeloop.events import ReviewVerdict

ReviewRejectCode: TypeAlias = Literal["empty", "no_verdict", "both_verdicts"]
REVIEW_REJECT_CODES: Final[tuple[ReviewRejectCode, ...]] = ("empty", "no_verdict", "both_verdicts")

_EXCERPT: Final = 60


@dataclass(frozen=True, slots=True)
class ReviewRejected:
    """Why a reviewer's reply is not a verdict: a code from `REVIEW_REJECT_CODES` and a detail."""

    code: ReviewRejectCode
    detail: str


def _verdict_of(line: str) -> tuple[ReviewVerdict, str] | None:
    """The verdict a stripped line states, with the notes after `REVISE:`; None when it states none."""
    if line == "ACCEPT":
        return "ACCEPT", ""
    if line == "REVISE":
        return "REVISE", ""
    if line.startswith("REVISE:"):
        return "REVISE", line.removeprefix("REVISE:").strip()
    return None


def _excerpt(text: str) -> str:
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "\u2026"


def parse_review(text: str) -> tuple[ReviewVerdict, str] | ReviewRejected:
    """The verdict and notes of a reviewer's reply, or why it is not one.

    Notes are the text after `REVISE:` and every later line, joined by newlines and
    stripped. `both_verdicts`: a later line is itself the other verdict's line (a reviewer
    that wrote `ACCEPT` then `REVISE: ...` has decided nothing).
    """
    lines = text.splitlines()
    first = next((index for index, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return ReviewRejected("empty", "the reply is blank: expected ACCEPT or REVISE")
    stated = _verdict_of(lines[first].strip())
    if stated is None:
        shown = _excerpt(lines[first].strip())
        detail = f"the first line {shown!r} is not ACCEPT, REVISE or REVISE: <notes>"
        return ReviewRejected("no_verdict", detail)
    verdict, head = stated
    rest = lines[first + 1 :]
    for line in rest:
        other = _verdict_of(line.strip())
        if other is not None and other[0] != verdict:
            return ReviewRejected("both_verdicts", f"{verdict} on the first line, then {line.strip()!r}")
    notes = "\n".join([head, *rest]).strip()
    return verdict, notes
