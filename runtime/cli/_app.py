"""Entry point of the `citeloop` command (filled in by the command-line work)."""

from __future__ import annotations

import sys


def main() -> None:
    print("citeloop: the command line is not built yet", file=sys.stderr)
    sys.exit(1)
