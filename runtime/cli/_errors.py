"""How the command line reports a user's mistake: one line on stderr, exit code 1, no traceback.

Only citeloop's own errors (a caller's mistake, or a store that cannot be used) and the
argument parser's errors are turned into that line. Anything else is a bug and keeps
its traceback, so that it gets reported rather than hidden.
"""

from __future__ import annotations

import sys
from typing import Final

from citeloop.events import CiteloopError, CorruptLogError
from citeloop.runtime import FoldError

from ._escape import escape_controls

EXIT_ANSWERED: Final = 0
EXIT_ERROR: Final = 1
EXIT_ABSTAINED: Final = 2
EXIT_DIVERGED: Final = 3


class CliError(CiteloopError):
    """Raised by a command for a mistake that only the command line can see (a bad option value)."""


def one_line(message: str) -> str:
    """A message folded onto one line, so that an error is always exactly one line.

    Control characters left (an error may quote a run id or a line of a file) are escaped.
    """
    return escape_controls(" ".join(message.split()))


def report(message: str) -> None:
    """Write `citeloop: error: <message>` as one line on stderr."""
    sys.stderr.write(f"citeloop: error: {one_line(message)}\n")
    sys.stderr.flush()


def user_error(exc: BaseException) -> CiteloopError | None:
    """The citeloop error a user should see for `exc`, unwrapping single-error exception groups."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    if isinstance(exc, FoldError):  # stored events that cannot be one run: a damaged log, not a bug
        return CorruptLogError(f"the stored run cannot be rebuilt from its log: {exc}")
    return exc if isinstance(exc, CiteloopError) else None
