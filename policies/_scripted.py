"""`ScriptedPolicy`: a deterministic state machine over what the log shows was searched and opened.

It is not a recorded script: each reply is computed from the run's view, so a resumed
run (or a run replayed on a different store) takes the same path from the same log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from citeloop.events import TextRepresentation

from ._react import abstain_reply, finish_reply, react
from ._view import RunView


@dataclass(frozen=True, slots=True)
class ScriptedAnswer:
    """The answer to give once an opened page (or a text attachment) contains `evidence` verbatim."""

    answer: str
    evidence: str


def _key(question: str) -> str:
    return " ".join(question.casefold().split())


DEMO_ANSWERS: Mapping[str, ScriptedAnswer] = MappingProxyType(
    {
        _key("Who founded Acme Robotics?"): ScriptedAnswer(
            "Acme Robotics was founded by Ada Ortiz.",
            "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
        ),
        _key("Who is the current CEO?"): ScriptedAnswer(
            "Kenji Ito is the current CEO.", "Current CEO is Kenji Ito."
        ),
        _key("Who is the current CEO of Acme Robotics?"): ScriptedAnswer(
            "Kenji Ito is the current CEO.", "Current CEO is Kenji Ito."
        ),
    }
)


class ScriptedPolicy:
    """Search the question, open hits in rank order, and finish once a page holds the known evidence.

    With no known answer for the question, or when the hits and the budget run out, it
    abstains; the runtime derives the reason (`no_hits`, `not_found`, `missing_fact`)
    from the log.
    """

    def __init__(
        self, answers: Mapping[str, ScriptedAnswer] | None = None, *, name: str = "scripted"
    ) -> None:
        self._answers = {_key(q): a for q, a in (answers if answers is not None else DEMO_ANSWERS).items()}
        self._name = name

    @classmethod
    def demo(cls) -> ScriptedPolicy:
        """Answers the seed questions of docs/gate.md on the demo corpus."""
        return cls(DEMO_ANSWERS)

    @property
    def name(self) -> str:
        return self._name

    async def next_step(self, view: RunView) -> str:
        known = self._answers.get(_key(view.question))
        if known is not None:
            for url, page in view.pages.items():
                if known.evidence in page.body:
                    return finish_reply(f"{url} states it.", known.answer, [url], known.evidence)
            for source_id, source in view.sources.items():  # a text attachment is cited as a page is
                text = source.representation
                if isinstance(text, TextRepresentation) and known.evidence in text.text:
                    return finish_reply(f"{source_id} states it.", known.answer, [source_id], known.evidence)
        if not view.searched:
            return react("Look the question up.", "search", view.question)
        if view.steps_left > 1:
            for hits in view.searched.values():
                for hit in hits:
                    if hit.url not in view.pages and hit.url not in view.failed_opens:
                        return react(f"Read {hit.title}.", "open", hit.url)
        return abstain_reply("Nothing I opened answers it.", "the opened pages do not state the answer")
