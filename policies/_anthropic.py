"""`AnthropicPolicy`: a language model behind the Anthropic Messages API.

The same two modes as `OpenAIPolicy`, sharing its prompt text, tool schemas and retry
bound: `react` (the system prompt with the tool docs and the exact text format; the reply
text goes to the strict parser) and `tools` (search, open and finish as tools; `tool_use`
blocks come back as a structured call in the shape `OpenAIPolicy` records). The reply is
recorded raw with its usage and latency, so replay never calls the model again.

The `anthropic` package is an optional extra (`citeloop[anthropic]`), imported when a
policy is built. The API key is held out of every repr, log line and error message.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Final, cast

from citeloop.events import PolicyReply, UsageError
from pydantic import JsonValue

from ._endpoint import Endpoint
from ._prompt import Mode, _recorded_calls, strip_thought, system_prompt
from ._retry import RetryPolicy, call_with_retry
from ._tool_schemas import function_definitions
from ._view import RunView, Turn

if TYPE_CHECKING:
    from anthropic import AsyncAnthropic
    from anthropic.types import Message

# Anthropic-compatible local servers ignore the key, but the client insists on one.
# 529 is Anthropic's "overloaded"; 408/409 are the ones its own client retries too.
_RETRY_STATUSES: Final = frozenset({408, 409, 429, 529})
_DEFAULT_MAX_TOKENS: Final = 1024
# The API refuses an empty text block; a recorded empty reply is sent back as this.
_EMPTY: Final = "(empty reply)"


def _import_anthropic() -> Any:
    try:
        import anthropic
    except ImportError as exc:  # pragma: no cover - the dev install has it
        raise UsageError(
            "AnthropicPolicy needs the anthropic package: pip install 'citeloop[anthropic]'"
        ) from exc
    return anthropic


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
    shown = turn.shown or "(no observation)"
    # As in `_prompt`: a parsed turn whose thought the runtime blanked keeps it hidden.
    show_thoughts = show_thoughts and not (turn.action is not None and not turn.thought)
    calls = _recorded_calls(turn)
    if calls is not None:
        thought = (turn.reply.structured or {}).get("thought")
        blocks: list[dict[str, Any]] = []
        if show_thoughts and isinstance(thought, str) and thought.strip():
            blocks.append({"type": "text", "text": thought})
        blocks.extend(
            {
                "type": "tool_use",
                "id": call["id"],
                "name": call["function"]["name"],
                "input": _tool_input(call["function"]["arguments"]),
            }
            for call in calls
        )
        results = [{"type": "tool_result", "tool_use_id": call["id"], "content": shown} for call in calls]
        return [{"role": "assistant", "content": blocks}, {"role": "user", "content": results}]
    text = turn.reply.text or ""
    if not show_thoughts:
        text = strip_thought(text)
    return [
        {"role": "assistant", "content": [{"type": "text", "text": text if text.strip() else _EMPTY}]},
        {"role": "user", "content": [{"type": "text", "text": shown}]},
    ]


def render_anthropic(view: RunView, *, show_thoughts: bool = True) -> list[dict[str, Any]]:
    """The conversation for the next request (the system prompt travels separately)."""
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": f"Question: {view.question}"}]}
    ]
    for turn in view.turns:
        messages.extend(_turn_messages(turn, show_thoughts))
    # Only the last message changes with the budget, so earlier ones stay a cacheable prefix;
    # a text block after the tool results (which must come first) carries the note.
    note = f"(Steps left: {view.steps_left} of {view.max_steps}.)"
    messages[-1]["content"].append({"type": "text", "text": note})
    return messages


class AnthropicPolicy:
    """A `Policy` that asks a Claude model (Messages API) for the next step, with bounded retries.

    `model`, `base_url` and `api_key` default to `ANTHROPIC_MODEL`, `ANTHROPIC_BASE_URL` and
    `ANTHROPIC_API_KEY`. With a `base_url` and no key, a placeholder key is sent (local
    servers ignore it). `show_thoughts=False` strips earlier thoughts from the prompt.
    Raises `UsageError` when the model is unknown, no key is set for the default endpoint,
    or the `anthropic` package is missing.

    The client is kept per event loop; close it with `aclose()` (or `async with`).
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        mode: Mode = "react",
        base_url: str | None = None,
        api_key: str | None = None,
        retry: RetryPolicy | None = None,
        temperature: float | None = None,
        max_tokens: int = _DEFAULT_MAX_TOKENS,
        show_thoughts: bool = True,
    ) -> None:
        if mode not in ("react", "tools"):
            raise UsageError(f"unknown AnthropicPolicy mode {mode!r} (use 'react' or 'tools')")
        self._endpoint = Endpoint(
            _import_anthropic(),
            "AsyncAnthropic",
            env_prefix="ANTHROPIC",
            model=model,
            base_url=base_url,
            api_key=api_key,
            retry=retry or RetryPolicy(),
            retry_statuses=_RETRY_STATUSES,
        )
        if max_tokens < 1:
            raise UsageError("max_tokens must be >= 1 (the Messages API requires a positive bound)")
        self._model = self._endpoint.model
        self._mode: Mode = mode
        self._temperature = temperature
        self._max_tokens = max_tokens
        self._show_thoughts = show_thoughts

    @property
    def name(self) -> str:
        prefix = "anthropic-tools" if self._mode == "tools" else "anthropic"
        return f"{prefix}:{self._model}"

    @property
    def model(self) -> str:
        return self._model

    @property
    def mode(self) -> Mode:
        return self._mode

    def __repr__(self) -> str:
        endpoint = self._endpoint.shown_url()
        return f"AnthropicPolicy(model={self._model!r}, mode={self._mode!r}, base_url={endpoint!r})"

    async def __aenter__(self) -> AnthropicPolicy:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close this event loop's HTTP client, if one was opened."""
        await self._endpoint.aclose()

    def _request(self, view: RunView) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self._model,
            "max_tokens": self._max_tokens,
            "system": system_prompt(view, self._mode),
            "messages": render_anthropic(view, show_thoughts=self._show_thoughts),
        }
        if self._mode == "tools":
            request["tools"] = tool_definitions(view.allowlist)
        if self._temperature is not None:
            request["temperature"] = self._temperature
        return request

    async def next_step(self, view: RunView) -> PolicyReply:
        """Ask the model for one step; raises `PolicyUnavailableError` past the retry bound."""
        request = self._request(view)
        client = cast("AsyncAnthropic", self._endpoint.client())
        latency_ms = 0.0

        async def attempt(limit: float) -> Message:
            nonlocal latency_ms
            started = time.perf_counter()
            message: Message = await client.messages.create(**request, timeout=limit)
            latency_ms = (time.perf_counter() - started) * 1000
            return message

        message = await call_with_retry(
            attempt, self._endpoint.classify, self._endpoint.retry, what=f"model {self._model!r}"
        )
        return self._reply(message, latency_ms)

    def _reply(self, message: Message, latency_ms: float) -> PolicyReply:
        usage = None
        if message.usage is not None:
            usage = {"input_tokens": message.usage.input_tokens, "output_tokens": message.usage.output_tokens}
        common: dict[str, Any] = {
            "model": message.model or self._model,
            "usage": usage,
            "latency_ms": round(latency_ms, 3),
        }
        texts: list[str] = []
        calls: list[dict[str, JsonValue]] = []
        for block in message.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                arguments = block.input if isinstance(block.input, dict) else json.dumps(block.input)
                calls.append({"id": block.id, "name": block.name, "arguments": cast(JsonValue, arguments)})
        content = "".join(texts)
        if self._mode == "react" or not calls:
            # A tools-mode model that answered in prose (or a react reply): the parser judges the text.
            return PolicyReply(text=content, **common)
        if len(calls) == 1:
            structured: dict[str, JsonValue] = {**calls[0], "thought": content}
        else:
            # Several calls in one reply: all are kept so the parser rejects them (multiple_actions).
            structured = {"calls": cast(list[JsonValue], calls), "thought": content}
        return PolicyReply(structured=structured, **common)


def anthropic_policy_from_spec(spec: str, base_url: str | None = None) -> AnthropicPolicy:
    """Build a policy from `anthropic:MODEL` (ReAct) or `anthropic-tools:MODEL` (native tool use).

    An empty MODEL falls back to `ANTHROPIC_MODEL`. Raises `UsageError` for another prefix.
    """
    prefix, _, model = spec.partition(":")
    modes: dict[str, Mode] = {"anthropic": "react", "anthropic-tools": "tools"}
    if prefix not in modes:
        raise UsageError(f"unknown model policy {spec!r}: use anthropic:MODEL or anthropic-tools:MODEL")
    return AnthropicPolicy(model or None, mode=modes[prefix], base_url=base_url)
