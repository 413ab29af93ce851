"""The hash chain (docs/events.md): stamping, verifying, and the byte-holding stores checking it on read."""

from __future__ import annotations

import hashlib
import itertools
import sqlite3
import zlib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    Event,
    Finish,
    PolicyReply,
    TamperedLogError,
    chain_hash,
    encode_event,
    event_from_dict,
    open_store,
    stamp_chain,
    verify_chain,
)
from citeloop.events._chain import ChainedBatch, encodings
from citeloop.events.testing import make_run_started, make_step
from citeloop.runtime import Runtime
from helpers.fakes import ReplyQueue, page_tools
from helpers.postgres import postgres_url as postgres_url
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

ANSWER = "Ada Ortiz"


def answered_run(run_id: str) -> list[Event]:
    """RunStarted, a search, the finish that names the answer, and the Answered: unstamped."""
    start = make_run_started(run_id)
    payload = {
        "answer": ANSWER,
        "citations": ["https://wiki.example/acme"],
        "evidence": "founded by Ada Ortiz",
    }
    finish = ActionParsed(
        run_id=run_id,
        seq=2,
        at=start.at + timedelta(seconds=1),
        step=1,
        reply=PolicyReply(text=f"Thought: done\nAction: finish\nAction Input: {payload}"),
        thought="done",
        action=Finish(payload=payload),  # type: ignore[arg-type]
    )
    answered = Answered(
        run_id=run_id,
        seq=3,
        at=start.at + timedelta(seconds=2),
        step=1,
        answer=ANSWER,
        citations=("https://wiki.example/acme",),
        evidence="founded by Ada Ortiz",
        locators=(),
        answer_sha256=hashlib.sha256(ANSWER.encode()).hexdigest(),
    )
    return [start, make_step(run_id, 1), finish, answered]


def chained(events: list[Event]) -> list[Event]:
    return list(stamp_chain(events, None)[0])


# -- stamping and verifying --------------------------------------------------------------


def test_stamping_links_each_event_to_its_predecessors_encoding() -> None:
    events = chained(answered_run("r"))
    assert events[0].prev is None
    for before, after in itertools.pairwise(events):
        assert after.prev == hashlib.sha256(encode_event(before)).hexdigest()
    verdict = verify_chain(events)
    assert (verdict.status, verdict.seq, verdict.head) == (
        "chained",
        None,
        chain_hash(encode_event(events[-1])),
    )
    assert verify_chain([encode_event(e) for e in events]) == verdict  # the same from the stored bytes


def test_stamping_batch_by_batch_is_stamping_the_whole_run() -> None:
    events = answered_run("r")
    first, head = stamp_chain(events[:2], None)
    rest, last = stamp_chain(events[2:], head)
    assert [*first, *rest] == chained(events)
    assert last == verify_chain(chained(events)).head


def test_an_unchained_log_encodes_as_before_and_verifies_as_unchained() -> None:
    events = answered_run("r")
    assert all(b'"prev"' not in encode_event(e) for e in events)  # old logs' bytes are unchanged
    assert verify_chain(events).status == "unchained"
    assert verify_chain(events[:1]).status == "chained"  # one event: nothing to link, nothing broken


def test_a_run_resumed_by_newer_code_is_chained_from_where_it_resumed() -> None:
    old = answered_run("r")[:2]
    new, _ = stamp_chain(answered_run("r")[2:], chain_hash(encode_event(old[-1])))
    assert verify_chain([*old, *new]).status == "chained"
    stripped = [*old, new[0], new[1].model_copy(update={"prev": None})]
    assert verify_chain(stripped).seq == 3  # once chained, an event without prev is a break


@pytest.mark.parametrize("index", [1, 2])
def test_an_edit_breaks_the_link_of_the_next_event(index: int) -> None:
    events = chained(answered_run("r"))
    edited = list(events)
    edited[index] = events[index].model_copy(update={"at": events[index].at + timedelta(seconds=1)})
    verdict = verify_chain(edited)
    assert (verdict.status, verdict.seq) == ("broken", index + 1)


def test_the_last_event_is_covered_by_a_known_head() -> None:
    events = chained(answered_run("r"))
    head = verify_chain(events).head
    edited = [*events[:-1], events[-1].model_copy(update={"answer": "Ada Ortix"})]
    assert verify_chain(edited).status == "chained"  # no successor names it ...
    assert verify_chain(edited, head=head).seq == 3  # ... but the head does


# -- property: stamping then verifying succeeds; flipping any field breaks at it or the next


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in _leaves(item, (*path, key))]
    if isinstance(value, list):
        return [leaf for index, item in enumerate(value) for leaf in _leaves(item, (*path, index))]
    return [path]


