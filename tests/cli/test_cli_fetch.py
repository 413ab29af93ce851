"""`citeloop fetch URL`: what `open` would admit, or the code of its refusal; exit 0 or 1.

The page server runs in this process on 127.0.0.1; the command runs as a subprocess.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.cli import run_citeloop
from helpers.web_pages import PAGE, PageServer, page_server

TRUST = ("--allow-host", "127.0.0.1", "--allow-http")


@pytest.fixture
def server() -> Iterator[PageServer]:
    with page_server() as running:
        yield running


def fetch(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    done = run_citeloop("fetch", *args, cwd=tmp_path)
    return done.returncode, done.stdout, done.stderr


def test_an_admitted_page_is_described(tmp_path: Path, server: PageServer) -> None:
    code, out, err = fetch(tmp_path, f"{server.base}/to-page", *TRUST)
    assert code == 0, err
    assert "admitted:   Mushrooms of the Alps" in out
    assert f"url:        {server.base}/page" in out  # the final URL
    assert f"200 text/html, {len(PAGE.encode())} bytes" in out
    assert "The chanterelle grows under spruce." in out


def test_json_holds_the_identity_and_the_text(tmp_path: Path, server: PageServer) -> None:
    code, out, err = fetch(tmp_path, f"{server.base}/page", *TRUST, "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["admitted"] is True
    assert document["url"] == f"{server.base}/page"
    assert (document["status"], document["media_type"], document["bytes"]) == (200, "text/html", len(PAGE))
    assert len(document["bytes_sha256"]) == 64
    assert "chanterelle" in document["text"]


@pytest.mark.parametrize(
    ("path", "extra", "code"),
    [
        ("/page", ("--allow-http",), "blocked: private_address"),  # loopback, not trusted
        ("/page", ("--allow-host", "127.0.0.1"), "blocked: scheme"),  # http, not enabled
        ("/to-metadata", TRUST, "blocked: private_address"),
        ("/to-file", TRUST, "blocked: scheme"),
        ("/loop", TRUST, "too_many_redirects"),
        ("/pdf", TRUST, "content_type: pdf"),
    ],
)
def test_a_refusal_exits_1_with_its_code(
    tmp_path: Path, server: PageServer, path: str, extra: tuple[str, ...], code: str
) -> None:
    status, out, _ = fetch(tmp_path, f"{server.base}{path}", *extra, "--json")
    assert status == 1
    document = json.loads(out)
    assert (document["admitted"], document["code"]) == (False, code)


@pytest.mark.parametrize(
    "url",
    ["http://2130706433/", "https://[::ffff:127.0.0.1]/", "https://localhost./", "https://a:b@example.com/"],
)
def test_ssrf_payloads_are_refused_in_text(tmp_path: Path, url: str) -> None:
    status, out, _ = fetch(tmp_path, url, "--allow-http")
    assert status == 1
    assert out.startswith("refused: blocked: ")
