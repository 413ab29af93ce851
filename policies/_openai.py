"""`OpenAIPolicy`: a language model behind any OpenAI-compatible Chat Completions endpoint.

Two modes: `react` (a system prompt with the tool docs and the exact text format; the
reply is ReAct text) and `tools` (search, open and finish as functions; the reply is a
structured call). Either way the runtime's strict parser and the grounding gate judge the
reply, and the reply is recorded raw with its usage and latency, so replay never calls
the model again.

The `openai` package is an optional extra (`citeloop[openai]`), imported when a policy is
built. The API key is held out of every repr, log line and error message.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Final, cast

from citeloop.events import PolicyReply, UsageError
from pydantic import JsonValue

from ._endpoint import Endpoint
from ._prompt import Mode, render_messages
from ._retry import RetryPolicy, call_with_retry
from ._tool_schemas import function_definitions
from ._view import RunView

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion

_RETRY_STATUSES: Final = frozenset({408, 409, 429})


def _import_openai() -> Any:
    try:
        import openai
    except ImportError as exc:  # pragma: no cover - the dev install has it
        raise UsageError("OpenAIPolicy needs the openai package: pip install 'citeloop[openai]'") from exc
    return openai


class OpenAIPolicy:
    """A `Policy` that asks a chat model for the next step, with bounded retries.

    `model`, `base_url` and `api_key` default to `OPENAI_MODEL`, `OPENAI_BASE_URL` and
    `OPENAI_API_KEY`. With a `base_url` and no key, a placeholder key is sent (local model
    servers ignore it). `show_thoughts=False` strips earlier thoughts from the prompt.
    Raises `UsageError` when the model is unknown, no key is set for the default OpenAI
    endpoint, or the `openai` package is missing.

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
        max_tokens: int | None = None,
        show_thoughts: bool = True,
    ) -> None:
        if mode not in ("react", "tools"):
            raise UsageError(f"unknown OpenAIPolicy mode {mode!r} (use 'react' or 'tools')")
        self._endpoint = Endpoint(
            _import_openai(),
            "AsyncOpenAI",
            env_prefix="OPENAI",
            model=model,
            base_url=base_url,
            api_key=api_key,
            retry=retry or RetryPolicy(),
            retry_statuses=_RETRY_STATUSES,
        )
        self._model = self._endpoint.model
        self._mode: Mode = mode
        self._temperature = temperature
        self._max_tokens = max_tokens
        self._show_thoughts = show_thoughts

    @property
    def name(self) -> str:
        prefix = "openai-tools" if self._mode == "tools" else "openai"
        return f"{prefix}:{self._model}"

    @property
    def model(self) -> str:
        return self._model

    @property
    def mode(self) -> Mode:
        return self._mode

    def __repr__(self) -> str:
        endpoint = self._endpoint.shown_url()
        return f"OpenAIPolicy(model={self._model!r}, mode={self._mode!r}, base_url={endpoint!r})"

    async def __aenter__(self) -> OpenAIPolicy:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close this event loop's HTTP client, if one was opened."""
        await self._endpoint.aclose()

    def _request(self, view: RunView) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self._model,
            "messages": render_messages(view, self._mode, show_thoughts=self._show_thoughts),
        }
        if self._mode == "tools":
            request["tools"] = function_definitions(view.allowlist)
        if self._temperature is not None:
            request["temperature"] = self._temperature
        if self._max_tokens is not None:
            request["max_tokens"] = self._max_tokens
        return request

    async def next_step(self, view: RunView) -> PolicyReply:
        """Ask the model for one step; raises `PolicyUnavailableError` past the retry bound."""
        request = self._request(view)
        client = cast("AsyncOpenAI", self._endpoint.client())
        latency_ms = 0.0

        async def attempt(limit: float) -> ChatCompletion:
            nonlocal latency_ms
            started = time.perf_counter()
            completion: ChatCompletion = await client.chat.completions.create(**request, timeout=limit)
            latency_ms = (time.perf_counter() - started) * 1000
            return completion

        completion = await call_with_retry(
            attempt, self._endpoint.classify, self._endpoint.retry, what=f"model {self._model!r}"
        )
        return self._reply(completion, latency_ms)

    def _reply(self, completion: ChatCompletion, latency_ms: float) -> PolicyReply:
        usage = None
        if completion.usage is not None:
            usage = {
                "prompt_tokens": completion.usage.prompt_tokens,
                "completion_tokens": completion.usage.completion_tokens,
                "total_tokens": completion.usage.total_tokens,
            }
        common: dict[str, Any] = {
            "model": completion.model or self._model,
            "usage": usage,
            "latency_ms": round(latency_ms, 3),
        }
        if not completion.choices:
            # Recorded as an empty reply: the parser rejects it and the run goes on.
            return PolicyReply(text="", **common)
        message = completion.choices[0].message
        content = message.content or ""
        calls = [call for call in (message.tool_calls or []) if call.type == "function"]
        if self._mode == "react" or not calls:
            # A tools-mode model that answered in prose: the strict parser judges the text.
            return PolicyReply(text=content, **common)
        recorded: list[dict[str, JsonValue]] = [
            {"id": call.id, "name": call.function.name, "arguments": _arguments(call.function.arguments)}
            for call in calls
        ]
        if len(recorded) == 1:
            structured: dict[str, JsonValue] = {**recorded[0], "thought": content}
        else:
            # Several calls in one reply: all are kept so the parser rejects them (multiple_actions).
            structured = {"calls": cast(list[JsonValue], recorded), "thought": content}
        return PolicyReply(structured=structured, **common)


def _arguments(raw: str) -> JsonValue:
    """The call's arguments as a JSON object; anything else is kept as the raw string."""
    try:
        parsed = json.loads(raw)
    except ValueError:
        return raw
    return cast(JsonValue, parsed) if isinstance(parsed, dict) else raw


def policy_from_spec(spec: str, base_url: str | None = None) -> OpenAIPolicy:
    """Build a policy from a command-line spec: `openai:MODEL` (ReAct) or `openai-tools:MODEL`.

    An empty MODEL falls back to `OPENAI_MODEL`; everything after the first colon is the
    model name (Ollama names contain colons). Raises `UsageError` for another prefix.
    """
    prefix, _, model = spec.partition(":")
    modes: dict[str, Mode] = {"openai": "react", "openai-tools": "tools"}
    if prefix not in modes:
        raise UsageError(f"unknown model policy {spec!r}: use openai:MODEL or openai-tools:MODEL")
    return OpenAIPolicy(model or None, mode=modes[prefix], base_url=base_url)
