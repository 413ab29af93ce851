"""What a command shows while it waits: a spinner naming what a run awaits, progress bars with rate and ETA.

All of it goes to stderr, and only when stderr is a terminal and `--json` was not asked
for: piped or redirected, and under `--json`, a command prints its result and nothing else.
The spinner is a watcher of the runtime (runtime/_waiting.py): told just before a run
awaits its policy (the model) or a tool call, it names that wait. Not a sink: a read-only
tool's step reaches the sinks only once the tool has returned.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from citeloop.runtime import Waiting
from rich.console import Console
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.spinner import Spinner
from rich.text import Text

from ._escape import escape_controls

_INPUT_SHOWN = 60  # characters of a tool's input in the spinner line


def wanted(as_json: bool) -> bool:
    """Whether to show feedback: on a terminal, and not under --json."""
    return not as_json and sys.stderr.isatty()


def _stderr() -> Console:
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)  # a log line above is not cut


class RunSpinner:
    """A watcher keeping one spinner line on what the run awaits: its model, or a tool call and its input."""

    def __init__(self, live: Live) -> None:
        self._live = live

    def _show(self, text: str) -> None:
        self._live.update(Spinner("dots", text=Text(escape_controls(text), style="dim")))

    def __call__(self, waiting: Waiting) -> None:
        # Steps are numbered as in the log, from 0, as `show` prints them.
        if waiting.on == "policy":
            self._show(f"step {waiting.step} · waiting for the model ({waiting.policy})")
            return
        argument = waiting.input or ""
        cut = argument[:_INPUT_SHOWN] + ("…" if len(argument) > _INPUT_SHOWN else "")
        self._show(f"step {waiting.step} · waiting for tool {waiting.tool} {cut!r}")


@contextmanager
def run_spinner(shown: bool) -> Iterator[list[RunSpinner]]:
    """The watchers to give the runtime: one spinner while the block runs (none when not `shown`)."""
    if not shown:
        yield []
        return
    live = Live(
        Spinner("dots", text=Text("starting the run", style="dim")),
        console=_stderr(),
        transient=True,  # the line is gone once the result prints
        refresh_per_second=12.5,
        redirect_stdout=False,
    )
    with _shown(live):
        yield [RunSpinner(live)]


@contextmanager
def _shown(live: Live) -> Iterator[None]:
    """Draw `live` for the block, with log lines (a model retry) printed above it, not through it.

    The live display swaps `sys.stderr` for a proxy that prints above it; logging's handler
    holds the stderr it was configured with, so it is pointed at the proxy meanwhile.
    """
    before = sys.stderr
    live.start(refresh=True)
    moved = [
        handler
        for handler in logging.getLogger().handlers
        if isinstance(handler, logging.StreamHandler) and handler.stream is before
    ]
    for handler in moved:
        handler.setStream(sys.stderr)
    try:
        yield
    finally:
        for handler in moved:
            handler.setStream(before)
        live.stop()


class _RateColumn(ProgressColumn):
    """Items per second, in the task's unit (rich's own rate column is for bytes)."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        shown = "?" if speed is None else f"{speed:.1f}"
        return Text(f"{shown} {self._unit}/s", style="progress.data.speed")


@contextmanager
def progress_bar(shown: bool, what: str, unit: str) -> Iterator[Callable[[int, int], None] | None]:
    """A `progress(done, total)` callback drawing a bar with count, rate and ETA (None when not `shown`)."""
    if not shown:
        yield None
        return
    bar = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TaskProgressColumn(),
        _RateColumn(unit),
        TextColumn("eta"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
        console=_stderr(),
        transient=True,
        redirect_stdout=False,
    )
    task = bar.add_task(escape_controls(what), total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with _shown(bar.live):
        yield advance
