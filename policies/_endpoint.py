"""What the HTTP model policies share: where the model is, its key, and one client per event loop.

Both the `openai` and `anthropic` SDKs are generated from the same template: a client class
taking `api_key`, `base_url`, `max_retries` and `timeout`, and the errors `APIStatusError`
(with `status_code`, `message`, `response`) and `APIConnectionError` (timeouts included).
`Endpoint` is written against that common shape, so each policy keeps only its protocol.
"""

from __future__ import annotations

import os
from typing import Any, Final

from anyio.lowlevel import RunVar
from citeloop.events import UsageError, redact_text, redact_url
from pydantic import SecretStr

from ._retry import RetryPolicy, Verdict

# Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the clients insist on one.
_NO_KEY: Final = "no-key"


def retry_after(value: str | None) -> float | None:
    """Seconds from a `Retry-After` header; None for an HTTP date (our own backoff applies)."""
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


class Endpoint:
    """A model on a server, resolved once from arguments or `<PREFIX>_MODEL/_BASE_URL/_API_KEY`.

    Raises `UsageError` when no model is known, or no key is set for the provider's own
    endpoint (a `base_url` without a key sends a placeholder: local servers ignore it).
    """

    def __init__(
        self,
        sdk: Any,
        client_class: str,
        *,
        env_prefix: str,
        model: str | None,
        base_url: str | None,
        api_key: str | None,
        retry: RetryPolicy,
        retry_statuses: frozenset[int],
    ) -> None:
        model = model or os.environ.get(f"{env_prefix}_MODEL") or ""
        if not model:
            raise UsageError(f"no model given: pass model=... or set {env_prefix}_MODEL")
        base_url = base_url or os.environ.get(f"{env_prefix}_BASE_URL") or None
        key = api_key or os.environ.get(f"{env_prefix}_API_KEY") or ""
        if not key and base_url is None:
            raise UsageError(f"no API key: set {env_prefix}_API_KEY (or pass base_url for a local server)")
        self.model = model
        self.base_url = base_url
        self.retry = retry
        self._sdk = sdk
        self._client_class = client_class
        self._key = SecretStr(key or _NO_KEY)
        self._retry_statuses = retry_statuses
        self._clients: RunVar[Any] = RunVar(f"citeloop.{client_class}.{id(self)}", default=None)

    def shown_url(self) -> str:
        """The endpoint for a repr or a log line: credentials and query string removed."""
        return redact_url(self.base_url) if self.base_url else "default"

    def client(self) -> Any:
        """This event loop's client: its connection pool belongs to the loop that made it."""
        client = self._clients.get()
        if client is None:
            client = getattr(self._sdk, self._client_class)(
                api_key=self._key.get_secret_value(),
                base_url=self.base_url,
                # The policy's RetryPolicy is the one bound; the client must not retry on its own.
                max_retries=0,
                timeout=self.retry.attempt_timeout,
            )
            self._clients.set(client)
        return client

    async def aclose(self) -> None:
        """Close this event loop's client, if one was opened."""
        client = self._clients.get()
        if client is not None:
            self._clients.set(None)
            await client.close()

    def scrub(self, text: str) -> str:
        """Error text fit for a log or an exception: the key and other secrets masked, the length bounded."""
        return redact_text(text, secrets=(self._key.get_secret_value(),), mask="***")[:300]

    def classify(self, exc: Exception) -> Verdict:
        """Whether a failed request is worth retrying (429, 5xx, the provider's own, timeouts)."""
        if isinstance(exc, self._sdk.APIStatusError):
            status = int(exc.status_code)
            description = self.scrub(f"{type(exc).__name__} (HTTP {status}): {exc.message}")
            transient = status in self._retry_statuses or status >= 500
            wait = retry_after(exc.response.headers.get("retry-after"))
            return Verdict(retry=transient, description=description, retry_after=wait)
        if isinstance(exc, self._sdk.APIConnectionError):  # includes APITimeoutError
            return Verdict(retry=True, description=self.scrub(f"{type(exc).__name__}: {exc}"))
        return Verdict(retry=False, description=self.scrub(f"{type(exc).__name__}: {exc}"))
