"""The app's routes, every one a GET: the run list, one run, their live parts, and their event streams.

No route changes a store (the store is opened read-only, and nothing here appends).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import urlencode

from citeloop.events import TERMINAL_TYPES, EventStore, TamperedLogError, UnknownRunError
from citeloop.runtime.cli._errors import CliError
from citeloop.runtime.cli._listing import STATUSES, RunQuery
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse

from ._render import render
from ._view import load_run, load_runs

# How many runs a list page shows at most: a store of a million runs is searched, not listed.
LIST_LIMIT = 200


def _store(request: Request) -> EventStore:
    store: EventStore = request.app.state.store
    return store


def _query(request: Request) -> RunQuery:
    params = request.query_params
    grep = params.get("q", "").strip() or None
    statuses = frozenset(s for s in params.getlist("status") if s in STATUSES)
    return RunQuery(limit=LIST_LIMIT + 1, statuses=statuses, grep=grep)


def _query_string(query: RunQuery) -> str:
    pairs = [("q", query.grep or "")] + [("status", status) for status in sorted(query.statuses)]
    return urlencode([(k, v) for k, v in pairs if v])


async def _list_context(request: Request) -> dict[str, object]:
    query = _query(request)
    rows = await load_runs(_store(request), query)
    return {
        "rows": rows[:LIST_LIMIT],
        "more": len(rows) > LIST_LIMIT,
        "query": query,
        "statuses": STATUSES,
        "query_string": _query_string(query),
        "store_url": _store(request).url,
    }


async def run_list(request: Request) -> Response:
    return HTMLResponse(render("list.html", **await _list_context(request)))


async def run_list_part(request: Request) -> Response:
    return HTMLResponse(render("_runs.html", **await _list_context(request)))


async def _page(request: Request, template: str) -> Response:
    try:
        page = await load_run(_store(request), request.path_params["run_id"])
    except (UnknownRunError, CliError) as exc:
        return HTMLResponse(render("missing.html", message=str(exc), store_url=_store(request).url), 404)
    return HTMLResponse(render(template, page=page, store_url=_store(request).url))


async def run_page(request: Request) -> Response:
    return await _page(request, "run.html")


async def run_part(request: Request) -> Response:
    return await _page(request, "_run.html")


_NO_STORE = {"cache-control": "no-store"}


def _sse(name: str, data: str, position: int | None = None) -> bytes:
    # With an `id`, a reconnecting browser sends it back as Last-Event-ID: the stream goes on
    # from there instead of reading the store's history again.
    named = "" if position is None else f"id: {position}\n"
    return f"{named}event: {name}\ndata: {data}\n\n".encode()


def _last_event_id(request: Request) -> int | None:
    value = request.headers.get("last-event-id", "")
    return int(value) if value.isdigit() else None


async def _ended() -> AsyncIterator[bytes]:
    yield _sse("end", "")


async def run_events(request: Request) -> Response:
    """One run's events as they are stored: `append` with each seq, then `end` after the terminal one."""
    store = _store(request)
    run_id = request.path_params["run_id"]
    try:
        after = int(request.query_params.get("after", "-1"))
    except ValueError:
        after = -1

    try:
        stored = await store.read(run_id)
    except TamperedLogError:
        # The run page shows a tampered log as it is, judged; there is nothing live to follow.
        return StreamingResponse(_ended(), media_type="text/event-stream", headers=_NO_STORE)
    if not stored:  # an id, not a prefix: the run page names it whole
        return Response("no such run\n", 404, media_type="text/plain")

    async def stream() -> AsyncIterator[bytes]:
        yield b"retry: 2000\n\n"
        async for event in store.subscribe(run_id, after=after):
            yield _sse("append", str(event.seq))
            if event.type in TERMINAL_TYPES:
                break
        yield _sse("end", "")

    return StreamingResponse(stream(), media_type="text/event-stream", headers=_NO_STORE)


async def all_events(request: Request) -> Response:
    """A `changed` message for every event stored after the stream opened (for the run list)."""
    store = _store(request)

    resumed_from = _last_event_id(request)

    async def stream() -> AsyncIterator[bytes]:
        yield b"retry: 2000\n\n"
        # A reconnect goes on from the last position the page was told of; a new stream from
        # the store's head: only newer events count, and the history is never read.
        start = resumed_from if resumed_from is not None else await store.head_position()
        async for stored in store.subscribe_all(start):
            yield _sse("append", str(stored.position), stored.position)

    return StreamingResponse(stream(), media_type="text/event-stream", headers=_NO_STORE)
