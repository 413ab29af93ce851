"""The policy's view of a run, projected from its log.

Tool output is untrusted data: page bodies and titles, search hits and `Text` output
reach a text policy only inside a fence that no line of the data can close
(`fence_untrusted`, policies/_fence.py), a body cut to a prompt limit with a visible
marker after the fence. The gate always checks the body stored in the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, assert_never

from citeloop.events import (
    Abstained,
    ActionParsed,
    AdmittedSource,
    AlreadySearched,
    Answered,
    Calculation,
    CellLocator,
    CellValue,
    ClaimAssessed,
    CsvRepresentation,
    DraftValidated,
    DraftWritten,
    FinishRejected,
    Forked,
    Hit,
    Measurement,
    Observation,
    Page,
    ParseRejected,
    PdfRepresentation,
    ResearchEnded,
    ReviewGiven,
    ReviewRequested,
    RunStarted,
    SearchHits,
    SourceAdmitted,
    Text,
    TextRepresentation,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
    WorkbookRepresentation,
)
from citeloop.policies import RunView, Turn, fence_untrusted

from ._state import RunState, StepEvents


@dataclass(frozen=True, slots=True)
class ViewOptions:
    """How the log is shown to a policy. `strip_thoughts` hides earlier thoughts from text policies."""

    max_body_chars: int = 4000
    strip_thoughts: bool = False


_SHORT_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def one_line(text: str) -> str:
    """`text` for a header line outside a fence (a URL, a query, an error code): every line
    break, control or other unprintable character (U+2028, NEL ...) as an escape."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return _SHORT_ESCAPES.get(char) or (f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")


def render_hits(hits: tuple[Hit, ...]) -> str:
    """The hits as a numbered list; inside a fence, since titles, URLs and snippets are tool output."""
    if not hits:
        return "no results"
    lines = []
    for rank, hit in enumerate(hits, 1):
        lines.append(f"{rank}. {hit.title} <{hit.url}>\n   {hit.snippet}")
    return fence_untrusted("search results", "\n".join(lines))


def render_observation(observation: Observation, options: ViewOptions) -> str:
    """The text a text policy reads for one tool result: tool output only ever inside a fence."""
    match observation:
        case SearchHits():
            return f'search results for "{one_line(observation.query)}":\n{render_hits(observation.hits)}'
        case AlreadySearched():
            return (
                f'already searched "{one_line(observation.query)}"; the earlier results were:\n'
                f"{render_hits(observation.hits)}"
            )
        case Page():
            body = observation.body[: options.max_body_chars]
            cut = len(observation.body) - len(body)
            shown = f"opened <{one_line(observation.url)}>\n" + fence_untrusted(
                "page", f"title: {observation.title}\n\n{body}"
            )
            if cut > 0:
                shown += f"\n[... {cut} more characters not shown]"
            if observation.truncated_from is not None:
                had, kept = observation.truncated_from, len(observation.body)
                shown += f"\n[the page had {had} characters; the log keeps the first {kept}]"
            return shown
        case ToolError():
            where = f" <{one_line(observation.url)}>" if observation.url else ""
            detail = f": {one_line(observation.message)}" if observation.message else ""
            return f"tool error: {one_line(observation.code)}{where}{detail}"
        case Text():
            return fence_untrusted("tool output", observation.text)
        case Calculation():
            return render_calculation(observation)
        case _:
            assert_never(observation)


def render_calculation(calculation: Calculation) -> str:
    """A calculation as a text policy sees it: its id, operation, inputs and result."""
    inputs = ", ".join(
        f"{item.locator.source} {_cell_name(item)} = {item.value:g} {item.unit}".rstrip()
        for item in calculation.inputs
    )
    result = calculation.result if isinstance(calculation.result, str) else f"{calculation.result:g}"
    unit = f" {calculation.unit}" if calculation.unit and not isinstance(calculation.result, str) else ""
    return f"calculation {calculation.id}: {calculation.operation}({inputs}) = {result}{unit}"


def _cell_name(measurement: Measurement) -> str:
    locator = measurement.locator
    return (
        f"{locator.sheet}!{locator.cell}"
        if isinstance(locator, CellLocator)
        else f"row {locator.row} {locator.column}"
    )


def render_sources(sources: Mapping[str, AdmittedSource], options: ViewOptions) -> str:
    """The run's attachments as a text policy reads them: each one's id, class and representation.

    The representation is tool output like a page body: fenced, and cut to
    `options.max_body_chars` with a visible marker. Tables are one cell a line, with the
    headers it sits under, so that a model can write a cell premise (docs/evidence.md).
    """
    shown = []
    for source in sources.values():
        body = source_text(source)
        kept = body[: options.max_body_chars]
        text = (
            f"attached <{one_line(source.id)}> ({source.evidence_class}, {one_line(source.media_type)})\n"
            + fence_untrusted("attachment", kept)
        )
        if len(body) > len(kept):
            text += f"\n[... {len(body) - len(kept)} more characters not shown]"
        shown.append(text)
    return "\n\n".join(shown)


