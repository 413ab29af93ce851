"""citeloop.runtime: the fold, the loop, the grounding gate, sinks and the command line."""

from ._fold import FoldError as FoldError
from ._fold import apply as apply
from ._fold import fold as fold
from ._state import OpenedPage as OpenedPage
from ._state import RunState as RunState
from ._state import normalize_query as normalize_query

__all__ = (
    "FoldError",
    "OpenedPage",
    "RunState",
    "apply",
    "fold",
    "normalize_query",
)
