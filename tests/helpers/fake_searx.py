"""A fake SearxNG instance and a page server, each a real `http.server` on 127.0.0.1 in a thread.

`serve_searx()` answers `GET /search?q=...&format=json` with what its `FakeSearx` holds (set
it between requests to change the answer); `serve_pages({path: (content type, body)})` serves
fixed pages. Both stop when their `with` block ends.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class FakeSearx:
    """What the fake instance answers (`hang`: never, until the server stops), and the queries it got."""

    results: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    body: bytes | None = None  # sent as it is instead of the results, when set
    hang: bool = False
    queries: list[dict[str, list[str]]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)
    url: str = ""

    def answer(self) -> bytes:
        if self.body is not None:
            return self.body
        return json.dumps({"query": "", "number_of_results": 0, "results": self.results}).encode()


def _handler(respond: Callable[[BaseHTTPRequestHandler], None]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            respond(self)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def _serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _reply(handler: BaseHTTPRequestHandler, status: int, content_type: str, body: bytes) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@contextmanager
def serve_searx(fake: FakeSearx | None = None) -> Iterator[FakeSearx]:
    """A fake SearxNG on a free port; `fake.url` is its base URL, with a trailing slash."""
    fake = FakeSearx() if fake is None else fake

    def respond(handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        if parts.path != "/search":
            handler.send_error(404)
            return
        fake.queries.append(parse_qs(parts.query))
        if fake.hang:
            fake.release.wait()
            return
        _reply(handler, fake.status, "application/json", fake.answer())

    try:
        with _serving(_handler(respond)) as base:
            fake.url = base + "/"
            yield fake
    finally:
        fake.release.set()


@contextmanager
def serve_pages(pages: Mapping[str, tuple[str, bytes]]) -> Iterator[str]:
    """A server of `pages` (path -> content type, body), 404 elsewhere; yields its base URL."""

    def respond(handler: BaseHTTPRequestHandler) -> None:
        page = pages.get(urlsplit(handler.path).path)
        if page is None:
            handler.send_error(404)
            return
        _reply(handler, 200, *page)

    with _serving(_handler(respond)) as base:
        yield base
