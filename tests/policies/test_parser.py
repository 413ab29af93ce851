"""The strict ReAct parser (docs/protocol.md): every code, its near miss, and the replies real models send."""

from __future__ import annotations

import json

import pytest
from citeloop.events import CallTool, Finish, PolicyReply
from citeloop.policies import (
    DEFAULT_ALLOWLIST,
    REJECT_CODES,
    Parsed,
    Rejected,
    parse_policy_reply,
    parse_reply,
    parse_structured,
)

PAYLOAD = {
    "answer": "Ada Ortiz founded Acme Robotics.",
    "citations": ["https://wiki.example/acme"],
    "cannot_answer": False,
    "evidence": "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
}


def reply(action: str, action_input: str, thought: str = "I should look this up.") -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


def code(result: Parsed | Rejected) -> str:
    assert isinstance(result, Rejected), f"expected a rejection, got {result!r}"
    return result.code


def action(result: Parsed | Rejected) -> CallTool | Finish:
    assert isinstance(result, Parsed), f"expected an action, got {result!r}"
    return result.action


def test_the_codes_are_exactly_those_of_the_spec() -> None:
    assert set(REJECT_CODES) == {
        "react_shape",
        "bad_action",
        "final_answer",
        "multiple_actions",
        "empty_input",
        "finish_json",
    }
    assert DEFAULT_ALLOWLIST == ("search", "open", "finish")


# --- every code: a trigger and a near miss -------------------------------------------------


def test_well_formed_search_open_finish() -> None:
    parsed = parse_reply(reply("search", "Acme Robotics founder"))
    assert parsed == Parsed("I should look this up.", CallTool(tool="search", input="Acme Robotics founder"))
    assert action(parse_reply(reply("open", "https://wiki.example/acme"))) == CallTool(
        tool="open", input="https://wiki.example/acme"
    )
    assert action(parse_reply(reply("finish", json.dumps(PAYLOAD)))) == Finish(payload=PAYLOAD)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Action: search\nAction Input: acme", "react_shape"),  # no Thought
        ("Thought: x\nAction Input: acme\nAction: search", "react_shape"),  # out of order
        ("Thought: x\nThought: y\nAction: search\nAction Input: acme", "react_shape"),
        ("Sure! Here it is.\nThought: x\nAction: search\nAction Input: acme", "react_shape"),
        ("Thought: x\nmore thinking\nAction: search\nAction Input: acme", "react_shape"),
        ("", "react_shape"),
    ],
)
def test_react_shape(text: str, expected: str) -> None:
    assert code(parse_reply(text)) == expected


def test_react_shape_near_miss_blank_lines_and_indentation_are_accepted() -> None:
    text = "\n  Thought: x\n\n  Action: search\n\nAction Input:   acme  \n\n"
    assert action(parse_reply(text)) == CallTool(tool="search", input="acme")


def test_bad_action_and_near_miss() -> None:
    assert code(parse_reply(reply("browse", "https://wiki.example/acme"))) == "bad_action"
    assert code(parse_reply(reply("Search", "acme"))) == "bad_action"  # names are case-sensitive
    assert code(parse_reply(reply("", "acme"))) == "bad_action"
    # The run's allowlist decides, not the default one.
    assert (
        code(parse_reply(reply("open", "https://x.example"), allowlist=("search", "finish"))) == "bad_action"
    )
    assert action(parse_reply(reply("lookup", "acme"), allowlist=("lookup",))) == CallTool(
        tool="lookup", input="acme"
    )


def test_final_answer_and_near_miss() -> None:
    assert code(parse_reply("Thought: done\nFinal Answer: Ada Ortiz")) == "final_answer"
    assert code(parse_reply("final answer: Ada Ortiz")) == "final_answer"
    # A thought that merely talks about an answer is fine.
    ok = parse_reply(reply("search", "acme", thought="before the final answer I need the page"))
    assert action(ok) == CallTool(tool="search", input="acme")


def test_multiple_actions_and_near_miss() -> None:
    two = reply("search", "acme") + "\n" + "Action: open\nAction Input: https://wiki.example/acme"
    assert code(parse_reply(two)) == "multiple_actions"
    # "Action Input:" is not a second "Action:".
    assert action(parse_reply(reply("search", "Action: plan"))) == CallTool(
        tool="search", input="Action: plan"
    )


