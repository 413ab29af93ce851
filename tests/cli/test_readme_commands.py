"""Every `citeloop` command the README shows is run, in the README's order, and must work.

The commands are read out of the README's fenced blocks (a `$ citeloop ...` line in a
text block, any `citeloop ...` in a bash block, after `&&` too), so a command that is
added, renamed or broken there fails here. What a reader would fill in is filled in:

- `RUN`/`RUN_ID`: the run the first command stored (`cancel RUN`: a run submitted for it);
- `docs/`: a folder of the demo pages and a note that declares no URL;
- a model server (`--base-url`, `ANTHROPIC_API_KEY`): the fake OpenAI and Anthropic servers
  of tests/helpers, scripted to research the question;
- `postgresql://postgres@127.0.0.1/test`: a fresh schema of the test server;
- a command that runs until Ctrl-C (`tail` of every run, `worker`, `serve`): `tail` and `serve`
  get SIGINT once they printed a line (`serve` on a free port), `worker` gets `--max-runs 1`.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from citeloop.policies import abstain_reply, finish_reply, react
from helpers.cli import require_citeloop
from helpers.postgres import postgres_url

__all__ = ["postgres_url"]  # the fixture, imported so that pytest finds it here

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PG_README = "postgresql://postgres@127.0.0.1/test"
WIKI = "https://wiki.example/acme"
QUOTE = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
FINISH = {
    "answer": "Ada Ortiz founded Acme Robotics.",
    "citations": [WIKI],
    "cannot_answer": False,
    "evidence": QUOTE,
}


@dataclass(frozen=True)
class Command:
    """One README command: where it is, the variables set before it, and its words."""

    line: int
    env: dict[str, str]
    argv: list[str]

    def __str__(self) -> str:
        return f"README.md:{self.line}: {shlex.join(self.argv)}"


def readme_commands() -> list[Command]:
    found: list[Command] = []
    for match in FENCE.finditer(README):
        kind, body = match.group(1), match.group(2)
        first = README.count("\n", 0, match.start(2)) + 1
        for offset, raw in enumerate(body.splitlines()):
            line = raw.strip()
            if kind == "text":
                if not line.startswith("$ citeloop "):
                    continue
                line = line[2:]
            elif kind != "bash":
                continue
            for segment in line.split("&&"):
                words = shlex.split(segment, comments=True)
                env = {}
                while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
                    name, value = words.pop(0).split("=", 1)
                    env[name] = value
                if words and words[0] == "citeloop":
                    found.append(Command(first + offset, env, words[1:]))
    return found


COMMANDS = readme_commands()


def test_the_readme_shows_every_command_it_documents() -> None:
    shown = {command.argv[0] for command in COMMANDS}
    expected = "ask runs show replay verify export import resume cancel where submit worker tail index eval"
    expected += " serve"
    assert set(expected.split()) <= shown, shown
    assert str(COMMANDS[0]).endswith("ask 'Who founded Acme Robotics?'")  # the first command


# -- the sandbox a reader would have --------------------------------------------------------


@dataclass
class Sandbox:
    folder: Path
    env: dict[str, str]
    fakes: dict[str, Any] = field(default_factory=dict)
    postgres: str = ""
    answered: str = ""
    queued: str = ""

    def run(self, argv: list[str], **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(require_citeloop()), *argv],
            cwd=self.folder,
            env={**self.env, **extra},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )


def _sandbox(tmp_path: Path) -> Sandbox:
    drop = ("CITELOOP_", "OPENAI_", "ANTHROPIC_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(COLUMNS="200", CITELOOP_CACHE_DIR=str(tmp_path / "cache"))
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "tools" / "demo", docs, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (docs / "notes").mkdir()
    (docs / "notes" / "acme-notes.md").write_text("Acme Robotics ships its robots from Lisbon.\n")
    return Sandbox(tmp_path, env)


def _filled(command: Command, box: Sandbox) -> tuple[list[str], dict[str, str]]:
    """The command as a reader would type it here: placeholders, servers and stores filled in."""
    argv = list(command.argv)
    env = dict(command.env)
    run_id = box.queued if argv[0] == "cancel" else box.answered
    argv = [run_id if word in ("RUN", "RUN_ID") else word for word in argv]
    argv = [str(ROOT / word) if word.startswith("tests/") else word for word in argv]
    argv = [box.postgres if word == PG_README else word for word in argv]
    if "--base-url" in argv:
        argv[argv.index("--base-url") + 1] = box.fakes["openai"].base_url
    if "ANTHROPIC_API_KEY" in env:
        env["ANTHROPIC_BASE_URL"] = box.fakes["anthropic"].base_url
    if argv[0] == "worker":
        argv += ["--max-runs", "1"]
    if argv[0] == "serve":
        argv += ["--port", "0"]  # any free port: 8765 may be taken on the machine running the tests
    return argv, env


def _script_model(argv: list[str], box: Sandbox) -> None:
    """Script the fake server the command's --policy talks to: research Acme, or refuse anything else."""
    policy = argv[argv.index("--policy") + 1] if "--policy" in argv else ""
    if not policy.startswith(("openai", "anthropic")):
        return
    from helpers import fake_anthropic, fake_openai

    acme = "Acme" in argv[1]
    tools = "-tools:" in policy
    if policy.startswith("openai") and tools:
        calls = [("search", {"query": "Acme Robotics founder"}), ("open", {"url": WIKI}), ("finish", FINISH)]
        box.fakes["openai"].push(*(fake_openai.Say(None, tool_calls=(call,)) for call in calls))
    elif policy.startswith("openai"):
        if acme:
            replies = [react("search", "search", "Acme Robotics founder"), react("read", "open", WIKI)]
            replies.append(finish_reply("found", str(FINISH["answer"]), [WIKI], QUOTE))
        else:
            replies = [abstain_reply("nothing to go on", "the corpus does not say")]
        box.fakes["openai"].push(*(fake_openai.Say(reply) for reply in replies))
    else:
        uses = [("search", {"query": "Acme Robotics founder"}), ("open", {"url": WIKI}), ("finish", FINISH)]
        box.fakes["anthropic"].push(*(fake_anthropic.Say(None, tool_uses=(use,)) for use in uses))


