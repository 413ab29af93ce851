"""citeloop.events: the vocabulary of a run (events, actions, observations) and the log stores.

This layer imports nothing else of citeloop.
"""

from ._actions import Action as Action
from ._actions import CallTool as CallTool
from ._actions import Finish as Finish
from ._chain import ChainStatus as ChainStatus
from ._chain import ChainVerdict as ChainVerdict
from ._chain import chain_hash as chain_hash
from ._chain import stamp_chain as stamp_chain
from ._chain import verify_chain as verify_chain
from ._errors import CiteloopError as CiteloopError
from ._errors import ConcurrencyError as ConcurrencyError
from ._errors import CorruptLogError as CorruptLogError
from ._errors import LeaseLostError as LeaseLostError
from ._errors import RunBusyError as RunBusyError
from ._errors import RunClosedError as RunClosedError
from ._errors import RunFailure as RunFailure
from ._errors import StoreUnavailableError as StoreUnavailableError
from ._errors import StoreURLError as StoreURLError
from ._errors import TamperedLogError as TamperedLogError
from ._errors import UnknownRunError as UnknownRunError
from ._errors import UsageError as UsageError
from ._event_base import SCHEMA_VERSION as SCHEMA_VERSION
from ._event_base import Locator as Locator
from ._event_base import PolicyReply as PolicyReply
from ._event_base import Support as Support
from ._event_base import SupportVerdict as SupportVerdict
from ._event_base import ToolSpec as ToolSpec
from ._events import TERMINAL_TYPES as TERMINAL_TYPES
from ._events import Abstained as Abstained
from ._events import AbstainReason as AbstainReason
from ._events import ActionParsed as ActionParsed
from ._events import Answered as Answered
from ._events import ClaimAssessed as ClaimAssessed
from ._events import Event as Event
from ._events import FinishRejected as FinishRejected
from ._events import Forked as Forked
from ._events import ParseRejected as ParseRejected
from ._events import RunStarted as RunStarted
from ._events import SourceAdmitted as SourceAdmitted
from ._events import ToolDispatched as ToolDispatched
from ._events import ToolObserved as ToolObserved
from ._events import ToolOutcomeUnknown as ToolOutcomeUnknown
from ._events import decode_event as decode_event
from ._events import decode_events as decode_events
from ._events import encode_event as encode_event
from ._events import event_from_dict as event_from_dict
from ._events import json_schema as json_schema
from ._evidence import ADMITTED_CLASSES as ADMITTED_CLASSES
from ._evidence import EVIDENCE_CLASSES as EVIDENCE_CLASSES
from ._evidence import AdmittedSource as AdmittedSource
from ._evidence import Calculation as Calculation
from ._evidence import CalculationOp as CalculationOp
from ._evidence import CellLocator as CellLocator
from ._evidence import CellValue as CellValue
from ._evidence import ClaimPremise as ClaimPremise
from ._evidence import CsvLocator as CsvLocator
from ._evidence import CsvRepresentation as CsvRepresentation
from ._evidence import EvidenceClass as EvidenceClass
from ._evidence import EvidenceLocator as EvidenceLocator
from ._evidence import Measurement as Measurement
from ._evidence import PdfLocator as PdfLocator
from ._evidence import PdfRepresentation as PdfRepresentation
from ._evidence import Representation as Representation
from ._evidence import Sheet as Sheet
from ._evidence import TextLocator as TextLocator
from ._evidence import TextRepresentation as TextRepresentation
from ._evidence import WorkbookRepresentation as WorkbookRepresentation
from ._evidence import admitted_class_problem as admitted_class_problem
from ._memory import MemoryStore as MemoryStore
from ._observations import AlreadySearched as AlreadySearched
from ._observations import Hit as Hit
from ._observations import Observation as Observation
from ._observations import Page as Page
from ._observations import PageSource as PageSource
from ._observations import SearchHits as SearchHits
from ._observations import Text as Text
from ._observations import ToolError as ToolError
from ._open import open_queue as open_queue
from ._open import open_store as open_store
from ._postgres import PostgresStore as PostgresStore
from ._queue import RunQueue as RunQueue
from ._redact import REDACTED as REDACTED
from ._redact import redact as redact
from ._redact import redact_event_dict as redact_event_dict
from ._redact import redact_text as redact_text
from ._redact import redact_url as redact_url
from ._report_events import DraftFinding as DraftFinding
from ._report_events import DraftValidated as DraftValidated
from ._report_events import DraftWritten as DraftWritten
from ._report_events import Footnote as Footnote
from ._report_events import OnCap as OnCap
from ._report_events import ReportRules as ReportRules
from ._report_events import ResearchEnded as ResearchEnded
from ._report_events import ReviewGiven as ReviewGiven
from ._report_events import ReviewMode as ReviewMode
from ._report_events import ReviewRequested as ReviewRequested
from ._report_events import ReviewVerdict as ReviewVerdict
from ._resource import AsyncResource as AsyncResource
from ._run_lock import RunLock as RunLock
from ._run_lock import run_lock as run_lock
from ._store import EventStore as EventStore
from ._store import RunStatus as RunStatus
from ._store import RunSummary as RunSummary
from ._store import StoredEvent as StoredEvent
from ._store import run_started as run_started

