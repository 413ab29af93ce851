"""A policy's reply as the log can hold it."""

from __future__ import annotations

import re
from typing import Any

from citeloop.events import PolicyReply
from pydantic_core import PydanticSerializationError

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_scrub(key): _scrub(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    return value


def recordable(reply: PolicyReply) -> PolicyReply:
    """The reply as the log can hold it: lone surrogates (not encodable as UTF-8) become U+FFFD.

    Such text cannot be stored in any store; replacing the broken code points keeps the
    step on the record (and lets the parser judge the rest) instead of failing the run.
    """
    try:
        reply.__pydantic_serializer__.to_json(reply)
    except PydanticSerializationError:
        return reply.model_copy(update={"text": _scrub(reply.text), "structured": _scrub(reply.structured)})
    return reply
