"""citeloop.runtime: the fold, the loop, the grounding gate, sinks and the command line.

Evaluation on SQuAD 2.0 / HotpotQA lives in `citeloop.runtime.eval`.
"""

from citeloop.events import redact_text as redact_text

from ._answer_check import AnswerCheck as AnswerCheck
from ._answer_check import verify_answer as verify_answer
from ._check import check_events as check_events
from ._completion import CompletionItem as CompletionItem
from ._completion import completion as completion
from ._completion import settling_claims as settling_claims
from ._divergence import CheckReport as CheckReport
from ._divergence import Divergence as Divergence
from ._fold import FoldError as FoldError
from ._fold import fold as fold
from ._fork import read_parent as read_parent
from ._gate import GATE_CODES as GATE_CODES
from ._gate import GateCode as GateCode
from ._gate import validate_finish as validate_finish
from ._leases import LeaseLostError as LeaseLostError
from ._limits import Limits as Limits
from ._locate import answer_digest as answer_digest
from ._locate import locate_evidence as locate_evidence
from ._nats_sink import JetStreamSink as JetStreamSink
from ._nats_sink import StreamDiff as StreamDiff
from ._nats_sink import compare_with_store as compare_with_store
from ._nats_sink import rebuild_run as rebuild_run
from ._otel import OtelSink as OtelSink
from ._otel import export_run_spans as export_run_spans
from ._outcome import Outcome as Outcome
from ._outcome import OutcomeStatus as OutcomeStatus
from ._project import ViewOptions as ViewOptions
from ._report_decide import INSUFFICIENT_GROUNDING as INSUFFICIENT_GROUNDING
from ._report_decide import ReviewNotAwaitedError as ReviewNotAwaitedError
from ._report_outcome import ReportOutcome as ReportOutcome
from ._report_outcome import ReportStatus as ReportStatus
from ._report_state import ReportState as ReportState
from ._report_validate import validate_draft as validate_draft
from ._runtime import Runtime as Runtime
from ._sinks import JsonLinesSink as JsonLinesSink
from ._sinks import Sink as Sink
from ._sinks import SinkStats as SinkStats
from ._sinks import StructlogSink as StructlogSink
from ._state import LifecycleStatus as LifecycleStatus
from ._state import RunState as RunState
from ._support import DEFAULT_SUPPORT as DEFAULT_SUPPORT
from ._support import SUPPORT_METHODS as SUPPORT_METHODS
from ._support import SupportCase as SupportCase
from ._support import SupportMethod as SupportMethod
from ._support import assess_support as assess_support
from ._waiting import Waiting as Waiting
from ._waiting import Watcher as Watcher
from ._worker import run_worker as run_worker
from ._worker import submit as submit
from ._worker import submit_review as submit_review

__all__ = (
    "DEFAULT_SUPPORT",
    "SUPPORT_METHODS",
    "AnswerCheck",
    "CheckReport",
    "CompletionItem",
    "Divergence",
    "FoldError",
    "GATE_CODES",
    "GateCode",
    "JetStreamSink",
    "JsonLinesSink",
    "LeaseLostError",
    "LifecycleStatus",
    "Limits",
    "OtelSink",
    "Outcome",
    "OutcomeStatus",
    "INSUFFICIENT_GROUNDING",
    "ReportOutcome",
    "ReportState",
    "ReportStatus",
    "ReviewNotAwaitedError",
    "validate_draft",
    "RunState",
    "Runtime",
    "Sink",
    "SinkStats",
    "StreamDiff",
    "StructlogSink",
    "SupportCase",
    "SupportMethod",
    "ViewOptions",
    "Waiting",
    "Watcher",
    "answer_digest",
    "assess_support",
    "check_events",
    "completion",
    "compare_with_store",
    "export_run_spans",
    "fold",
    "locate_evidence",
    "rebuild_run",
    "read_parent",
    "redact_text",
    "run_worker",
    "settling_claims",
    "submit",
    "submit_review",
    "validate_finish",
    "verify_answer",
)