def _run_until_a_line(argv: list[str], box: Sandbox) -> tuple[int, str, str]:
    """A command that runs until Ctrl-C (`tail` of every run, `serve`): Ctrl-C once it printed a line."""
    process = subprocess.Popen(
        [str(require_citeloop()), *argv],
        cwd=box.folder,
        env=box.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return process.returncode, first + out, err


def _expected_codes(argv: list[str]) -> set[int]:
    if argv[0] == "ask":
        return {0, 2}  # answered, or a grounded refusal (the README shows both)
    if argv[0] == "tail" and not _names_a_run(argv):
        return {130}  # ended by Ctrl-C
    if argv[0] == "serve":
        return {0, 130}  # ended by Ctrl-C (uvicorn stops gracefully first)
    return {0}


def _names_a_run(argv: list[str]) -> bool:
    words = argv[1:]
    for index, word in enumerate(words):
        if not word.startswith("-") and (index == 0 or words[index - 1] not in ("--after", "--store")):
            return True
    return False


def _run_all(commands: list[Command], box: Sandbox) -> Iterator[str]:
    """Run each command; yield a description of each that failed."""
    for command in commands:
        argv, env = _filled(command, box)
        _script_model(argv, box)
        if (argv[0] == "tail" and not _names_a_run(argv)) or argv[0] == "serve":
            code, out, err = _run_until_a_line(argv, box)
        else:
            done = box.run(argv, **env)
            code, out, err = done.returncode, done.stdout, done.stderr
        if code not in _expected_codes(argv) or "Traceback" in err:
            yield f"{command}\n  exit {code}\n  stdout: {out[-800:]}\n  stderr: {err[-800:]}"
        if not box.answered and argv[0] == "ask" and code == 0:
            box.answered = out.rsplit("run ", 1)[1].split()[0]
            submitted = box.run(["submit", "Who founded Acme Robotics?"])
            assert submitted.returncode == 0, submitted.stderr
            box.queued = submitted.stdout.strip()


@pytest.mark.slow
def test_every_readme_command_runs(tmp_path: Path) -> None:
    from helpers import fake_anthropic, fake_openai

    box = _sandbox(tmp_path)
    local = [command for command in COMMANDS if PG_README not in command.argv]
    with ExitStack() as stack:
        box.fakes["openai"] = stack.enter_context(fake_openai.serve())
        box.fakes["anthropic"] = stack.enter_context(fake_anthropic.serve())
        failures = list(_run_all(local, box))
    assert not failures, "README commands that failed:\n" + "\n".join(failures)
    assert box.answered and box.queued


@pytest.mark.postgres
def test_every_readme_postgresql_command_runs(tmp_path: Path, postgres_url: str) -> None:
    box = _sandbox(tmp_path)
    box.postgres = postgres_url
    commands = [command for command in COMMANDS if PG_README in command.argv]
    assert len(commands) >= 2
    failures = list(_run_all(commands, box))
    assert not failures, "README commands that failed:\n" + "\n".join(failures)
