"""Small in-test tools and policies with counters, so tests can prove what did (not) run."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

import anyio
from citeloop.events import Hit, Observation, Page, PolicyReply, SearchHits, Text, ToolError
from citeloop.policies import RunView

_STOP = frozenset({"who", "what", "the", "is", "was", "and"})

SPEC_PAGES: dict[str, tuple[str, str]] = {
    "https://wiki.example/acme": (
        "Acme Robotics",
        "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
    ),
    "https://news.example/ada": ("Interview", "Ortiz left in 2021. Current CEO is Kenji Ito."),
}


def digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@dataclass
class Counter:
    calls: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.calls)


class WordSearch:
    """Ranks pages by how many question words they share: enough for tests."""

    name = "search"
    read_only = True

    def __init__(self, pages: Mapping[str, tuple[str, str]], counter: Counter, latency: float = 0.0) -> None:
        self._pages = pages
        self.counter = counter
        self._latency = latency

    async def __call__(self, argument: str) -> Observation:
        self.counter.calls.append(f"search:{argument}")
        if self._latency:
            await anyio.sleep(self._latency)
        words = {w for w in re.findall(r"[a-z]+", argument.casefold()) if len(w) >= 3 and w not in _STOP}
        scored = []
        for url, (title, body) in self._pages.items():
            text = f"{title} {body}".casefold()
            score = sum(1 for w in words if w in text)
            if score:
                scored.append((score, url, title, body))
        scored.sort(key=lambda item: (-item[0], item[1]))
        hits = tuple(Hit(url=u, title=t, snippet=b[:80], score=float(s)) for s, u, t, b in scored)
        return SearchHits(query=argument, hits=hits)


class DictOpen:
    name = "open"
    read_only = True

    def __init__(self, pages: Mapping[str, tuple[str, str]], counter: Counter) -> None:
        self._pages = pages
        self.counter = counter

    async def __call__(self, argument: str) -> Observation:
        self.counter.calls.append(f"open:{argument}")
        if argument not in self._pages:
            return ToolError(code="not_found", url=argument)
        title, body = self._pages[argument]
        return Page(url=argument, title=title, body=body, sha256=digest(body))


class Effectful:
    """A tool of unknown effect (say, sending an email): never to be run twice."""

    name = "notify"
    read_only = False

    def __init__(self, counter: Counter) -> None:
        self.counter = counter

    async def __call__(self, argument: str) -> Observation:
        self.counter.calls.append(f"notify:{argument}")
        return Text(text=f"sent {argument}")


def page_tools(
    pages: Mapping[str, tuple[str, str]] = SPEC_PAGES, latency: float = 0.0
) -> tuple[list[WordSearch | DictOpen], Counter]:
    counter = Counter()
    return [WordSearch(pages, counter, latency), DictOpen(pages, counter)], counter


class CountingPolicy:
    """Wraps a policy and counts its calls."""

    def __init__(self, inner: object) -> None:
        self._inner = inner
        self.calls = 0

    @property
    def name(self) -> str:
        return str(getattr(self._inner, "name", "counting"))

    async def next_step(self, view: RunView) -> str | PolicyReply:
        self.calls += 1
        result: str | PolicyReply = await self._inner.next_step(view)  # type: ignore[attr-defined]
        return result


class ReplyQueue:
    """Replies with the given texts in order, whatever it is shown (the last one repeats)."""

    def __init__(
        self, *replies: str | Callable[[RunView], Awaitable[str] | str], name: str = "queue"
    ) -> None:
        self._replies = list(replies)
        self.views: list[RunView] = []
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    async def next_step(self, view: RunView) -> str:
        self.views.append(view)
        reply = self._replies.pop(0) if len(self._replies) > 1 else self._replies[0]
        if callable(reply):
            result = reply(view)
            if not isinstance(result, str):
                result = await result
            return result
        return reply