def test_empty_input_and_near_miss() -> None:
    assert code(parse_reply(reply("search", ""))) == "empty_input"
    assert code(parse_reply(reply("search", "   "))) == "empty_input"
    assert code(parse_reply(reply("open", ""))) == "empty_input"
    assert code(parse_reply(reply("open", "https://wiki.example/acme page"))) == "empty_input"
    assert code(parse_reply(reply("open", '"https://wiki.example/acme"'))) == "empty_input"
    assert code(parse_reply(reply("open", "<https://wiki.example/acme>"))) == "empty_input"
    assert action(parse_reply(reply("search", "x"))) == CallTool(tool="search", input="x")
    # No scheme is required: a corpus may name its pages by path.
    assert action(parse_reply(reply("open", "docs/acme.md"))) == CallTool(tool="open", input="docs/acme.md")


def test_finish_json_and_near_miss() -> None:
    assert code(parse_reply(reply("finish", ""))) == "finish_json"
    assert code(parse_reply(reply("finish", "Ada Ortiz"))) == "finish_json"
    assert code(parse_reply(reply("finish", "[1, 2]"))) == "finish_json"
    assert code(parse_reply(reply("finish", '{"answer": "x",}'))) == "finish_json"
    assert code(parse_reply(reply("finish", "{} {}"))) == "finish_json"
    # Near miss: any single object parses; keys and types are the gate's business.
    assert action(parse_reply(reply("finish", '{"answer": 1}'))) == Finish(payload={"answer": 1})


# --- malformed replies that real models produce -------------------------------------------


def test_final_answer_in_the_same_message_as_an_action() -> None:
    text = reply("search", "acme") + "\nFinal Answer: Ada Ortiz"
    assert code(parse_reply(text)) == "final_answer"


def test_final_answer_wins_over_every_other_code() -> None:
    text = "Final Answer: x\nAction: a\nAction: b"
    assert code(parse_reply(text)) == "final_answer"


def test_a_model_written_observation_line() -> None:
    text = reply("search", "acme") + "\nObservation: Acme was founded by Ada Ortiz."
    assert code(parse_reply(text)) == "react_shape"


def test_a_thought_with_no_action() -> None:
    assert code(parse_reply("Thought: I think the answer is Ada Ortiz.")) == "react_shape"


def test_finish_json_in_a_code_fence_is_rejected() -> None:
    fenced = "```json\n" + json.dumps(PAYLOAD, indent=2) + "\n```"
    assert code(parse_reply(reply("finish", fenced))) == "finish_json"


def test_prose_after_the_json() -> None:
    text = reply("finish", json.dumps(PAYLOAD) + "\nI hope this helps!")
    assert code(parse_reply(text)) == "finish_json"


def test_blank_lines_between_the_fields_are_accepted() -> None:
    text = "Thought: found it\n\n\nAction: finish\n\nAction Input: " + json.dumps(PAYLOAD)
    assert action(parse_reply(text)) == Finish(payload=PAYLOAD)


def test_several_steps_in_one_message() -> None:
    text = (
        reply("search", "acme")
        + "\nObservation: hits\nThought: open it\nAction: open\nAction Input: https://wiki.example/acme"
    )
    assert code(parse_reply(text)) == "multiple_actions"


def test_an_empty_action_input() -> None:
    assert code(parse_reply("Thought: x\nAction: search\nAction Input:")) == "empty_input"


def test_an_unknown_tool() -> None:
    assert code(parse_reply(reply("calculator", "2+2"))) == "bad_action"


# --- finish JSON details ------------------------------------------------------------------


def test_pretty_printed_finish_json_spanning_lines() -> None:
    text = "Thought: done\nAction: finish\nAction Input:\n" + json.dumps(PAYLOAD, indent=2) + "\n"
    assert action(parse_reply(text)) == Finish(payload=PAYLOAD)
    crlf = text.replace("\n", "\r\n")
    assert action(parse_reply(crlf)) == Finish(payload=PAYLOAD)


