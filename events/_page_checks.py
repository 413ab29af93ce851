"""Conformance checks for opened pages: whatever a store does with their bodies, reads are exact.

A store may keep a page body once for many runs (SQLite and PostgreSQL do, by its digest);
these checks hold for every store, and are the ones that would catch a body swapped for
another run's, a digest trusted without checking, or a splice a byte off.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta

import anyio

from ._chain import ChainedBatch, stamp_chain, verify_chain
from ._conformance_kit import (
    _GUARD_SECONDS,
    EPOCH,
    TRICKY_TEXT,
    StoreHarness,
    _answered,
    _closing,
    _run_id,
    make_run_started,
    make_step,
)
from ._event_base import PolicyReply
from ._events import Event, ToolObserved, encode_event
from ._observations import Page

# Bodies that a splice could get wrong: JSON escapes at both ends, the marker a store may
# use in place of a body, a lone trailing backslash, and text that breaks naive codecs.
_SHARED_BODY = (
    '"quoted start" \\ "body":null,"sha256":"' + "0" * 64 + '" ' + TRICKY_TEXT + " founded by Ada Ortiz. \\"
)


def _page(body: str, digest: str | None = None, url: str = "https://example.test/shared") -> Page:
    digest = hashlib.sha256(body.encode()).hexdigest() if digest is None else digest
    return Page(url=url, title=TRICKY_TEXT, body=body, sha256=digest)


def _observed(run_id: str, seq: int, page: Page) -> ToolObserved:
    return ToolObserved(
        run_id=run_id,
        seq=seq,
        at=EPOCH + timedelta(milliseconds=seq),
        step=seq,
        call_id=f"c{seq}",
        tool="open",
        input=page.url,
        observation=page,
    )


def _run_opening(run_id: str, *pages: Page) -> ChainedBatch:
    """A chained, answered run that opens `pages` in turn (each page event has a successor)."""
    events: list[Event] = [make_run_started(run_id)]
    for page in pages:
        events.append(make_step(run_id, len(events), "open it"))
        events.append(_observed(run_id, len(events), page))
    events.append(_answered(run_id, len(events)))
    batch, _ = stamp_chain(events, None)
    return batch


async def check_shared_page_reads_back_exact(harness: StoreHarness) -> None:
    """Runs opening the same page read back byte-identical events, whole, from every read path."""
    runs = [_run_opening(_run_id(f"page{n}"), _page(_SHARED_BODY), _page(_SHARED_BODY)) for n in range(3)]
    async with harness.open() as store:
        start = await store.head_position()
        for batch in runs:  # one append per run, and one per event: both paths must hold
            run_id = batch[0].run_id
            if run_id == runs[0][0].run_id:
                await store.append(run_id, batch, 0)
            else:
                for event, encoded in zip(batch, batch.encoded, strict=True):
                    await store.append(run_id, ChainedBatch([event], [encoded]), event.seq)
        for batch in runs:
            run_id = batch[0].run_id
            back = await store.read(run_id)
            assert back == list(batch), run_id
            assert [encode_event(e) for e in back] == list(batch.encoded), run_id
            assert verify_chain(back).status == "chained", run_id
            page_seq = 2  # the first page event: read from it, its bytes name the next one's prev
            assert await store.read(run_id, page_seq) == list(batch[page_seq + 1 :])
            assert await store.read(run_id, page_seq - 1) == list(batch[page_seq:])
        wanted = {batch[0].run_id for batch in runs}
        seen: list[Event] = []
        with anyio.fail_after(_GUARD_SECONDS):
            async with _closing(store.subscribe_all(start)) as tail:
                async for stored in tail:
                    if stored.event.run_id in wanted:
                        seen.append(stored.event)
                    if len(seen) == sum(len(batch) for batch in runs):
                        break
        assert sorted(seen, key=lambda e: (e.run_id, e.seq)) == sorted(
            (e for batch in runs for e in batch), key=lambda e: (e.run_id, e.seq)
        )
    if harness.persistent:
        async with harness.open() as store:
            for batch in runs:
                assert await store.read(batch[0].run_id) == list(batch)


async def check_page_digests_are_never_trusted(harness: StoreHarness) -> None:
    """A page whose digest does not match its body (another page's, or none) reads back as written."""
    real = _page(_SHARED_BODY + " the real one")
    impostor = _page("a different body", digest=real.sha256)  # claims the real page's digest
    bogus = _page("no digest at all", digest="not a sha256")
    first = _run_opening(_run_id("digest"), real)
    second = _run_opening(_run_id("digest"), impostor, bogus, real)
    third = _run_opening(_run_id("digest"), impostor)  # before any right page with that digest
    async with harness.open() as store:
        await store.append(third[0].run_id, third, 0)
        await store.append(first[0].run_id, first, 0)
        await store.append(second[0].run_id, second, 0)
        for batch in (first, second, third):
            back = await store.read(batch[0].run_id)
            assert back == list(batch)
            assert [encode_event(e) for e in back] == list(batch.encoded)
    if harness.persistent:
        async with harness.open() as store:
            for batch in (first, second, third):
                assert await store.read(batch[0].run_id) == list(batch)


async def check_marker_text_outside_a_page_is_never_spliced(harness: StoreHarness) -> None:
    """Free JSON a policy wrote that spells a stored-body reference reads back as written, not as a page."""
    run_id = _run_id("marker")
    # A structured reply is free JSON: its keys encode unescaped, in the order given.
    spelled = PolicyReply(structured={"answer": "x", "body": None, "sha256": "c" * 64})
    step = make_step(run_id, 1).model_copy(update={"reply": spelled})
    events: list[Event] = [make_run_started(run_id), step]
    events.append(_observed(run_id, 2, _page(_SHARED_BODY)))
    events.append(_answered(run_id, 3))
    batch, _ = stamp_chain(events, None)
    async with harness.open() as store:
        await store.append(run_id, batch, 0)
        back = await store.read(run_id)
        assert [encode_event(e) for e in back] == list(batch.encoded)
    if harness.persistent:
        async with harness.open() as store:
            assert await store.read(run_id) == list(batch)
