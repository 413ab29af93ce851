"""`export` / `import`: a run as a portable JSONL file, one encoded event per line (for bug reports)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Final

import anyio
import typer
from citeloop.events import Event, decode_event, encode_event, open_store, run_started
from pydantic import ValidationError

from ._errors import CliError
from ._escape import escape_controls
from ._options import DEFAULT_STORE, RunArgument, StoreOption, open_existing_store, read_run


class RunFileError(CliError):
    """Raised when an import file is not one run's events, whole and in order."""


# A line longer than this is refused before it is decoded. The default holds a page at the
# default page cap (2,000,000 characters) even written as `\u00XX` escapes, 6 bytes each.
DEFAULT_MAX_LINE_BYTES: Final = 16 * 1024 * 1024


def _lines(path: Path, max_line_bytes: int) -> Iterator[tuple[int, bytes]]:
    """The numbered lines of `path`, read one at a time: a line over the cap is never read whole."""
    try:
        with path.open("rb") as file:
            for number, line in enumerate(iter(lambda: file.readline(max_line_bytes + 2), b""), start=1):
                line = line.removesuffix(b"\n").removesuffix(b"\r")
                if len(line) > max_line_bytes:
                    raise RunFileError(
                        f"{path}:{number}: line longer than {max_line_bytes} bytes; refused "
                        "(raise the cap with --max-line-bytes)"
                    )
                yield number, line
    except OSError as exc:
        raise RunFileError(f"cannot read {path}: {exc.strerror or exc}") from None


def parse_run_file(path: Path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> list[Event]:
    """Decode and check a run file: every line an event, one run, seqs 0, 1, 2 ... from a RunStarted."""
    events: list[Event] = []
    for number, line in _lines(path, max_line_bytes):
        if not line.strip():
            continue
        try:
            event = decode_event(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            detail = f"{where}: {first['msg']}" if where else first["msg"]
            raise RunFileError(f"{path}:{number}: not a citeloop event ({detail})") from None
        if events and event.run_id != events[0].run_id:
            raise RunFileError(
                f"{path}:{number}: event of run {event.run_id!r} in a file of run {events[0].run_id!r}"
            )
        if event.seq != len(events):
            raise RunFileError(f"{path}:{number}: expected seq {len(events)}, found seq {event.seq}")
        events.append(event)
    if not events:
        raise RunFileError(f"{path}: no events (a run file holds one encoded event per line)")
    if run_started(events) is None:  # a forked run's file starts with Forked, then RunStarted
        raise RunFileError(f"{path}:1: a run file must start with RunStarted, not {events[0].type}")
    return events


def export(
    run_id: RunArgument,
    store: StoreOption = DEFAULT_STORE,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write to this file (default: stdout).", show_default=False),
    ] = None,
) -> None:
    """Write one run as a portable JSONL file: one encoded event per line."""

    async def load() -> list[Event]:
        async with open_existing_store(store) as opened:
            return await read_run(opened, run_id)

    events = anyio.run(load)
    data = b"".join(encode_event(event) + b"\n" for event in events)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        output.write_bytes(data)
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None
    typer.echo(escape_controls(f"exported run {run_id} ({len(events)} events) to {output}"), err=True)


def import_run(
    file: Annotated[
        Path, typer.Argument(help="A run file written by `citeloop export`.", show_default=False)
    ],
    store: StoreOption = DEFAULT_STORE,
    max_line_bytes: Annotated[
        int,
        typer.Option("--max-line-bytes", min=1, help="Refuse a file with a line longer than this (bytes)."),
    ] = DEFAULT_MAX_LINE_BYTES,
) -> None:
    """Import a run file into the store; refuses a malformed file or a run id the store already has."""
    events = parse_run_file(file, max_line_bytes=max_line_bytes)
    run_id = events[0].run_id

    async def save() -> str:
        async with open_store(store) as opened:
            if await opened.read(run_id):
                raise CliError(f"run {run_id} already exists in {opened.url}; nothing imported")
            await opened.append(run_id, events, 0)
            return opened.url

    url = anyio.run(save)
    typer.echo(escape_controls(f"imported run {run_id} ({len(events)} events) into {url}"))
