"""citeloop.runtime: the fold, the loop, the grounding gate, sinks and the command line."""

from ._fold import FoldError as FoldError
from ._fold import apply as apply
from ._fold import fold as fold
from ._gate import GATE_CODES as GATE_CODES
from ._gate import GateCode as GateCode
from ._gate import validate_finish as validate_finish
from ._locate import answer_digest as answer_digest
from ._locate import locate_evidence as locate_evidence
from ._state import OpenedPage as OpenedPage
from ._state import RunState as RunState
from ._state import normalize_query as normalize_query

__all__ = (
    "FoldError",
    "GATE_CODES",
    "GateCode",
    "OpenedPage",
    "RunState",
    "answer_digest",
    "apply",
    "fold",
    "locate_evidence",
    "normalize_query",
    "validate_finish",
)
