"""The run's tools as Chat Completions function definitions, for native tool calling.

`finish` carries the finish payload (docs/gate.md) as its arguments, so a model that calls it sends
exactly the object the grounding gate checks. The schemas guide the model; they are not
trusted: the strict parser and the gate check whatever comes back.
"""

from __future__ import annotations

from typing import Any, Final

# The argument name each built-in tool's one string input travels under.
ARGUMENT_NAMES: Final[dict[str, str]] = {"search": "query", "open": "url"}
GENERIC_ARGUMENT: Final = "input"

_DESCRIPTIONS: Final[dict[str, str]] = {
    "search": "Search the corpus. Returns hits with url, title, snippet and score (possibly none).",
    "open": "Open a page by its URL (from a search hit). Returns the page body, or an error.",
    "calculate": (
        "Calculate over measurement values of attached tables. input: one JSON object as a string, "
        '{"operation": "sum|mean|min|max|difference|ratio|compare", "inputs": [{"source", "sheet", '
        '"cell"} or {"source", "row", "column"}, ...]}. Returns a calculation (id calc:<step>, to cite '
        "as a premise) or a refusal."
    ),
}
_ARGUMENT_DOCS: Final[dict[str, str]] = {
    "query": "A few keywords.",
    "url": "The exact URL of a search hit.",
}

FINISH_PARAMETERS: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "answer": {
            "type": "string",
            "description": "The answer; when cannot_answer is true it must start with 'cannot:'.",
        },
        "citations": {
            "type": "array",
            "items": {"type": "string"},
            "description": "URLs of pages opened in this run that support the answer; [] to abstain.",
        },
        "cannot_answer": {
            "type": "boolean",
            "description": "True when the opened pages do not contain the answer.",
        },
        "evidence": {
            "type": "string",
            "description": "A verbatim quote from an opened, cited page; '' when abstaining.",
        },
        # Optional (docs/evidence.md, "Claims"): sentences of the answer, each with its premises.
        "claims": {
            "type": "array",
            "items": {"type": "object"},
            "description": (
                "Optional: claims of the answer, each {text, premises, class, method, item?}; "
                "with claims, evidence may be ''."
            ),
        },
        "gaps": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "Optional: the research plan's items (numbers from 1) that no claim settles.",
        },
    },
    "required": ["answer", "citations", "cannot_answer", "evidence"],
    "additionalProperties": False,
}


def argument_name(tool: str) -> str:
    """The key under which a one-string-input tool receives its argument."""
    return ARGUMENT_NAMES.get(tool, GENERIC_ARGUMENT)


def function_definition(tool: str) -> dict[str, Any]:
    """One `{"type": "function", ...}` entry of the request's `tools` list."""
    if tool == "finish":
        return {
            "type": "function",
            "function": {
                "name": "finish",
                "description": "End the run with a grounded answer, or abstain.",
                "parameters": FINISH_PARAMETERS,
            },
        }
    key = argument_name(tool)
    return {
        "type": "function",
        "function": {
            "name": tool,
            "description": _DESCRIPTIONS.get(tool, f"Run the {tool} tool on one string input."),
            "parameters": {
                "type": "object",
                "properties": {key: {"type": "string", "description": _ARGUMENT_DOCS.get(key, "")}},
                "required": [key],
                "additionalProperties": False,
            },
        },
    }


def function_definitions(allowlist: tuple[str, ...]) -> list[dict[str, Any]]:
    """The definitions for the run's allowlist, in allowlist order (only what the run allows)."""
    return [function_definition(tool) for tool in allowlist]
