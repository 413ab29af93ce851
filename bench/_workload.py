"""Synthetic, seeded runs of the standard workload (docs/benchmarks.md) as events, for store benchmarks.

A run is what the scripted 3-step policy leaves in the log: RunStarted, then for search
and open an ActionParsed, a ToolDispatched and a ToolObserved, then the finish and the
Answered event (9 events, ≈ 600 B on average, the page body 1-3 KB).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import platform
import random
from datetime import UTC, datetime, timedelta

from citeloop.events import (
    ActionParsed,
    Answered,
    CallTool,
    Event,
    Finish,
    Hit,
    Locator,
    Page,
    PolicyReply,
    RunStarted,
    SearchHits,
    ToolDispatched,
    ToolObserved,
    ToolSpec,
)

EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
_WORDS = [
    "the",
    "of",
    "robotics",
    "company",
    "founded",
    "market",
    "lisbon",
    "engineer",
    "report",
    "annual",
    "growth",
    "city",
]
TOOLS = (ToolSpec(name="search", read_only=True), ToolSpec(name="open", read_only=True))


def page_body(k: int) -> str:
    rng = random.Random(k)
    filler = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(130, 380)))
    return f"Company {k} was founded by Person {k} in {1950 + k % 70} in City {k % 37}. {filler}"


def run_events(run_id: str, k: int, start: datetime = EPOCH) -> list[Event]:
    """The 9 events of one standard run about company `k`."""
    url = f"https://corpus.example/company-{k}"
    body = page_body(k)
    sentence = body.split(". ", 1)[0] + "."
    question = f"Who founded Company {k}?"
    at = [start + timedelta(microseconds=i) for i in range(9)]
    hits = tuple(
        Hit(
            url=f"https://corpus.example/company-{k + j}",
            title=f"Company {k + j}",
            snippet=sentence[:80],
            score=1.0 / (j + 1),
        )
        for j in range(3)
    )
    finish = {"answer": f"Person {k}", "citations": [url], "cannot_answer": False, "evidence": sentence}
    return [
        RunStarted(
            run_id=run_id,
            seq=0,
            at=at[0],
            question=question,
            max_steps=6,
            tools=TOOLS,
            allowlist=("search", "open", "finish"),
            policy="scripted",
        ),
        ActionParsed(
            run_id=run_id,
            seq=1,
            at=at[1],
            step=1,
            reply=PolicyReply(text=f"Thought: search\nAction: search\nAction Input: {question}"),
            thought="search",
            action=CallTool(tool="search", input=question),
        ),
        ToolDispatched(
            run_id=run_id,
            seq=2,
            at=at[2],
            step=1,
            call_id=f"{run_id}-1",
            tool="search",
            input=question,
            read_only=True,
        ),
        ToolObserved(
            run_id=run_id,
            seq=3,
            at=at[3],
            step=1,
            call_id=f"{run_id}-1",
            tool="search",
            input=question,
            observation=SearchHits(query=question, hits=hits),
        ),
        ActionParsed(
            run_id=run_id,
            seq=4,
            at=at[4],
            step=2,
            reply=PolicyReply(text=f"Thought: open\nAction: open\nAction Input: {url}"),
            thought="open",
            action=CallTool(tool="open", input=url),
        ),
        ToolDispatched(
            run_id=run_id,
            seq=5,
            at=at[5],
            step=2,
            call_id=f"{run_id}-2",
            tool="open",
            input=url,
            read_only=True,
        ),
        ToolObserved(
            run_id=run_id,
            seq=6,
            at=at[6],
            step=2,
            call_id=f"{run_id}-2",
            tool="open",
            input=url,
            observation=Page(
                url=url, title=f"Company {k}", body=body, sha256=hashlib.sha256(body.encode()).hexdigest()
            ),
        ),
        ActionParsed(
            run_id=run_id,
            seq=7,
            at=at[7],
            step=3,
            reply=PolicyReply(text="Thought: finish"),
            thought="finish",
            action=Finish(payload=finish),
        ),
        Answered(
            run_id=run_id,
            seq=8,
            at=at[8],
            step=3,
            answer=f"Person {k}",
            citations=(url,),
            evidence=sentence,
            locators=(
                Locator(
                    url=url,
                    sha256=hashlib.sha256(body.encode()).hexdigest(),
                    start=0,
                    end=len(sentence),
                    start_utf16=0,
                    end_utf16=len(sentence),
                    quote=sentence,
                ),
            ),
            answer_sha256=hashlib.sha256(f"Person {k}".encode()).hexdigest(),
        ),
    ]


def versions() -> dict[str, str]:
    """Library versions to print next to every figure."""
    out = {"python": platform.python_version()}
    for name in ("citeloop", "pydantic", "pydantic-core", "anyio", "trio", "orjson", "psycopg"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            out[name] = importlib.metadata.version(name)
    import sqlite3

    out["sqlite"] = sqlite3.sqlite_version
    return out
