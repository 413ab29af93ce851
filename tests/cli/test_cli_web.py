"""`citeloop ask --web` (issue 18): search a fake SearxNG, open pages from a server on 127.0.0.1.

Both servers are real HTTP servers on loopback (helpers/fake_searx.py); the fetcher admits
them only because the command allows it explicitly (`--allow-host 127.0.0.1 --allow-http`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.cli import run_citeloop
from helpers.fake_searx import FakeSearx, serve_pages, serve_searx

pytestmark = pytest.mark.slow  # each case runs the command in a subprocess

QUESTION = "Who founded Acme Robotics?"
SENTENCE = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
PAGE = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Acme Robotics | Robot Wiki</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/random">Random page</a></li></ul></nav>
<main><article><h1>Acme Robotics</h1>
<p>{SENTENCE} The company builds warehouse robots and ships them from its plant near the river.</p>
<h2>History</h2>
<p>Its first robot, a shelf-climbing picker, was sold to a grocery chain in 2016 after two years.</p>
</article></main>
<footer>Robot Wiki is a community project. Text is available under a free licence.</footer>
</body></html>
""".encode()


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    with serve_pages({"/wiki/acme": ("text/html; charset=utf-8", PAGE)}) as base:
        yield base


@pytest.fixture
def searx(pages: str) -> Iterator[FakeSearx]:
    results = [
        {
            "url": f"{pages}/wiki/acme",
            "title": "Acme Robotics",
            "content": "Acme Robotics was founded by ...",
        },
        {"url": f"{pages}/wiki/missing", "title": "Gone", "content": "a page the server does not have"},
    ]
    with serve_searx(FakeSearx(results=results)) as fake:
        yield fake


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CITELOOP_SEARX_URL"}
    env["CITELOOP_STORE"] = f"sqlite:///{tmp_path / 'runs.db'}"
    return {**env, **extra}


def _ask(tmp_path: Path, *args: str, **env: str) -> tuple[int, dict[str, object], str]:
    done = run_citeloop("ask", QUESTION, "--json", *args, cwd=tmp_path, env=_env(tmp_path, **env))
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {}, done.stderr


def test_ask_web_answers_from_a_page_the_search_found(tmp_path: Path, searx: FakeSearx, pages: str) -> None:
    code, outcome, err = _ask(
        tmp_path, "--web", "--searx", searx.url, "--allow-host", "127.0.0.1", "--allow-http"
    )
    assert code == 0, err
    assert outcome["status"] == "answered"
    assert outcome["citations"] == [f"{pages}/wiki/acme"]
    assert SENTENCE in str(outcome["evidence"])
    assert searx.queries and searx.queries[0]["format"] == ["json"]


def test_the_searx_url_may_come_from_the_environment(tmp_path: Path, searx: FakeSearx) -> None:
    code, outcome, err = _ask(
        tmp_path, "--web", "--allow-host", "127.0.0.1", "--allow-http", CITELOOP_SEARX_URL=searx.url
    )
    assert code == 0, err
    assert outcome["status"] == "answered"


def test_without_allowing_the_host_the_loopback_page_is_refused(tmp_path: Path, searx: FakeSearx) -> None:
    # The fetcher refuses 127.0.0.1 (and plain http): nothing is opened, so the run refuses to answer.
    code, outcome, err = _ask(tmp_path, "--web", "--searx", searx.url)
    assert code == 2, err
    assert outcome["status"] == "abstained"
    assert outcome["citations"] == []


def test_a_searx_without_json_output_ends_in_a_refusal_not_a_crash(tmp_path: Path, searx: FakeSearx) -> None:
    searx.status, searx.body = 403, b"Forbidden"
    code, outcome, err = _ask(
        tmp_path, "--web", "--searx", searx.url, "--allow-host", "127.0.0.1", "--allow-http"
    )
    assert code == 2, err
    assert outcome["status"] == "abstained"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--web"], "--searx URL or CITELOOP_SEARX_URL"),
        (["--web", "--searx", "127.0.0.1:8888"], "--searx must be an http(s) URL"),
        (["--web", "--searx", "http://127.0.0.1:1", "--corpus", "."], "exclude each other"),
        (["--allow-http"], "apply to --web only"),
        (["--allow-host", "127.0.0.1"], "apply to --web only"),
    ],
)
def test_options_that_mean_nothing_together_are_usage_errors(
    tmp_path: Path, args: list[str], message: str
) -> None:
    done = run_citeloop("ask", QUESTION, *args, cwd=tmp_path, env=_env(tmp_path))
    assert done.returncode == 1
    assert message in done.stderr
