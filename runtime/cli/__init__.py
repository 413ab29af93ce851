"""The `citeloop` command line."""

from ._app import main as main

__all__ = ("main",)
