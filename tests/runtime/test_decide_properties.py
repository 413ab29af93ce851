"""Properties of the one decision path: what the driver records, `check` re-derives exactly;
any edit of a decided fact is a divergence.

Hypothesis drives random policies (searches, opens of real and missing pages, finishes
that pass or fail the gate, malformed replies) through a real `Runtime`. The runs are
driven with `anyio.run` on asyncio inside each example: the property is about decisions,
not the event loop (the same decisions run on trio in tests/runtime/test_check.py).
"""

from __future__ import annotations

from typing import Any

import anyio
from citeloop.events import Abstained, Answered, Event, FinishRejected, MemoryStore, ParseRejected
from citeloop.policies import abstain_reply, finish_reply, react
from citeloop.runtime import Runtime, check_events, fold
from helpers.fakes import SPEC_PAGES, ReplyQueue, page_tools
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

WIKI = "https://wiki.example/acme"
NEWS = "https://news.example/ada"
FOUNDING = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."

urls = st.sampled_from([WIKI, NEWS, "https://missing.example/x"])
quotes = st.sampled_from([FOUNDING, "Current CEO is Kenji Ito.", "made up", "", "founded by Ada Ortiz"])
replies = st.one_of(
    st.builds(lambda q: react("look", "search", q), st.sampled_from(["Acme founder", "acme FOUNDER", "CEO"])),
    st.builds(lambda u: react("read", "open", u), urls),
    st.builds(
        lambda answer, cited, quote: finish_reply("done", answer, cited, quote),
        st.sampled_from(["Ada Ortiz", "Kenji Ito", "Bob Smith in 1999"]),
        st.lists(urls, max_size=2),
        quotes,
    ),
    st.just(abstain_reply("nothing", "the pages do not say")),
    st.sampled_from(["Final Answer: Ada", "Thought: x\nAction: fly\nAction Input: away", "", "{"]),
)


def drive(script: list[str], max_steps: int) -> list[Event]:
    async def main() -> list[Event]:
        store = MemoryStore()
        tools, _ = page_tools(SPEC_PAGES)
        policy = ReplyQueue(*script)
        async with Runtime(store=store, tools=tools, policy=policy, max_steps=max_steps) as rt:
            outcome = await rt.run("Who founded Acme Robotics?")
        return await store.read(outcome.run_id)

    return anyio.run(main)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(replies, min_size=1, max_size=8), st.integers(min_value=1, max_value=8))
def test_check_re_derives_every_recorded_decision(script: list[str], max_steps: int) -> None:
    events = drive(script, max_steps)
    report = check_events(events)
    assert report.ok, report.divergences
    assert fold(events).outcome is not None


_EDITS: dict[type, list[tuple[str, Any]]] = {
    Answered: [("answer", "Someone else"), ("evidence", "made up"), ("citations", ("https://evil.example/",))],
    Abstained: [("reason", "missing_fact"), ("reason", "no_hits"), ("answer", "cannot: edited")],
    FinishRejected: [("code", "keys"), ("code", "unsupported")],
    ParseRejected: [("code", "react_shape"), ("code", "bad_action")],
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(replies, min_size=1, max_size=8), st.data())
def test_any_edit_of_a_decided_fact_is_a_divergence(script: list[str], data: st.DataObject) -> None:
    events = drive(script, 6)
    editable = [i for i, e in enumerate(events) if type(e) in _EDITS]
    index = data.draw(st.sampled_from(editable))
    event = events[index]
    name, value = data.draw(st.sampled_from(_EDITS[type(event)]))
    if getattr(event, name) == value:
        return  # not an edit
    if isinstance(event, Abstained) and event.reason in ("policy_error", "cancelled"):
        return  # decided outside the log: not re-derivable (and not produced by these policies)
    edited = [*events[:index], event.model_copy(update={name: value}), *events[index + 1 :]]
    assert not check_events(edited).ok, (type(event).__name__, name, value)
