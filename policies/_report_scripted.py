"""`ScriptedWriter` and `ScriptedReviewer`: a report's writer and reviewer replying from a list, for tests.

The reply is picked by what the view shows, not by how often the object was called: the
writer's by the number of earlier drafts, the reviewer's by the number of earlier
verdicts. So a resumed or replayed run gets the same reply for the same turn, as with
`ScriptedPolicy`. Past the end of the list the last reply repeats: a writer scripted with
one draft that names an API no source has writes it again every round (the post-mortem
case of docs/reports.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from citeloop.events import PolicyReply, UsageError

from ._report_view import ReportView

Reply = str | PolicyReply


def _pick(replies: tuple[Reply, ...], index: int) -> Reply:
    return replies[min(index, len(replies) - 1)]


def _checked(replies: Sequence[Reply], kind: str) -> tuple[Reply, ...]:
    if isinstance(replies, str | PolicyReply) or not replies:
        raise UsageError(f"a scripted {kind} needs a non-empty list of replies")
    return tuple(replies)


class ScriptedWriter:
    """A `Writer` whose draft for round n (1-based) is `replies[n - 1]`, the last one repeating."""

    def __init__(self, replies: Sequence[Reply], *, name: str = "scripted-writer") -> None:
        self._replies = _checked(replies, "writer")
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    async def write(self, view: ReportView) -> Reply:
        return _pick(self._replies, len(view.rounds))


class ScriptedReviewer:
    """A `Reviewer` whose n-th verdict (1-based) is `replies[n - 1]`, the last one repeating."""

    def __init__(self, replies: Sequence[Reply], *, name: str = "scripted-reviewer") -> None:
        self._replies = _checked(replies, "reviewer")
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    async def review(self, view: ReportView) -> Reply:
        given = sum(1 for past in view.rounds if past.verdict is not None)
        return _pick(self._replies, given)
