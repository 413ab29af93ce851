"""Strict decoding of a `finish` payload: exactly one JSON object, storable as-is.

The parser only decides *is this one JSON object*; whether it has the right keys and
types is the grounding gate's verdict (`keys`, `types`), recorded as `FinishRejected`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Final

from pydantic import JsonValue, TypeAdapter, ValidationError


class FinishJSONError(ValueError):
    """Raised when a finish Action Input is not exactly one storable JSON object."""


_MAX_DEPTH: Final = 64


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    # A duplicated key would let a model say two things at once
    # (`"cannot_answer": true, ..., "cannot_answer": false`): json keeps the last silently.
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise FinishJSONError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise FinishJSONError(f"number {text[:20]!r} is out of range")
    return value


def _constant(name: str) -> object:
    raise FinishJSONError(f"{name} is not JSON")


_DECODER: Final = json.JSONDecoder(object_pairs_hook=_pairs, parse_float=_float, parse_constant=_constant)
_JSON_OBJECT: Final[TypeAdapter[dict[str, JsonValue]]] = TypeAdapter(dict[str, JsonValue])


def _check_storable(value: object, depth: int = 0) -> None:
    """Reject what the event log could not serialize: lone surrogates, absurd nesting."""
    if depth > _MAX_DEPTH:
        raise FinishJSONError(f"nested deeper than {_MAX_DEPTH} levels")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise FinishJSONError("a string holds a lone surrogate (not valid UTF-8)") from None
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_storable(key, depth + 1)
            _check_storable(item, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_storable(item, depth + 1)
    elif isinstance(value, float) and not math.isfinite(value):
        raise FinishJSONError("a number is not finite")


def decode_finish(text: str) -> dict[str, JsonValue]:
    """The one JSON object in `text` (surrounding white space allowed, nothing else).

    Raises FinishJSONError for anything else: prose before or after, a code fence, two
    objects, an array, duplicate keys, NaN/Infinity, a lone surrogate, nesting over 64.
    """
    body = text.strip()
    if not body.startswith("{"):
        raise FinishJSONError("expected one JSON object starting with '{'")
    try:
        value, end = _DECODER.raw_decode(body)
    except FinishJSONError:
        raise
    except (ValueError, RecursionError) as error:
        raise FinishJSONError(f"not valid JSON: {str(error)[:120]}") from None
    if body[end:].strip():
        raise FinishJSONError("text after the JSON object")
    return as_payload(value)


def as_payload(value: object) -> dict[str, JsonValue]:
    """Validate an already-decoded finish object (native tool calls) the same way."""
    if not isinstance(value, Mapping):
        raise FinishJSONError("expected a JSON object")
    _check_storable(value)
    try:
        return _JSON_OBJECT.validate_python(dict(value))
    except ValidationError:
        raise FinishJSONError("the object holds values that are not JSON") from None
