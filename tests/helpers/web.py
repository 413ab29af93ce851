"""The web viewer under test: runs recorded into a SQLite store, and the app served from a thread.

Runs are recorded through the real `Runtime` with a scripted policy (search, open, finish
with a sentence of the page), on a clock that steps one second per reading, so that pages
and screenshots do not change between test runs. The app is served by uvicorn on a free
127.0.0.1 port in a thread of its own, and stopped when the test ends.
"""

from __future__ import annotations

import hashlib
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import TypeVar

import anyio
from citeloop.events import Hit, Observation, Page, SearchHits, ToolError, open_store
from citeloop.policies import Policy, RunView, abstain_reply, finish_reply, react
from citeloop.runtime import Limits, Outcome, Runtime

T = TypeVar("T")


@dataclass(frozen=True)
class Source:
    """One page the tools can find and open; `sentence` is in `body` and is what the policy quotes."""

    url: str
    title: str
    body: str
    sentence: str


def page_of(url: str, title: str, sentence: str, before: str = "", after: str = "") -> Source:
    return Source(url, title, before + sentence + after, sentence)


class _Search:
    name = "search"
    read_only = True

    def __init__(self, source: Source) -> None:
        self._source = source

    async def __call__(self, argument: str) -> Observation:
        source = self._source
        hit = Hit(url=source.url, title=source.title, snippet=source.sentence[:80], score=1.0)
        return SearchHits(query=argument, hits=(hit,))


class _Open:
    name = "open"
    read_only = True

    def __init__(self, source: Source) -> None:
        self._source = source

    async def __call__(self, argument: str) -> Observation:
        if argument != self._source.url:
            return ToolError(code="not_found", url=argument)
        body = self._source.body
        digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
        return Page(url=argument, title=self._source.title, body=body, sha256=digest)


class QuotingPolicy:
    """Search, open the hit, finish quoting the source's sentence; `gate`, when given, is waited on first."""

    name = "quoting"

    def __init__(
        self, source: Source, thought: str = "look it up", gate: threading.Event | None = None
    ) -> None:
        self._source = source
        self._thought = thought
        self._gate = gate

    async def next_step(self, view: RunView) -> str:
        if self._gate is not None:
            await anyio.to_thread.run_sync(self._gate.wait)
        if not view.searched:
            return react(self._thought, "search", view.question)
        if not view.pages:
            return react("read the top hit", "open", self._source.url)
        sentence = self._source.sentence
        return finish_reply("the page says so", sentence, [self._source.url], sentence)


class RefusingPolicy:
    name = "refusing"

    async def next_step(self, view: RunView) -> str:
        return abstain_reply("nothing to go on", "no source was searched")


def stepping_clock(start: datetime = datetime(2026, 1, 15, 9, 30, tzinfo=UTC)) -> Callable[[], datetime]:
    """A clock one second later at each reading, from `start`: pages and screenshots stay the same."""
    ticks = count()

    def now() -> datetime:
        return start + timedelta(seconds=next(ticks))

    return now


def run_async(func: Callable[[], Awaitable[T]]) -> T:
    """`anyio.run(func)` on a thread of its own: Playwright's sync API keeps an event loop on the test's."""
    results: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(anyio.run(func))
        except BaseException as exc:  # handed to the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return results[0]


def record(store_url: str, question: str, policy: Policy, source: Source) -> Outcome:
    """Run `question` to its outcome and record it in the store at `store_url`."""

    async def go() -> Outcome:
        async with open_store(store_url) as store:
            tools = [_Search(source), _Open(source)]
            limits = Limits(max_page_chars=3_000_000)
            runtime = Runtime(store=store, tools=tools, policy=policy, limits=limits, clock=stepping_clock())
            async with runtime:
                return await runtime.run(question)

    return run_async(go)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serving(store_url: str, token: str | None = None) -> Iterator[str]:
    """The viewer over `store_url` on a free 127.0.0.1 port, served from a thread: yields its base URL."""
    import uvicorn
    from citeloop.runtime.web import create_app

    port = free_port()
    config = uvicorn.Config(
        create_app(store_url, token=token), host="127.0.0.1", port=port, log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="citeloop-web", daemon=True)
    thread.start()
    started = threading.Event()
    while not started.wait(0.02):
        if server.started:
            started.set()
        elif not thread.is_alive():
            raise RuntimeError("the web viewer did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join()
