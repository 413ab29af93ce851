"""`OpenAIPolicy`: a language model behind any OpenAI-compatible Chat Completions endpoint.

The shell (endpoint, retries, modes, the recorded reply) is `ChatPolicy`'s; this module is
the dialect: Chat Completions messages (`render_messages`), tools as functions, and
`choices[0].message` read back. Either way the runtime's strict parser and the grounding
gate judge the reply, and the reply is recorded raw with its usage and latency, so replay
never calls the model again. The `openai` package is an optional extra (`citeloop[openai]`),
imported when a policy is built.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final, Unpack, cast

from pydantic import JsonValue

from ._chat import ChatOptions, ChatPolicy, ChatResponse, ChatSettings, mode_from_spec
from ._prompt import render_messages
from ._tool_schemas import function_definitions
from ._view import RunView

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion


class OpenAIDialect:
    """Chat Completions: the system prompt as the first message, tools as functions."""

    provider: Final = "openai"
    client_class: Final = "AsyncOpenAI"
    retry_statuses: Final = frozenset({408, 409, 429})
    default_max_tokens: Final = None

    def request(self, view: RunView, settings: ChatSettings) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": settings.model,
            "messages": render_messages(view, settings.mode, show_thoughts=settings.show_thoughts),
        }
        if settings.mode == "tools":
            request["tools"] = function_definitions(view.allowlist)
        if settings.temperature is not None:
            request["temperature"] = settings.temperature
        if settings.max_tokens is not None:
            request["max_tokens"] = settings.max_tokens
        return request

    async def send(self, client: AsyncOpenAI, request: dict[str, Any], limit: float) -> ChatCompletion:
        completion: ChatCompletion = await client.chat.completions.create(**request, timeout=limit)
        return completion

    def read(self, response: ChatCompletion) -> ChatResponse:
        usage = None
        if response.usage is not None:
            usage = {
                "prompt_tokens": response.usage.prompt_tokens,
                "completion_tokens": response.usage.completion_tokens,
                "total_tokens": response.usage.total_tokens,
            }
        if not response.choices:
            # Recorded as an empty reply: the parser rejects it and the run goes on.
            return ChatResponse(text="", model=response.model, usage=usage)
        message = response.choices[0].message
        calls: list[dict[str, JsonValue]] = [
            {"id": call.id, "name": call.function.name, "arguments": _arguments(call.function.arguments)}
            for call in (message.tool_calls or [])
            if call.type == "function"
        ]
        return ChatResponse(text=message.content or "", calls=calls, model=response.model, usage=usage)


def _arguments(raw: str) -> JsonValue:
    """The call's arguments as a JSON object; anything else is kept as the raw string."""
    try:
        parsed = json.loads(raw)
    except ValueError:
        return raw
    return cast(JsonValue, parsed) if isinstance(parsed, dict) else raw


class OpenAIPolicy(ChatPolicy):
    """A `ChatPolicy` for an OpenAI-compatible endpoint (`OPENAI_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`).

    Any server speaking Chat Completions works (vLLM, Ollama, llama.cpp). No `max_tokens`
    is sent unless one is given.
    """

    def __init__(self, model: str | None = None, **options: Unpack[ChatOptions]) -> None:
        super().__init__(OpenAIDialect(), model, **options)


def policy_from_spec(spec: str, base_url: str | None = None) -> OpenAIPolicy:
    """Build a policy from a command-line spec: `openai:MODEL` (ReAct) or `openai-tools:MODEL`.

    An empty MODEL falls back to `OPENAI_MODEL`; everything after the first colon is the
    model name (Ollama names contain colons). Raises `UsageError` for another prefix.
    """
    model, mode = mode_from_spec(spec, "openai")
    return OpenAIPolicy(model, mode=mode, base_url=base_url)
