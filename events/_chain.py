"""The hash chain of a run's log: each event names the sha256 of its predecessor's encoding.

An event's `prev` is the hex sha256 of the canonical encoding (`encode_event`) of the
event before it in the same run; `RunStarted` (seq 0) has none. Stamping and verifying
are pure functions of the events (and, for a store, of the bytes it holds): the loop's
decisions never see the chain, the writer stamps each batch just before appending it.

A run none of whose events carries `prev` is *unchained* (written before the chain
existed) and reads as it always did. Once one event carries `prev`, every later event
must carry its predecessor's hash (a run resumed by newer code starts its chain there).
The chain shows an edit of any event but the last (the next event's `prev` no longer
matches); the last event is covered by a head kept elsewhere (`verify_chain(head=...)`),
and a terminal one also by `check`, which re-derives it. It is not a signature: whoever
can rewrite a whole log can recompute every hash. See docs/events.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from ._errors import TamperedLogError
from ._events import Event, decode_events, encode_event

ChainStatus: TypeAlias = Literal["chained", "unchained", "broken"]


def chain_hash(encoded: bytes) -> str:
    """The hash the next event names as its `prev`: the hex sha256 of an event's encoding."""
    return hashlib.sha256(encoded).hexdigest()


class ChainedBatch(tuple[Event, ...]):
    """A batch as `stamp_chain` returns it: the stamped events, and each one's canonical bytes.

    The bytes were computed to hash the chain; a store writes them as they are instead of
    encoding the batch again (`encodings`). A tuple, so the two cannot drift apart.
    """

    encoded: tuple[bytes, ...]

    def __new__(cls, events: Sequence[Event], encoded: Sequence[bytes]) -> ChainedBatch:
        batch = super().__new__(cls, events)
        batch.encoded = tuple(encoded)
        return batch

    def __getnewargs__(self) -> tuple[tuple[Event, ...], tuple[bytes, ...]]:
        # copy, deepcopy and pickle rebuild a tuple subclass through __new__: with both parts.
        return tuple(self), self.encoded

    def __add__(self, other: tuple[Event, ...]) -> ChainedBatch | tuple[Event, ...]:  # type: ignore[override]
        if isinstance(other, ChainedBatch):
            return ChainedBatch((*self, *other), self.encoded + other.encoded)
        return (*self, *other)


def encodings(events: Sequence[Event]) -> list[bytes]:
    """Each event's canonical bytes: carried by a `ChainedBatch`, encoded for anything else."""
    if isinstance(events, ChainedBatch):
        return list(events.encoded)
    return [encode_event(event) for event in events]


_set = object.__setattr__
_new = object.__new__
_sha256 = hashlib.sha256


def _with_prev(event: Event, prev: str | None) -> Event:
    """`event.model_copy(update={"prev": prev})`, without pydantic's generic copy (a third of the cost).

    An event is frozen, forbids extra fields and has no private attributes: its state is its
    `__dict__` and the set of fields given, which is all `model_copy` copies for it.
    """
    if event.__pydantic_extra__ is not None or event.__pydantic_private__ is not None:
        return event.model_copy(update={"prev": prev})
    # object.__new__, dict.copy and set.add: each a C call where `cls.__new__`, a dict
    # display and a set union built one object more (about 1 µs less an event, docs/performance.md).
    copied = _new(type(event))
    state = event.__dict__.copy()
    state["prev"] = prev
    fields = set(event.__pydantic_fields_set__)
    fields.add("prev")
    _set(copied, "__dict__", state)
    _set(copied, "__pydantic_fields_set__", fields)
    _set(copied, "__pydantic_extra__", None)
    _set(copied, "__pydantic_private__", None)
    return copied


def stamp_chain(events: Sequence[Event], head: str | None) -> tuple[ChainedBatch, str | None]:
    """`events` (one run's next batch, in seq order) each naming its predecessor, and the new head.

    `head` is the `chain_hash` of the run's last stored event (None for a new run); the
    new head is that of the batch's last event, for the next batch.
    """
    stamped: list[Event] = []
    encoded: list[bytes] = []
    for event in events:
        prev = None if event.seq == 0 else head
        if event.prev != prev:
            event = _with_prev(event, prev)
        stamped.append(event)
        body = encode_event(event)
        encoded.append(body)
        head = _sha256(body).hexdigest()  # chain_hash, inlined: once per event appended
    return ChainedBatch(stamped, encoded), head


