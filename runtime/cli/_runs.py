"""Commands that read stored runs: `runs`, `show`, `replay`, `tail`. None runs a tool or a policy."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import anyio
import orjson
import typer
from citeloop.events import Answered, Event, EventStore, redact
from citeloop.runtime import CheckReport, JsonLinesSink, Outcome, check_events, fold, read_parent

from ._errors import EXIT_DIVERGED, CliError
from ._listing import STATUSES, RunQuery, RunRow, list_runs, parse_since, parse_statuses
from ._options import (
    DEFAULT_STORE,
    JsonOption,
    RunArgument,
    StoreOption,
    open_existing_store,
    read_run,
    store_exists,
)
from ._render import (
    json_lines_stdout,
    print_check,
    print_json,
    print_outcome,
    print_runs,
    print_timeline,
    print_unfinished,
)
from ._serve import export_html
from ._sources import corpus_files, file_map
from ._timeline import Timeline, build_timeline
from ._verify import read_judged


def runs(
    store: StoreOption = DEFAULT_STORE,
    limit: Annotated[int, typer.Option("-n", "--limit", help="Show at most this many runs (0: all).")] = 20,
    status: Annotated[
        list[str] | None,
        typer.Option(
            "--status",
            help=f"Only runs with this status (repeat for several): {', '.join(STATUSES)}.",
            show_default=False,
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            help="Only runs started since: 30m, 2h, 7d, 2w, or a date/time (2025-05-01).",
            show_default=False,
        ),
    ] = None,
    grep: Annotated[
        str | None,
        typer.Option(
            "--grep", help="Only runs whose question or answer contains this (any case).", show_default=False
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """List stored runs, newest first: id, status, question, answer, steps, start."""
    if limit < 0:
        raise CliError(f"--limit must be 0 (all) or more, got {limit}")
    query = RunQuery(limit=limit, statuses=parse_statuses(status), since=parse_since(since), grep=grep)

    async def listing() -> list[RunRow]:
        async with open_existing_store(store) as opened:
            return await list_runs(opened, query)

    found = anyio.run(listing) if store_exists(store) else []
    if as_json:
        print_json([row.to_json() for row in found])
    else:
        print_runs(found, store)


def show(
    run_id: RunArgument,
    store: StoreOption = DEFAULT_STORE,
    corpus: Annotated[
        Path | None,
        typer.Option(
            "--corpus",
            help="The corpus folder the run was asked over: its corpus:// URLs are shown with their files.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOption = False,
    html: Annotated[
        bool,
        typer.Option("--html", help="Write the run's page as one self-contained HTML file (web-ui extra)."),
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o", "--output", help="With --html: the file to write (default: stdout).", show_default=False
        ),
    ] = None,
) -> None:
    """The run's timeline: per step the thought, the action, what came back, and the gate's verdict."""
    if html:
        export_html(store, run_id, output)
        return

    async def load() -> Timeline:
        async with open_existing_store(store) as opened:
            return build_timeline(await read_run(opened, run_id))

    timeline = anyio.run(load)
    files = corpus_files(corpus)
    if as_json:
        cited = timeline.final.citations if isinstance(timeline.final, Answered) else ()
        print_json({**timeline.to_json(), "files": file_map(cited, files)})
    else:
        print_timeline(timeline, files)


def replay(
    run_id: RunArgument,
    store: StoreOption = DEFAULT_STORE,
    check: Annotated[
        bool,
        typer.Option("--check", help="Replay through today's parser and gate; exit 3 on any divergence."),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Rebuild a stored run from its log alone (no tool, no policy); with --check, report divergences."""

    async def load() -> tuple[list[Event], list[Event] | None]:
        async with open_existing_store(store) as opened:
            # --check judges a run that breaks its hash chain too: the break is a divergence.
            events = await (read_judged if check else read_run)(opened, run_id)
            # A fork's copied steps are checked against its parent's log, when the store holds it.
            return events, await read_parent(opened, events) if check else None

    events, parent = anyio.run(load)
    if check:
        report: CheckReport = check_events(events, parent=parent)
        if as_json:
            print_json(report.to_json())
        else:
            print_check(report)
        if not report.ok:
            raise typer.Exit(EXIT_DIVERGED)
        return
    state = fold(events)
    if not state.finished:
        if as_json:
            print_json({"run_id": state.run_id, "status": "running", "steps": state.steps})
        else:
            print_unfinished(state.run_id, state.steps)
        return
    outcome = Outcome.from_state(state)
    if as_json:
        print_json({**outcome.to_json(), "question": outcome.question})
    else:
        print_outcome(outcome, store)


def tail(
    run_id: Annotated[
        str | None, typer.Argument(help="One run to follow (default: every run).", show_default=False)
    ] = None,
    store: StoreOption = DEFAULT_STORE,
    from_start: Annotated[
        bool, typer.Option("--from-start", help="Print the events already stored before the live ones.")
    ] = False,
    after: Annotated[
        int | None,
        typer.Option(
            "--after",
            metavar="POSITION",
            help=(
                "Continue after this position: with RUN, an event's seq; for every run, "
                "the position each line carries."
            ),
            show_default=False,
        ),
    ] = None,
) -> None:
    """Print live events as redacted JSON lines; one run stops at its terminal event, all runs at Ctrl-C.

    Every run's lines carry their store-wide `position`, so `--after POSITION` continues
    where an earlier tail stopped. A PostgreSQL tail reconnects after a server restart and
    continues from the last line it printed.
    """
    if after is not None and (from_start or after < 0):
        raise CliError("--after takes a position of 0 or more, and not with --from-start")
    sink = JsonLinesSink(json_lines_stdout())
    out = json_lines_stdout()

    async def follow_one(opened: EventStore, run: str) -> None:
        events = await read_run(opened, run)
        state = fold(events)
        if after is not None:
            start = after
            if state.finished and after >= events[-1].seq:
                return  # nothing will follow the terminal event
        elif state.finished and not from_start:
            raise CliError(f"run {state.run_id} has finished; add --from-start to print its events")
        else:
            start = -1 if from_start else events[-1].seq
        async for event in opened.subscribe(state.run_id, after=start):
            sink(event)

    async def follow_all(opened: EventStore) -> None:
        # Without --from-start or --after only new events print: from the store's head, so
        # the history is never read (a store of millions of events starts as fast as an empty one).
        start = after
        if start is None:
            start = -1 if from_start else await opened.head_position()
        async for stored in opened.subscribe_all(start):
            record = {"position": stored.position, **redact(stored.event.model_dump(mode="json"))}
            out.write(orjson.dumps(record).decode() + "\n")
            out.flush()

    async def follow() -> None:
        # Read-only, and a store that does not exist is an error (a typo must not create one).
        async with open_existing_store(store) as opened:
            if run_id is None:
                await follow_all(opened)
            else:
                await follow_one(opened, run_id)

    anyio.run(follow)
