"""The structure of a page body, read back from its plain text (docs/corpus.md, "Structure").

The corpus writes HTML as text that keeps its structure in a plain form, and Markdown is
already such text: a heading is a line opened by `#` marks; a definition description is
indented four spaces per level under its term; a table row is one line of tab-separated
cells. `outline` gives every line of a body its offsets and what it sits under, so the
extractive policy can tell that a sentence under `work_mem (integer)` is about `work_mem`
or that `40` is the `Numeric value` of the row `ERROR`. A body with none of these
marks (plain prose) is lines with no context, read as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

_HEADING: Final = re.compile(r"(#{1,6})\s+(.*)")
_HEADING_WORDS: Final = 24
_PILCROW: Final = "\u00b6"
# A configuration example opened by a comment ("# X-Foo's value is set ... Header set X-Foo: baz") is
# collapsed into one short line opened by "#" too. Past the page's first deeper heading, a level-1
# line of eight words or more holding a quote, a bracket or "=" is code, unless numbered ("# 3. Type
# Affinity") or marked by a pilcrow. (runtime/_support_context.py reads the same rule.)
_NUMBERED: Final = re.compile(r"\d+(?:\.\d+)*\.?\s")
# A quoted span (not an apostrophe inside a word: "the teapot's own settings"), a bracket or "=".
_CODE_CHARACTERS: Final = re.compile(r"""(?<!\w)(?:'[^'\s][^']*'|"[^"]+")(?!\w)|[<>=]""")
_CODE_WORDS: Final = 8
# "loop_wait: the number of seconds the loop will sleep. Default value: 10": a list item that opens
# with a setting's name and a colon describes that setting, as a definition would. Only a name shaped
# as code or a lower-case key, before a description in lower case, and not a label ("default: 1",
# "note: ..."). (runtime/_support_context.py reads the same rule.)
INLINE_TERM: Final = re.compile(
    r"([a-z][a-z0-9_.-]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?: \([^)]*\))?: (?=[a-z(])"
)
LABELS: Final = frozenset({"default", "example", "note", "see", "type", "range", "allowed", "warning", "tip"})


def inline_term(text: str) -> str | None:
    """The setting a line opens with as "name: description", if it does (`INLINE_TERM`)."""
    found = INLINE_TERM.match(text)
    if found is None or found.group(1).casefold() in LABELS:
        return None
    return found.group(1)


def code_comment(marks: int, title: str) -> bool:
    """Whether a level-`marks` line titled `title`, past a deeper heading, is a collapsed code block:
    a comment with the code after it runs on for eight words or more (`Settings for "kettle.chill"`
    is a title)."""
    return (
        marks == 1
        and len(title.split()) >= _CODE_WORDS
        and not title.endswith(_PILCROW)
        and _NUMBERED.match(title) is None
        and _CODE_CHARACTERS.search(title) is not None
    )


@dataclass(frozen=True, slots=True)
class Line:
    """One non-empty line: its span in the body, its text, and the terms and headings it sits under."""

    start: int
    end: int
    text: str
    depth: int
    terms: tuple[str, ...]  # the definition terms it is described under, outermost first
    headings: tuple[str, ...]  # the section path, outermost first
    is_term: bool  # a definition term (a line followed by a deeper one)
    cells: tuple[str, ...]  # a table row's cells (empty outside a table)
    header: tuple[str, ...]  # the first row of the table the row belongs to


def clean(text: str) -> str:
    """A heading or term without the permalink sign documentation generators append (\u00b6)."""
    return text.replace(_PILCROW, "").strip()


