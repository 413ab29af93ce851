"""Feedback while waiting (issue 15): a spinner, progress bars with rate and ETA, on a terminal only.

On a pseudo-terminal (`run_in_pty`) the spinner names what the run awaits and the bars
count, rate and time what is left; piped, or with `--json`, the output is the result alone.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.cli import run_citeloop, run_in_pty

FOUNDED = "Who founded Acme Robotics?"
DATA = Path(__file__).parents[1] / "data"
# Drawn by rich's spinners and bars; none may reach a pipe or a --json document.
SPINNER_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏━"


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def pty_run(args: list[str], tmp_path: Path, **options: Any) -> tuple[int, str]:
    """`run_in_pty`, with the terminal's colour and cursor codes taken out of the output."""
    code, output = run_in_pty(args, tmp_path, _env(tmp_path), **options)
    return code, _ANSI.sub("", output)


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "CITELOOP_STORE": f"sqlite:///{tmp_path}/runs.db", "COLUMNS": "160"}


def _folder(tmp_path: Path, files: int) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir(parents=True)
    for k in range(files):
        (folder / f"note{k}.md").write_text(f"# Note {k}\n\nCompany {k} was founded in {1900 + k}.\n")
    return folder


def _no_feedback(text: str) -> None:
    assert "\x1b" not in text, text  # not even a cursor hidden and shown again
    assert not [char for char in SPINNER_FRAMES if char in text], text
    assert "waiting for" not in text and "eta" not in text, text


def _one_json_document(output: str) -> object:
    """The terminal's whole output as one JSON document: nothing else was drawn."""
    return json.loads(output.replace("\r\n", "\n"))


@pytest.mark.slow
def test_a_spinner_names_the_awaited_model_on_a_terminal(tmp_path: Path) -> None:
    from helpers.fake_openai import Hang, serve

    with serve() as fake:
        fake.push(Hang(30))
        asking = ["ask", FOUNDED, "--policy", "openai:m", "--base-url", fake.base_url]
        code, output = pty_run(
            asking, tmp_path, interrupt_when=lambda seen: "waiting for the model" in seen
        )
    assert code == 130, output
    assert "step 0 · waiting for the model (openai:m)" in output
    assert any(frame in output for frame in SPINNER_FRAMES)
    assert "interrupted: run" in output  # the spinner is gone before the one line is printed


@pytest.mark.slow
def test_log_lines_print_above_the_spinner_not_through_it(tmp_path: Path) -> None:
    from helpers.fake_openai import Status, serve

    with serve() as fake:
        fake.push(Status(500), Status(500))  # two retries logged, then the script runs out: failed
        asking = ["ask", FOUNDED, "--policy", "openai:m", "--base-url", fake.base_url]
        code, output = run_in_pty(asking, tmp_path, _env(tmp_path))
    assert code == 4, output
    lines = [_ANSI.sub("", line) for line in output.replace("\r\n", "\n").split("\n")]
    retries = [line for line in lines if "policy_retry" in line]
    assert len(retries) >= 2, output
    for line in retries:  # each log line begins at the line's start: the spinner was cleared first
        drawn = line.split("\r")[-1]
        assert drawn.lstrip().startswith("20") and "waiting for" not in drawn, line


def test_a_spinner_names_each_tool_call_then_clears_for_the_answer(tmp_path: Path) -> None:
    code, output = pty_run(["ask", FOUNDED], tmp_path)
    assert code == 0, output
    assert "Answer: Ada Ortiz" in output
    assert "waiting for" in output  # the model and the tools, as the log says (fast: at least one line)


def test_piped_and_json_output_carry_no_feedback(tmp_path: Path) -> None:
    piped = run_citeloop("ask", FOUNDED, cwd=tmp_path, env=_env(tmp_path))
    assert piped.returncode == 0, piped.stderr
    _no_feedback(piped.stdout + piped.stderr)
    code, output = run_in_pty(["ask", FOUNDED, "--json"], tmp_path, _env(tmp_path))
    assert code == 0, output
    _no_feedback(output)
    assert _one_json_document(output)["answer"] == "Ada Ortiz"  # type: ignore[index]


def test_index_on_a_terminal_shows_files_rate_and_eta(tmp_path: Path) -> None:
    folder = _folder(tmp_path, 30)
    code, output = pty_run(["index", str(folder)], tmp_path)
    assert code == 0, output
    assert f"indexing {folder}" in output
    assert "30/30 files" in output and "files/s" in output and "eta" in output
    assert "30 pages from" in output
    # Piped, and with --json on a terminal: the result alone.
    piped = run_citeloop("index", str(_folder(tmp_path / "piped", 3)), cwd=tmp_path, env=_env(tmp_path))
    assert piped.returncode == 0, piped.stderr
    _no_feedback(piped.stdout + piped.stderr)
    (folder / "note0.md").write_text("# Note 0\n\nChanged, so the index is built again.\n")
    code, output = run_in_pty(["index", str(folder), "--json"], tmp_path, _env(tmp_path))
    assert code == 0, output
    _no_feedback(output)
    assert _one_json_document(output)["rebuilt"] is True  # type: ignore[index]


def test_index_of_a_jsonl_file_counts_bytes(tmp_path: Path) -> None:
    records = ({"url": f"https://x.example/{k}", "title": "t", "body": f"Page {k}."} for k in range(5))
    lines = [json.dumps(record) for record in records]
    source = tmp_path / "pages.jsonl"
    source.write_text("\n".join(lines) + "\n")
    code, output = pty_run(["index", str(source)], tmp_path)
    assert code == 0, output
    size = source.stat().st_size
    assert f"{size}/{size} bytes" in output and "bytes/s" in output


@pytest.mark.slow
def test_eval_on_a_terminal_shows_questions_rate_and_eta_and_json_does_not(tmp_path: Path) -> None:
    args = ["eval", "hotpotqa", str(DATA / "hotpotqa_slice.jsonl"), "--limit", "2"]
    code, output = pty_run(args, tmp_path)
    assert code == 0, output
    assert "2/2 questions" in output and "questions/s" in output and "eta" in output
    code, output = run_in_pty([*args, "--json"], tmp_path, _env(tmp_path))
    assert code == 0, output
    _no_feedback(output)
    assert _one_json_document(output)["questions"] == 2  # type: ignore[index]


def test_the_spinner_names_what_each_wait_is_for() -> None:
    # On a real terminal a tool call is shorter than one refresh, so the label is checked here.
    from citeloop.runtime import Waiting
    from citeloop.runtime.cli._feedback import RunSpinner

    class Shown:
        def __init__(self) -> None:
            self.texts: list[str] = []

        def update(self, renderable: object) -> None:
            self.texts.append(str(renderable.text))  # type: ignore[attr-defined]

    live = Shown()
    spinner = RunSpinner(live)  # type: ignore[arg-type]
    spinner(Waiting("r", 0, "policy", "openai:m"))
    spinner(Waiting("r", 0, "tool", "openai:m", "search", "Acme Robotics\x1b[2J " + "x" * 80))
    spinner(Waiting("r", 1, "policy", "openai:m"))
    assert live.texts[0] == "step 0 · waiting for the model (openai:m)"
    assert live.texts[1].startswith("step 0 · waiting for tool search 'Acme Robotics")
    assert "\x1b" not in live.texts[1] and live.texts[1].endswith("…'")  # escaped and cut
    assert live.texts[2] == "step 1 · waiting for the model (openai:m)"
