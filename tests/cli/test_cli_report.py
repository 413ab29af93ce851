"""`citeloop report` and `citeloop review` in subprocesses (issue 13, SPEC §12, docs/reports.md).

The invented-API replay of the post-mortem runs the LLM writer against a loopback server
of each dialect: every draft cites a real sentence and names an API no source has, so
validation refuses it every round and the run ends INSUFFICIENT GROUNDING with exit 2.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers.cli import run_citeloop

FOUNDED = "Who founded Acme Robotics?"
ACME = "https://wiki.example/acme"
SENTENCE = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."


def env_for(tmp_path: Path) -> dict[str, str]:
    drop = ("CITELOOP_", "OPENAI_", "ANTHROPIC_", "XDG_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(
        HOME=str(tmp_path / "home"),
        COLUMNS="200",
        CITELOOP_STORE=f"sqlite:///{tmp_path}/runs.db",
        OPENAI_API_KEY="test-key",
        ANTHROPIC_API_KEY="test-key",
    )
    return env


def invented(name: str) -> str:
    return f'Call `acme.{name}()` to reach Acme Robotics.[^1]\n\n[^1]: {ACME} "{SENTENCE}"\n'


INVENTIONS = ("connect_fast", "open_session", "SessionManager", "dial")


def test_a_report_on_the_demo_corpus_prints_its_footnotes_and_writes_markdown(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    done = run_citeloop("report", FOUNDED, "-o", "report.md", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr + done.stdout
    assert f'[^1]: {ACME} "{SENTENCE}"' in done.stdout
    assert (tmp_path / "report.md").read_text(encoding="utf-8").endswith(f'"{SENTENCE}"\n')
    as_json = run_citeloop("report", FOUNDED, "--json", cwd=tmp_path, env=env)
    data = json.loads(as_json.stdout)
    assert {"run_id", "status", "report", "footnotes", "reviews", "revisions", "reason"} <= data.keys()
    assert data["status"] == "accepted" and data["reason"] is None
    (note,) = data["footnotes"]
    assert (note["n"], note["url"], note["quote"]) == (1, ACME, SENTENCE)
    assert note["end"] - note["start"] == len(SENTENCE)
    assert data["reviews"] == [{"verdict": "ACCEPT", "notes": "", "by": "deterministic-reviewer"}]
    checked = run_citeloop("replay", data["run_id"], "--check", cwd=tmp_path, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_nothing_to_ground_is_insufficient_grounding_with_exit_2(tmp_path: Path) -> None:
    done = run_citeloop(
        "report", "What is the airspeed of a laden swallow?", cwd=tmp_path, env=env_for(tmp_path)
    )
    assert done.returncode == 2, done.stderr + done.stdout
    assert "INSUFFICIENT GROUNDING" in done.stdout
    # Why nothing could be cited: the research itself refused.
    assert "research: cannot: no page matches the question" in done.stdout


def test_a_human_review_pauses_the_run_and_another_process_continues_it(tmp_path: Path) -> None:
    env = env_for(tmp_path)
    waiting = run_citeloop("report", FOUNDED, "--review", "human", "--json", cwd=tmp_path, env=env)
    assert waiting.returncode == 5, waiting.stderr + waiting.stdout
    data = json.loads(waiting.stdout)
    assert data["status"] == "waiting" and SENTENCE in data["awaiting"]
    run_id = data["run_id"]
    listed = json.loads(run_citeloop("show", run_id, "--json", cwd=tmp_path, env=env).stdout)
    assert listed["status"] == "waiting"
    again = run_citeloop("review", run_id, "--revise", "cite the founding year too", cwd=tmp_path, env=env)
    assert again.returncode == 5, again.stderr + again.stdout  # a second draft, waiting again
    done = run_citeloop("review", run_id, "--accept", "--by", "ana", "--json", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr + done.stdout
    final = json.loads(done.stdout)
    assert final["status"] == "accepted" and final["revisions"] == 1
    assert [(r["verdict"], r["by"]) for r in final["reviews"]] == [
        ("REVISE", "human"),
        ("ACCEPT", "human:ana"),
    ]
    late = run_citeloop("review", run_id, "--accept", cwd=tmp_path, env=env)
    assert late.returncode == 1 and "takes no review" in late.stderr
    checked = run_citeloop("replay", run_id, "--check", cwd=tmp_path, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _replay_of_the_post_mortem(tmp_path: Path, dialect: str, fake: object, say: type) -> None:
    fake.push(*(say(invented(name)) for name in INVENTIONS))  # type: ignore[attr-defined]
    env = env_for(tmp_path)
    spec = f"{dialect}:scripted-model"
    base_url = fake.base_url  # type: ignore[attr-defined]
    done = run_citeloop(
        "report", FOUNDED, "--writer", spec, "--base-url", base_url, "--json", cwd=tmp_path, env=env
    )
    assert done.returncode == 2, done.stderr + done.stdout
    data = json.loads(done.stdout)
    assert data["status"] == "refused" and data["reason"] == "insufficient_grounding"
    assert data["answer"].startswith("cannot: INSUFFICIENT GROUNDING") and data["report"] == ""
    assert data["revisions"] == 3 and data["drafts_rejected"] == 4 and data["reviews"] == []
    assert data["research"] == "Ada Ortiz"  # the research found the answer; the writer invented an API
    requests = fake.requests  # type: ignore[attr-defined]
    assert len(requests) == 4  # the first draft and three revisions: the cap, never an acceptance
    # Each revision is asked with the codes that refused the draft before, and the page itself.
    later = json.dumps(requests[1].body)
    assert "unsupported_claim" in later and "connect_fast" in later and SENTENCE in later
    checked = run_citeloop("replay", data["run_id"], "--check", cwd=tmp_path, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.slow
def test_the_invented_api_writer_on_openai_is_refused_every_round(tmp_path: Path) -> None:
    from helpers.fake_openai import Say, serve

    with serve() as fake:
        _replay_of_the_post_mortem(tmp_path, "openai", fake, Say)


@pytest.mark.slow
def test_the_invented_api_writer_on_anthropic_is_refused_every_round(tmp_path: Path) -> None:
    from helpers.fake_anthropic import Say, serve

    with serve() as fake:
        _replay_of_the_post_mortem(tmp_path, "anthropic", fake, Say)
