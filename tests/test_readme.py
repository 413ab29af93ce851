"""The README cannot rot: its Python blocks run, its tables name every code, its commands match CI."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
from citeloop.events import Event
from citeloop.policies import REJECT_CODES
from citeloop.runtime import GATE_CODES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
BLOCKS = [(kind, body) for kind, body in FENCE.findall(README)]
PYTHON = [body for kind, body in BLOCKS if kind == "python"]


def test_readme_opens_with_the_two_commands() -> None:
    first = next(body for kind, body in BLOCKS if kind == "bash")
    assert (
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
        'citeloop ask "Who founded Acme Robotics?"'
    ) in first
    assert "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]' && pytest" in first
    assert README.index(first) < README.index("## ")  # before any section


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[dev]'" in ci or "pip install -e '.[dev]'" in ci
    assert re.search(r"^pytest\b", ci, re.MULTILINE)


def test_readme_tables_name_every_event_gate_code_and_parser_code() -> None:
    members = get_args(get_args(Event)[0])
    types = [member.model_fields["type"].default for member in members]
    assert len(types) >= 9
    for name in types:
        assert f"| `{name}` |" in README, name
    for code in GATE_CODES:
        assert f"| `{code}` |" in README, code
    for code in REJECT_CODES:
        assert f"`{code}`" in README, code


def test_there_are_python_blocks_to_run() -> None:
    assert len(PYTHON) >= 4


def test_readme_python_blocks_run(tmp_path: Path) -> None:
    """Every block, in order, in one fresh working folder (a later block may read an earlier one's store)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
    env["CITELOOP_CACHE_DIR"] = str(tmp_path / "cache")
    for number, code in enumerate(PYTHON, 1):
        script = tmp_path / f"block{number}.py"
        script.write_text(code, encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(script)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0:
            pytest.fail(f"README python block {number} failed:\n{code}\n--- stderr ---\n{done.stderr}")


def test_readme_documents_every_exit_code_and_lifecycle_command() -> None:
    for code in (0, 1, 2, 3, 4, 130):
        assert f"| {code} |" in README, code
    for command in ("citeloop resume RUN", "citeloop cancel RUN", "citeloop where", "citeloop runs --status"):
        assert command in README, command
    assert "postgresql://postgres@127.0.0.1/test" in README  # the database the tests use
    assert "Anthropic-compatible" in README


def test_the_first_command_prints_where_the_run_is_stored() -> None:
    text = next(body for kind, body in BLOCKS if kind == "text")
    assert "stored in sqlite:////" in text and "/citeloop/runs.db" in text
