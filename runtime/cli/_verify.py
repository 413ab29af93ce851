"""`verify`: check the hash chain of stored runs (docs/events.md). Reads only; exit 3 on a break."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import anyio
import typer
from citeloop.events import ChainStatus, Event, EventStore, TamperedLogError, verify_chain

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
    store: StoreOption = DEFAULT_STORE,
    as_json: JsonOption = False,
) -> None:
    """Check the hash chain of stored runs: chained, unchained or broken at seq N; exit 3 on a break."""
    if (run_id is None) == (not every):
        raise CliError("give one run id, or --all (not both)")

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
