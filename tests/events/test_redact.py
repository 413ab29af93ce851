"""The one redactor: text, JSON-like values, URLs, named secrets, and as a structlog processor."""

from __future__ import annotations

import structlog
from citeloop.events import REDACTED, redact, redact_event_dict, redact_text, redact_url
from structlog.testing import LogCapture


def test_url_passwords_and_secret_parameters_with_a_chosen_mask() -> None:
    assert redact_text("postgresql://ada:s3cret@db:5432/x?schema=s1", mask="***") == (
        "postgresql://ada:***@db:5432/x?schema=s1"
    )
    assert redact_text("postgresql://:s3cret@db/x") == f"postgresql://:{REDACTED}@db/x"
    # libpq's keyword form, and a password passed as a query parameter.
    assert "s3cret" not in redact_text("host=db user=ada password=s3cret dbname=x")
    assert "s3cret" not in redact_text("postgresql://ada@db/x?password=s3cret&sslmode=require")


def test_named_secrets_are_masked_wherever_they_appear() -> None:
    key = "opaque-key-without-a-known-shape"
    text = f"401: Incorrect API key provided: {key} (see docs)"
    assert redact_text(text, secrets=[key], mask="***") == "401: Incorrect API key provided: *** (see docs)"
    assert redact_text("a b c", secrets=["b"]) == "a b c"  # too short to be told from ordinary text


def test_json_like_values_mask_strings_under_a_secret_name() -> None:
    value = {
        "api_key": "abcdefgh",
        "nested": [{"client_secret": "plain", "count": 3}, ("Bearer abcdefghijkl", 1)],
        "usage": {"prompt_tokens": 12},
        "url": "https://x.example/?X-Amz-Signature=deadbeef&page=2",
    }
    assert redact(value) == {
        "api_key": REDACTED,
        "nested": [{"client_secret": REDACTED, "count": 3}, (f"Bearer {REDACTED}", 1)],
        "usage": {"prompt_tokens": 12},
        "url": f"https://x.example/?X-Amz-Signature={REDACTED}&page=2",
    }


def test_redact_url_keeps_only_the_address() -> None:
    assert redact_url("http://user:pw@127.0.0.1:9/v1?token=t#frag") == "http://127.0.0.1:9/v1"
    assert redact_url("https://api.example/v1") == "https://api.example/v1"


def test_structlog_processor_redacts_what_reaches_the_renderer() -> None:
    capture = LogCapture()
    logger = structlog.wrap_logger(None, processors=[redact_event_dict, capture])
    logger.warning(
        "request failed for sk-proj-ABCDEFGHIJKLMNOPQRST",
        url="https://api.example/v1?api_key=abc123&q=1",
        headers={"Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.payload"},
        refresh_token="zzzzzz",
        attempt=2,
    )
    (entry,) = capture.entries
    printed = repr(entry)
    for secret in ("sk-proj-ABCDEFGHIJKLMNOPQRST", "abc123", "eyJhbGciOiJIUzI1NiJ9", "zzzzzz"):
        assert secret not in printed
    assert entry["attempt"] == 2 and entry["log_level"] == "warning"
    assert entry["url"] == f"https://api.example/v1?api_key={REDACTED}&q=1"
