"""A Northstar-like run built from events (no loader, no tool): sources, plan, calculations, claims.

The sources follow tests/data/northstar: a specification that declares 72 Wh and an 8-10
hour target, a workbook with prototype A at 9 h and B at 7.5 h, and its variants.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from citeloop.events import (
    ActionParsed,
    AdmittedSource,
    Calculation,
    CallTool,
    CellLocator,
    CellValue,
    Event,
    Measurement,
    Page,
    PolicyReply,
    RunStarted,
    SourceAdmitted,
    ToolDispatched,
    ToolObserved,
)
from citeloop.runtime import RunState, fold

from helpers.premise_sources import sha, text_source, workbook_source

AT = datetime(2026, 12, 1, tzinfo=UTC)
RUN = "claims-run"
SPEC = "attached:spec.md"
BOOK = "attached:runtime.xlsx"
RETEST = "attached:runtime-retest.xlsx"
NOTE = "attached:image-note.txt"
PAGE = "https://wiki.example/northstar"

SPEC_TEXT = (
    "# Northstar handheld: product specification (draft 3)\n\n"
    "The Northstar battery pack is declared at a capacity of 72 Wh.\n\n"
    "The design target for runtime is 8\u201310 hours of continuous field use.\n"
)
NOTE_TEXT = (
    "Generated description of photo IMG_0412.jpg (produced by an image-captioning model):\n"
    "the photo shows prototype A's status screen reading a runtime of 9.5 h.\n"
)
PAGE_TEXT = "Northstar is a rugged handheld made by Polaris Devices in Tromsø since 2024."
HEADER: tuple[CellValue, ...] = ("Prototype", "Runtime (h)", "Observed at")
ROWS: list[tuple[CellValue, ...]] = [
    HEADER,
    ("Prototype A", 9, "2026-03-02"),
    ("Prototype B", 7.5, "2026-03-04"),
]

HAPPY = (
    "In the supplied workbook, prototype A's measured runtime is longer than prototype B's (9 h versus 7.5 h)"
)
MEAN = "The mean measured runtime of prototypes A and B is 8.25 h"
DECLARED = "The specification declares a battery capacity of 72 Wh"


def spec() -> AdmittedSource:
    return text_source(SPEC, SPEC_TEXT, "declaration")


def note() -> AdmittedSource:
    return text_source(NOTE, NOTE_TEXT, "generated")


def book(
    rows: list[tuple[CellValue, ...]] | None = None, source_id: str = BOOK, **sheets: Any
) -> AdmittedSource:
    return workbook_source(source_id, {"Runtime": rows if rows is not None else ROWS, **sheets})


def cell(cell_ref: str, source: str = BOOK, sheet: str = "Runtime") -> dict[str, Any]:
    return {"source": source, "sheet": sheet, "cell": cell_ref}


def quote(text: str, source: str = SPEC) -> dict[str, Any]:
    return {"source": source, "quote": text}


def claim(text: str, premises: list[Any], cls: str, method: str, **more: Any) -> dict[str, Any]:
    return {"text": text, "premises": premises, "class": cls, "method": method, **more}


def happy_claim(**more: Any) -> dict[str, Any]:
    return claim(HAPPY, [cell("B2"), cell("B3")], "measurement", "comparison", **more)


def finish(
    claims: list[dict[str, Any]],
    *,
    answer: str | None = None,
    citations: Sequence[str] = (BOOK,),
    evidence: str | list[str] = "",
    gaps: list[int] | None = None,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "answer": answer if answer is not None else ". ".join(c["text"] for c in claims) + ".",
        "citations": list(citations),
        "cannot_answer": False,
        "evidence": evidence,
        "claims": claims,
    }
    if gaps is not None:
        payload["gaps"] = gaps
    return payload


def measurement(cell_ref: str, value: float, observed: str, row: str) -> Measurement:
    locator = CellLocator(
        source=BOOK,
        sha256="xlsx0",
        sheet="Runtime",
        cell=cell_ref,
        row_header=row,
        column_header="Runtime (h)",
        value=value,
    )
    return Measurement(locator=locator, value=value, unit="h", quantity="runtime", observed_at=observed)


def mean_calculation(step: int = 1, result: float = 8.25) -> Calculation:
    inputs = (
        measurement("B2", 9, "2026-03-02", "Prototype A"),
        measurement("B3", 7.5, "2026-03-04", "Prototype B"),
    )
    return Calculation(
        id=f"calc:{step}", operation="mean", inputs=inputs, unit="h", result=result, version="test"
    )


def events_for(
    *sources: AdmittedSource,
    plan: Iterable[str] = (),
    pages: Iterable[tuple[str, str]] = (),
    calculations: Iterable[Calculation] = (),
    question: str = "Which Northstar prototype runs longer?",
    max_steps: int = 8,
) -> list[Event]:
    """A run's log up to its next policy reply: started, sources admitted, pages opened, calculations made."""
    events: list[Event] = [
        RunStarted(
            run_id=RUN,
            seq=0,
            at=AT,
            question=question,
            max_steps=max_steps,
            tools=(),
            allowlist=("search", "open", "calculate", "finish"),
            policy="test",
            plan=tuple(plan),
        )
    ]
    events += [
        SourceAdmitted(run_id=RUN, seq=len(events) + i, at=AT, source=s) for i, s in enumerate(sources)
    ]
    step = 0
    for url, body in pages:
        step += 1
        seq = len(events)
        action = CallTool(tool="open", input=url)
        observed = Page(url=url, title=url, body=body, sha256=sha(body))
        events += [
            ActionParsed(
                run_id=RUN, seq=seq, at=AT, step=step, reply=PolicyReply(text="x"), thought="", action=action
            ),
            ToolDispatched(
                run_id=RUN,
                seq=seq + 1,
                at=AT,
                step=step,
                call_id=f"c{seq}",
                tool="open",
                input=url,
                read_only=True,
            ),
            ToolObserved(
                run_id=RUN,
                seq=seq + 2,
                at=AT,
                step=step,
                call_id=f"c{seq}",
                tool="open",
                input=url,
                observation=observed,
            ),
        ]
    for calculation in calculations:
        step += 1
        seq = len(events)
        action = CallTool(tool="calculate", input="{}")
        events += [
            ActionParsed(
                run_id=RUN, seq=seq, at=AT, step=step, reply=PolicyReply(text="x"), thought="", action=action
            ),
            ToolObserved(
                run_id=RUN,
                seq=seq + 1,
                at=AT,
                step=step,
                call_id=None,
                tool="calculate",
                input="{}",
                observation=calculation.model_copy(update={"id": f"calc:{step}"}),
            ),
        ]
    return events


def state_for(*sources: AdmittedSource, **options: Any) -> RunState:
    return fold(events_for(*sources, **options))
