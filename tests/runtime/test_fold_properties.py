"""Property tests of the fold: any split folds the same, the codec is transparent, nothing is re-hashed."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    CallTool,
    Event,
    FinishRejected,
    Hit,
    Page,
    ParseRejected,
    PolicyReply,
    RunStarted,
    SearchHits,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
    decode_events,
    encode_event,
)
from citeloop.runtime import FoldError, RunState, fold
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
text = st.text(st.characters(codec="utf-8"), max_size=30)
urls = st.sampled_from([f"https://site.example/{i}" for i in range(5)])

# One "move" of a run: what the policy did and what came back, as a few events.
moves = st.one_of(
    st.tuples(st.just("search"), text, st.lists(st.tuples(urls, text), max_size=3)),
    st.tuples(st.just("open"), urls, text),  # a successful open with this body
    st.tuples(st.just("open_fail"), urls),
    st.tuples(st.just("parse_rejected"), text),
    st.tuples(st.just("finish_rejected"), st.sampled_from(["keys", "evidence", "cite_not_opened"])),
    st.tuples(st.just("dangling"), st.booleans()),  # a dispatch with no observation (yet)
)


def _build(run_id: str, plan: list[tuple[Any, ...]], ending: str | None) -> list[Event]:
    events: list[Event] = []

    def at() -> datetime:
        return EPOCH + timedelta(milliseconds=len(events))

    def seq() -> int:
        return len(events)

    events.append(
        RunStarted(
            run_id=run_id,
            seq=0,
            at=at(),
            question="q?",
            max_steps=6,
            tools=(ToolSpec(name="search", read_only=True), ToolSpec(name="open", read_only=True)),
            allowlist=("search", "open", "finish"),
            policy="prop",
        )
    )
    for step, move in enumerate(plan, start=1):
        kind = move[0]
        if kind == "parse_rejected":
            events.append(
                ParseRejected(
                    run_id=run_id,
                    seq=seq(),
                    at=at(),
                    step=step,
                    reply=PolicyReply(text=move[1]),
                    code="react_shape",
                )
            )
            continue
        if kind == "finish_rejected":
            events.append(
                FinishRejected(
                    run_id=run_id, seq=seq(), at=at(), step=step, code=move[1], payload={"answer": "x"}
                )
            )
            continue
        tool, arg = ("search", move[1]) if kind == "search" else ("open", str(move[1]))
        call = f"c{step}"
        events.append(
            ActionParsed(
                run_id=run_id,
                seq=seq(),
                at=at(),
                step=step,
                reply=PolicyReply(text="r"),
                thought="t",
                action=CallTool(tool=tool, input=arg),
            )
        )
        events.append(
            ToolDispatched(
                run_id=run_id,
                seq=seq(),
                at=at(),
                step=step,
                call_id=call,
                tool=tool,
                input=arg,
                read_only=kind != "dangling",
            )
        )
        if kind == "dangling":
            if move[1]:
                events.append(
                    ToolOutcomeUnknown(
                        run_id=run_id, seq=seq(), at=at(), step=step, call_id=call, tool=tool, input=arg
                    )
                )
            continue
        observation: Any
        if kind == "search":
            hits = tuple(Hit(url=u, title=t, snippet=t, score=1.0) for u, t in move[2])
            observation = SearchHits(query=arg, hits=hits)
        elif kind == "open":
            # A digest that is deliberately NOT the body's: the fold must keep what was recorded.
            observation = Page(url=arg, title="T", body=move[2], sha256=f"recorded-{len(events)}")
        else:
            observation = ToolError(code="not_found", url=arg)
        events.append(
            ToolObserved(
                run_id=run_id,
                seq=seq(),
                at=at(),
                step=step,
                call_id=call,
                tool=tool,
                input=arg,
                observation=observation,
            )
        )
    if ending == "answered":
        events.append(
            Answered(
                run_id=run_id,
                seq=seq(),
                at=at(),
                step=len(plan) + 1,
                answer="a",
                citations=(),
                evidence="e",
                locators=(),
                answer_sha256="h",
            )
        )
    elif ending == "abstained":
        events.append(
            Abstained(
                run_id=run_id,
                seq=seq(),
                at=at(),
                step=len(plan) + 1,
                reason="budget",
                answer="cannot: budget",
            )
        )
    return events


run_logs = st.builds(
    _build,
    st.text(min_size=1, max_size=12),
    st.lists(moves, max_size=12),
    st.sampled_from([None, "answered", "abstained"]),
)
FAST = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(run_logs)
def test_folding_in_two_parts_equals_folding_at_once(log: list[Event]) -> None:
    whole = fold(log)
    for cut in range(len(log) + 1):
        assert fold(log[cut:], fold(log[:cut])) == whole


@FAST
@given(run_logs)
def test_encode_decode_then_fold_equals_fold(log: list[Event]) -> None:
    decoded = decode_events([encode_event(e) for e in log])
    assert decoded == log
    assert fold(decoded) == fold(log)


@FAST
@given(run_logs)
def test_fold_keeps_recorded_digests_and_never_hashes(log: list[Event]) -> None:
    def no_hashing(*args: object, **kwargs: object) -> object:
        raise AssertionError("the fold must not hash bodies")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hashlib, "sha256", no_hashing)
        state = fold(log)
    last_page: dict[str, Page] = {}
    for event in log:
        if isinstance(event, ToolObserved) and isinstance(event.observation, Page):
            last_page[event.observation.url] = event.observation
    assert set(state.opened) == set(last_page)
    for url, page in last_page.items():
        assert state.opened[url].sha256 == page.sha256
        assert state.opened[url].body == page.body
    assert state.next_seq == len(log)


@FAST
@given(run_logs.filter(lambda log: len(log) >= 3), st.data())
def test_a_seq_gap_is_a_fold_error(log: list[Event], data: st.DataObject) -> None:
    missing = data.draw(st.integers(min_value=1, max_value=len(log) - 2))
    with pytest.raises(FoldError):
        fold(log[:missing] + log[missing + 1 :])


def test_events_of_another_run_are_a_fold_error() -> None:
    log = _build("a", [("parse_rejected", "x")], None)
    intruder = ParseRejected(
        run_id="b", seq=2, at=EPOCH, step=2, reply=PolicyReply(text="y"), code="react_shape"
    )
    with pytest.raises(FoldError):
        fold([*log, intruder])


def test_the_builder_keeps_every_field_of_the_state_in_its_place() -> None:
    # `_Builder` unpacks a RunState and `freeze` builds one back positionally: both follow `_fields`.
    marks = [object() for _ in RunState._fields]
    state = RunState(*marks)
    folded = fold((), state)
    assert all(got is mark for got, mark in zip(folded, marks, strict=True))
