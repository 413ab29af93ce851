"""The one redactor: secrets out of whatever is printed, logged or raised. Logs keep what was recorded.

It masks, in text: bearer tokens; provider-style API keys (`sk-...`, `xoxb-...`,
`ghp_...`); the value of any `name=value`, `name: value`, query parameter or JSON field
whose name ends in a secret's name (`api_key`, `client_secret`, `refresh_token`,
`X-Amz-Signature`, `password`, ...); URL passwords (`scheme://user:password@host`); and
any secret the caller names (an API key it holds). In JSON-like values it also masks a
string stored under a secret's name (`{"api_key": "..."}`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from structlog.typing import EventDict, WrappedLogger

REDACTED: Final = "[REDACTED]"

# A name that ends in a secret's name: api_key, client_secret, refresh_token, X-Amz-Signature, sig ...
_SECRET_NAME: Final = (
    r"(?:[A-Za-z0-9]+[_-])*"
    r"(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|key|password|passwd|secret|signature|sig)"
)
_SECRET_KEY: Final = re.compile(_SECRET_NAME, re.IGNORECASE)

_PATTERNS: Final = (
    # Bearer tokens in headers or text.
    re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"),
    # key=value pairs, query parameters and JSON fields named like a secret.
    re.compile(r"(?i)(?<![A-Za-z0-9])(" + _SECRET_NAME + r"[\"']?\s*[=:]\s*[\"']?)[^&\s\"'#,}]+"),
    # Provider-style API keys (sk-..., sk-proj-..., xoxb-..., ghp_...).
    re.compile(r"\b()(?:sk-[A-Za-z0-9_-]{12,}|xox[abpr]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,})"),
    # Passwords in URLs: scheme://user:password@host (the user may be empty).
    re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+(?=@)"),
)

# A named secret shorter than this would mask ordinary words.
_MIN_SECRET: Final = 4


def redact_text(text: str, *, secrets: Iterable[str] = (), mask: str = REDACTED) -> str:
    """`text` with every secret-looking span, and every one of `secrets`, replaced by `mask`."""
    for secret in secrets:
        if len(secret) >= _MIN_SECRET:
            text = text.replace(secret, mask)
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + mask, text)
    return text


def redact(value: Any, *, secrets: Iterable[str] = (), mask: str = REDACTED) -> Any:
    """A JSON-like value with every string redacted, and every string under a secret's name masked."""
    secrets = tuple(secrets)
    if isinstance(value, str):
        return redact_text(value, secrets=secrets, mask=mask)
    if isinstance(value, dict):
        return {
            key: mask
            if isinstance(item, str) and isinstance(key, str) and _SECRET_KEY.fullmatch(key)
            else redact(item, secrets=secrets, mask=mask)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact(item, secrets=secrets, mask=mask) for item in value]
    if isinstance(value, tuple):
        return tuple(redact(item, secrets=secrets, mask=mask) for item in value)
    return value


def redact_event_dict(logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
    """A structlog processor: the event dict with its strings redacted as `redact` does.

    Add it before the renderer: `structlog.configure(processors=[..., redact_event_dict, renderer])`.
    """
    redacted: EventDict = redact(dict(event_dict))
    return redacted


def redact_url(url: str) -> str:
    """Only the address of `url` (scheme, host, port, path): user, password, query and fragment dropped.

    For a repr or a log line naming an endpoint, where a token may hide in any other part.
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
