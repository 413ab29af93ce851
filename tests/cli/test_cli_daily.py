"""The command line for daily use (issue 15): one store per user, the run lifecycle, readable output.

Each test runs the installed `citeloop` in a subprocess (helpers.cli) under a home folder of
its own (tests/cli/conftest.py), a pseudo-terminal where what a terminal sees matters.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from helpers.cli import run_citeloop, run_in_pty

FOUNDED = "Who founded Acme Robotics?"
FOOD = "What is Ada's favorite food?"


def fresh_env(home: Path, **extra: str) -> dict[str, str]:
    """A machine that has never run citeloop: a new home, no citeloop or model variables."""
    drop = ("CITELOOP_", "OPENAI_", "ANTHROPIC_", "XDG_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(HOME=str(home), COLUMNS="200", **extra)
    return env


# -- one store per user -------------------------------------------------------------------


def test_the_first_command_on_a_fresh_machine_stores_the_run_per_user(tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    store = home / ".local" / "share" / "citeloop" / "runs.db"
    asked = run_citeloop("ask", FOUNDED, cwd=tmp_path, env=fresh_env(home))
    assert asked.returncode == 0, asked.stderr
    assert "Ada Ortiz" in asked.stdout
    assert f"stored in sqlite:///{store}" in asked.stdout
    assert store.is_file() and not (tmp_path / "citeloop.db").exists()
    run_id = asked.stdout.rsplit("run ", 1)[1].split()[0]
    # From another folder, the same runs.
    listed = run_citeloop("runs", "--json", cwd=elsewhere, env=fresh_env(home))
    assert listed.returncode == 0, listed.stderr
    assert [row["run_id"] for row in json.loads(listed.stdout)] == [run_id]


def test_where_prints_the_store_and_the_index_cache(tmp_path: Path) -> None:
    env = fresh_env(tmp_path, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    shown = run_citeloop("where", cwd=tmp_path, env=env)
    assert shown.returncode == 0, shown.stderr
    assert f"sqlite:///{tmp_path}/data/citeloop/runs.db (nothing stored yet)" in shown.stdout
    assert f"{tmp_path}/cache/citeloop/corpus" in shown.stdout
    as_json = json.loads(run_citeloop("where", "--json", cwd=tmp_path, env=env).stdout)
    assert as_json["store_path"] == f"{tmp_path}/data/citeloop/runs.db" and not as_json["store_exists"]
    assert as_json["index_cache"] == f"{tmp_path}/cache/citeloop/corpus"
    # The environment and the option override the per-user store, in that order.
    env["CITELOOP_STORE"] = "jsonl:///env.jsonl"
    assert json.loads(run_citeloop("where", "--json", cwd=tmp_path, env=env).stdout)["store"] == "jsonl:///env.jsonl"
    overridden = run_citeloop("where", "--json", "--store", "memory://", cwd=tmp_path, env=env)
    assert json.loads(overridden.stdout)["store"] == "memory://"


@pytest.mark.parametrize("variable", ["HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"])
def test_the_cli_tests_never_see_the_real_home(variable: str, private_home: Path) -> None:
    assert os.environ[variable].startswith(str(private_home))


# -- the lifecycle ------------------------------------------------------------------------


def store_env(tmp_path: Path) -> dict[str, str]:
    return fresh_env(tmp_path / "home", CITELOOP_STORE=f"sqlite:///{tmp_path}/runs.db")


def listed(tmp_path: Path, env: dict[str, str]) -> dict[str, dict[str, object]]:
    done = run_citeloop("runs", "--json", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    return {row["run_id"]: row for row in json.loads(done.stdout)}


@pytest.mark.slow
def test_ctrl_c_during_ask_records_the_cancellation_and_says_how_to_resume(tmp_path: Path) -> None:
    from helpers.fake_openai import Hang, serve

    env = store_env(tmp_path)
    with serve() as fake:
        fake.push(Hang(30))
        asking = ["ask", FOUNDED, "--policy", "openai:m", "--base-url", fake.base_url]
        attempts: list[subprocess.CompletedProcess[str]] = []

        def waiting(_: str) -> bool:
            if not fake.requests:
                return False
            # While the run waits on its model, `cancel` is refused: someone is driving it.
            attempts.append(run_citeloop("cancel", "last", cwd=tmp_path, env=env))
            return True

        code, output = run_in_pty(asking, tmp_path, env, interrupt_when=waiting)
        (busy,) = attempts
    assert code == 130, output
    assert busy.returncode == 1 and busy.stderr.count("\n") == 1, busy.stderr
    assert "being driven" in busy.stderr or "busy" in busy.stderr
    lines = [line for line in output.splitlines() if "interrupted" in line]
    assert len(lines) == 1, output
    run_id = lines[0].split("run ", 1)[1].split()[0]
    assert f"citeloop resume {run_id}" in lines[0] and "cancelled" in lines[0]
    assert "Traceback" not in output
    assert listed(tmp_path, env)[run_id]["status"] == "cancelled"
    # resume carries the cancelled run on as a new run, from its log, and ends it (the extractive
    # policy: not the one it was started with, so it has to be forced).
    forced = ["--policy", "extractive", "--force-policy"]
    resumed = run_citeloop("resume", run_id[:8], "--json", *forced, cwd=tmp_path, env=env)
    assert resumed.returncode == 0, resumed.stderr
    outcome = json.loads(resumed.stdout)
    assert outcome["status"] == "answered" and outcome["continues"] == run_id
    runs = listed(tmp_path, env)
    assert runs[outcome["run_id"]]["status"] == "answered" and runs[run_id]["status"] == "cancelled"


def test_a_model_server_that_cannot_be_reached_fails_with_exit_4(tmp_path: Path) -> None:
    import socket

    with socket.socket() as unused:  # a port nobody listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    env = store_env(tmp_path)
    asked = run_citeloop(
        "ask", FOUNDED, "--policy", "openai:m", "--base-url", f"http://127.0.0.1:{port}/v1", "--json",
        cwd=tmp_path, env=env,
    )
    assert asked.returncode == 4, asked.stderr
    outcome = json.loads(asked.stdout)
    assert (outcome["status"], outcome["reason"]) == ("failed", "policy_error")
    assert listed(tmp_path, env)[outcome["run_id"]]["status"] == "failed"


def test_a_queued_run_is_cancelled_or_resumed_and_a_finished_one_is_left_alone(tmp_path: Path) -> None:
    env = store_env(tmp_path)
    first = run_citeloop("submit", FOUNDED, cwd=tmp_path, env=env).stdout.strip()
    second = run_citeloop("submit", FOOD, cwd=tmp_path, env=env).stdout.strip()
    runs = listed(tmp_path, env)
    assert runs[first]["status"] == runs[second]["status"] == "queued"

    cancelled = run_citeloop("cancel", first, cwd=tmp_path, env=env)
    assert cancelled.returncode == 0, cancelled.stderr
    assert f"run {first} cancelled (it was queued)" in cancelled.stderr
    again = run_citeloop("cancel", first, "--json", cwd=tmp_path, env=env)
    assert again.returncode == 0 and json.loads(again.stdout)["status"] == "cancelled"

    resumed = run_citeloop("resume", second, cwd=tmp_path, env=env)
    assert resumed.returncode == 2, resumed.stderr  # the run resumed in place and refused, grounded
    assert "INSUFFICIENT GROUNDING" in resumed.stdout and second in resumed.stdout
    runs = listed(tmp_path, env)
    assert (runs[first]["status"], runs[second]["status"]) == ("cancelled", "abstained")

    refused = run_citeloop("cancel", second, cwd=tmp_path, env=env)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "already finished (abstained)" in refused.stderr
    printed = run_citeloop("resume", second, cwd=tmp_path, env=env)  # finished: printed, not driven
    assert printed.returncode == 2 and listed(tmp_path, env)[second]["events"] == runs[second]["events"]


# -- runs ---------------------------------------------------------------------------------


def test_runs_lists_newest_first_with_filters_answers_and_prefixes(tmp_path: Path) -> None:
    env = store_env(tmp_path)
    ids = []
    for question in (FOUNDED, FOOD, "Who is the current CEO?"):
        done = run_citeloop("ask", question, "--json", cwd=tmp_path, env=env)
        ids.append(json.loads(done.stdout)["run_id"])
    rows = json.loads(run_citeloop("runs", "--json", cwd=tmp_path, env=env).stdout)
    assert [row["run_id"] for row in rows] == ids[::-1]  # newest first
    assert rows[0]["answer"] == "Kenji Ito" and rows[0]["status"] == "answered"

    def ids_of(*args: str) -> list[str]:
        done = run_citeloop("runs", "--json", *args, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        return [row["run_id"] for row in json.loads(done.stdout)]

    assert ids_of("-n", "1") == [ids[2]]
    assert ids_of("--limit", "2") == [ids[2], ids[1]]
    assert ids_of("--status", "abstained") == [ids[1]]
    assert ids_of("--status", "answered", "--status", "abstained") == ids[::-1]
    assert ids_of("--grep", "ORTIZ") == [ids[0]]  # the answer matches, in any case
    assert ids_of("--grep", "ceo") == [ids[2]]  # the question matches
    assert ids_of("--since", "1h") == ids[::-1]
    assert ids_of("--since", "2999-01-01") == []
    bad = run_citeloop("runs", "--since", "yesterday", cwd=tmp_path, env=env)
    assert bad.returncode == 1 and "--since" in bad.stderr

    # Every command taking RUN takes a unique prefix or `last`.
    shown = json.loads(run_citeloop("show", ids[0][:6], "--json", cwd=tmp_path, env=env).stdout)
    assert shown["run_id"] == ids[0]
    last = json.loads(run_citeloop("replay", "last", "--json", cwd=tmp_path, env=env).stdout)
    assert last["run_id"] == ids[2]
    exported = run_citeloop("export", "last", cwd=tmp_path, env=env)
    assert exported.returncode == 0 and ids[2] in exported.stdout.splitlines()[0]
    ambiguous = run_citeloop("show", "", cwd=tmp_path, env=env)
    assert ambiguous.returncode == 1 and ambiguous.stderr.count("\n") == 1


def test_runs_fits_a_narrow_terminal_and_cuts_long_questions(tmp_path: Path) -> None:
    env = store_env(tmp_path)
    long_question = "Who founded Acme Robotics? " + "and more words " * 2000
    run_citeloop("ask", long_question, "--store", env["CITELOOP_STORE"], cwd=tmp_path, env=env)
    for columns in (80, 60):
        table = run_citeloop("runs", cwd=tmp_path, env={**env, "COLUMNS": str(columns)})
        assert table.returncode == 0, table.stderr
        assert max(len(line) for line in table.stdout.splitlines()) <= columns, table.stdout
        assert "…" in table.stdout and ("answered" in table.stdout or "abstained" in table.stdout)


# -- show ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_show_gives_times_model_usage_and_the_final_answer_typed_in_json(tmp_path: Path) -> None:
    from helpers.fake_openai import Say, serve

    env = store_env(tmp_path)
    finish = json.dumps(
        {
            "answer": "Ada Ortiz",
            "citations": ["https://wiki.example/acme"],
            "cannot_answer": False,
            "evidence": "Acme Robotics was founded by Ada Ortiz",
        }
    )
    with serve() as fake:
        fake.push(
            Say("Thought: look\nAction: open\nAction Input: https://wiki.example/acme", usage=(120, 30)),
            Say(f"Thought: found\nAction: finish\nAction Input: {finish}", usage=(200, 40)),
        )
        asked = run_citeloop(
            "ask", FOUNDED, "--policy", "openai:m", "--base-url", fake.base_url, cwd=tmp_path, env=env
        )
    assert asked.returncode == 0, asked.stderr + asked.stdout
    shown = run_citeloop("show", "last", cwd=tmp_path, env=env)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert "took " in text and "started " in text
    assert "model:       m · " in text and "120 prompt" in text and "30 completion" in text
    assert "model: 2 calls" in text
    assert "Citations:" in text and "[1] https://wiki.example/acme" in text
    assert '"Acme Robotics was founded by Ada Ortiz"' in text

    data = json.loads(run_citeloop("show", "last", "--json", cwd=tmp_path, env=env).stdout)
    first, last = data["steps"][0], data["steps"][-1]
    assert first["action"] == {"kind": "call", "tool": "open", "input": "https://wiki.example/acme"}
    (page,) = first["observations"]
    assert page["kind"] == "page" and page["url"] == "https://wiki.example/acme" and "body" in page
    assert first["model_call"]["usage"]["prompt_tokens"] == 120 and first["model_call"]["model"] == "m"
    assert first["model_call"]["latency_ms"] >= 0 and first["duration_ms"] >= 0
    assert last["action"]["kind"] == "finish" and last["decision"]["kind"] == "answered"
    assert {s["verdict"] for s in last["decision"]["support"]} == {"supported"}  # by method, all passed
    assert data["final"]["type"] == "Answered" and data["final"]["citations"] == ["https://wiki.example/acme"]
    assert data["final"]["locators"][0]["quote"] == "Acme Robotics was founded by Ada Ortiz"
    assert data["model"]["calls"] == 2 and data["model"]["prompt_tokens"] == 320


# -- help, version, JSON errors, plurals ---------------------------------------------------


def test_version_short_help_json_errors_and_plurals(tmp_path: Path) -> None:
    env = store_env(tmp_path)
    version = run_citeloop("--version", cwd=tmp_path, env=env)
    assert version.returncode == 0 and version.stdout.startswith("citeloop ")
    helped = run_citeloop("ask", "-h", cwd=tmp_path, env=env)
    assert helped.returncode == 0
    assert "<bool>" not in helped.stdout and "{question}" not in helped.stdout.lower()
    assert "QUESTION" in helped.stdout and "4 failed" in " ".join(helped.stdout.split())

    missing = run_citeloop("show", "nope", "--json", cwd=tmp_path, env=env)
    assert missing.returncode == 1
    error = json.loads(missing.stdout)
    assert error["code"] == 1 and "no store at" in error["error"]

    one = tmp_path / "one"
    one.mkdir()
    (one / "a.md").write_text("Ada wrote one page.\n")
    indexed = run_citeloop("index", str(one), cwd=tmp_path, env=env)
    assert indexed.returncode == 0 and indexed.stdout.startswith("1 page from"), indexed.stdout
    as_json = json.loads(run_citeloop("index", str(one), "--json", cwd=tmp_path, env=env).stdout)
    assert as_json["pages"] == 1 and as_json["rebuilt"] is False
