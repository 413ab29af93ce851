"""OpenTelemetry export: a run's events as spans, after the GenAI semantic conventions.

`OtelSink` exports runs as they go, `export_run_spans` a stored run after the fact; both
feed each run's events to a `RunSpans` (runtime/_otel_spans.py), which builds the span
tree from the events alone, so both give the same tree (docs/observability.md).

OpenTelemetry is an optional extra (`citeloop[otel]`), imported when a sink is made.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from citeloop.events import Event, UsageError

from ._otel_spans import RunSpans

if TYPE_CHECKING:
    from opentelemetry.trace import Tracer, TracerProvider


def _tracer(tracer_provider: TracerProvider | None) -> Tracer:
    try:
        from opentelemetry import trace
    except ImportError as exc:  # pragma: no cover - the extra is installed in development
        raise UsageError("exporting spans needs OpenTelemetry: pip install 'citeloop[otel]'") from exc
    from importlib.metadata import PackageNotFoundError, version

    try:
        citeloop_version = version("citeloop")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        citeloop_version = None
    provider = tracer_provider if tracer_provider is not None else trace.get_tracer_provider()
    return provider.get_tracer("citeloop", citeloop_version)


# How many unfinished runs an `OtelSink` follows at once by default: past it, the run that has
# been quiet longest is let go (its spans end, status `running`, `citeloop.evicted`).
DEFAULT_MAX_OPEN_RUNS: Final = 1024


class OtelSink:
    """A sink that exports each run as spans while it goes (`Runtime(sinks=[OtelSink()])`).

    Spans follow the OpenTelemetry GenAI semantic conventions (runtime/_otel_spans.py). A step's
    spans are exported when the step ends, the run's span when the run does; `close()` ends
    the spans of runs still going (their status is then `running`). Prompt and tool content
    (the question, tool arguments, the answer) is left out unless `capture_content`, and is
    redacted then. The sink is sync, so the runtime calls it in a thread of its own.

    The sink keeps the state of at most `max_open_runs` unfinished runs (`DEFAULT_MAX_OPEN_RUNS`),
    so runs abandoned without a terminal event do not grow it for ever: past the cap, the run
    whose last event is oldest is let go, its open spans ended at that event (status `running`,
    `citeloop.evicted` true). Should it go on later, it is taken up again as a resumed run
    (`citeloop.resumed`), its status read off its terminal event.
    """

    def __init__(
        self,
        tracer_provider: TracerProvider | None = None,
        *,
        capture_content: bool = False,
        max_open_runs: int = DEFAULT_MAX_OPEN_RUNS,
    ) -> None:
        if max_open_runs < 1:
            raise UsageError(f"max_open_runs must be 1 or more, got {max_open_runs}")
        self._tracer = _tracer(tracer_provider)
        self._capture_content = capture_content
        self._max_open_runs = max_open_runs
        self._runs: OrderedDict[str, RunSpans] = OrderedDict()  # least recently fed first
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        with self._lock:
            spans = self._runs.get(event.run_id)
            if spans is None:
                spans = self._runs[event.run_id] = RunSpans(
                    self._tracer, event, capture_content=self._capture_content
                )
            else:
                self._runs.move_to_end(event.run_id)
            spans.feed(event)
            if spans.ended:
                del self._runs[event.run_id]
            while len(self._runs) > self._max_open_runs:
                _, quiet = self._runs.popitem(last=False)
                quiet.finish(evicted=True)

    def close(self) -> None:
        """End the spans of every run still open (a run that goes on elsewhere, or was cut off)."""
        with self._lock:
            for spans in self._runs.values():
                spans.finish()
            self._runs.clear()


def export_run_spans(
    events: Iterable[Event], tracer_provider: TracerProvider | None = None, *, capture_content: bool = False
) -> None:
    """Export a stored run's spans: the same tree `OtelSink` builds live, from the log alone.

    A run without a terminal event is exported up to its last event (status `running`).
    """
    tracer = _tracer(tracer_provider)
    spans: RunSpans | None = None
    for event in events:
        if spans is None:
            spans = RunSpans(tracer, event, capture_content=capture_content)
        elif event.run_id != spans.run_id:
            raise UsageError(f"export_run_spans takes one run: {event.run_id!r} after {spans.run_id!r}")
        spans.feed(event)
    if spans is not None:
        spans.finish()
