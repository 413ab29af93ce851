"""Logs go to stderr, redacted; with `--json`, stdout is exactly one JSON document.

The command configures structlog (and the standard library's logging) at startup; the
library never does. Exercised with the library's own warnings: a JSONL store with a torn
tail (`jsonl_torn_tail_dropped`) and a model server that keeps failing (`policy_retry`,
`policy_failed`).
"""

from __future__ import annotations

import io
import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog
from citeloop.runtime.cli._logging import configure_logging
from helpers.cli import run_citeloop
from helpers.fake_openai import Status, serve

FOUNDED = "Who founded Acme Robotics?"
KEY = "sk-logs-5e4d3c2b1a09-SECRET"


def clean_env(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
    env.update(CITELOOP_CACHE_DIR=str(cache), **extra)
    return env


def log_lines(stderr: str) -> list[dict[str, Any]]:
    """stderr as JSON log lines (the format when stderr is not a terminal); any other line fails."""
    return [json.loads(line) for line in stderr.splitlines() if line.strip()]


def test_json_stdout_is_one_document_on_a_jsonl_store_with_a_torn_tail(tmp_path: Path) -> None:
    env = clean_env(tmp_path / "cache")
    first = run_citeloop("ask", FOUNDED, "--store", "jsonl:///runs.jsonl", "--json", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    torn = (tmp_path / "runs.jsonl").read_bytes() + b'{"crc": 12, "events": [{"v": 1, "run_'
    (tmp_path / "listed.jsonl").write_bytes(torn)
    (tmp_path / "asked.jsonl").write_bytes(torn)

    listed = run_citeloop("runs", "--json", "--store", "jsonl:///listed.jsonl", cwd=tmp_path, env=env)
    assert listed.returncode == 0, listed.stderr
    assert [row["status"] for row in json.loads(listed.stdout)] == ["answered"]
    assert "torn" not in listed.stdout
    # A reading command leaves the tail in place and says so, on stderr.
    assert any(line["event"].startswith("jsonl_torn_tail") for line in log_lines(listed.stderr))

    asked = run_citeloop("ask", FOUNDED, "--store", "jsonl:///asked.jsonl", "--json", cwd=tmp_path, env=env)
    assert asked.returncode == 0, asked.stderr
    assert json.loads(asked.stdout)["status"] == "answered"
    (dropped,) = [line for line in log_lines(asked.stderr) if line["event"] == "jsonl_torn_tail_dropped"]
    assert dropped["level"] == "warning" and dropped["logger"] == "citeloop.events"


@pytest.mark.slow
def test_ask_json_with_a_failing_model_is_one_document_and_the_retries_are_logged_on_stderr(
    tmp_path: Path,
) -> None:
    with serve() as fake:
        fake.push(*[Status(500, f"upstream rejected key {KEY}")] * 4)
        asked = run_citeloop(
            "ask",
            FOUNDED,
            "--policy",
            "openai:test-model",
            "--base-url",
            fake.base_url,
            "--store",
            "memory://",
            "--json",
            cwd=tmp_path,
            env=clean_env(tmp_path / "cache", OPENAI_API_KEY=KEY),
        )
    assert asked.returncode == 4, asked.stderr  # failed: the model was unavailable, not a grounded refusal
    outcome = json.loads(asked.stdout)
    assert (outcome["status"], outcome["reason"]) == ("failed", "policy_error")
    events = [line["event"] for line in log_lines(asked.stderr)]
    assert events.count("policy_retry") == 3 and events[-1] == "policy_failed", events
    assert KEY not in asked.stdout and KEY not in asked.stderr


# -- configure_logging in process ---------------------------------------------------------


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level, logging.getLogger("citeloop").level, structlog.get_config())
    yield
    handlers, level, citeloop_level, config = saved
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.getLogger("citeloop").setLevel(citeloop_level)
    structlog.configure(**config)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.usefixtures("restore_logging")
def test_json_lines_are_redacted_and_carry_level_and_logger() -> None:
    stream = io.StringIO()
    configure_logging("json", "info", stream=stream)
    structlog.get_logger("citeloop.worker").warning(
        "run_failed", error=f"refused key {KEY}", url="postgresql://app:hunter2@db/citeloop"
    )
    structlog.get_logger("citeloop.worker").debug("too_quiet")
    logging.getLogger("httpx").info("HTTP Request: POST ...")  # another library's chatter, below WARNING
    logging.getLogger("somelib").warning("token=abcdef123456 expired")
    first, second = log_lines(stream.getvalue())
    assert (first["event"], first["level"], first["logger"]) == ("run_failed", "warning", "citeloop.worker")
    assert KEY not in first["error"] and "hunter2" not in first["url"]
    assert (second["logger"], second["level"]) == ("somelib", "warning")
    assert "abcdef123456" not in second["event"]


@pytest.mark.usefixtures("restore_logging")
def test_auto_is_the_console_on_a_terminal_and_escapes_controls() -> None:
    stream = Terminal()
    configure_logging("auto", "info", stream=stream)
    structlog.get_logger("citeloop.events").warning("jsonl_torn_tail_dropped", path="/tmp/\x1b]0;x\x07.jsonl")
    line = stream.getvalue()
    assert "jsonl_torn_tail_dropped" in line and "\\x1b]0;x\\x07" in line
    assert "\x07" not in line and not line.lstrip().startswith("{")
