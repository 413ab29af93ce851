"""The command line for daily use (issue 15): one store per user, the run lifecycle, readable output.

Each test runs the installed `citeloop` in a subprocess (helpers.cli) under a home folder of
its own (tests/cli/conftest.py), a pseudo-terminal where what a terminal sees matters.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers.cli import run_citeloop

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
