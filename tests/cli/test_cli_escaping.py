"""Hostile text in the log reaches the terminal as visible escapes, never as control sequences.

One real run (scripted policy, the gate, a SQLite store) carries clear-screen, a window
title, an OSC 8 hyperlink, an 8-bit CSI, a bidi override and rich markup in its question,
thoughts, a search hit's URL, a page title, the evidence and the answer. The commands that
print it must show those characters escaped and the markup as typed; `--json` must stay the
exact value.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from citeloop.events import open_store
from citeloop.policies import ScriptedAnswer, ScriptedPolicy
from citeloop.runtime import Runtime
from citeloop.tools import Corpus
from helpers.cli import run_citeloop

CLEAR = "\x1b[2J"
TITLE = "\x1b]0;title\x07"
LINK = "\x1b]8;;http://evil\x07"
CSI8 = "\x9b31m"
BIDI = "\u202e"
MARKUP = "[red]x[/red]"
EVIL = CLEAR + TITLE + LINK + CSI8 + BIDI + MARKUP
RAW = ("\x1b", "\x07", "\x9b", "\u202e")
VISIBLE = ("\\x1b[2J", "\\x1b]0;title\\x07", "\\x1b]8;;http://evil\\x07", "\\x9b31m", "\\u202e", MARKUP)

QUESTION = f"Who founded Acme {EVIL} Robotics?"
EVIDENCE = f"Acme Robotics was founded by Ada Ortiz {EVIL} in 2014."
ANSWER = f"Acme Robotics was founded by Ada Ortiz {EVIL}."
PAGES = [
    # Opened: its title reaches the thought ("Read <title>.") and the timeline.
    ("https://wiki.example/acme", f"Acme {EVIL} history", f"Who founded Acme Robotics? {EVIDENCE} More."),
    # Only ever a search hit: the parser refuses to open a URL holding controls.
    (f"https://evil.example/{LINK}robotics", f"Robotics {EVIL}", "Robotics in general."),
]


@dataclass
class Printed:
    code: int
    out: str
    err: str


@dataclass
class Hostile:
    cwd: Path
    env: dict[str, str]
    run_id: str
    store: str

    def __call__(self, *args: str) -> Printed:
        done = run_citeloop(*args, cwd=self.cwd, env=self.env)
        return Printed(done.returncode, done.stdout, done.stderr)


def clean_env(cache: Path) -> dict[str, str]:
    """No citeloop or colour settings from the caller: a pipe gets no styling, so any ESC came from data."""
    drop = ("CITELOOP_", "OPENAI_", "FORCE_COLOR", "TTY_", "CLICOLOR_FORCE")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(CITELOOP_CACHE_DIR=str(cache), COLUMNS="200")
    return env


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    cwd = tmp_path_factory.mktemp("hostile")
    store = "sqlite:///hostile.db"

    async def record() -> str:
        policy = ScriptedPolicy({QUESTION: ScriptedAnswer(ANSWER, EVIDENCE)})
        async with (
            open_store(f"sqlite:///{cwd / 'hostile.db'}") as opened,
            Runtime(store=opened, tools=Corpus.from_pages(PAGES).tools(), policy=policy) as runtime,
        ):
            outcome = await runtime.run(QUESTION)
        assert outcome.status == "answered", outcome
        return outcome.run_id

    run_id = anyio.run(record)
    return Hostile(cwd, clean_env(tmp_path_factory.mktemp("cache")), run_id, store)


def assert_escaped(printed: Printed) -> None:
    assert printed.code == 0, printed.err
    leaked = [char for char in RAW if char in printed.out]
    assert not leaked, f"raw control characters {leaked!r} in:\n{printed.out!r}"
    for visible in VISIBLE:
        assert visible in printed.out, f"{visible!r} missing from:\n{printed.out}"


def test_show_prints_the_hostile_run_escaped_with_its_markup_literal(hostile: Hostile) -> None:
    shown = hostile("show", hostile.run_id, "--store", hostile.store)
    assert_escaped(shown)
    # Each field that carried the payload: question, thought (page title), a hit's URL, the answer.
    assert "question: Who founded Acme \\x1b[2J" in shown.out
    assert "Read Acme \\x1b[2J" in shown.out
    assert "https://evil.example/\\x1b]8;;http://evil\\x07robotics" in shown.out
    assert "Answer: Acme Robotics was founded by Ada Ortiz \\x1b[2J" in shown.out


def test_replay_prints_the_answer_and_evidence_escaped(hostile: Hostile) -> None:
    replayed = hostile("replay", hostile.run_id, "--store", hostile.store)
    assert_escaped(replayed)
    assert "Answer: Acme Robotics was founded by Ada Ortiz \\x1b[2J" in replayed.out


def test_runs_prints_the_question_escaped(hostile: Hostile) -> None:
    listed = hostile("runs", "--store", hostile.store)
    # The table cuts a long question to its column, so only the escapes before the cut show.
    assert listed.code == 0, listed.err
    assert not [char for char in RAW if char in listed.out], listed.out
    assert "Who founded Acme \\x1b[2J\\x1b]0;title\\x07" in listed.out
    assert hostile.run_id in listed.out


def test_ask_prints_hostile_evidence_from_a_corpus_escaped(hostile: Hostile) -> None:
    corpus = hostile.cwd / "hostile.jsonl"
    corpus.write_text("".join(json.dumps({"url": u, "title": t, "body": b}) + "\n" for u, t, b in PAGES))
    asked = hostile("ask", "Who founded Acme Robotics?", "--corpus", str(corpus), "--store", "memory://")
    assert_escaped(asked)
    assert "Ada Ortiz" in asked.out


def test_json_output_is_the_exact_value_with_no_raw_control_characters(hostile: Hostile) -> None:
    documents = []
    for args in (("show", hostile.run_id), ("replay", hostile.run_id), ("runs",)):
        printed = hostile(*args, "--store", hostile.store, "--json")
        assert printed.code == 0, printed.err
        assert not [char for char in RAW if char in printed.out], printed.out
        documents.append(json.loads(printed.out))
    shown, replayed, listed = documents
    assert shown["question"] == replayed["question"] == listed[0]["question"] == QUESTION
    assert shown["outcome"] == replayed["answer"] == ANSWER


def test_tail_prints_exact_json_lines_with_no_raw_control_characters(hostile: Hostile) -> None:
    tailed = hostile("tail", hostile.run_id, "--from-start", "--store", hostile.store)
    assert tailed.code == 0, tailed.err
    assert not [char for char in RAW if char in tailed.out], tailed.out
    records = [json.loads(line) for line in tailed.out.splitlines()]
    assert records[0]["question"] == QUESTION
    assert records[-1]["answer"] == ANSWER


def test_an_error_quoting_a_hostile_run_id_is_one_escaped_line(hostile: Hostile) -> None:
    failed = hostile("export", f"nope{EVIL}", "--store", hostile.store)
    assert failed.code == 1
    assert failed.err.startswith("citeloop: error: ") and failed.err.count("\n") == 1, failed.err
    assert not [char for char in RAW if char in failed.err], failed.err
