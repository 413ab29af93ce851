"""The SQLite store's `bodies` table: page bodies stored once, written with the events that name them.

Runs on the writer connection inside the batch's `BEGIN IMMEDIATE` (`_sqlite`), so looking a
body up and inserting it are one atomic step with the events. The cut and the splice
themselves are `_bodies`'.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence

from ._bodies import PageBody, cut_page, references, splice
from ._sqlite_batch import Append

_CHUNK = 500  # digests per IN (...) list, under SQLite's bound-parameter limit


def fetch(conn: sqlite3.Connection, digests: Collection[str]) -> dict[str, bytes]:
    """The stored bodies among `digests` (as the JSON strings the events held)."""
    found: dict[str, bytes] = {}
    wanted = list(digests)
    if len(wanted) <= 2:  # a run's read: one constant statement, cached, per page
        for digest in wanted:
            row = conn.execute("SELECT body FROM bodies WHERE sha256 = ?", (digest,)).fetchone()
            if row is not None:
                found[digest] = bytes(row[0])
        return found
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        for digest, body in conn.execute(f"SELECT sha256, body FROM bodies WHERE sha256 IN ({marks})", chunk):
            found[digest] = bytes(body)
    return found


def restore(conn: sqlite3.Connection, rows: list[bytes], store: str) -> None:
    """Splice the page bodies back into rows read from the events table, in place."""
    refs = references(rows)
    if refs:
        splice(rows, refs, fetch(conn, set(refs.values())), store)


def cut(
    conn: sqlite3.Connection, batch: Sequence[Append], encoded: list[list[bytes]]
) -> tuple[list[list[bytes]], list[dict[str, bytes]]]:
    """The rows to write for each append, and the bodies each one needs that the table lacks.

    A page whose body is already stored under its digest, byte for byte, is cut; one whose
    stored body differs (written by another serializer, or edited) is written whole.
    """
    cuts: dict[tuple[int, int], PageBody] = {}
    for a, ((_, events, _, _), bodies) in enumerate(zip(batch, encoded, strict=True)):
        for e, (event, body) in enumerate(zip(events, bodies, strict=True)):
            if event.type == "ToolObserved":
                found = cut_page(event, body)
                if found is not None:
                    cuts[a, e] = found
    if not cuts:
        return encoded, []
    stored = fetch(conn, {page.digest for page in cuts.values()})
    rows = [list(bodies) for bodies in encoded]
    needs: list[dict[str, bytes]] = [{} for _ in batch]
    for (a, e), page in cuts.items():
        have = stored.get(page.digest)
        if have is None:
            needs[a][page.digest] = page.body
        elif have != page.body:
            continue
        rows[a][e] = page.row
    return rows, needs


def insert(conn: sqlite3.Connection, needs: list[dict[str, bytes]], results: Sequence[object]) -> None:
    """Insert the bodies that the accepted appends (a None result) need."""
    if not needs:
        return
    new: dict[str, bytes] = {}
    for wanted, result in zip(needs, results, strict=True):
        if result is None:
            new.update(wanted)
    if new:
        conn.executemany("INSERT INTO bodies (sha256, body) VALUES (?, ?)", new.items())
