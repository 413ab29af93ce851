"""The standard workload of docs/benchmarks.md, shared by the runtime benchmarks.

N synthetic pages ("Company K was founded by Person K in YEAR in CITY." + 1-3 KB of
filler), question i = "Who founded Company K?" with K = i mod N, a zero-latency
scripted policy (search, open the top hit, finish: 3 steps), tools in process (an
inverted index for search, a dict for open), optionally with simulated latency.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import platform
import random
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import anyio
from citeloop.events import CallTool, Finish, Hit, Observation, Page, SearchHits, ToolError
from citeloop.policies import RunView, ScriptedAnswer, ScriptedPolicy, parse_reply
from citeloop.runtime import locate_evidence, validate_finish

_FILLER = [
    "annual",
    "report",
    "market",
    "growth",
    "engineering",
    "team",
    "product",
    "line",
    "customers",
    "supply",
    "chain",
    "regional",
    "office",
    "quarterly",
    "results",
    "research",
    "partnership",
    "board",
    "meeting",
    "factory",
]
_TOKEN = re.compile(r"[a-z0-9]+")


def page(k: int) -> tuple[str, str, str]:
    rng = random.Random(k)
    year = 1950 + rng.randrange(70)
    city = f"City{rng.randrange(50)}"
    sentence = f"Company {k} was founded by Person {k} in {year} in {city}."
    filler = " ".join(rng.choice(_FILLER) for _ in range(rng.randint(130, 400)))
    return f"https://corpus.example/company-{k}", f"Company {k}", f"{sentence} {filler}."


@dataclass
class Workload:
    pages: dict[str, tuple[str, str]]
    answers: dict[str, ScriptedAnswer]
    index: dict[str, set[str]]
    latency: float = 0.0

    @classmethod
    def build(cls, n: int = 200, latency_ms: float = 0.0) -> Workload:
        pages: dict[str, tuple[str, str]] = {}
        answers: dict[str, ScriptedAnswer] = {}
        index: dict[str, set[str]] = defaultdict(set)
        for k in range(n):
            url, title, body = page(k)
            pages[url] = (title, body)
            sentence = body.split(". ", 1)[0] + "."
            answers[question(k, n)] = ScriptedAnswer(f"Person {k}", sentence)
            for token in set(_TOKEN.findall(f"{title} {sentence}".casefold())):
                index[token].add(url)
        return cls(pages, answers, dict(index), latency_ms / 1000)

    def tools(self) -> list[Any]:
        return [IndexSearch(self), DictOpen(self)]

    def policy(self) -> ScriptedPolicy:
        return ScriptedPolicy(self.answers, name="standard-scripted")


def question(i: int, n: int) -> str:
    return f"Who founded Company {i % n}?"


class IndexSearch:
    name = "search"
    read_only = True

    def __init__(self, workload: Workload) -> None:
        self._w = workload
        self._digests: dict[str, str] = {}

    async def __call__(self, argument: str) -> Observation:
        if self._w.latency:
            await anyio.sleep(self._w.latency)
        scores: dict[str, int] = defaultdict(int)
        tokens = _TOKEN.findall(argument.casefold())
        for token in tokens:
            for url in self._w.index.get(token, ()):
                scores[url] += 1
        # The page whose title number is in the query wins ties: "company 17" beats "company 170".
        ranked = sorted(scores.items(), key=lambda item: (-item[1], len(item[0]), item[0]))[:3]
        hits = tuple(
            Hit(url=url, title=self._w.pages[url][0], snippet=self._w.pages[url][1][:80], score=float(s))
            for url, s in ranked
        )
        return SearchHits(query=argument, hits=hits)


class DictOpen:
    name = "open"
    read_only = True

    def __init__(self, workload: Workload) -> None:
        self._w = workload

    async def __call__(self, argument: str) -> Observation:
        if self._w.latency:
            await anyio.sleep(self._w.latency)
        found = self._w.pages.get(argument)
        if found is None:
            return ToolError(code="not_found", url=argument)
        title, body = found
        return Page(url=argument, title=title, body=body, sha256=hashlib.sha256(body.encode()).hexdigest())


async def bare_loop(workload: Workload, tools: list[Any], policy: ScriptedPolicy, q: str) -> int:
    """The floor: the same policy, tool and validation work, with no runtime and no log."""
    search, open_ = tools
    searched: dict[str, tuple[Hit, ...]] = {}
    pages: dict[str, Page] = {}
    steps = 0
    for step in range(6):
        view = RunView(
            run_id="floor",
            question=q,
            allowlist=("search", "open", "finish"),
            step=step,
            max_steps=6,
            pages=pages,
            searched=searched,
        )
        reply = await policy.next_step(view)
        steps += 1
        parsed = parse_reply(reply)
        action = getattr(parsed, "action", None)
        if isinstance(action, CallTool):
            observation = await (search if action.tool == "search" else open_)(action.input)
            if isinstance(observation, SearchHits):
                searched[action.input.casefold()] = observation.hits
            elif isinstance(observation, Page):
                hashlib.sha256(observation.body.encode()).hexdigest()  # the digest the log would record
                pages[observation.url] = observation
        elif isinstance(action, Finish):
            payload = action.payload
            opened = {url: p.body for url, p in pages.items()}
            if validate_finish(payload, opened) is None and not payload["cannot_answer"]:
                cited = {u: (pages[u].body, pages[u].sha256) for u in payload["citations"]}  # type: ignore[union-attr]
                locate_evidence(str(payload["evidence"]), list(cited), cited)
            break
    return steps


DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test?schema=citeloop_bench"


def postgres_if_reachable(url: str = DEFAULT_POSTGRES) -> str | None:
    """The PostgreSQL URL when a server answers on loopback, so benches include it by default."""
    import socket

    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=0.5):
            return url
    except OSError:
        return None


def versions() -> dict[str, str]:
    names = ("citeloop", "anyio", "pydantic", "pydantic-core", "structlog", "trio")
    found = {}
    for name in names:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    found["python"] = platform.python_version()
    return found


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record, sort_keys=False))
    sys.stdout.flush()
