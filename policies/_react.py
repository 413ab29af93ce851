"""Writing ReAct replies: the one text shape every text policy emits (docs/protocol.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence


def react(thought: str, action: str, action_input: str) -> str:
    """A reply in the exact three-line shape the strict parser accepts."""
    one_line = " ".join(thought.split())
    return f"Thought: {one_line}\nAction: {action}\nAction Input: {action_input}"


def finish_reply(thought: str, answer: str, citations: Sequence[str], evidence: str | Sequence[str]) -> str:
    """A positive finish: the answer, the pages it cites, and a verbatim quote from them (or several:
    a two-hop answer quotes the bridge sentence and the answer sentence, docs/gate.md)."""
    quotes: str | list[str] = evidence if isinstance(evidence, str) else list(evidence)
    payload = {"answer": answer, "citations": list(citations), "cannot_answer": False, "evidence": quotes}
    return react(thought, "finish", json.dumps(payload, ensure_ascii=False))


def abstain_reply(thought: str, why: str) -> str:
    """A cannot-answer finish; `why` becomes the text after `cannot:`."""
    payload = {"answer": f"cannot: {why}", "citations": [], "cannot_answer": True, "evidence": ""}
    return react(thought, "finish", json.dumps(payload, ensure_ascii=False))


def hinted_abstain_reply(thought: str, why: str, reason: str, candidate: str, score: float) -> str:
    """A cannot-answer finish asking for `reason` (low_confidence, conflicting_sources) with its candidate."""
    payload = {
        "answer": f"cannot: {why}",
        "citations": [],
        "cannot_answer": True,
        "evidence": "",
        "abstain": {"reason": reason, "candidate": candidate, "score": round(score, 6)},
    }
    return react(thought, "finish", json.dumps(payload, ensure_ascii=False))
