"""The strict ReAct parser: a policy reply becomes one action or one rejection code (docs/protocol.md).

Text replies must have exactly this shape::

    Thought: <one line>
    Action: <tool name>
    Action Input: <string, or JSON for finish>

Codes are checked in this fixed order; the first that applies wins:

1. ``final_answer`` - ``Final Answer:`` anywhere in the text, or a line labelled
   ``final answer:`` in any letter case. There is one protocol.
2. ``multiple_actions`` - more than one ``Action:`` line (several steps in one message).
3. ``react_shape`` - a label missing or repeated, labels out of order, text before
   ``Thought:`` or between the fields, a model-written ``Observation:`` line, or more
   than one line of input for a tool other than ``finish``.
4. ``bad_action`` - the tool is not in the run's allowlist (names are case-sensitive).
5. ``empty_input`` - a blank input; an ``open`` input that is not a URL token (see
   `_url_problem`).
6. ``finish_json`` - a ``finish`` input that is not exactly one JSON object
   (see `decode_finish`; a blank finish input is ``finish_json`` too).

Documented acceptances: labels are case-sensitive and may be indented; blank lines
between the fields are allowed; an empty Thought is allowed; ``\\r\\n`` is read as
``\\n``; the ``finish`` JSON may span many lines (pretty-printed). A finish JSON inside a
````` code fence is *rejected* (``finish_json``): the contract is one object and nothing
else, and a fence is something else. Action Input is never evaluated: a search query is
passed on as a string (quotes included), a finish object is decoded as JSON data only.

Native tool calls (`parse_structured`) go through the same allowlist, input and finish
checks and produce the same `Parsed` value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias, get_args

from citeloop.events import Action, CallTool, Finish, PolicyReply

from ._finish_json import FinishJSONError, as_payload, decode_finish

RejectCode: TypeAlias = Literal[
    "react_shape",
    "bad_action",
    "final_answer",
    "multiple_actions",
    "empty_input",
    "finish_json",
]
REJECT_CODES: Final[tuple[RejectCode, ...]] = get_args(RejectCode)

DEFAULT_ALLOWLIST: Final[tuple[str, ...]] = ("search", "open", "finish")

# The key under which a one-string-input tool receives its argument in a native call
# (the same names the tool schemas offer the model); "input" is accepted for every tool.
_ARGUMENT_NAMES: Final[dict[str, str]] = {"search": "query", "open": "url"}
_GENERIC_ARGUMENT: Final = "input"
_STRUCTURED_KEYS: Final = frozenset({"name", "arguments", "thought", "id"})


@dataclass(frozen=True, slots=True)
class Parsed:
    """A reply that passed the parser: the thought (side trace) and the one action."""

    thought: str
    action: Action


@dataclass(frozen=True, slots=True)
class Rejected:
    """A reply that failed the parser; the policy sees `protocol error: <code>`."""

    code: RejectCode
    detail: str


# The exact label anywhere; in other letter cases only as a label at a line start, so
# that a thought such as "the final answer: soon" mid-line is not mistaken for it.
_FINAL_ANSWER: Final = re.compile(r"Final Answer:|(?im:^[ \t]*final[ \t]+answer[ \t]*:)")
_LABEL: Final = re.compile(r"[ \t]*(Thought|Action Input|Action|Observation)[ \t]*:(.*)\Z", re.DOTALL)
_Label: TypeAlias = Literal["Thought", "Action Input", "Action", "Observation"]


def parse_reply(text: str, allowlist: Collection[str] = DEFAULT_ALLOWLIST) -> Parsed | Rejected:
    """Parse one ReAct text reply. Never raises: every input ends as Parsed or Rejected."""
    if not isinstance(text, str):
        return Rejected("react_shape", f"expected reply text, got {type(text).__name__}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _FINAL_ANSWER.search(text):
        return Rejected("final_answer", "'Final Answer:' is not part of the protocol; call finish")

    lines = text.split("\n")
    labels: list[tuple[int, _Label, str]] = []
    for index, line in enumerate(lines):
        match = _LABEL.match(line)
        if match is not None:
            name: _Label = match.group(1)  # type: ignore[assignment]
            labels.append((index, name, match.group(2)))

    actions = sum(1 for _, name, _ in labels if name == "Action")
    if actions > 1:
        return Rejected("multiple_actions", f"{actions} 'Action:' lines; send one action per reply")

    shape = _shape(lines, labels)
    if isinstance(shape, Rejected):
        return shape
    thought, tool, raw_input = shape
    return _check_action(thought, tool, raw_input, allowlist)


def _shape(lines: list[str], labels: list[tuple[int, _Label, str]]) -> tuple[str, str, str] | Rejected:
    """Thought, tool name and raw input, or `react_shape` with what is wrong."""
    if any(name == "Observation" for _, name, _ in labels):
        return Rejected("react_shape", "the reply must stop after Action Input (no 'Observation:')")
    names = [name for _, name, _ in labels]
    if names != ["Thought", "Action", "Action Input"]:
        missing = [n for n in ("Thought", "Action", "Action Input") if n not in names]
        if missing:
            return Rejected("react_shape", f"missing {', '.join(repr(m + ':') for m in missing)}")
        return Rejected("react_shape", "expected 'Thought:', 'Action:', 'Action Input:' once each, in order")
    (t_line, _, thought), (a_line, _, tool), (i_line, _, first) = labels
    # Only blank lines may stand before Thought and between the fields.
    between = lines[:t_line] + lines[t_line + 1 : a_line] + lines[a_line + 1 : i_line]
    if any(line.strip() for line in between):
        return Rejected("react_shape", "text outside the three fields (the Thought is one line)")
    tool = tool.strip()
    rest = lines[i_line + 1 :]
    if tool != "finish" and any(line.strip() for line in rest):
        return Rejected("react_shape", f"the input of {tool or 'a tool'!r} must be one line")
    raw_input = "\n".join([first, *rest])
    return thought.strip(), tool, raw_input


def _check_action(thought: str, tool: str, raw_input: str, allowlist: Collection[str]) -> Parsed | Rejected:
    """The checks shared by text replies and native calls, from `bad_action` on."""
    if tool not in allowlist:
        return Rejected("bad_action", f"{tool!r} is not an allowed action ({', '.join(sorted(allowlist))})")
    if tool == "finish":
        try:
            payload = decode_finish(raw_input)
        except FinishJSONError as error:
            return Rejected("finish_json", str(error))
        return Parsed(thought, Finish(payload=payload))
    return _call(thought, tool, raw_input.strip())


def _call(thought: str, tool: str, value: str) -> Parsed | Rejected:
    if not value:
        return Rejected("empty_input", f"{tool!r} needs a non-empty input")
    if tool == "open":
        problem = _url_problem(value)
        if problem:
            return Rejected("empty_input", f"'open' needs a URL: {problem}")
    return Parsed(thought, CallTool(tool=tool, input=value))


def _url_problem(url: str) -> str:
    """Why `url` is not a URL token, or ''.

    A URL is one token: no white space or control characters, and not wrapped in quotes,
    angle brackets or backticks. No scheme is required, because a corpus may name its
    pages by path; whether the page exists is the open tool's answer (`not_found`).
    """
    if any(ch.isspace() or ord(ch) < 0x20 or ch == "\x7f" for ch in url):
        return "it contains white space or control characters"
    if url[0] in "\"'<`" or url[-1] in "\"'>`":
        return "write the bare URL, without quotes or brackets"
    return ""


def parse_structured(
    call: Mapping[str, object], allowlist: Collection[str] = DEFAULT_ALLOWLIST
) -> Parsed | Rejected:
    """Parse a native tool call `{"name", "arguments": dict | JSON string, "thought"?, "id"?}`.

    `search` takes `{"query": str}`, `open` `{"url": str}`, another tool `{"input": str}`
    (`"input"` is accepted for every tool); exactly one key. `finish` takes the payload
    itself as its arguments. Shape faults are `react_shape`; a call named like
    `final_answer` is `final_answer`. Several calls in one message, recorded as
    `{"calls": [...], "thought"?}`, are `multiple_actions`. Never raises.
    """
    if not isinstance(call, Mapping):
        return Rejected("react_shape", f"expected a tool call object, got {type(call).__name__}")
    calls = call.get("calls")
    if isinstance(calls, list) and len(calls) > 1:
        return Rejected("multiple_actions", f"{len(calls)} tool calls in one reply; call one function")
    extra = [str(k) for k in call if k not in _STRUCTURED_KEYS]
    if extra:
        return Rejected("react_shape", f"unexpected keys in the tool call: {', '.join(sorted(extra))}")
    name, thought = call.get("name"), call.get("thought", "")
    if not isinstance(name, str) or not isinstance(thought, str):
        return Rejected("react_shape", "a tool call needs a string 'name' (and a string 'thought' if any)")
    if name.casefold().replace(" ", "_") == "final_answer":
        return Rejected("final_answer", "'final_answer' is not part of the protocol; call finish")
    if name not in allowlist:
        return Rejected("bad_action", f"{name!r} is not an allowed action ({', '.join(sorted(allowlist))})")
    arguments = call.get("arguments", {})
    thought = thought.strip()
    if name == "finish":
        try:
            payload = decode_finish(arguments) if isinstance(arguments, str) else as_payload(arguments)
        except FinishJSONError as error:
            return Rejected("finish_json", str(error))
        return Parsed(thought, Finish(payload=payload))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except (ValueError, RecursionError):
            return Rejected("empty_input", "the arguments are not valid JSON")
    if not isinstance(arguments, Mapping) or len(arguments) != 1:
        return Rejected("empty_input", f"{name!r} takes exactly one string argument")
    ((key, value),) = arguments.items()
    expected = _ARGUMENT_NAMES.get(name, _GENERIC_ARGUMENT)
    if key not in (expected, _GENERIC_ARGUMENT) or not isinstance(value, str):
        return Rejected("empty_input", f"{name!r} takes {{{expected!r}: <string>}}")
    return _call(thought, name, value.strip())


def parse_policy_reply(
    reply: PolicyReply, allowlist: Collection[str] = DEFAULT_ALLOWLIST
) -> Parsed | Rejected:
    """Route a recorded reply: a structured call wins; its text, if any, is the thought.

    Chat APIs often send prose next to a tool call; that prose is the model's reasoning,
    so it becomes the thought when the call carries none. A reply with neither is
    `react_shape`.
    """
    if reply.structured is not None:
        call: Mapping[str, object] = reply.structured
        if "thought" not in call and reply.text and reply.text.strip():
            call = {**call, "thought": reply.text}
        return parse_structured(call, allowlist)
    if reply.text is not None:
        return parse_reply(reply.text, allowlist)
    return Rejected("react_shape", "the reply has neither text nor a tool call")