@pytest.mark.parametrize(
    "raw",
    [
        '{"cannot_answer": true, "cannot_answer": false}',  # duplicate key
        '{"score": NaN}',
        '{"score": Infinity}',
        '{"score": 1e999}',
        '{"answer": "\\ud800"}',  # a lone surrogate cannot be stored as UTF-8
        "[" * 5000 + "]" * 5000,
        '{"a": ' * 100 + "1" + "}" * 100,  # nesting deeper than 64
    ],
)
def test_finish_json_that_could_not_be_stored_or_is_ambiguous(raw: str) -> None:
    assert code(parse_reply(reply("finish", raw))) == "finish_json"


def test_a_search_input_on_several_lines_is_react_shape() -> None:
    assert code(parse_reply(reply("search", "acme\nrobotics"))) == "react_shape"


def test_action_input_is_never_evaluated() -> None:
    query = "__import__('os').system('echo pwned')"
    assert action(parse_reply(reply("search", query))) == CallTool(tool="search", input=query)


# --- native tool calls --------------------------------------------------------------------


def test_structured_calls_produce_the_same_actions() -> None:
    assert parse_structured({"name": "search", "arguments": {"query": "acme"}}) == Parsed(
        "", CallTool(tool="search", input="acme")
    )
    assert action(
        parse_structured({"name": "open", "arguments": '{"url": "https://wiki.example/acme"}'})
    ) == (CallTool(tool="open", input="https://wiki.example/acme"))
    assert action(parse_structured({"name": "search", "arguments": {"input": "acme"}})) == CallTool(
        tool="search", input="acme"
    )
    finish = parse_structured({"name": "finish", "arguments": json.dumps(PAYLOAD), "thought": "done"})
    assert finish == Parsed("done", Finish(payload=PAYLOAD))
    assert action(parse_structured({"name": "finish", "arguments": PAYLOAD, "id": "call_1"})) == Finish(
        payload=PAYLOAD
    )


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ({"arguments": {}}, "react_shape"),
        ({"name": 3, "arguments": {}}, "react_shape"),
        ({"name": "search", "arguments": {"query": "x"}, "extra": 1}, "react_shape"),
        ({"name": "final_answer", "arguments": {"answer": "x"}}, "final_answer"),
        ({"name": "browse", "arguments": {"url": "x"}}, "bad_action"),
        ({"name": "search", "arguments": {"query": ""}}, "empty_input"),
        ({"name": "search", "arguments": {"query": "x", "k": 3}}, "empty_input"),
        ({"name": "search", "arguments": {"url": "x"}}, "empty_input"),
        ({"name": "search", "arguments": {"query": 5}}, "empty_input"),
        ({"name": "search", "arguments": "{not json"}, "empty_input"),
        ({"name": "open", "arguments": {"url": "two words"}}, "empty_input"),
        ({"name": "finish", "arguments": "{not json"}, "finish_json"),
        ({"name": "finish", "arguments": "[]"}, "finish_json"),
        ({"name": "finish", "arguments": ["answer"]}, "finish_json"),
        ({"name": "finish", "arguments": '{"a": 1, "a": 2}'}, "finish_json"),
        ({"name": "finish", "arguments": {"a": {1, 2}}}, "finish_json"),
    ],
)
def test_structured_rejections(call: dict[str, object], expected: str) -> None:
    assert code(parse_structured(call)) == expected


def test_policy_reply_routing() -> None:
    text = PolicyReply(text=reply("search", "acme"))
    assert action(parse_policy_reply(text, DEFAULT_ALLOWLIST)) == CallTool(tool="search", input="acme")
    both = PolicyReply(text="Looking it up.", structured={"name": "search", "arguments": {"query": "acme"}})
    assert parse_policy_reply(both, DEFAULT_ALLOWLIST) == Parsed(
        "Looking it up.", CallTool(tool="search", input="acme")
    )
    assert code(parse_policy_reply(PolicyReply(), DEFAULT_ALLOWLIST)) == "react_shape"
    narrowed = PolicyReply(structured={"name": "open", "arguments": {"url": "https://x.example"}})
    assert code(parse_policy_reply(narrowed, ("search", "finish"))) == "bad_action"
