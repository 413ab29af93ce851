"""A report run's outcome on the terminal: the report as Markdown, or why there is none."""

from __future__ import annotations

from citeloop.runtime import ReportOutcome
from rich.text import Text

from ._escape import escape_controls
from ._render import console


def label_text(text: str, style: str = "bold") -> Text:
    return Text(text, style=style)


def data_text(value: object, *, newlines: bool = False, style: str = "") -> Text:
    """Log data as a `Text`: controls escaped (newlines kept only when asked), never markup."""
    return Text(escape_controls(str(value), newlines=newlines), style=style)


def print_report(outcome: ReportOutcome, store_url: str) -> None:
    """The accepted report (its footnotes hold the quotes), a refusal, or the draft awaiting review."""
    out = console()
    if outcome.status == "accepted":
        out.print(data_text(outcome.report.rstrip("\n"), newlines=True))
        if outcome.note:
            out.print(Text.assemble(label_text("note: ", "bold yellow"), data_text(outcome.note)))
    elif outcome.status in ("waiting", "running"):
        out.print(label_text("WAITING FOR REVIEW", "bold cyan"))
        out.print(data_text(outcome.awaiting.rstrip("\n"), newlines=True))
        command = f"citeloop review {outcome.run_id} --accept   (or --revise NOTES)"
        out.print(Text.assemble(label_text("next: "), data_text(command)))
    else:
        heading = {"failed": "FAILED", "cancelled": "CANCELLED"}.get(
            outcome.run_status, "INSUFFICIENT GROUNDING"
        )
        out.print(label_text(heading, "bold red"))
        out.print(Text.assemble(label_text("reason: "), data_text(outcome.reason)))
        out.print(data_text(outcome.answer, newlines=True))
        if outcome.detail:
            out.print(data_text(outcome.detail, newlines=True, style="dim"))
        if outcome.research.startswith("cannot:"):
            out.print(Text.assemble(label_text("research: "), data_text(outcome.research)))
    counts = (
        _count(len(outcome.footnotes), "footnote"),
        _count(outcome.revisions, "revision"),
        _count(outcome.drafts_rejected, "draft") + " rejected by validation",
        _count(len(outcome.reviews), "review"),
    )
    said = f"run {outcome.run_id} · {' · '.join(counts)} · stored in {store_url}"
    out.print(data_text(said, style="dim"))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
