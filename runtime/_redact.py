"""Scrubbing of secrets from what sinks print. The log itself keeps what tools returned."""

from __future__ import annotations

import re
from typing import Any

REDACTED = "[REDACTED]"

_PATTERNS = (
    # Bearer tokens in headers or text.
    re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"),
    # key=value pairs, query parameters and JSON fields whose name ends in a secret's name:
    # api_key=, client_secret=, refresh_token=, X-Amz-Signature=, "password": "..." ...
    re.compile(
        r"(?i)(?<![A-Za-z0-9])((?:[A-Za-z0-9]+[_-])*"
        r"(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|key|password|passwd|secret|signature|sig)"
        r"[\"']?\s*[=:]\s*[\"']?)[^&\s\"'#,}]+"
    ),
    # Provider-style API keys (sk-..., sk-proj-..., xoxb-..., ghp_...).
    re.compile(r"\b()(?:sk-[A-Za-z0-9_-]{12,}|xox[abpr]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,})"),
    # Passwords in URLs: scheme://user:password@host
    re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s/]+(?=@)"),
)


def redact_text(text: str) -> str:
    """Replace every secret-looking span in `text` with [REDACTED]."""
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def redact(value: Any) -> Any:
    """Redact every string inside a JSON-like value."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {key: redact(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact(item) for item in value]
    return value
