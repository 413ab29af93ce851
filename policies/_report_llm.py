"""Chat-model report writers and reviewers, spoken to in the OpenAI or Anthropic dialect (docs/reports.md).

They reuse the chat policies' machinery: the endpoint (model, key, one client per event
loop; policies/_endpoint.py), the bounded retries (policies/_retry.py), and each dialect's
`send` and `read` (policies/_openai.py, policies/_anthropic.py). Only the request differs
from a research step's: the instructions of policies/_report_prompts.py and one user
message with the fenced sources. The reply is recorded raw, text with model, usage and
latency, so that a replay never calls the model again.
"""

from __future__ import annotations

import time
from typing import Any, Literal, TypeAlias, TypedDict, Unpack

from citeloop.events import AsyncResource, PolicyReply, UsageError

from ._anthropic import AnthropicDialect
from ._chat import Dialect, _import_sdk
from ._endpoint import Endpoint
from ._openai import OpenAIDialect
from ._report_prompts import REVIEWER_INSTRUCTIONS, WRITER_INSTRUCTIONS, reviewer_message, writer_message
from ._report_reviewer import DeterministicReviewer
from ._report_view import ReportView, Reviewer, Writer
from ._report_writer import DeterministicWriter
from ._retry import RetryPolicy, call_with_retry

Provider: TypeAlias = Literal["openai", "anthropic"]
# A report is longer than a research step: the bound sent when none is given, to either API.
DEFAULT_REPORT_MAX_TOKENS = 4096


class ReportModelOptions(TypedDict, total=False):
    """The keyword options of every chat writer and reviewer (see `ChatReportModel`)."""

    base_url: str | None
    api_key: str | None
    retry: RetryPolicy | None
    temperature: float | None
    max_tokens: int | None


class ChatReportModel(AsyncResource):
    """A chat model asked one question at a time: instructions plus one user message, a text reply.

    `model`, `base_url` and `api_key` default to `<PROVIDER>_MODEL`, `_BASE_URL` and
    `_API_KEY`, as for the research policies; the key is held out of every repr and error.
    Raises `UsageError` for no model, no key for the provider's own endpoint, or
    `max_tokens < 1`.
    """

    def __init__(
        self,
        dialect: Dialect,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        retry: RetryPolicy | None = None,
        temperature: float | None = None,
        max_tokens: int | None = DEFAULT_REPORT_MAX_TOKENS,
    ) -> None:
        if max_tokens is not None and max_tokens < 1:
            raise UsageError("max_tokens must be >= 1 (a reply needs a positive bound)")
        self._dialect = dialect
        self._endpoint = Endpoint(
            _import_sdk(type(self).__name__, dialect.provider),
            dialect.client_class,
            env_prefix=dialect.provider.upper(),
            model=model,
            base_url=base_url,
            api_key=api_key,
            retry=retry or RetryPolicy(),
            retry_statuses=dialect.retry_statuses,
        )
        self._temperature = temperature
        self._max_tokens = max_tokens

    @property
    def name(self) -> str:
        return f"{self._dialect.provider}:{self.model}"

    @property
    def model(self) -> str:
        return self._endpoint.model

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self._endpoint.shown_url()!r})"

    async def aclose(self) -> None:
        """Close this event loop's HTTP client, if one was opened."""
        await self._endpoint.aclose()

    def request(self, instructions: str, message: str) -> dict[str, Any]:
        """The request's keyword arguments in this dialect: the system text apart for Anthropic."""
        request: dict[str, Any] = {"model": self.model}
        if self._dialect.provider == "anthropic":
            # The Messages API requires a bound; the system prompt travels outside the messages.
            request["max_tokens"] = self._max_tokens or AnthropicDialect.default_max_tokens
            request["system"] = instructions
            request["messages"] = [{"role": "user", "content": [{"type": "text", "text": message}]}]
        else:
            request["messages"] = [
                {"role": "system", "content": instructions},
                {"role": "user", "content": message},
            ]
            if self._max_tokens is not None:
                request["max_tokens"] = self._max_tokens
        if self._temperature is not None:
            request["temperature"] = self._temperature
        return request

    async def ask(self, instructions: str, message: str) -> PolicyReply:
        """One request; raises `PolicyUnavailableError` past the retry bound."""
        request = self.request(instructions, message)
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
        read = self._dialect.read(response)
        return PolicyReply(
            text=read.text, model=read.model or self.model, usage=read.usage, latency_ms=round(latency_ms, 3)
        )