def _flipped(value: Any, key: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if value is None:
        return "0" * 64
    if key == "at":
        return (datetime.fromisoformat(value) + timedelta(microseconds=1)).isoformat()
    return value + "!"


def _flip(data: dict[str, Any], path: tuple[Any, ...]) -> None:
    holder: Any = data
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = _flipped(holder[path[-1]], path[-1])


notes = st.text(max_size=12)
runs = st.builds(
    lambda n, texts, end: [
        make_run_started("run-p", texts[0] if texts else "q"),
        *(make_step("run-p", seq, texts[seq % len(texts)] if texts else "") for seq in range(1, n + 1)),
        *end("run-p", n + 1),
    ],
    st.integers(min_value=0, max_value=6),
    st.lists(notes, max_size=4),
    st.sampled_from(
        [
            lambda run_id, seq: [],
            lambda run_id, seq: [answered_run(run_id)[3].model_copy(update={"seq": seq, "step": seq})],
            lambda run_id, seq: [
                Abstained(
                    run_id=run_id,
                    seq=seq,
                    at=make_run_started(run_id).at,
                    step=seq,
                    reason="budget",
                    answer="cannot: budget",
                )
            ],
        ]
    ),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(runs, st.data())
def test_flipping_any_field_breaks_the_chain_at_that_event_or_the_next(
    run: list[Event], data: st.DataObject
) -> None:
    events = chained(run)
    verdict = verify_chain(events)
    assert verdict.status == "chained" and verdict.seq is None
    index = data.draw(st.integers(min_value=0, max_value=len(events) - 1))
    fields = events[index].model_dump(mode="json")
    path = data.draw(st.sampled_from([p for p in _leaves(fields) if p not in (("v",), ("type",))]))
    _flip(fields, path)
    try:
        flipped = event_from_dict(fields)
    except ValueError:
        assume(False)  # not an event any more (a literal tag, a bound): decoding refuses it
        raise
    assume(encode_event(flipped) != encode_event(events[index]))
    tampered = [*events[:index], flipped, *events[index + 1 :]]
    found = verify_chain(tampered, head=verdict.head)
    assert found.status == "broken" and found.seq in (index, index + 1), (path, found)


# -- the stores that hold bytes check the chain on read ----------------------------------


def _edit_sqlite(path: Path, seq: int, old: bytes, new: bytes) -> None:
    with sqlite3.connect(path) as connection:
        (body,) = connection.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()
        assert bytes(body).count(old) >= 1
        connection.execute(
            "UPDATE events SET body = ? WHERE seq = ?", (bytes(body).replace(old, new, 1), seq)
        )


def _edit_jsonl(path: Path, line: int, old: bytes, new: bytes) -> None:
    """A one-byte edit inside a record, with its checksum recomputed (the frame is no seal)."""
    lines = path.read_bytes().splitlines()
    prefix, array = lines[line].split(b',"e":', 1)
    assert old in array
    array = array[:-1].replace(old, new, 1)
    lines[line] = b'%s,"e":%s}' % (prefix[:6] + b"%08x" % zlib.crc32(array) + prefix[14:], array)
    path.write_bytes(b"\n".join(lines) + b"\n")


async def _write(url: str, events: list[Event]) -> None:
    async with open_store(url) as store:
        await store.append(events[0].run_id, events, 0)


async def _read(url: str, run_id: str, after: int = -1) -> list[Event]:
    async with open_store(url) as store:
        return await store.read(run_id, after)


@pytest.mark.anyio
@pytest.mark.parametrize("after", [-1, 0, 1])
async def test_sqlite_catches_a_one_byte_edit_of_a_stored_answer_on_read(tmp_path: Path, after: int) -> None:
    url = f"sqlite:///{tmp_path}/log.db"
    events = chained(answered_run("run-s"))
    await _write(url, events)
    assert await _read(url, "run-s", after) == events[after + 1 :]
    _edit_sqlite(tmp_path / "log.db", 2, b"Ada Ortiz", b"Ada Ortix")  # in the finish the Answered follows
    with pytest.raises(TamperedLogError) as caught:
        await _read(url, "run-s", after)
    assert (caught.value.run_id, caught.value.seq) == ("run-s", 3)
    assert "SQLite store" in str(caught.value) and "seq 3" in str(caught.value)
    assert [e.seq for e in caught.value.events] == [e.seq for e in events[after + 1 :]]


@pytest.mark.anyio
async def test_jsonl_catches_a_one_byte_edit_with_a_recomputed_checksum_on_read(tmp_path: Path) -> None:
    url = f"jsonl:///{tmp_path}/log.jsonl"
    events = chained(answered_run("run-j"))
    async with open_store(url) as store:
        await store.append("run-j", events[:3], 0)
        await store.append("run-j", events[3:], 3)  # a second record: the chain crosses records
    _edit_jsonl(tmp_path / "log.jsonl", 0, b"Ada Ortiz", b"Ada Ortix")  # the finish, in the first record
    with pytest.raises(TamperedLogError) as caught:
        await _read(url, "run-j")
    assert (caught.value.run_id, caught.value.seq) == ("run-j", 3)
    assert "JSONL store" in str(caught.value)


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # the PostgreSQL store is asyncio-only
async def test_postgres_catches_a_one_byte_edit_of_a_stored_answer_on_read(postgres_url: str) -> None:
    import psycopg
    from psycopg import sql

    events = chained(answered_run("run-pg"))
    await _write(postgres_url, events)
    assert await _read(postgres_url, "run-pg", 1) == events[2:]
    schema = postgres_url.rsplit("schema=", 1)[1]
    with psycopg.connect(postgres_url.split("?")[0], autocommit=True) as conn:
        conn.execute(
            sql.SQL("UPDATE {}.events SET body = replace(body::text, %s, %s)::json WHERE seq = 2").format(
                sql.Identifier(schema)
            ),
            ("Ada Ortiz", "Ada Ortix"),
        )
    with pytest.raises(TamperedLogError) as caught:
        await _read(postgres_url, "run-pg", 1)
    assert caught.value.seq == 3 and "PostgreSQL store" in str(caught.value)


@pytest.mark.anyio
@pytest.mark.parametrize("scheme", ["sqlite", "jsonl", "memory"])
async def test_an_old_unchained_log_opens_and_resumes_into_a_chain(tmp_path: Path, scheme: str) -> None:
    """A log written before the chain reads as it did; newer code resuming it chains what it adds."""
    url = {"sqlite": f"sqlite:///{tmp_path}/log.db", "jsonl": f"jsonl:///{tmp_path}/log.jsonl"}.get(
        scheme, "memory://"
    )
    tools, _ = page_tools()
    policy = ReplyQueue(
        'Thought: x\nAction: finish\nAction Input: {"answer": "cannot: no", '
        '"citations": [], "evidence": "", "cannot_answer": true}'
    )
    async with open_store(url) as store:
        old = [make_run_started("run-old"), make_step("run-old", 1), make_step("run-old", 2)]
        await store.append("run-old", old, 0)  # unstamped, as citeloop wrote them before the chain
        assert verify_chain(await store.read("run-old")).status == "unchained"
        async with Runtime(store=store, tools=tools, policy=policy) as rt:
            await rt.resume("run-old")
        events = await store.read("run-old")  # read, and so verified, by the store
    assert len(events) > 3 and events[3].prev == chain_hash(encode_event(old[-1]))
    assert verify_chain(events).status == "chained"


def test_a_stamped_batch_carries_the_bytes_it_was_chained_with() -> None:
    # A store writes these bytes instead of encoding the batch again: they must be the
    # canonical encoding of exactly these events, also across `+` (the driver's one append).
    events = answered_run("r")
    first, head = stamp_chain(events[:2], None)
    rest, _ = stamp_chain(events[2:], head)
    joined = first + rest
    assert isinstance(joined, ChainedBatch)
    assert encodings(joined) == [encode_event(e) for e in joined]
    assert list(joined) == chained(events)
    plain = (*first, *rest)
    assert encodings(plain) == encodings(joined)  # anything else is encoded on the spot
    assert not isinstance(first + plain, ChainedBatch)


def test_a_stamped_batch_survives_copy_and_pickle() -> None:
    # A store of one's own receives it in `append`: copying or pickling it must keep both parts.
    import copy
    import pickle

    batch, _ = stamp_chain(answered_run("r"), None)
    for again in (copy.copy(batch), copy.deepcopy(batch), pickle.loads(pickle.dumps(batch))):
        assert isinstance(again, ChainedBatch)
        assert list(again) == list(batch) and again.encoded == batch.encoded


def test_stamping_copies_an_event_as_model_copy_does() -> None:
    # stamp_chain sets `prev` on a copy of its own making (cheaper than pydantic's): the copy
    # must be what `model_copy(update=...)` gives, fields set, dumps and bytes alike.
    events = answered_run("r")
    batch, _ = stamp_chain(events, None)
    for event, stamped in zip(events[1:], batch[1:], strict=True):
        expected = event.model_copy(update={"prev": stamped.prev})
        assert type(stamped) is type(expected) and stamped == expected
        assert stamped.model_fields_set == expected.model_fields_set
        assert stamped.model_dump() == expected.model_dump()
        assert encode_event(stamped) == encode_event(expected)
        assert event.prev is None  # the original is left as it was
        with pytest.raises(ValueError):
            stamped.prev = None  # type: ignore[misc]  # still frozen
    restamped, _ = stamp_chain([events[0], *batch[1:]], None)
    assert all(a is b for a, b in zip(restamped[1:], batch[1:], strict=True))  # already stamped: not copied
