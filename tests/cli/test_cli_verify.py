"""`citeloop verify` and the hash chain seen from the command line: tampered, forged and old logs."""

from __future__ import annotations

import json
import sqlite3
import zlib
from pathlib import Path

import pytest
from citeloop.events import decode_event, encode_event
from helpers.cli import run_citeloop

FOUNDED = "Who founded Acme Robotics?"


class Cli:
    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd

    def __call__(self, *args: str) -> tuple[int, str, str]:
        done = run_citeloop(*args, cwd=self.cwd)
        return done.returncode, done.stdout, done.stderr

    def ask(self, store: str) -> str:
        code, out, err = self("ask", FOUNDED, "--json", "--store", store)
        assert code == 0, err
        return str(json.loads(out)["run_id"])


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


def finish_seq(db: Path, run_id: str) -> int:
    """The seq of the finish's `ActionParsed`: the event just before the terminal one."""
    with sqlite3.connect(db) as connection:
        (last,) = connection.execute("SELECT MAX(seq) FROM events WHERE run_id = ?", (run_id,)).fetchone()
    return int(last) - 1


def edit_sqlite(db: Path, run_id: str, seq: int, old: bytes, new: bytes) -> None:
    with sqlite3.connect(db) as connection:
        (body,) = connection.execute(
            "SELECT body FROM events WHERE run_id = ? AND seq = ?", (run_id, seq)
        ).fetchone()
        assert old in bytes(body)
        connection.execute(
            "UPDATE events SET body = ? WHERE run_id = ? AND seq = ?",
            (bytes(body).replace(old, new, 1), run_id, seq),
        )


def test_verify_a_chained_run_then_a_one_byte_edit_in_sqlite(cli: Cli) -> None:
    run_id = cli.ask("sqlite:///runs.db")
    code, out, _ = cli("verify", run_id, "--store", "sqlite:///runs.db")
    assert code == 0 and f"{run_id}: chained" in out
    seq = finish_seq(cli.cwd / "runs.db", run_id)
    edit_sqlite(cli.cwd / "runs.db", run_id, seq, b"Ada Ortiz", b"Ada Ortix")  # the answer in the finish

    code, out, _ = cli("verify", run_id, "--store", "sqlite:///runs.db")
    assert code == 3 and f"{run_id}: broken at seq {seq + 1}" in out
    code, out, _ = cli("verify", "--all", "--json", "--store", "sqlite:///runs.db")
    report = json.loads(out)
    assert code == 3 and report["ok"] is False
    assert report["runs"] == [
        {
            "run_id": run_id,
            "events": seq + 2,
            "chain": "broken",
            "seq": seq + 1,
            "reason": "prev is not the sha256 of the previous event",
        }
    ]
    code, _, err = cli("show", run_id, "--store", "sqlite:///runs.db")  # reading refuses it
    assert code == 1 and f"hash chain broken at seq {seq + 1}" in err and "SQLite store" in err
    code, out, _ = cli("replay", run_id, "--check", "--store", "sqlite:///runs.db")
    assert code == 3 and "[chain]" in out and "hash chain: broken" in out


def test_an_edit_of_the_last_event_is_left_to_check(cli: Cli) -> None:
    """No event names the last one: the chain cannot see its edit, `check` re-deriving it does."""
    run_id = cli.ask("sqlite:///runs.db")
    seq = finish_seq(cli.cwd / "runs.db", run_id) + 1
    edit_sqlite(cli.cwd / "runs.db", run_id, seq, b'"answer":"Ada', b'"answer":"Ida')
    assert cli("verify", run_id, "--store", "sqlite:///runs.db")[0] == 0
    code, out, _ = cli("replay", run_id, "--check", "--store", "sqlite:///runs.db")
    assert code == 3 and "[answer]" in out


