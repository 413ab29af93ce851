"""`citeloop ask --attach` / `--attach-generated`, and `show` listing what a run admitted."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from helpers.cli import run_citeloop
from helpers.documents import make_xlsx

SPEC = "# Northstar\n\nThe Northstar pack is declared at 72 Wh.\n"


class Cli:
    def __init__(self, cwd: Path, cache: Path) -> None:
        self.cwd = cwd
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
        self.env["CITELOOP_CACHE_DIR"] = str(cache)
        self.env["COLUMNS"] = "200"

    def __call__(self, *args: str) -> tuple[int, str, str]:
        done = run_citeloop(*args, cwd=self.cwd, env=self.env)
        return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    return Cli(tmp_path_factory.mktemp("cli-attach"), tmp_path_factory.mktemp("cache"))


def test_a_file_that_cannot_be_attached_is_one_line_and_writes_nothing(cli: Cli) -> None:
    (cli.cwd / "report.docx").write_bytes(b"PK\x03\x04 a word file")
    (cli.cwd / "spec.md").write_text(SPEC, encoding="utf-8")
    store = cli.cwd / "refused.db"
    code, out, err = cli(
        "ask", "Who founded Acme Robotics?", "--attach", "spec.md", "--attach", "report.docx",
        "--store", f"sqlite:///{store}",
    )  # fmt: skip
    assert code == 1, err
    assert err == (
        "citeloop: error: cannot attach report.docx: unsupported type .docx "
        "(attach text, Markdown, HTML, PDF, XLSX or CSV)\n"
    )
    assert out == ""
    assert not store.exists()
    code, out, err = cli(
        "ask", "q", "--attach-generated", "nowhere.txt", "--store", f"sqlite:///{store}", "--json"
    )
    assert code == 1
    assert "cannot attach nowhere.txt: no such file" in err
    assert json.loads(out)["code"] == 1
    assert not store.exists()


def test_ask_with_attachments_then_show_lists_them(cli: Cli) -> None:
    (cli.cwd / "spec.md").write_text(SPEC, encoding="utf-8")
    (cli.cwd / "note.txt").write_text("The photo seems to show a 9 h label.", encoding="utf-8")
    table = make_xlsx({"Runtime": [["prototype", "Runtime (h)"], ["A", 9], ["B", 7.5]]})
    (cli.cwd / "runtime.xlsx").write_bytes(table)
    store = f"sqlite:///{cli.cwd / 'runs.db'}"
    code, out, err = cli(
        "ask", "Who founded Acme Robotics?", "--attach", "spec.md", "--attach", "runtime.xlsx",
        "--attach-generated", "note.txt", "--store", store, "--json",
    )  # fmt: skip
    assert code in (0, 2), err
    run_id = json.loads(out)["run_id"]

    code, out, err = cli("show", run_id, "--store", store, "--json")
    assert code == 0, err
    sources = json.loads(out)["sources"]
    assert [(s["id"], s["evidence_class"], s["representation"]) for s in sources] == [
        ("attached:spec.md", "declaration", "text"),
        ("attached:runtime.xlsx", "measurement", "workbook"),
        ("attached:note.txt", "generated", "text"),
    ]
    assert sources[1]["sha256"] == hashlib.sha256(table).hexdigest()
    assert sources[1]["size"] == len(table) and sources[1]["origin"] == "runtime.xlsx"

    code, out, err = cli("show", run_id, "--store", store)
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index("sources:")
    assert lines[at - 1].startswith("question: Who founded Acme Robotics?")
    digest = hashlib.sha256(SPEC.encode()).hexdigest()[:12]
    assert lines[at + 1] == (
        f"  attached:spec.md · declaration · text/markdown · {len(SPEC)} bytes · sha256 {digest} · spec.md"
    )
    assert lines[at + 2].startswith("  attached:runtime.xlsx · measurement · application/vnd.openxml")
    assert lines[at + 3].startswith("  attached:note.txt · generated · text/plain")

    code, out, err = cli("replay", run_id, "--check", "--store", store)
    assert code == 0, out + err

    code, out, err = cli("show", run_id, "--store", store, "--html")
    assert code == 0, err
    assert '<ul class="sources" id="sources">' in out
    assert f"<li><code>attached:spec.md</code> · declaration · text/markdown · {len(SPEC)} bytes" in out
