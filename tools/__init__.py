"""citeloop.tools: what acts. Tools return typed observations; this layer imports only citeloop.events."""

from ._protocol import Tool as Tool

__all__ = ("Tool",)