def outline(body: str) -> list[Line]:
    """The body's lines with their context, in order."""
    raw: list[tuple[int, int, str, int, str]] = []
    at = 0
    for piece in body.split("\n"):
        stripped = piece.strip()
        if stripped:
            spaces = len(piece) - len(piece.lstrip(" "))
            lead = len(piece) - len(piece.lstrip())
            row = piece[spaces:].rstrip() if "\t" in piece else ""
            raw.append((at + lead, at + lead + len(stripped), stripped, spaces // 4, row))
        at += len(piece) + 1
    lines: list[Line] = []
    terms: list[tuple[int, str]] = []
    headings: list[tuple[int, str]] = []
    header: tuple[str, ...] = ()
    in_table = False
    deeper_seen = False  # a heading of level 2 or more came before
    for index, (start, end, text, depth, row) in enumerate(raw):
        # A code block whose first line is a comment ("# Example A: ...") is collapsed into one long
        # line opened by "#" too; a heading is a title, a few words long.
        heading = (
            _HEADING.fullmatch(text) if text[:1] == "#" and len(text.split()) <= _HEADING_WORDS else None
        )
        if heading is not None and deeper_seen and code_comment(len(heading.group(1)), heading.group(2)):
            heading = None
        while terms and terms[-1][0] >= depth:
            terms.pop()
        if heading is not None:
            deeper_seen = deeper_seen or len(heading.group(1)) > 1
            level = len(heading.group(1))
            headings = [h for h in headings if h[0] < level]
            headings.append((level, clean(heading.group(2))))
            terms.clear()
        cells: tuple[str, ...] = ()
        if row and heading is None:
            cells = tuple(cell.strip() for cell in row.split("\t"))
            if not in_table:
                header = cells
            in_table = True
        else:
            in_table = False
        following = raw[index + 1][3] if index + 1 < len(raw) else 0
        is_term = heading is None and not cells and following > depth
        own = inline_term(text) if heading is None and not cells else None
        lines.append(
            Line(
                start,
                end,
                text,
                depth,
                (*(t for _, t in terms), *((own,) if own else ())),
                tuple(h for _, h in headings),
                is_term,
                cells,
                header if cells else (),
            )
        )
        if is_term:
            # "--dirty[=<mark>]" right over "--broken[=<mark>]": both describe the paragraph below.
            terms.extend((depth, clean(above)) for above in reversed(_stacked_above(raw, index)))
            terms.append((depth, clean(text)))
        elif heading is not None and following > depth:
            # "###### sqrt(X)" over an indented description (SQLite's function pages): the heading
            # is that description's term, as a definition list's would be.
            terms.append((depth, clean(heading.group(2))))
    return lines


# Terms listed one per line over one description (a `<dl>` with several `<dt>`): at most this many
# above the last, each a few words ending in no full stop. (runtime/_support_context.py reads the same
# rule.) Words are split at single spaces only: a pattern that may also split inside a word backtracks
# for minutes over one long word ending in a full stop.
STACKED_TERMS: Final = 4
TERM_SHAPE: Final = re.compile(r"\S+(?: \S+){0,5}(?<![.:;,])")


def _stacked_above(raw: list[tuple[int, int, str, int, str]], index: int) -> list[str]:
    """The lines right above the term at `index` that share its description, nearest first: at its
    depth, term-shaped, not a heading nor a table row, the first of them right below a deeper line (the
    description before), a heading or the start of the body."""
    depth = raw[index][3]
    stacked: list[str] = []
    at = index - 1
    while at >= 0 and len(stacked) < STACKED_TERMS:
        _, _, text, own, row = raw[at]
        if own != depth or row or text.startswith("#") or TERM_SHAPE.fullmatch(text) is None:
            break
        stacked.append(text)
        at -= 1
    opened = at < 0 or raw[at][3] > depth or raw[at][2].startswith("#")
    return stacked if opened else []


def described_term(line: Line, following: Line) -> Line:
    """`line` as a definition term when it is one, or a heading over an indented description (then
    with the heading's title as its text): "###### sqrt(X)" describes `sqrt(X)` as a `<dt>` would."""
    if line.is_term or following.depth <= line.depth:
        return line
    title = heading_title(line)
    return line if title is None else replace(line, text=title, is_term=True)


def heading_title(line: Line) -> str | None:
    """The title of a heading line ("###### sqrt(X)" -> "sqrt(X)"), or None for any other line."""
    heading = _HEADING.fullmatch(line.text) if line.text[:1] == "#" else None
    return None if heading is None else clean(heading.group(2))


def line_at(lines: list[Line], offset: int) -> Line | None:
    """The line holding `offset`, by bisection over the line starts."""
    low, high = 0, len(lines) - 1
    found: Line | None = None
    while low <= high:
        middle = (low + high) // 2
        if lines[middle].start <= offset:
            found = lines[middle]
            low = middle + 1
        else:
            high = middle - 1
    return found


def term_description(lines: Sequence[Line], index: int) -> Line:
    """The first line describing the term at `index`: past a field list ("Type: BACKEND", "Readable
    from: client") when one comes first, never past the term's own lines; else the line after it."""
    for below in lines[index + 1 : index + _FIELDS_READ]:
        if below.depth <= lines[index].depth:
            break  # the next term's
        if _FIELD.match(below.text) is None:
            return below
    return lines[index + 1]


# How many lines under a term a field list may take before its description.
_FIELDS_READ: Final = 6
# A labelled field of a term's description: "Type: BOOL", "Readable from: client", "Default: false.".
_FIELD: Final = re.compile(r"[A-Z][a-z]+(?: [a-z]+)?: \S")