class ChatWriter(ChatReportModel):
    """A `Writer`: the model drafts the report from the fenced sources (WRITER_INSTRUCTIONS)."""

    async def write(self, view: ReportView) -> PolicyReply:
        return await self.ask(WRITER_INSTRUCTIONS, writer_message(view))


class ChatReviewer(ChatReportModel):
    """A `Reviewer`: the model answers `ACCEPT` or `REVISE: notes` on the last draft."""

    async def review(self, view: ReportView) -> PolicyReply:
        return await self.ask(REVIEWER_INSTRUCTIONS, reviewer_message(view))


class OpenAIWriter(ChatWriter):
    """A report writer behind any OpenAI-compatible Chat Completions endpoint (`OPENAI_*`)."""

    def __init__(self, model: str | None = None, **options: Unpack[ReportModelOptions]) -> None:
        super().__init__(OpenAIDialect(), model, **options)


class OpenAIReviewer(ChatReviewer):
    """A report reviewer behind any OpenAI-compatible Chat Completions endpoint (`OPENAI_*`)."""

    def __init__(self, model: str | None = None, **options: Unpack[ReportModelOptions]) -> None:
        super().__init__(OpenAIDialect(), model, **options)


class AnthropicWriter(ChatWriter):
    """A report writer behind the Anthropic Messages API (`ANTHROPIC_*`)."""

    def __init__(self, model: str | None = None, **options: Unpack[ReportModelOptions]) -> None:
        super().__init__(AnthropicDialect(), model, **options)


class AnthropicReviewer(ChatReviewer):
    """A report reviewer behind the Anthropic Messages API (`ANTHROPIC_*`)."""

    def __init__(self, model: str | None = None, **options: Unpack[ReportModelOptions]) -> None:
        super().__init__(AnthropicDialect(), model, **options)


def _split(spec: str, role: str) -> tuple[Provider | None, str | None]:
    """`(provider, model)` of a spec; `(None, None)` for the deterministic one. Raises `UsageError`."""
    if spec.strip() in ("", "deterministic", f"deterministic-{role}"):
        return None, None
    prefix, colon, model = spec.partition(":")
    if not colon or prefix not in ("openai", "anthropic"):
        raise UsageError(
            f"unknown report {role} {spec!r}: use deterministic, openai:MODEL or anthropic:MODEL"
        )
    provider: Provider = "openai" if prefix == "openai" else "anthropic"
    return provider, model or None


def writer_from_spec(spec: str, base_url: str | None = None) -> Writer:
    """A writer from a command-line spec: `deterministic` (or empty), `openai:MODEL`, `anthropic:MODEL`.

    An empty MODEL is the provider's `<PROVIDER>_MODEL`; everything after the first colon is
    the model name. Raises `UsageError` for another spec.
    """
    provider, model = _split(spec, "writer")
    if provider is None:
        return DeterministicWriter()
    if provider == "openai":
        return OpenAIWriter(model, base_url=base_url)
    return AnthropicWriter(model, base_url=base_url)


def reviewer_from_spec(spec: str, base_url: str | None = None) -> Reviewer:
    """A reviewer from a command-line spec, as `writer_from_spec`."""
    provider, model = _split(spec, "reviewer")
    if provider is None:
        return DeterministicReviewer()
    if provider == "openai":
        return OpenAIReviewer(model, base_url=base_url)
    return AnthropicReviewer(model, base_url=base_url)
