"""citeloop.policies: what decides. This layer imports only citeloop.events."""

from ._protocol import Policy as Policy
from ._view import RunView as RunView
from ._view import Turn as Turn

__all__ = ("Policy", "RunView", "Turn")
