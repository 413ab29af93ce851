"""How the command line reports a user's mistake: one line on stderr, exit code 1, no traceback.

Only citeloop's own errors (a caller's mistake, or a store that cannot be used) and the
argument parser's errors are turned into that line. Anything else is a bug and keeps
its traceback, so that it gets reported rather than hidden.
"""

from __future__ import annotations

import sys
from typing import Final, NoReturn

import orjson
from citeloop.events import CiteloopError, CorruptLogError
from citeloop.runtime import FoldError

from ._escape import escape_controls

EXIT_ANSWERED: Final = 0
EXIT_ERROR: Final = 1
EXIT_ABSTAINED: Final = 2
EXIT_DIVERGED: Final = 3
EXIT_FAILED: Final = 4
EXIT_INTERRUPTED: Final = 130

# The exit code of a run's status, for the commands that drive a run (ask, resume).
EXIT_BY_STATUS: Final = {
    "answered": EXIT_ANSWERED,
    "abstained": EXIT_ABSTAINED,
    "failed": EXIT_FAILED,
    "cancelled": EXIT_INTERRUPTED,
}

EXIT_CODES_HELP: Final = (
    "Exit codes: 0 answered, 2 a grounded refusal (INSUFFICIENT GROUNDING), 3 a divergence "
    "(replay --check, verify), 4 failed (the model or a tool was unavailable), 130 interrupted, "
    "1 a usage error."
)


class CliError(CiteloopError):
    """Raised by a command for a mistake that only the command line can see (a bad option value)."""


class Interrupted(Exception):
    """Raised by a command that was driving a run when Ctrl-C (or SIGTERM) stopped it."""

    def __init__(self, run_id: str, recorded: bool) -> None:
        super().__init__(run_id)
        self.run_id = run_id
        self.recorded = recorded

    def message(self) -> str:
        """One line naming the run and how to go on with it."""
        if self.recorded:
            return (
                f"interrupted: run {self.run_id} is recorded as cancelled; "
                f"continue it with `citeloop resume {self.run_id}`"
            )
        return (
            f"interrupted: run {self.run_id} is unfinished; continue it with `citeloop resume {self.run_id}`"
        )


def one_line(message: str) -> str:
    """A message folded onto one line, so that an error is always exactly one line.

    Control characters left (an error may quote a run id or a line of a file) are escaped.
    """
    return escape_controls(" ".join(message.split()))


def report(message: str, *, prefix: str = "citeloop: error: ") -> None:
    """Write `citeloop: error: <message>` as one line on stderr."""
    sys.stderr.write(f"{prefix}{one_line(message)}\n")
    sys.stderr.flush()


def fail(
    message: str, code: int, as_json: bool, *, prefix: str = "citeloop: error: ", **extra: str
) -> NoReturn:
    """Report an error and exit with `code`: one line on stderr, and with --json also
    `{"error": ..., "code": ...}` on stdout, so that stdout still holds one JSON document.
    """
    report(message, prefix=prefix)
    if as_json:
        document = {"error": one_line(message), "code": code, **extra}
        sys.stdout.write(orjson.dumps(document).decode() + "\n")
        sys.stdout.flush()
    sys.exit(code)


def interruption(exc: BaseException) -> Interrupted | None:
    """The `Interrupted` that `exc` is, unwrapping single-error exception groups (a task group's)."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc if isinstance(exc, Interrupted) else None


def user_error(exc: BaseException) -> CiteloopError | None:
    """The citeloop error a user should see for `exc`, unwrapping single-error exception groups."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    if isinstance(exc, FoldError):  # stored events that cannot be one run: a damaged log, not a bug
        return CorruptLogError(f"the stored run cannot be rebuilt from its log: {exc}")
    return exc if isinstance(exc, CiteloopError) else None
