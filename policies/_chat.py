"""`ChatPolicy`: the one shell of the chat-model policies; a `Dialect` says how one provider talks.

The shell owns what every chat API shares: the endpoint (model, key, one client per event
loop), the name, mode and repr, `async with`/`aclose`, the bounded retries, the latency,
and how a reply is recorded (one tool call becomes the structured call; several are all
kept, for the parser to reject; none leaves the text). A dialect owns only what differs:
how a request is built from the view, how it is sent, how a response is read, and which
HTTP statuses are worth retrying. As pydantic-ai keeps one model base with a class per
provider, but composed rather than inherited: `OpenAIPolicy` and `AnthropicPolicy` only
name their dialect.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, cast

from citeloop.events import AsyncResource, PolicyReply, UsageError
from pydantic import JsonValue

from ._endpoint import Endpoint
from ._prompt import Mode
from ._retry import RetryPolicy, call_with_retry
from ._view import RunView


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """What a request is built from, besides the view."""

    model: str
    mode: Mode
    temperature: float | None
    max_tokens: int | None
    show_thoughts: bool


@dataclass(frozen=True, slots=True)
class ChatResponse:
    """What a dialect read from a response: the text, the tool calls (`id`, `name`, `arguments`)."""

    text: str
    calls: list[dict[str, JsonValue]] = field(default_factory=list)
    model: str | None = None
    usage: dict[str, int] | None = None


class Dialect(Protocol):
    """How one provider's chat API is spoken; the SDK follows the shape `Endpoint` expects."""

    @property
    def provider(self) -> str:
        """`openai`: the SDK package and extra, the name prefix, and (upper-cased) the env prefix."""

    @property
    def client_class(self) -> str:
        """The SDK's async client class, for example `AsyncOpenAI`."""

    @property
    def retry_statuses(self) -> frozenset[int]:
        """HTTP statuses worth retrying besides every 5xx."""

    @property
    def default_max_tokens(self) -> int | None:
        """The reply bound sent when the caller gives none (None: send no bound)."""

    def request(self, view: RunView, settings: ChatSettings) -> dict[str, Any]:
        """The request's keyword arguments for the next step."""

    async def send(self, client: Any, request: dict[str, Any], limit: float) -> Any:
        """Send one request, telling the SDK client to give up after `limit` seconds; raises its errors."""

    def read(self, response: Any) -> ChatResponse:
        """The text and tool calls of one response."""


class ChatOptions(TypedDict, total=False):
    """The keyword options of every chat policy (see `ChatPolicy`)."""

    mode: Mode
    base_url: str | None
    api_key: str | None
    retry: RetryPolicy | None
    temperature: float | None
    max_tokens: int | None
    show_thoughts: bool


def _import_sdk(policy: str, package: str) -> Any:
    try:
        return importlib.import_module(package)
    except ImportError as exc:  # pragma: no cover - the dev install has both
        raise UsageError(f"{policy} needs the {package} package: pip install 'citeloop[{package}]'") from exc


class ChatPolicy(AsyncResource):
    """A `Policy` that asks a chat model, spoken to in `dialect`, for the next step, with bounded retries.

    `mode` is `react` (a system prompt with the tool docs and the exact text format; the
    reply is ReAct text) or `tools` (search, open and finish as native tools; the reply is
    a structured call). `model`, `base_url` and `api_key` default to `<PROVIDER>_MODEL`,
    `<PROVIDER>_BASE_URL` and `<PROVIDER>_API_KEY`; with a `base_url` and no key a
    placeholder key is sent (local servers ignore it). `show_thoughts=False` strips earlier
    thoughts from the prompt. Raises `UsageError` for an unknown mode, an unknown model, no
    key for the provider's own endpoint, `max_tokens < 1`, or a missing SDK package.

    The API key is held out of every repr, log line and error message. The client is kept
    per event loop; close it with `aclose()` (or `async with`, the `AsyncResource` shell).
    """

    def __init__(
        self,
        dialect: Dialect,
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
        kind = type(self).__name__
        if mode not in ("react", "tools"):
            raise UsageError(f"unknown {kind} mode {mode!r} (use 'react' or 'tools')")
        self._dialect = dialect
        self._endpoint = Endpoint(
            _import_sdk(kind, dialect.provider),
            dialect.client_class,
            env_prefix=dialect.provider.upper(),
            model=model,
            base_url=base_url,
            api_key=api_key,
            retry=retry or RetryPolicy(),
            retry_statuses=dialect.retry_statuses,
        )
        max_tokens = dialect.default_max_tokens if max_tokens is None else max_tokens
        if max_tokens is not None and max_tokens < 1:
            raise UsageError("max_tokens must be >= 1 (a reply needs a positive bound)")
        self._settings = ChatSettings(self._endpoint.model, mode, temperature, max_tokens, show_thoughts)

    @property
    def name(self) -> str:
        suffix = "-tools" if self.mode == "tools" else ""
        return f"{self._dialect.provider}{suffix}:{self.model}"

    @property
    def model(self) -> str:
        return self._settings.model

    @property
    def mode(self) -> Mode:
        return self._settings.mode

    def __repr__(self) -> str:
        endpoint = self._endpoint.shown_url()
        return f"{type(self).__name__}(model={self.model!r}, mode={self.mode!r}, base_url={endpoint!r})"

    async def aclose(self) -> None:
        """Close this event loop's HTTP client, if one was opened."""
        await self._endpoint.aclose()

    async def next_step(self, view: RunView) -> PolicyReply:
        """Ask the model for one step; raises `PolicyUnavailableError` past the retry bound."""
        request = self._dialect.request(view, self._settings)
        client = self._endpoint.client()
        latency_ms = 0.0

        async def attempt(limit: float) -> Any:
            nonlocal latency_ms
            started = time.perf_counter()
            response = await self._dialect.send(client, request, limit)
            latency_ms = (time.perf_counter() - started) * 1000
            return response

        response = await call_with_retry(
            attempt, self._endpoint.classify, self._endpoint.retry, what=f"model {self.model!r}"
        )
        return self._reply(self._dialect.read(response), latency_ms)

    def _reply(self, response: ChatResponse, latency_ms: float) -> PolicyReply:
        common: dict[str, Any] = {
            "model": response.model or self.model,
            "usage": response.usage,
            "latency_ms": round(latency_ms, 3),
        }
        calls = response.calls
        if self.mode == "react" or not calls:
            # A react reply, or a tools-mode model that answered in prose: the parser judges the text.
            return PolicyReply(text=response.text, **common)
        if len(calls) == 1:
            structured: dict[str, JsonValue] = {**calls[0], "thought": response.text}
        else:
            # Several calls in one reply: all are kept so the parser rejects them (multiple_actions).
            structured = {"calls": cast(list[JsonValue], calls), "thought": response.text}
        return PolicyReply(structured=structured, **common)


def mode_from_spec(spec: str, provider: str) -> tuple[str | None, Mode]:
    """The model and mode of a command-line spec: `PROVIDER:MODEL` (react) or `PROVIDER-tools:MODEL`.

    An empty MODEL is None (the environment's); everything after the first colon is the
    model name (Ollama names contain colons). Raises `UsageError` for another prefix.
    """
    prefix, _, model = spec.partition(":")
    modes: dict[str, Mode] = {provider: "react", f"{provider}-tools": "tools"}
    if prefix not in modes:
        raise UsageError(f"unknown model policy {spec!r}: use {provider}:MODEL or {provider}-tools:MODEL")
    return model or None, modes[prefix]
