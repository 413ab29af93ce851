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
import os
import time
from typing import TYPE_CHECKING, Any, Final, cast
from urllib.parse import urlsplit, urlunsplit

from anyio.lowlevel import RunVar
from citeloop.events import PolicyReply, UsageError
from pydantic import JsonValue, SecretStr

from ._prompt import Mode, render_messages
from ._retry import RetryPolicy, Verdict, call_with_retry
from ._tool_schemas import function_definitions
from ._view import RunView

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from openai.types.chat import ChatCompletion

# Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the client insists on one.
_NO_KEY: Final = "no-key"
_RETRY_STATUSES: Final = frozenset({408, 409, 429})


def _import_openai() -> Any:
    try:
        import openai
    except ImportError as exc:  # pragma: no cover - the dev install has it
        raise UsageError(
            "OpenAIPolicy needs the openai package: pip install 'citeloop[openai]'"
        ) from exc
    return openai


def redact_url(url: str) -> str:
    """The URL without credentials or query string (a token may hide in either)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


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
        self._openai = _import_openai()
        if mode not in ("react", "tools"):
            raise UsageError(f"unknown OpenAIPolicy mode {mode!r} (use 'react' or 'tools')")
        model = model or os.environ.get("OPENAI_MODEL") or ""
        if not model:
            raise UsageError("no model given: pass model=... or set OPENAI_MODEL")
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = api_key or os.environ.get("OPENAI_API_KEY") or ""
        if not key and base_url is None:
            raise UsageError("no API key: set OPENAI_API_KEY (or pass base_url for a local server)")
        self._model = model
        self._mode: Mode = mode
        self._base_url = base_url
        self._key = SecretStr(key or _NO_KEY)
        self._retry = retry or RetryPolicy()
        self._temperature = temperature
        self._max_tokens = max_tokens
        self._show_thoughts = show_thoughts
        self._clients: RunVar[AsyncOpenAI | None] = RunVar(f"citeloop.openai.{id(self)}", default=None)

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
        endpoint = redact_url(self._base_url) if self._base_url else "default"
        return f"OpenAIPolicy(model={self._model!r}, mode={self._mode!r}, base_url={endpoint!r})"

    async def __aenter__(self) -> OpenAIPolicy:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close this event loop's HTTP client, if one was opened."""
        client = self._clients.get()
        if client is not None:
            self._clients.set(None)
            await client.close()

    def _client(self) -> AsyncOpenAI:
        # One client per event loop: its connection pool belongs to the loop that made it.
        client = self._clients.get()
        if client is None:
            client = cast(
                "AsyncOpenAI",
                self._openai.AsyncOpenAI(
                    api_key=self._key.get_secret_value(),
                    base_url=self._base_url,
                    # The policy's RetryPolicy is the one bound; the client must not retry on its own.
                    max_retries=0,
                    timeout=self._retry.attempt_timeout,
                ),
            )
            self._clients.set(client)
        return client

    def _scrub(self, text: str) -> str:
        key = self._key.get_secret_value()
        if len(key) >= 4:
            text = text.replace(key, "***")
        return text[:300]

    def _classify(self, exc: Exception) -> Verdict:
        openai = self._openai
        if isinstance(exc, openai.APIStatusError):
            status = int(exc.status_code)
            description = self._scrub(f"{type(exc).__name__} (HTTP {status}): {exc.message}")
            retry_after = _retry_after(exc.response.headers.get("retry-after"))
            transient = status in _RETRY_STATUSES or status >= 500
            return Verdict(retry=transient, description=description, retry_after=retry_after)
        if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
            return Verdict(retry=True, description=self._scrub(f"{type(exc).__name__}: {exc}"))
        return Verdict(retry=False, description=self._scrub(f"{type(exc).__name__}: {exc}"))

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
        client = self._client()
        latency_ms = 0.0

        async def attempt(limit: float) -> ChatCompletion:
            nonlocal latency_ms
            started = time.perf_counter()
            completion: ChatCompletion = await client.chat.completions.create(**request, timeout=limit)
            latency_ms = (time.perf_counter() - started) * 1000
            return completion

        completion = await call_with_retry(
            attempt, self._classify, self._retry, what=f"model {self._model!r}"
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


def _retry_after(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff


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
