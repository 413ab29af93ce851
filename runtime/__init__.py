"""citeloop.runtime: the fold, the loop, the grounding gate, sinks and the command line."""

from ._check import CheckReport as CheckReport
from ._check import Divergence as Divergence
from ._check import check_events as check_events
from ._eval import DatasetError as DatasetError
from ._eval import EvalReport as EvalReport
from ._eval import evaluate as evaluate
from ._eval import load_dataset as load_dataset
from ._eval import run_evaluation as run_evaluation
from ._eval import stderr_progress as stderr_progress
from ._fold import FoldError as FoldError
from ._fold import apply as apply
from ._fold import fold as fold
from ._gate import GATE_CODES as GATE_CODES
from ._gate import GateCode as GateCode
from ._gate import validate_finish as validate_finish
from ._leases import LeaseLostError as LeaseLostError
from ._locate import answer_digest as answer_digest
from ._locate import locate_evidence as locate_evidence
from ._outcome import Outcome as Outcome
from ._project import ViewOptions as ViewOptions
from ._project import render_observation as render_observation
from ._redact import redact as redact
from ._redact import redact_text as redact_text
from ._runtime import Runtime as Runtime
from ._sinks import JsonLinesSink as JsonLinesSink
from ._sinks import Sink as Sink
from ._sinks import SinkStats as SinkStats
from ._sinks import StructlogSink as StructlogSink
from ._state import OpenedPage as OpenedPage
from ._state import RunState as RunState
from ._state import normalize_query as normalize_query
from ._worker import run_worker as run_worker
from ._worker import submit as submit

__all__ = (
    "CheckReport",
    "DatasetError",
    "Divergence",
    "EvalReport",
    "FoldError",
    "GATE_CODES",
    "GateCode",
    "JsonLinesSink",
    "LeaseLostError",
    "OpenedPage",
    "Outcome",
    "RunState",
    "Runtime",
    "Sink",
    "SinkStats",
    "StructlogSink",
    "ViewOptions",
    "answer_digest",
    "apply",
    "check_events",
    "evaluate",
    "fold",
    "load_dataset",
    "locate_evidence",
    "normalize_query",
    "redact",
    "redact_text",
    "render_observation",
    "run_evaluation",
    "run_worker",
    "stderr_progress",
    "submit",
    "validate_finish",
)
