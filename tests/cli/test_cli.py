"""The `citeloop` command, driven in a subprocess from a temporary working folder.

The command is the one installed beside this interpreter (helpers.cli): missing, the
tests skip on a laptop and fail under CI=true.

Each subprocess costs about half a second, so one module-scoped folder holds the runs
that several tests read (ask once, then list, show, replay, export them).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from citeloop.events import RunStarted, encode_event
from helpers.cli import run_citeloop
from helpers.postgres import postgres_url as postgres_url

FOUNDED = "Who founded Acme Robotics?"
FOUNDED_EVIDENCE = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
FOOD = "What is Ada's favorite food?"
JSON_KEYS = {"run_id", "status", "answer", "citations", "evidence", "locators", "reason", "steps"}
LOCATOR_KEYS = {"url", "sha256", "start", "end", "quote"}

@dataclass
class Result:
    code: int
    out: str
    err: str


class Cli:
    """Runs `citeloop` in one working folder with a clean environment."""

    def __init__(self, cwd: Path, cache: Path) -> None:
        self.cwd = cwd
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
        self.env["CITELOOP_CACHE_DIR"] = str(cache)
        self.env["COLUMNS"] = "200"

    def __call__(self, *args: str, env: dict[str, str] | None = None) -> Result:
        done = run_citeloop(*args, cwd=self.cwd, env={**self.env, **(env or {})})
        return Result(done.returncode, done.stdout, done.stderr)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def cli(workdir: Path, tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(workdir, tmp_path_factory.mktemp("cache"))


@dataclass
class Asked:
    answered: Result
    abstained: Result
    answered_json: dict[str, object]


@pytest.fixture(scope="module")
def asked(cli: Cli) -> Iterator[Asked]:
    """Two runs on the defaults (demo corpus, extractive policy, the per-user store) and one with --json."""
    answered = cli("ask", FOUNDED)
    abstained = cli("ask", FOOD)
    as_json = cli("ask", FOUNDED, "--json")
    assert as_json.code == 0, as_json.err
    yield Asked(answered, abstained, json.loads(as_json.out))


def run_ids(cli: Cli, *store: str) -> dict[str, dict[str, object]]:
    listing = cli("runs", "--json", *store)
    assert listing.code == 0, listing.err
    return {row["run_id"]: row for row in json.loads(listing.out)}


def event_count(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("SELECT count(*) FROM events").fetchone()[0])


# -- ask ---------------------------------------------------------------------------------


def test_ask_prints_the_answer_its_citation_and_evidence(asked: Asked, workdir: Path) -> None:
    result = asked.answered
    assert result.code == 0, result.err
    assert "Ada Ortiz" in result.out
    assert "https://wiki.example/acme" in result.out
    assert FOUNDED_EVIDENCE in result.out
    start = asked.answered_json["locators"][0]["start"]  # type: ignore[index]
    end = asked.answered_json["locators"][0]["end"]  # type: ignore[index]
    assert f"[{start}:{end}]" in result.out  # the quote's offsets in the opened body
    assert not (workdir / "citeloop.db").exists()  # the default store is per user, not per folder
    assert "stored in sqlite:///" in result.out


def test_ask_refuses_with_insufficient_grounding_and_exit_2(asked: Asked) -> None:
    result = asked.abstained
    assert result.code == 2, result.err
    assert "INSUFFICIENT GROUNDING" in result.out
    assert "reason: " in result.out
    assert "cannot:" in result.out
    assert "Traceback" not in result.err


def test_ask_json_is_one_object_with_the_spec_keys(asked: Asked) -> None:
    data = asked.answered_json
    assert data.keys() >= JSON_KEYS
    assert data["status"] == "answered"
    assert data["reason"] is None
    assert data["citations"] == ["https://wiki.example/acme"]
    assert isinstance(data["steps"], int) and data["steps"] >= 1
    locators = data["locators"]
    assert isinstance(locators, list) and locators
    for locator in locators:
        assert locator.keys() >= LOCATOR_KEYS
        assert locator["end"] - locator["start"] == len(locator["quote"])
        assert locator["quote"] in str(data["evidence"])


def test_store_env_overrides_the_default_and_the_option_overrides_the_env(cli: Cli) -> None:
    env = {"CITELOOP_STORE": "jsonl:///from-env.jsonl"}
    result = cli("ask", FOOD, "--json", "--policy", "scripted", env=env)
    assert result.code == 2, result.err
    data = json.loads(result.out)
    assert data["status"] == "abstained" and data["answer"].startswith("cannot:")
    assert (cli.cwd / "from-env.jsonl").exists()
    assert data["run_id"] in run_ids(cli, "--store", "jsonl:///from-env.jsonl")
    assert data["run_id"] not in run_ids(cli)  # not in the per-user store


# -- reading runs ------------------------------------------------------------------------


def test_runs_lists_every_run_with_its_status(asked: Asked, cli: Cli) -> None:
    listed = run_ids(cli)
    answered = str(asked.answered_json["run_id"])
    assert listed[answered]["status"] == "answered"
    assert listed[answered]["question"] == FOUNDED
    assert "abstained" in {row["status"] for row in listed.values()}
    table = cli("runs")
    assert table.code == 0
    assert answered in table.out and FOOD in table.out


def test_show_prints_each_steps_thought_action_observation_and_verdict(asked: Asked, cli: Cli) -> None:
    run_id = str(asked.answered_json["run_id"])
    text = cli("show", run_id)
    assert text.code == 0, text.err
    for fragment in ("thought:", "action:", "observation:", "verdict:", "search(", "accepted"):
        assert fragment in text.out
    assert "opened https://wiki.example/acme" in text.out
    timeline = json.loads(cli("show", run_id, "--json").out)
    assert timeline["status"] == "answered"
    actions = [step["action"] for step in timeline["steps"]]
    assert actions[0] == {"kind": "call", "tool": "search", "input": actions[0]["input"]}
    assert actions[-1]["kind"] == "finish" and actions[-1]["payload"]["answer"]
    decision = timeline["steps"][-1]["decision"]
    assert decision["kind"] == "answered"
    # Each support method's verdict on the accepted finish, by name (docs/gate.md).
    assert decision["support"] and {s["verdict"] for s in decision["support"]} == {"supported"}
    verdict = timeline["steps"][-1]["text"]["verdict"]
    assert verdict.startswith("accepted: answered · support answer-in-quote: ")


def test_replay_check_reports_no_divergence_and_dispatches_nothing(cli: Cli, tmp_path: Path) -> None:
    # A corpus that is gone by the time of the replay: a replay that dispatched a tool could not work.
    corpus = tmp_path / "pages"
    corpus.mkdir()
    demo = Path(__file__).resolve().parents[2] / "tools" / "demo"
    for name in ("acme.md", "interview.md"):
        shutil.copy(demo / name, corpus / name)
    store = ["--store", "sqlite:///replay.db"]
    asked = cli("ask", FOUNDED, "--corpus", str(corpus), "--json", *store)
    assert asked.code == 0, asked.err
    run_id = json.loads(asked.out)["run_id"]
    shutil.rmtree(corpus)
    before = event_count(cli.cwd / "replay.db")

    result = cli("replay", run_id, "--check", *store)
    assert result.code == 0, result.err
    assert "no divergence" in result.out
    report = json.loads(cli("replay", run_id, "--check", "--json", *store).out)
    assert report["ok"] is True and report["divergences"] == []
    assert event_count(cli.cwd / "replay.db") == before  # nothing was appended


def test_replay_check_on_a_tampered_store_exits_non_zero(cli: Cli) -> None:
    store = ["--store", "sqlite:///tampered.db"]
    run_id = json.loads(cli("ask", FOUNDED, "--json", *store).out)["run_id"]
    with sqlite3.connect(cli.cwd / "tampered.db") as connection:
        rows = connection.execute(
            "SELECT position, body FROM events WHERE run_id = ? AND type = 'ToolObserved'", (run_id,)
        ).fetchall()
        edited = 0
        for position, body in rows:
            changed = bytes(body).replace(b"Ada Ortiz in 2014", b"Ada Ortiz in 2015")
            if changed != bytes(body):
                connection.execute("UPDATE events SET body = ? WHERE position = ?", (changed, position))
                edited += 1
        # The opened page's body is stored once, in `bodies` (docs/architecture.md, "Stores").
        for digest, body in connection.execute("SELECT sha256, body FROM bodies").fetchall():
            changed = bytes(body).replace(b"Ada Ortiz in 2014", b"Ada Ortiz in 2015")
            if changed != bytes(body):
                connection.execute("UPDATE bodies SET body = ? WHERE sha256 = ?", (changed, digest))
                edited += 1
        assert edited >= 2
    result = cli("replay", run_id, "--check", *store)
    assert result.code == 3, (result.out, result.err)
    assert "divergence" in result.out and "digest" in result.out


def test_tail_from_start_prints_the_finished_runs_events_as_json_lines(asked: Asked, cli: Cli) -> None:
    run_id = str(asked.answered_json["run_id"])
    result = cli("tail", run_id, "--from-start")
    assert result.code == 0, result.err
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert [line["seq"] for line in lines] == list(range(len(lines)))
    assert lines[0]["type"] == "RunStarted" and lines[-1]["type"] == "Answered"
    assert {line["run_id"] for line in lines} == {run_id}


def test_export_then_import_round_trips_a_run(asked: Asked, cli: Cli) -> None:
    run_id = str(asked.answered_json["run_id"])
    exported = cli("export", run_id, "-o", "run.jsonl")
    assert exported.code == 0, exported.err
    file = (cli.cwd / "run.jsonl").read_bytes()
    assert len(file.splitlines()) == run_ids(cli)[run_id]["events"]

    other = ["--store", "sqlite:///copy.db"]
    imported = cli("import", "run.jsonl", *other)
    assert imported.code == 0, imported.err
    again = cli("export", run_id, *other)
    assert again.out.encode() == file  # byte for byte
    assert json.loads(cli("replay", run_id, "--json", *other).out)["answer"] == asked.answered_json["answer"]

    refused = cli("import", "run.jsonl", *other)
    assert refused.code == 1
    assert "already exists" in refused.err


def test_index_builds_a_corpus_index(cli: Cli) -> None:
    demo = Path(__file__).resolve().parents[2] / "tools" / "demo"
    result = cli("index", str(demo))
    assert result.code == 0, result.err
    assert "pages from" in result.out


# -- user mistakes: one line on stderr, exit 1 -------------------------------------------


def _write_fixtures(cwd: Path) -> None:
    (cwd / "not-a-db.db").write_text("this is not SQLite\n" * 100)
    (cwd / "not-events.jsonl").write_text('{"hello": "world"}\n')
    started = RunStarted(
        run_id="r1",
        seq=0,
        at=datetime.now(UTC),
        question="q",
        max_steps=6,
        tools=(),
        allowlist=(),
        policy="p",
    )
    gap = started.model_copy(update={"seq": 2})
    (cwd / "gap.jsonl").write_bytes(encode_event(started) + b"\n" + encode_event(gap) + b"\n")


MISTAKES = {
    "missing corpus": ["ask", FOUNDED, "--corpus", "no/such/folder"],
    "unknown store scheme": ["ask", FOUNDED, "--store", "mongodb://x"],
    "malformed sqlite url": ["runs", "--store", "sqlite://host/runs.db"],
    "store that is not sqlite": ["runs", "--store", "sqlite:///not-a-db.db"],
    "missing store file": ["show", "abc", "--store", "sqlite:///never-written.db"],
    "unknown run id": ["show", "no-such-run"],
    "unknown run id (replay)": ["replay", "no-such-run", "--check"],
    "malformed import file": ["import", "not-events.jsonl", "--store", "memory://"],
    "import with a seq gap": ["import", "gap.jsonl", "--store", "memory://"],
    "missing import file": ["import", "nowhere.jsonl", "--store", "memory://"],
    "unknown policy": ["ask", FOUNDED, "--policy", "oracle"],
    "unknown option": ["runs", "--frobnicate"],
}


@pytest.mark.parametrize("args", list(MISTAKES.values()), ids=list(MISTAKES))
def test_a_user_mistake_is_one_line_on_stderr_and_exit_1(asked: Asked, cli: Cli, args: list[str]) -> None:
    _write_fixtures(cli.cwd)
    result = cli(*args)
    assert result.code == 1, (result.out, result.err)
    assert "Traceback" not in result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("citeloop: error: ")


# -- workers (PostgreSQL) ----------------------------------------------------------------


@pytest.mark.postgres
def test_submit_then_a_worker_drives_the_queued_run(cli: Cli, postgres_url: str) -> None:
    submitted = cli("submit", FOUNDED, "--store", postgres_url, "--policy", "scripted")
    assert submitted.code == 0, submitted.err
    run_id = submitted.out.strip()
    assert run_ids(cli, "--store", postgres_url)[run_id]["status"] == "queued"
    worked = cli("worker", "--store", postgres_url, "--policy", "scripted", "--max-runs", "1")
    assert worked.code == 0, worked.err
    assert "1 run finished" in worked.err
    assert run_ids(cli, "--store", postgres_url)[run_id]["status"] not in ("queued", "running")
    replayed = cli("replay", run_id, "--check", "--store", postgres_url)
    assert replayed.code == 0 and "no divergence" in replayed.out