@dataclass(frozen=True, slots=True)
class ChainVerdict:
    """What `verify_chain` found: `seq` and `reason` name the first break, if any."""

    status: ChainStatus
    seq: int | None = None
    reason: str = ""
    head: str | None = None  # the chain hash of the last event (None for an empty log)

    @property
    def ok(self) -> bool:
        """True unless the chain is broken (an unchained log is not a broken one)."""
        return self.status != "broken"


def verify_chain(log: Sequence[Event] | Sequence[bytes], *, head: str | None = None) -> ChainVerdict:
    """Check one whole run's chain, from seq 0; the first break names its seq.

    `log` is the run's events, or the encoded events as stored (then hashed as they are,
    not encoded again). With `head`, the last event must hash to it too, which covers an
    edit of the last event. Seqs must run 0, 1, 2 ... and every event belong to one run.
    """
    if not log:
        return ChainVerdict("unchained")
    if isinstance(log[0], bytes):
        encoded = [item for item in log if isinstance(item, bytes)]
        events = decode_events(encoded)
    else:
        events = [item for item in log if not isinstance(item, bytes)]
        encoded = [encode_event(event) for event in events]
    run_id = events[0].run_id
    for offset, event in enumerate(events):
        if event.seq != offset:
            return ChainVerdict("broken", offset, f"seq {event.seq} where seq {offset} belongs")
        if event.run_id != run_id:
            return ChainVerdict("broken", offset, f"an event of run {event.run_id!r} in run {run_id!r}")
    found = first_break(events, encoded)
    last = chain_hash(encoded[-1])
    if found is not None:
        return ChainVerdict("broken", found[0], found[1], last)
    if head is not None and last != head:
        return ChainVerdict("broken", events[-1].seq, "the last event does not hash to the known head", last)
    chained = len(events) == 1 or any(event.prev is not None for event in events)
    return ChainVerdict("chained" if chained else "unchained", head=last)


def first_break(
    events: Sequence[Event], encoded: Sequence[bytes], before: bytes | None = None, *, linked: bool = False
) -> tuple[int, str] | None:
    """The seq and reason of the first event that does not link to its predecessor, if any.

    `encoded[i]` holds the bytes `events[i]` was decoded from; `before`, the stored bytes
    of the event just before `events[0]`, when the slice does not start the run, and
    `linked` whether that event carried a `prev` (then every later one must).
    """
    for index, event in enumerate(events):
        if event.seq == 0:
            if event.prev is not None:
                return 0, "the first event names a predecessor"
        elif event.prev is not None:
            linked = True
            # Each event is hashed once, when its successor names it; an unchained log
            # is not hashed at all.
            pred = encoded[index - 1] if index > 0 else before
            if pred is not None and event.prev != _sha256(pred).hexdigest():  # chain_hash, inlined
                return event.seq, "prev is not the sha256 of the previous event"
        elif linked:
            return event.seq, "no prev after a chained event"
    return None


def check_stored_chain(
    store: str,
    run_id: str,
    events: Sequence[Event],
    encoded: Sequence[bytes],
    before: bytes | None = None,
) -> None:
    """Raise `TamperedLogError` when a store's read of a run breaks the chain (see `first_break`)."""
    found = first_break(events, encoded, before)
    if found is not None:
        raise TamperedLogError(store, run_id, found[0], found[1], tuple(events))


class ChainReader:
    """Checks the chain of runs a store holds as events rather than bytes (JSONL's index).

    Each event is encoded (its canonical bytes are what the file holds, inside its
    batch's record) and checked once, on the first read of its run.
    """

    def __init__(self, store: str) -> None:
        self._store = store
        # run id -> events checked, the last one's encoding, whether it carried `prev`
        self._checked: dict[str, tuple[int, bytes, bool]] = {}

    def check(self, run_id: str, log: Sequence[Event]) -> None:
        """Raise `TamperedLogError` if the run's whole log `log` breaks the chain."""
        count, last, linked = self._checked.get(run_id, (0, b"", False))
        if len(log) <= count:
            return
        fresh = log[count:]
        encoded = [encode_event(event) for event in fresh]
        found = first_break(fresh, encoded, last if count else None, linked=linked)
        if found is not None:
            raise TamperedLogError(self._store, run_id, found[0], found[1], tuple(log))
        self._checked[run_id] = (len(log), encoded[-1], linked or any(e.prev is not None for e in fresh))
