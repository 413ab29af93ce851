"""Corpus URLs shown with the file they came from (issue 15): ask, resume, show --corpus, index --list.

A page that declares no URL answers to `corpus://<folder>/<path>`; output names the file
beside it, as the corpus folder was given. A page that declares its own URL names none.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from citeloop.runtime.cli._sources import corpus_files
from helpers.cli import run_citeloop

QUESTION = "Who founded Zorblat Industries?"


def _corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "my notes"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "zorb lat.md").write_text("Zorblat Industries was founded by Mira Quell in 1999.\n")
    (folder / "declared.md").write_text("---\nurl: https://wiki.example/weather\n---\nIt rains in spring.\n")
    return folder


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "CITELOOP_STORE": f"sqlite:///{tmp_path}/runs.db",
        "CITELOOP_CACHE_DIR": str(tmp_path / "cache"),
    }


URL = "corpus://my%20notes/sub/zorb%20lat.md"
FILE = "my notes/sub/zorb lat.md"


def test_ask_and_show_name_the_file_of_a_corpus_url(tmp_path: Path) -> None:
    _corpus(tmp_path)
    env = _env(tmp_path)
    asked = run_citeloop("ask", QUESTION, "--corpus", "my notes", cwd=tmp_path, env=env)
    assert asked.returncode == 0, asked.stderr
    assert f"[1] {URL}  (file {FILE})" in asked.stdout
    as_json = run_citeloop("ask", QUESTION, "--corpus", "my notes", "--json", cwd=tmp_path, env=env)
    assert json.loads(as_json.stdout)["files"] == {URL: FILE}
    shown = run_citeloop("show", "last", "--corpus", "my notes", cwd=tmp_path, env=_env(tmp_path))
    assert shown.returncode == 0, shown.stderr
    assert f"[1] {URL}  (file {FILE})" in shown.stdout
    shown_json = run_citeloop("show", "last", "--corpus", "my notes", "--json", cwd=tmp_path, env=env)
    assert json.loads(shown_json.stdout)["files"] == {URL: FILE}
    # Without the folder, show has no file to name.
    bare = run_citeloop("show", "last", cwd=tmp_path, env=_env(tmp_path))
    assert f"[1] {URL}\n" in bare.stdout and "(file" not in bare.stdout


def test_index_list_names_each_corpus_urls_file(tmp_path: Path) -> None:
    folder = _corpus(tmp_path)
    listed = run_citeloop("index", str(folder), "--list", cwd=tmp_path, env=_env(tmp_path))
    assert listed.returncode == 0, listed.stderr
    assert f"  {URL}  (file {folder / 'sub' / 'zorb lat.md'})" in listed.stdout
    assert "  https://wiki.example/weather\n" in listed.stdout  # declared: no file to name
    as_json = json.loads(
        run_citeloop("index", str(folder), "--list", "--json", cwd=tmp_path, env=_env(tmp_path)).stdout
    )
    assert as_json["urls"] == [
        {"url": URL, "file": str(folder / "sub" / "zorb lat.md")},
        {"url": "https://wiki.example/weather", "file": None},
    ]


def test_a_url_never_names_a_file_outside_the_folder(tmp_path: Path) -> None:
    files = corpus_files(_corpus(tmp_path))
    assert files(URL) == tmp_path / FILE
    for url in (
        "corpus://my%20notes/../secret.txt",
        "corpus://my%20notes/%2e%2e/secret.txt",
        "corpus://my%20notes//etc/passwd",
        "corpus://other/sub/zorb%20lat.md",
        "https://wiki.example/weather",
    ):
        assert files(url) is None, url
    assert corpus_files(None)(URL) is None
    assert corpus_files(tmp_path / "missing")(URL) is None
