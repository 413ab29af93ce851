"""`AnthropicPolicy`: a language model behind the Anthropic Messages API.

The shell (endpoint, retries, modes, the recorded reply) is `ChatPolicy`'s, shared with
`OpenAIPolicy` along with the prompt text and tool schemas; this module is the dialect:
the system prompt apart, content blocks, `tool_use` blocks read back as a structured call
in the shape `OpenAIPolicy` records. The reply is recorded raw with its usage and latency,
so replay never calls the model again. The `anthropic` package is an optional extra
(`citeloop[anthropic]`), imported when a policy is built.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final, Unpack, cast

from pydantic import JsonValue

from ._chat import ChatOptions, ChatPolicy, ChatResponse, ChatSettings, mode_from_spec
from ._prompt import question_text, system_prompt, turn_parts
from ._tool_schemas import function_definitions
from ._view import RunView, Turn

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic
    from anthropic.types import Message

# The API refuses an empty text block; a recorded empty reply is sent back as this.
_EMPTY: Final = "(empty reply)"


def tool_definitions(allowlist: tuple[str, ...]) -> list[dict[str, Any]]:
    """The run's allowlist as Messages API tools (the shared schemas, Anthropic's envelope)."""
    tools = []
    for definition in function_definitions(allowlist):
        function = definition["function"]
        tools.append(
            {
                "name": function["name"],
                "description": function["description"],
                "input_schema": function["parameters"],
            }
        )
    return tools


def _tool_input(arguments: str) -> dict[str, Any]:
    """A recorded call's arguments as the object `tool_use.input` must be."""
    try:
        parsed = json.loads(arguments)
    except ValueError:
        parsed = None
    # A malformed string (recorded from another endpoint) travels under the generic key.
    return parsed if isinstance(parsed, dict) else {"input": arguments}


def _turn_messages(turn: Turn, show_thoughts: bool) -> list[dict[str, Any]]:
    parts = turn_parts(turn, show_thoughts)
    if parts.calls is not None:
        blocks: list[dict[str, Any]] = []
        if parts.thought and parts.thought.strip():
            blocks.append({"type": "text", "text": parts.thought})
        blocks.extend(
            {
                "type": "tool_use",
                "id": call["id"],
                "name": call["function"]["name"],
                "input": _tool_input(call["function"]["arguments"]),
            }
            for call in parts.calls
        )
        results = [
            {"type": "tool_result", "tool_use_id": call["id"], "content": parts.shown} for call in parts.calls
        ]
        return [{"role": "assistant", "content": blocks}, {"role": "user", "content": results}]
    text = parts.text if parts.text.strip() else _EMPTY
    return [
        {"role": "assistant", "content": [{"type": "text", "text": text}]},
        {"role": "user", "content": [{"type": "text", "text": parts.shown}]},
    ]


def render_anthropic(view: RunView, *, show_thoughts: bool = True) -> list[dict[str, Any]]:
    """The conversation for the next request (the system prompt travels separately)."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": question_text(view)}]}
    ]
    for turn in view.turns:
        messages.extend(_turn_messages(turn, show_thoughts))
    # Only the last message changes with the budget, so earlier ones stay a cacheable prefix;
    # a text block after the tool results (which must come first) carries the note.
    note = f"(Steps left: {view.steps_left} of {view.max_steps}.)"
    messages[-1]["content"].append({"type": "text", "text": note})
    return messages


class AnthropicDialect:
    """The Messages API: the system prompt apart, tools as `tool_use`, a reply bound always sent."""

    provider: Final = "anthropic"
    client_class: Final = "AsyncAnthropic"
    # 529 is Anthropic's "overloaded"; 408/409 are the ones its own client retries too.
    retry_statuses: Final = frozenset({408, 409, 429, 529})
    default_max_tokens: Final = 1024

    def request(self, view: RunView, settings: ChatSettings) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": settings.model,
            "max_tokens": settings.max_tokens,
            "system": system_prompt(view, settings.mode),
            "messages": render_anthropic(view, show_thoughts=settings.show_thoughts),
        }
        if settings.mode == "tools":
            request["tools"] = tool_definitions(view.allowlist)
        if settings.temperature is not None:
            request["temperature"] = settings.temperature
        return request

    async def send(self, client: AsyncAnthropic, request: dict[str, Any], limit: float) -> Message:
        message: Message = await client.messages.create(**request, timeout=limit)
        return message

    def read(self, response: Message) -> ChatResponse:
        usage = None
        if response.usage is not None:
            usage = {
                "input_tokens": response.usage.input_tokens,
                "output_tokens": response.usage.output_tokens,
            }
        texts: list[str] = []
        calls: list[dict[str, JsonValue]] = []
        for block in response.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                arguments = block.input if isinstance(block.input, dict) else json.dumps(block.input)
                calls.append({"id": block.id, "name": block.name, "arguments": cast(JsonValue, arguments)})
        return ChatResponse(text="".join(texts), calls=calls, model=response.model, usage=usage)


class AnthropicPolicy(ChatPolicy):
    """A `ChatPolicy` for a Claude model (`ANTHROPIC_MODEL`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`).

    `max_tokens` defaults to 1024 (the Messages API requires a bound).
    """

    def __init__(self, model: str | None = None, **options: Unpack[ChatOptions]) -> None:
        super().__init__(AnthropicDialect(), model, **options)


def anthropic_policy_from_spec(spec: str, base_url: str | None = None) -> AnthropicPolicy:
    """Build a policy from `anthropic:MODEL` (ReAct) or `anthropic-tools:MODEL` (native tool use).

    An empty MODEL falls back to `ANTHROPIC_MODEL`. Raises `UsageError` for another prefix.
    """
    model, mode = mode_from_spec(spec, "anthropic")
    return AnthropicPolicy(model, mode=mode, base_url=base_url)
