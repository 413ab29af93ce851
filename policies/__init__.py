"""citeloop.policies: what decides. This layer imports only citeloop.events."""

from ._anthropic import AnthropicPolicy as AnthropicPolicy
from ._anthropic import anthropic_policy_from_spec as anthropic_policy_from_spec
from ._extractive import ExtractivePolicy as ExtractivePolicy
from ._fence import fence_untrusted as fence_untrusted
from ._openai import OpenAIPolicy as OpenAIPolicy
from ._openai import policy_from_spec as policy_from_spec
from ._parser import DEFAULT_ALLOWLIST as DEFAULT_ALLOWLIST
from ._parser import REJECT_CODES as REJECT_CODES
from ._parser import Parsed as Parsed
from ._parser import RejectCode as RejectCode
from ._parser import Rejected as Rejected
from ._parser import parse_policy_reply as parse_policy_reply
from ._parser import parse_reply as parse_reply
from ._parser import parse_structured as parse_structured
from ._protocol import Policy as Policy
from ._react import abstain_reply as abstain_reply
from ._react import finish_reply as finish_reply
from ._react import react as react
from ._report_llm import AnthropicReviewer as AnthropicReviewer
from ._report_llm import AnthropicWriter as AnthropicWriter
from ._report_llm import ChatReviewer as ChatReviewer
from ._report_llm import ChatWriter as ChatWriter
from ._report_llm import OpenAIReviewer as OpenAIReviewer
from ._report_llm import OpenAIWriter as OpenAIWriter
from ._report_llm import reviewer_from_spec as reviewer_from_spec
from ._report_llm import writer_from_spec as writer_from_spec
from ._report_reviewer import DeterministicReviewer as DeterministicReviewer
from ._report_scripted import ScriptedReviewer as ScriptedReviewer
from ._report_scripted import ScriptedWriter as ScriptedWriter
from ._report_view import REVIEW_LOOKUPS as REVIEW_LOOKUPS
from ._report_view import DraftRound as DraftRound
from ._report_view import ReportSource as ReportSource
from ._report_view import ReportView as ReportView
from ._report_view import Reviewer as Reviewer
from ._report_view import Writer as Writer
from ._report_writer import DeterministicWriter as DeterministicWriter
from ._retry import PolicyUnavailableError as PolicyUnavailableError
from ._retry import RetryPolicy as RetryPolicy
from ._review_parse import REVIEW_REJECT_CODES as REVIEW_REJECT_CODES
from ._review_parse import ReviewRejected as ReviewRejected
from ._review_parse import parse_review as parse_review
from ._same_value import SameValueQuestion as SameValueQuestion
from ._same_value import same_value_question as same_value_question
from ._same_value import settle as settle_same_value
from ._same_value import stated_values as stated_values
from ._scripted import ScriptedAnswer as ScriptedAnswer
from ._scripted import ScriptedPolicy as ScriptedPolicy
from ._view import RunView as RunView
from ._view import Turn as Turn

__all__ = (
    "REVIEW_LOOKUPS",
    "Writer",
    "Reviewer",
    "ReportView",
    "ReportSource",
    "DraftRound",
    "DeterministicReviewer",
    "DeterministicWriter",
    "ScriptedReviewer",
    "ScriptedWriter",
    "AnthropicReviewer",
    "AnthropicWriter",
    "ChatReviewer",
    "ChatWriter",
    "OpenAIReviewer",
    "OpenAIWriter",
    "reviewer_from_spec",
    "writer_from_spec",
    "AnthropicPolicy",
    "DEFAULT_ALLOWLIST",
    "ExtractivePolicy",
    "OpenAIPolicy",
    "Parsed",
    "Policy",
    "PolicyUnavailableError",
    "REJECT_CODES",
    "RejectCode",
    "Rejected",
    "RetryPolicy",
    "REVIEW_REJECT_CODES",
    "ReviewRejected",
    "RunView",
    "SameValueQuestion",
    "same_value_question",
    "settle_same_value",
    "stated_values",
    "ScriptedAnswer",
    "ScriptedPolicy",
    "Turn",
    "abstain_reply",
    "anthropic_policy_from_spec",
    "fence_untrusted",
    "finish_reply",
    "parse_policy_reply",
    "parse_reply",
    "parse_review",
    "parse_structured",
    "policy_from_spec",
    "react",
)