__all__ = (
    "DraftFinding",
    "DraftValidated",
    "DraftWritten",
    "Footnote",
    "OnCap",
    "ReportRules",
    "ResearchEnded",
    "ReviewGiven",
    "ReviewMode",
    "ReviewRequested",
    "ReviewVerdict",
    "ADMITTED_CLASSES",
    "EVIDENCE_CLASSES",
    "REDACTED",
    "SCHEMA_VERSION",
    "TERMINAL_TYPES",
    "AbstainReason",
    "Abstained",
    "Action",
    "ActionParsed",
    "AdmittedSource",
    "AlreadySearched",
    "Answered",
    "AsyncResource",
    "Calculation",
    "CalculationOp",
    "CallTool",
    "CellLocator",
    "CellValue",
    "ChainStatus",
    "ChainVerdict",
    "CiteloopError",
    "ClaimAssessed",
    "ClaimPremise",
    "ConcurrencyError",
    "CorruptLogError",
    "CsvLocator",
    "CsvRepresentation",
    "Event",
    "EventStore",
    "EvidenceClass",
    "EvidenceLocator",
    "Finish",
    "FinishRejected",
    "Forked",
    "Hit",
    "LeaseLostError",
    "Locator",
    "Measurement",
    "MemoryStore",
    "Observation",
    "Page",
    "PageSource",
    "ParseRejected",
    "PdfLocator",
    "PdfRepresentation",
    "PolicyReply",
    "PostgresStore",
    "Representation",
    "RunBusyError",
    "RunClosedError",
    "RunFailure",
    "RunLock",
    "RunQueue",
    "RunStarted",
    "RunStatus",
    "RunSummary",
    "SearchHits",
    "Sheet",
    "SourceAdmitted",
    "StoreURLError",
    "StoreUnavailableError",
    "StoredEvent",
    "Support",
    "SupportVerdict",
    "TamperedLogError",
    "Text",
    "TextLocator",
    "TextRepresentation",
    "ToolDispatched",
    "ToolError",
    "ToolObserved",
    "ToolOutcomeUnknown",
    "ToolSpec",
    "UnknownRunError",
    "UsageError",
    "WorkbookRepresentation",
    "admitted_class_problem",
    "chain_hash",
    "decode_event",
    "decode_events",
    "encode_event",
    "event_from_dict",
    "json_schema",
    "open_queue",
    "open_store",
    "redact",
    "redact_event_dict",
    "redact_text",
    "redact_url",
    "run_lock",
    "run_started",
    "stamp_chain",
    "verify_chain",
)
