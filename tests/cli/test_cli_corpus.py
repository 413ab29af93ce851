"""`citeloop ask --corpus DIR` lists on stderr the files it did not index or decoded (issue 14, #17)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from helpers.cli import run_citeloop

DEMO = Path(__file__).resolve().parents[2] / "tools" / "demo"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
    env["CITELOOP_CACHE_DIR"] = str(tmp_path / "cache")
    return env


def test_ask_lists_skipped_and_decoded_files_on_stderr(tmp_path: Path) -> None:
    corpus = tmp_path / "pages"
    corpus.mkdir()
    shutil.copy(DEMO / "acme.md", corpus / "acme.md")
    ls = shutil.which("ls")
    assert ls is not None
    shutil.copyfile(ls, corpus / "x.html")
    (corpus / "latin1.txt").write_bytes("Le café de la gare sert une crème brûlée.".encode("latin-1"))
    asked = run_citeloop(
        "ask", "Who founded Acme Robotics?", "--corpus", str(corpus), "--store", "memory://", "--json",
        cwd=tmp_path, env=_env(tmp_path),
    )  # fmt: skip
    assert asked.returncode == 0, asked.stderr
    assert "citeloop: corpus pages: 1 file(s) not indexed" in asked.stderr
    assert "citeloop: corpus pages: skipped x.html: binary (holds NUL bytes)" in asked.stderr
    assert "citeloop: corpus pages: decoded latin1.txt as cp1252" in asked.stderr
    assert "x.html" not in asked.stdout  # stdout stays the one JSON document


def test_ask_on_an_empty_folder_or_jsonl_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    for target in ("empty", "empty.jsonl"):
        asked = run_citeloop(
            "ask", "Who?", "--corpus", str(tmp_path / target), "--store", "memory://",
            cwd=tmp_path, env=_env(tmp_path),
        )  # fmt: skip
        assert asked.returncode == 1
        assert "holds no" in asked.stderr and "Traceback" not in asked.stderr