def source_text(source: AdmittedSource) -> str:
    """An admitted representation as text: PDF pages marked `[page N]`, table cells one a line."""
    representation = source.representation
    match representation:
        case TextRepresentation():
            return representation.text
        case PdfRepresentation():
            return "\n\n".join(f"[page {n}]\n{page}" for n, page in enumerate(representation.pages, 1))
        case WorkbookRepresentation():
            return "\n\n".join(
                "\n".join([f"[sheet {one_line(sheet.name)}]", *_table_lines(sheet.rows, sheet.name)])
                for sheet in representation.sheets
            )
        case CsvRepresentation():
            return "\n".join(_table_lines(representation.rows, None))
        case _:
            assert_never(representation)


def _table_lines(rows: tuple[tuple[CellValue, ...], ...], sheet: str | None) -> list[str]:
    """`Sheet!B2 | row: A | column: Runtime (h) | 9` per cell under the header row, right of column A.

    A CSV's cells are named as its locators name them: `row N` counting data rows from 1.
    An empty cell is shown as `(empty)`: a missing value, not a zero.
    """
    if not rows:
        return []
    header = rows[0]
    lines = ["columns: " + " | ".join(_shown(value) for value in header)]
    for number, row in enumerate(rows[1:], 1):
        if not any(value not in (None, "") for value in row):
            continue
        row_header = _shown(row[0]) if row else ""
        for column in range(1, len(row)):
            column_header = _shown(header[column]) if column < len(header) else ""
            where = f"{sheet}!{_column_name(column)}{number + 1}" if sheet is not None else f"row {number}"
            value = "(empty)" if row[column] in (None, "") else _shown(row[column])
            lines.append(f"{one_line(where)} | row: {row_header} | column: {column_header} | {value}")
    return lines


def _shown(value: CellValue) -> str:
    return "" if value is None else one_line(str(value))


def _column_name(index: int) -> str:
    """The spreadsheet name of a 0-based column: 0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def turn_of(events: StepEvents, options: ViewOptions) -> Turn | None:
    """One step of the fold as a policy is shown it; None for a step with no policy reply."""
    head = events[0]
    if isinstance(head, ParseRejected):
        shown = f"protocol error: {head.code}" + (f" ({head.detail})" if head.detail else "")
        return Turn(step=head.step, reply=head.reply, thought="", action=None, shown=shown)
    if not isinstance(head, ActionParsed):
        return None
    shown, observation = "", None
    for event in events[1:]:
        match event:
            case ToolObserved():
                shown, observation = render_observation(event.observation, options), event.observation
            case ToolOutcomeUnknown():
                shown, observation = (
                    f"the outcome of {event.tool}({event.input!r}) is unknown: the process stopped while "
                    "it ran, and a tool of unknown effect is never run twice",
                    None,
                )
            case FinishRejected():
                shown, observation = f"finish rejected: {event.code}", None
            case RunStarted() | ActionParsed() | ParseRejected() | ToolDispatched():
                pass
            case Answered() | Abstained() | ClaimAssessed():
                pass
            case SourceAdmitted() | Forked():  # never in a step: the fold keeps them apart
                pass
            case ResearchEnded() | DraftWritten() | DraftValidated() | ReviewRequested() | ReviewGiven():
                pass  # a report's rounds: its writer and reviewer have their own view (_report_project.py)
            case _:
                assert_never(event)
    # A thought is hidden (when asked) once its step has a result: the policy needs its
    # latest reasoning only while it waits for one.
    thought = "" if shown and options.strip_thoughts else head.thought
    return Turn(
        step=head.step,
        reply=head.reply,
        thought=thought,
        action=head.action,
        shown=shown,
        observation=observation,
    )


class Projector:
    """The policy's view of a run, rendered from the fold's steps.

    A step's events never change once the next step begins, so each step is rendered
    once and kept (keyed by the identity of its tuple in the fold): a step costs O(1)
    rendering here, not O(steps).
    """

    def __init__(self, options: ViewOptions) -> None:
        self._options = options
        self._rendered: list[tuple[StepEvents, Turn | None]] = []
        # The attachments are admitted before step 1 and never change: rendered once a run.
        self._sources: tuple[Mapping[str, AdmittedSource], str] | None = None

    def view(self, state: RunState) -> RunView:
        rendered = self._rendered
        turns: list[Turn] = []
        for index, events in enumerate(state.by_step):
            if index < len(rendered) and rendered[index][0] is events:
                turn = rendered[index][1]
            else:
                turn = turn_of(events, self._options)
                del rendered[index:]
                rendered.append((events, turn))
            if turn is not None:
                turns.append(turn)
        return RunView(
            run_id=state.run_id,
            question=state.question,
            allowlist=state.allowlist,
            step=state.steps,
            max_steps=state.max_steps,
            turns=tuple(turns),
            pages=state.opened,
            searched=state.searched,
            failed_opens=state.failed_opens,
            repair_used=state.repair_used,
            sources=state.sources,
            sources_shown=self._sources_shown(state.sources),
            plan=state.plan,
        )

    def _sources_shown(self, sources: Mapping[str, AdmittedSource]) -> str:
        if not sources:
            return ""
        if self._sources is None or self._sources[0] is not sources:
            self._sources = (sources, render_sources(sources, self._options))
        return self._sources[1]
