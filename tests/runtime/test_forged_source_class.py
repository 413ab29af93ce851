"""A stored log whose `SourceAdmitted` breaks the evidence-class rule is a forged log: `check` names it.

No admission records a table as a declaration (tools/_attachments.py refuses it), so such an
event can only have been written by hand. It still decodes (a log is judged, not refused by
the decoder), and `check` reports it as `unexplained`, from Python and from `replay --check`.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import anyio
import pytest
from citeloop.events import Event, MemoryStore, SourceAdmitted, open_store, stamp_chain
from citeloop.policies import abstain_reply
from citeloop.runtime import Runtime, check_events
from citeloop.tools import Attachment
from helpers.cli import run_citeloop
from helpers.fakes import ReplyQueue, page_tools

TABLE = "Prototype,Runtime (h)\nA,9\nB,7.5\n"


def attachments(tmp_path: Path) -> list[Attachment]:
    (tmp_path / "runtime.csv").write_text(TABLE, encoding="utf-8")
    return [Attachment(tmp_path / "runtime.csv")]


async def record(tmp_path: Path, store: object) -> str:
    tools, _ = page_tools()
    policy = ReplyQueue(abstain_reply("Stop.", "not enough"))
    async with Runtime(store=store, tools=tools, policy=policy) as runtime:  # type: ignore[arg-type]
        outcome = await runtime.run("How long does A run?", attachments=attachments(tmp_path))
    return outcome.run_id


def forged(events: list[Event]) -> list[Event]:
    """The log with its table re-labelled a declaration, and the hash chain recomputed by the forger."""
    changed = [
        event.model_copy(update={"source": event.source.model_copy(update={"evidence_class": "declaration"})})
        if isinstance(event, SourceAdmitted)
        else event
        for event in events
    ]
    return list(stamp_chain(changed, None)[0])


@pytest.mark.anyio
async def test_check_reports_a_source_admitted_with_a_class_it_cannot_have(tmp_path: Path) -> None:
    store = MemoryStore()
    events = await store.read(await record(tmp_path, store))
    assert check_events(events).ok
    report = check_events(forged(events))
    assert report.chain == "chained"
    (divergence,) = report.divergences
    assert divergence.kind == "unexplained"
    assert divergence.recorded == "source attached:runtime.csv admitted as declaration"
    assert "a csv source cannot be admitted as 'declaration'" in divergence.today


def test_replay_check_reports_a_forged_source_instead_of_crashing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/runs.db"

    async def write() -> str:
        async with open_store(url) as store:
            return await record(tmp_path, store)

    run_id = anyio.run(write)
    with sqlite3.connect(tmp_path / "runs.db") as connection:
        rows = connection.execute(
            "SELECT position, body FROM events WHERE run_id = ? AND type = 'SourceAdmitted'", (run_id,)
        ).fetchall()
        assert len(rows) == 1
        position, body = rows[0]
        changed = bytes(body).replace(b'"evidence_class":"measurement"', b'"evidence_class":"declaration"')
        assert changed != bytes(body)
        connection.execute("UPDATE events SET body = ? WHERE position = ?", (changed, position))
    done = run_citeloop("replay", run_id, "--check", "--json", "--store", url, cwd=tmp_path)
    assert done.returncode == 3, (done.stdout, done.stderr)
    report = json.loads(done.stdout)
    kinds = {(d["kind"], d["recorded"]) for d in report["divergences"]}
    assert ("unexplained", "source attached:runtime.csv admitted as declaration") in kinds
    assert report["chain"] == "broken"  # edited in place, without recomputing the chain
    text = run_citeloop("replay", run_id, "--check", "--store", url, cwd=tmp_path)
    assert text.returncode == 3 and "Traceback" not in text.stderr
    assert "cannot be admitted as 'declaration'" in text.stdout