def test_a_one_byte_edit_in_a_jsonl_store_with_its_checksum_fixed(cli: Cli) -> None:
    run_id = cli.ask("jsonl:///runs.jsonl")
    path = cli.cwd / "runs.jsonl"
    lines = path.read_bytes().splitlines()
    # The record holding the finish and its verdict: edit the finish's answer, fix the frame's crc.
    index = next(i for i, line in enumerate(lines) if b'"Answered"' in line)
    prefix, array = lines[index].split(b',"e":', 1)
    array = array[:-1].replace(b'"answer":"Ada Ortiz', b'"answer":"Ada Ortix', 1)
    lines[index] = b'{"c":"%08x",%s,"e":%s}' % (zlib.crc32(array), prefix.split(b",", 1)[1], array)
    path.write_bytes(b"\n".join(lines) + b"\n")

    code, out, _ = cli("verify", "--all", "--store", "jsonl:///runs.jsonl")
    assert code == 3 and f"{run_id}: broken at seq" in out
    code, _, err = cli("show", run_id, "--store", "jsonl:///runs.jsonl")
    assert code == 1 and "hash chain broken" in err and "JSONL store" in err


def test_a_forged_two_event_log_imported_from_a_file(cli: Cli) -> None:
    run_id = cli.ask("sqlite:///runs.db")
    code, out, _ = cli("export", run_id, "--store", "sqlite:///runs.db")
    assert code == 0
    events = [decode_event(line) for line in out.encode().splitlines()]
    answered = events[-1].model_copy(update={"seq": 1, "step": 0, "evidence": "totally made up"})
    (cli.cwd / "forged.jsonl").write_bytes(encode_event(events[0]) + b"\n" + encode_event(answered) + b"\n")
    assert cli("import", "forged.jsonl", "--store", "sqlite:///forged.db")[0] == 0

    code, out, _ = cli("verify", run_id, "--store", "sqlite:///forged.db")
    assert code == 3 and f"{run_id}: broken at seq 1" in out
    code, out, _ = cli("replay", run_id, "--check", "--json", "--store", "sqlite:///forged.db")
    report = json.loads(out)
    assert code == 3 and report["chain"] == "broken"
    assert {d["kind"] for d in report["divergences"]} == {"chain", "unexplained"}

    # Written by hand, without any `prev`: unchained, so only --require-chain and check refuse it.
    bare = answered.model_copy(update={"prev": None})
    (cli.cwd / "bare.jsonl").write_bytes(encode_event(events[0]) + b"\n" + encode_event(bare) + b"\n")
    assert cli("import", "bare.jsonl", "--store", "sqlite:///bare.db")[0] == 0
    code, out, _ = cli("verify", run_id, "--store", "sqlite:///bare.db")
    assert code == 0 and "unchained" in out
    assert cli("verify", run_id, "--require-chain", "--store", "sqlite:///bare.db")[0] == 3
    assert cli("replay", run_id, "--check", "--store", "sqlite:///bare.db")[0] == 3


def test_an_old_unchained_log_still_opens_and_verify_says_unchained(cli: Cli) -> None:
    run_id = cli.ask("sqlite:///runs.db")
    code, out, _ = cli("export", run_id, "--store", "sqlite:///runs.db")
    old = b"".join(
        encode_event(decode_event(line).model_copy(update={"prev": None})) + b"\n"
        for line in out.encode().splitlines()
    )
    (cli.cwd / "old.jsonl").write_bytes(old)  # the bytes citeloop wrote before the chain
    assert cli("import", "old.jsonl", "--store", "sqlite:///old.db")[0] == 0

    code, out, _ = cli("verify", "--all", "--store", "sqlite:///old.db")
    assert code == 0 and f"{run_id}: unchained" in out
    code, out, _ = cli("replay", run_id, "--check", "--store", "sqlite:///old.db")
    assert code == 0 and "hash chain: unchained" in out
    assert cli("show", run_id, "--store", "sqlite:///old.db")[0] == 0


def test_verify_needs_one_run_or_all(cli: Cli) -> None:
    cli.ask("sqlite:///runs.db")
    code, _, err = cli("verify", "--store", "sqlite:///runs.db")
    assert code == 1 and "--all" in err
