"""Writers, reviewers and a research policy for report-run tests (docs/reports.md)."""

from __future__ import annotations

from datetime import UTC, datetime

from citeloop.events import Event, MemoryStore, PolicyReply
from citeloop.policies import ReportView, finish_reply, react
from citeloop.runtime import ReportOutcome, Runtime

from helpers.fakes import ReplyQueue, page_tools

FIXED = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
ACME = "https://wiki.example/acme"
QUESTION = "Who founded Acme Robotics?"
SENTENCE = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
GOOD = f'{SENTENCE}[^1]\n\n[^1]: {ACME} "{SENTENCE}"\n'
# The post-mortem's writer: fluent, footnoted, and citing an API no source names.
INVENTED = f'Call `acme.connect_fast()` to reach Acme Robotics.[^1]\n\n[^1]: {ACME} "{SENTENCE}"\n'


def fixed_clock() -> datetime:
    return FIXED


class ListWriter:
    """Replies with its drafts in order (the last one again when they run out); counts its calls."""

    name = "list-writer"

    def __init__(self, *drafts: str) -> None:
        self.drafts = drafts
        self.views: list[ReportView] = []

    async def write(self, view: ReportView) -> str:
        self.views.append(view)
        return self.drafts[min(len(self.views), len(self.drafts)) - 1]


class ListReviewer:
    name = "list-reviewer"

    def __init__(self, *verdicts: str) -> None:
        self.verdicts = verdicts
        self.calls = 0

    async def review(self, view: ReportView) -> str | PolicyReply:
        self.calls += 1
        return self.verdicts[min(self.calls, len(self.verdicts)) - 1]


def researcher() -> ReplyQueue:
    """Searches, opens the Acme page, and finishes: the research of every report here."""
    return ReplyQueue(
        lambda view: react("look it up", "search", "Acme founded"),
        lambda view: react("read it", "open", ACME),
        lambda view: finish_reply("it says so", "Ada Ortiz", [ACME], SENTENCE),
    )


async def report_run(
    writer: ListWriter,
    reviewer: ListReviewer,
    store: MemoryStore | None = None,
    **options: object,
) -> tuple[list[Event], ReportOutcome]:
    store = store or MemoryStore()
    tools, _ = page_tools()
    async with Runtime(
        store=store, tools=tools, policy=researcher(), writer=writer, reviewer=reviewer, clock=fixed_clock
    ) as runtime:
        outcome = await runtime.report(QUESTION, run_id="r1", **options)  # type: ignore[arg-type]
    return await store.read("r1"), outcome


def invented(name: str) -> str:
    return f'Call `acme.{name}()` to reach Acme Robotics.[^1]\n\n[^1]: {ACME} "{SENTENCE}"\n'
