"""`verify`: check the hash chain of stored runs (docs/events.md), or an edited answer against its run's
evidence (`--answer`, docs/evidence.md). Reads only; exit 3 on a break or a mismatch."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer
from citeloop.events import (
    Answered,
    ChainStatus,
    Event,
    EventStore,
    TamperedLogError,
    UsageError,
    verify_chain,
)
from citeloop.runtime import AnswerCheck, verify_answer

from ._errors import EXIT_DIVERGED, CliError
from ._escape import escape_controls
from ._options import DEFAULT_STORE, JsonOption, StoreOption, open_existing_store, read_run
from ._render import print_json


@dataclass(frozen=True, slots=True)
class RunChain:
    """One run's verdict: chained, unchained (written before the chain), or broken at `seq`."""

    run_id: str
    events: int
    status: ChainStatus
    seq: int | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "events": self.events,
            "chain": self.status,
            "seq": self.seq,
            "reason": self.reason,
        }

    def line(self) -> str:
        if self.status == "broken":
            return f"{self.run_id}: broken at seq {self.seq} ({self.reason})"
        if self.status == "unchained":
            return f"{self.run_id}: unchained ({self.events} events, written before the hash chain)"
        return f"{self.run_id}: chained ({self.events} events)"


async def read_judged(store: EventStore, run_id: str) -> list[Event]:
    """A run's events as stored, also when they break the chain (for `check` to judge them)."""
    try:
        return await read_run(store, run_id)
    except TamperedLogError as exc:
        return list(exc.events)


async def judge(store: EventStore, run_id: str) -> RunChain:
    """The chain verdict on one stored run: the store's own (over its bytes) when it finds a break."""
    try:
        events = await read_run(store, run_id)
    except TamperedLogError as exc:
        return RunChain(run_id, len(exc.events), "broken", exc.seq, exc.reason)
    verdict = verify_chain(events)  # also for a store that keeps events, not bytes (memory://)
    return RunChain(run_id, len(events), verdict.status, verdict.seq, verdict.reason)


def verify(
    run_id: Annotated[
        str | None,
        typer.Argument(help="The run to verify (see `citeloop runs`), or --all.", show_default=False),
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Verify every stored run.")] = False,
    require_chain: Annotated[
        bool,
        typer.Option("--require-chain", help="Count an unchained run as a failure too (exit 3)."),
    ] = False,
    answer: Annotated[
        Path | None,
        typer.Option(
            "--answer",
            help=(
                "A file holding the run's answer as edited: report what no longer matches "
                "(its digest, every locator, every claim's text); exit 3 if anything does."
            ),
            show_default=False,
        ),
    ] = None,
    store: StoreOption = DEFAULT_STORE,
    as_json: JsonOption = False,
) -> None:
    """Check the hash chain of stored runs: chained, unchained or broken at seq N; exit 3 on a break.

    With --answer FILE, check instead whether an edited answer still matches the run's evidence.
    """
    if (run_id is None) == (not every):
        raise CliError("give one run id, or --all (not both)")
    if answer is not None:
        if run_id is None:
            raise CliError("--answer checks one run's answer: give its id, not --all")
        _verify_answer(run_id, answer, store, as_json)
        return

    async def load() -> tuple[str, list[RunChain]]:
        async with open_existing_store(store) as opened:
            ids = [summary.run_id for summary in await opened.runs()] if every else [str(run_id)]
            return opened.url, [await judge(opened, one) for one in ids]

    url, found = anyio.run(load)
    bad = [run for run in found if run.status == "broken" or (require_chain and run.status == "unchained")]
    if as_json:
        print_json({"ok": not bad, "runs": [run.to_json() for run in found]})
    else:
        for run in found:
            typer.echo(escape_controls(run.line()))
        if not found:
            typer.echo(f"no runs in {url}")
    if bad:
        raise typer.Exit(EXIT_DIVERGED)


def read_answer_file(path: Path, recorded: str) -> str:
    """The answer text in `path`; one final line break is dropped unless the recorded answer ends with one
    (an editor adds it on saving)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read the answer from {path}: {exc}") from exc
    if not recorded.endswith("\n"):
        text = text.removesuffix("\r\n") if text.endswith("\r\n") else text.removesuffix("\n")
    return text


def _verify_answer(run_id: str, path: Path, store: str, as_json: bool) -> None:
    async def load() -> list[Event]:
        async with open_existing_store(store) as opened:
            return await read_judged(opened, run_id)

    events = anyio.run(load)
    recorded = next((event.answer for event in events if isinstance(event, Answered)), "")
    try:
        report: AnswerCheck = verify_answer(events, read_answer_file(path, recorded))
    except UsageError as exc:
        raise CliError(str(exc)) from exc
    if as_json:
        print_json(report.to_json())
    else:
        for line in report.lines():
            typer.echo(escape_controls(line))
    if not report.ok:
        raise typer.Exit(EXIT_DIVERGED)
