"""Where the command's logs go: stderr, redacted, so that stdout carries only the result.

The library only gets loggers (`structlog.get_logger("citeloop.…")`) and never configures
logging; the command line, being the application, does it once at startup. structlog is
routed through the standard library, so citeloop's own events and other libraries' log
records (httpx, openai, ...) share one handler on stderr and one rendering:

- `json`: one JSON object per line (`timestamp`, `level`, `logger`, `event`, fields),
  every non-ASCII character escaped, for a file or a log collector;
- `console`: a readable line per event, coloured on a terminal;
- `auto` (the default): `console` when stderr is a terminal, `json` otherwise.

Every line passes through `citeloop.events.redact_event_dict` first, so an API key or a
URL password in a logged value (or a traceback) is masked.
"""

from __future__ import annotations

import logging
import sys
from typing import Final, Literal, TextIO, TypeAlias

import structlog
from citeloop.events import redact_event_dict
from structlog.typing import EventDict, Processor, WrappedLogger

from ._escape import escape_controls

LogFormat: TypeAlias = Literal["auto", "console", "json"]
LogLevel: TypeAlias = Literal["debug", "info", "warning", "error"]

LOG_FORMAT_ENV: Final = "CITELOOP_LOG_FORMAT"
LOG_LEVEL_ENV: Final = "CITELOOP_LOG_LEVEL"

_LEVELS: Final = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}
_MULTILINE: Final = frozenset({"exception", "stack"})


def _escape_strings(logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
    """Control characters in top-level string values as escapes (the console renderer prints some raw)."""
    return {
        key: escape_controls(value, newlines=key in _MULTILINE) if isinstance(value, str) else value
        for key, value in event_dict.items()
    }


def configure_logging(
    log_format: LogFormat = "auto", level: LogLevel = "info", *, stream: TextIO | None = None
) -> None:
    """Send structlog and standard-library logging to `stream` (stderr), redacted, in `log_format`.

    `level` applies to citeloop's loggers; other libraries log from WARNING up, or everything
    at `debug`. Calling it again replaces the previous configuration.
    """
    stream = sys.stderr if stream is None else stream
    console = log_format == "console" or (log_format == "auto" and stream.isatty())
    # Run for citeloop's events (structlog) and for other libraries' records alike.
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: list[Processor] = (
        [
            _escape_strings,
            structlog.dev.ConsoleRenderer(
                colors=stream.isatty(), exception_formatter=structlog.dev.plain_traceback
            ),
        ]
        if console
        else [structlog.processors.JSONRenderer()]  # json.dumps: ensure_ascii escapes every control
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,  # a traceback becomes a string, redacted below
            redact_event_dict,
            *renderer,
        ],
    )
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    chosen = _LEVELS[level]
    root.setLevel(chosen if chosen == logging.DEBUG else max(chosen, logging.WARNING))
    logging.getLogger("citeloop").setLevel(chosen)
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *shared,
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,  # configure_logging may run again (tests)
    )
