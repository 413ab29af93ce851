"""The event codec: exact round trips, strict validation, frozen models, UTC timestamps, JSON Schema."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import jsonschema
import pytest
from citeloop.events import (
    Event,
    RunStarted,
    decode_event,
    decode_events,
    encode_event,
    event_from_dict,
    json_schema,
)
from citeloop.events.testing import TRICKY_TEXT, make_run_started, make_step
from pydantic import ValidationError

SAMPLE: list[Event] = [make_run_started("r", question=TRICKY_TEXT), make_step("r", 1, TRICKY_TEXT)]


def test_encode_then_decode_is_identity() -> None:
    for event in SAMPLE:
        data = encode_event(event)
        assert decode_event(data) == event
        assert decode_event(data.decode()) == event
        assert event_from_dict(json.loads(data)) == event
        assert encode_event(decode_event(data)) == data  # canonical: re-encoding is byte-identical
    assert decode_events([encode_event(e) for e in SAMPLE]) == SAMPLE
    assert decode_events([]) == []


def test_encoded_events_carry_type_and_schema_version() -> None:
    data = json.loads(encode_event(SAMPLE[0]))
    assert data["type"] == "RunStarted" and data["v"] == 1 and data["seq"] == 0


def test_unknown_fields_are_rejected() -> None:
    data = json.loads(encode_event(SAMPLE[1]))
    data["surprise"] = 1
    with pytest.raises(ValidationError, match="surprise"):
        event_from_dict(data)
    nested = json.loads(encode_event(SAMPLE[1]))
    nested["action"]["extra"] = "x"
    with pytest.raises(ValidationError):
        event_from_dict(nested)


def test_unknown_type_or_version_is_rejected() -> None:
    data = json.loads(encode_event(SAMPLE[0]))
    with pytest.raises(ValidationError):
        event_from_dict({**data, "type": "RunExploded"})
    with pytest.raises(ValidationError):
        event_from_dict({**data, "v": 2})


def test_events_are_frozen() -> None:
    with pytest.raises(ValidationError):
        SAMPLE[0].seq = 5  # type: ignore[misc]


def test_timestamps_must_be_aware() -> None:
    data = json.loads(encode_event(SAMPLE[0]))
    with pytest.raises(ValidationError):
        event_from_dict({**data, "at": "2025-01-01T00:00:00"})
    with pytest.raises(ValidationError):
        RunStarted(**{**SAMPLE[0].model_dump(), "at": datetime(2025, 1, 1)})


def test_an_offset_timestamp_round_trips_to_the_same_instant() -> None:
    lisbon = timezone(timedelta(hours=1))
    event = make_run_started("r").model_copy(update={"at": datetime(2025, 1, 1, 1, tzinfo=lisbon)})
    back = decode_event(encode_event(event))
    assert back.at == datetime(2025, 1, 1, tzinfo=UTC)


def test_json_schema_exports_and_validates_a_sample() -> None:
    schema = json_schema()
    json.dumps(schema)  # plain JSON, for consumers in other languages
    for event in SAMPLE:
        jsonschema.validate(json.loads(encode_event(event)), schema)
    bad = {**json.loads(encode_event(SAMPLE[0])), "type": "Nope"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_json_schema_names_every_event_type() -> None:
    text = json.dumps(json_schema())
    for name in (
        "RunStarted",
        "ActionParsed",
        "ParseRejected",
        "ToolDispatched",
        "ToolObserved",
        "ToolOutcomeUnknown",
        "FinishRejected",
        "Answered",
        "Abstained",
    ):
        assert f'"{name}"' in text, name
