"""Render a `RunView` into Chat Completions messages, for ReAct text or native tool calling.

How a past turn is rendered depends on what was recorded for it, not on the mode: a text
reply becomes an assistant message followed by the observation as a user message; a
structured reply becomes an assistant message with tool calls (their recorded ids) followed
by one `tool` message per call. So a run can be resumed with either mode.

Observations are rendered by the runtime (`Turn.shown`: tool output inside a fence that the
data cannot close, `fence_untrusted` in policies/_fence.py; bodies cut to the prompt limit);
this module never re-renders tool output, and its rules state the fence rule (`FENCE_RULE`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import JsonValue

from ._fence import FENCE_RULE
from ._view import RunView, Turn

Mode = Literal["react", "tools"]

_INTRO: Final = (
    "You are a research agent. You answer one question using only pages you open with the "
    "tools below, and you cite them; when the opened pages do not state the answer, you say "
    "that you cannot answer. Never guess."
)

_ABSTAIN: Final = '{"answer": "cannot: <why>", "citations": [], "cannot_answer": true, "evidence": ""}'
_FINISH_DOC: Final = (
    '{"answer": "<the answer>", "citations": ["<URL of a page you opened>"], '
    '"cannot_answer": false, "evidence": "<a quote copied word for word from a cited page>"}\n'
    "  To abstain: " + _ABSTAIN
)

_CLAIMS_DOC: Final = (
    'Claims: with attached sources or a research plan, a finish may also carry "claims", a list of '
    '{"text": "<a sentence of the answer, word for word>", "premises": [<locator>, ...], '
    '"class": "<retrieved|declaration|measurement|calculation|generated>", '
    '"method": "<quote|measurement|comparison|calculation>", "item": <plan item number, optional>}, '
    'and "gaps": [<the plan items no claim settles>]. A locator is {"source": "<URL or attached id>", '
    '"quote": "..."}, {"source", "page", "quote"} for a PDF, {"source", "sheet", "cell"} for a '
    'workbook, {"source", "row", "column"} for a CSV, or "calc:<step>" for a calculation. Cite every '
    "premise's source. Keep the words the class needs: measured or in the supplied workbook, "
    'declared, generated. With claims, evidence may be "".\n'
    "Methods: quote - every number and name of the text is in its quoted premises, of the class "
    "claimed (declaration for an attached document, retrieved for an opened page); measurement - "
    "cell or CSV premises, the text names each row and states each value with its unit; comparison - "
    "two cells of one quantity in one unit, observed within 30 days, the text names both rows and "
    "the direction (longer, shorter, more, less); calculation - one calc:<step> premise, the text "
    "states its result with its unit. A declaration or a generated note is never a measurement; a "
    "generated note backs only a claim of class generated that says generated. Units are never "
    "converted and a missing value is never filled in: leave such an item as a gap."
)

_PLAN_INTRO: Final = (
    'Research plan (settle each item with a claim whose "item" is its number, or list it in "gaps"):'
)

_RULES: Final = (
    "Rules:\n"
    "- Cite only pages you opened successfully in this run. The evidence must be copied word "
    "for word from a page you cite, and the answer must only state what that page says.\n"
    f"- {FENCE_RULE}\n"
    "- If the opened pages do not contain the answer, abstain (cannot_answer true).\n"
    "- A rejected finish is shown as 'finish rejected: <code>'; you get one chance to repair it.\n"
    "- A reply that breaks the format is shown as 'protocol error: <code>' and uses a step."
)

_TOOL_DOCS: Final[dict[str, str]] = {
    "search": "search: Action Input is a plain search query (a few keywords). Returns hits "
    "with url, title and snippet, possibly none.",
    "open": "open: Action Input is one URL, copied from a search hit. Returns the page text or an error.",
    "calculate": 'calculate: Action Input is one JSON object {"operation": "<sum|mean|min|max|difference|'
    'ratio|compare>", "inputs": [<cell or CSV locator>, ...]} (difference, ratio, compare: exactly two) '
    "over measurement values of attached tables. Returns a calculation with its id (calc:<step>) and "
    "result, or a refusal with a code (missing_value, mixed_units, not_a_measurement, ...).",
    "finish": "finish: Action Input is one JSON object and nothing after it:\n  " + _FINISH_DOC,
}

_THOUGHT = re.compile(r"^[ \t]*Thought:.*?(?=^[ \t]*Action:|\Z)", re.MULTILINE | re.DOTALL)


def system_prompt(view: RunView, mode: Mode) -> str:
    """The instructions: tool docs and the exact reply format (ReAct) or the call rule (tools)."""
    budget = f"You have at most {view.max_steps} steps in this run; every reply uses one."
    claims = (_CLAIMS_DOC,) if view.sources or view.plan else ()
    if mode == "tools":
        return "\n\n".join(
            (
                _INTRO,
                "Call exactly one function per reply. To end the run, call finish with "
                "answer, citations, cannot_answer and evidence. Abstain like this:\n  " + _ABSTAIN,
                *claims,
                _RULES,
                budget,
            )
        )
    docs = "\n".join(
        "- " + _TOOL_DOCS.get(tool, f"{tool}: Action Input is one string.") for tool in view.allowlist
    )
    shape = (
        "Reply with exactly these three lines, once each, in this order, and nothing else:\n"
        "Thought: <one line>\n"
        f"Action: <one of: {', '.join(view.allowlist)}>\n"
        "Action Input: <the input>\n"
        "One action per reply. Never write 'Final Answer:'; finish is the only way to answer."
    )
    return "\n\n".join((_INTRO, "Tools:\n" + docs, *claims, shape, _RULES, budget))


def strip_thought(text: str) -> str:
    """The reply without its `Thought:` block (the projection option for text replies)."""
    return _THOUGHT.sub("", text).lstrip("\n")


def _arguments_text(arguments: JsonValue) -> str:
    # A malformed arguments string is recorded verbatim; send it back the same way.
    return arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)


def _recorded_calls(turn: Turn) -> list[dict[str, Any]] | None:
    """The tool calls of a structured reply, with ids (synthesized for replies recorded without one)."""
    structured = turn.reply.structured
    if structured is None:
        return None
    raw_calls = structured.get("calls")
    items = raw_calls if isinstance(raw_calls, list) else [structured]
    calls = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        call_id = item.get("id")
        calls.append(
            {
                "id": call_id if isinstance(call_id, str) and call_id else f"call_s{turn.step}_{index}",
                "type": "function",
                "function": {
                    "name": str(item.get("name", "")),
                    "arguments": _arguments_text(item.get("arguments", {})),
                },
            }
        )
    return calls or None


@dataclass(frozen=True, slots=True)
class TurnParts:
    """One earlier turn as every provider renders it, in its own envelope."""

    shown: str  # the observation, as the runtime rendered it for the policy
    calls: list[dict[str, Any]] | None  # a structured reply's calls (Chat Completions shape), with ids
    thought: str | None  # a structured reply's thought; None when hidden or absent
    text: str  # a text reply, its thought stripped when hidden


def turn_parts(turn: Turn, show_thoughts: bool) -> TurnParts:
    """What an earlier turn said and saw, with thoughts hidden as the options ask."""
    # The runtime's projection (ViewOptions.strip_thoughts) blanks `thought` on parsed turns;
    # the raw reply still holds it, so honour that here too.
    show_thoughts = show_thoughts and not (turn.action is not None and not turn.thought)
    thought = (turn.reply.structured or {}).get("thought")
    text = turn.reply.text or ""
    return TurnParts(
        shown=turn.shown or "(no observation)",
        calls=_recorded_calls(turn),
        thought=thought if show_thoughts and isinstance(thought, str) else None,
        text=text if show_thoughts else strip_thought(text),
    )


def _turn_messages(turn: Turn, show_thoughts: bool) -> list[dict[str, Any]]:
    parts = turn_parts(turn, show_thoughts)
    if parts.calls is not None:
        assistant = {"role": "assistant", "content": parts.thought or None, "tool_calls": parts.calls}
        answers = [{"role": "tool", "tool_call_id": c["id"], "content": parts.shown} for c in parts.calls]
        return [assistant, *answers]
    return [{"role": "assistant", "content": parts.text}, {"role": "user", "content": parts.shown}]


def question_text(view: RunView) -> str:
    """The first user message: the question, its research plan, then the run's attachments as shown."""
    text = f"Question: {view.question}"
    if view.plan:
        items = "\n".join(f"{number}. {item}" for number, item in enumerate(view.plan, start=1))
        text += f"\n\n{_PLAN_INTRO}\n{items}"
    if not view.sources_shown:
        return text
    return f"{text}\n\nAttached sources:\n{view.sources_shown}"


def render_messages(view: RunView, mode: Mode, *, show_thoughts: bool = True) -> list[dict[str, Any]]:
    """The whole conversation for the next request: system, question, then every earlier turn."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt(view, mode)},
        {"role": "user", "content": question_text(view)},
    ]
    for turn in view.turns:
        messages.extend(_turn_messages(turn, show_thoughts))
    # Only the last message changes with the budget, so earlier ones stay a cacheable prefix.
    note = f"\n\n(Steps left: {view.steps_left} of {view.max_steps}.)"
    last = messages[-1]
    last["content"] = (last["content"] or "") + note
    return messages
