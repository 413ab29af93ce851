"""Reading a report draft: its footnote definitions, its markers and its body's sentences (docs/reports.md).

Pure text work, no model and no I/O. The format is docs/reports.md's: Markdown with markers
`[^n]` and definitions on their own lines, `[^n]: <source> "<verbatim quote>"`. The rules
this module applies (what a definition line is, where a sentence ends, which sections are
disclosures, that fenced code is not prose) are listed in docs/reports.md ("Validation").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

# A definition opens a line (up to three spaces in, as Markdown allows) with `[^label]:`.
_DEFINITION_START: Final = re.compile(r" {0,3}\[\^([^\]\s]*)\]:")
# After the colon: the source, bare or in <angle brackets>, then the quote in straight
# double quotes. `.*` is greedy, so the line's *last* `"` closes the quote and a quote may
# hold `"` itself.
_DEFINITION_REST: Final = re.compile(
    r'[ \t]+(?:<(?P<angled>[^<>\s]+)>|(?P<bare>[^\s"<>]+))[ \t]+"(?P<quote>.*)"[ \t]*'
)
MARKER: Final = re.compile(r"\[\^([^\]\s]*)\]")
_LABEL: Final = re.compile(r"[1-9][0-9]*")
_FENCE: Final = re.compile(r" {0,3}(`{3,}|~{3,})")
_HEADING: Final = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*")
_LIST_ITEM: Final = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
_BLOCK_QUOTE: Final = re.compile(r"^[ \t]*(?:>[ \t]?)+")
INLINE_CODE: Final = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
# A sentence ends at . ! or ? (after closing quotes or brackets, and the markers that cite
# it) before white space; `split_sentences` says when that is not an end after all.
_SENTENCE_END: Final = re.compile(r"[.!?]+[\"'\u201d\u2019)\]]*(?:[ \t]*\[\^[^\]\s]*\])*(?=\s|$)")
# A period after these is not the end of a sentence.
_ABBREVIATIONS: Final = frozenset(
    ("e.g", "i.e", "etc", "vs", "cf", "al", "approx", "dr", "mr", "mrs", "ms", "st", "no", "fig", "eq", "ca")
)
# Headings that open a disclosure of what was not found (compared folded, at their start).
_DISCLOSURE_HEADINGS: Final = ("gap", "not found", "unknown", "open question", "limitation", "missing")

SentenceKind = Literal["prose", "heading", "disclosure"]


@dataclass(frozen=True)
class Definition:
    """One `[^label]:` line: its source and quote, both None when the rest of the line is malformed."""

    label: str
    line: int  # 1-based line number in the draft
    source: str | None
    quote: str | None

    @property
    def number(self) -> int | None:
        """The footnote's number, or None when the label is not a positive integer."""
        return footnote_number(self.label)


@dataclass(frozen=True)
class Sentence:
    """A sentence of the body as written (markers included), the labels it cites, and what it is."""

    text: str
    labels: tuple[str, ...]
    kind: SentenceKind
    line: int


@dataclass(frozen=True)
class ParsedDraft:
    definitions: tuple[Definition, ...]
    markers: tuple[str, ...]  # every marker's label, in body order (code excluded)
    sentences: tuple[Sentence, ...]


def footnote_number(label: str) -> int | None:
    """A marker's or definition's number, or None when its label is not a positive integer."""
    return int(label) if _LABEL.fullmatch(label) else None


def mask_inline_code(text: str) -> str:
    """`text` with the inside of every inline code span blanked to `x`: same length, no markers or periods."""
    return INLINE_CODE.sub(lambda match: match.group(1) + "x" * len(match.group(2)) + match.group(1), text)


def _parse_definition(line: str, number: int) -> Definition | None:
    start = _DEFINITION_START.match(line)
    if start is None:
        return None
    rest = _DEFINITION_REST.fullmatch(line, start.end())
    if rest is None:
        return Definition(start.group(1), number, None, None)
    source = rest.group("angled") or rest.group("bare")
    return Definition(start.group(1), number, source, rest.group("quote"))


def _closes(opened: re.Match[str], line: str, fence: str) -> bool:
    """Whether a fence line closes the open `fence`: same character, at least as long, nothing after."""
    run = opened.group(1)
    return run[0] == fence[0] and len(run) >= len(fence) and not line[opened.end() :].strip()


def _disclosure_heading(title: str) -> bool:
    return " ".join(title.casefold().split()).lstrip("*_ ").startswith(_DISCLOSURE_HEADINGS)


def _abbreviation(masked: str, end: int) -> bool:
    """Whether the period at `end` closes an abbreviation ("e.g.") or an initial ("J.")."""
    before = masked[max(0, end - 12) : end]  # abbreviations are short: no need to look further back
    word = before.rsplit(None, 1)[-1] if before.strip() else ""
    word = word.lstrip("(\"'[")
    return word.casefold() in _ABBREVIATIONS or (len(word) == 1 and word.isupper())


def split_sentences(text: str) -> list[str]:
    """The sentences of one block of prose, each stripped; the markers after a period stay with it."""
    masked = mask_inline_code(text)
    pieces: list[str] = []
    begin = 0
    for match in _SENTENCE_END.finditer(masked):
        # Markers after the period end the sentence they cite, whatever comes next; without
        # them, a lower-case word or an abbreviation ("e.g.") continues it.
        cited = "[^" in match.group(0)
        following = masked[match.end() :].lstrip()
        if not cited and following and following[0].islower():
            continue
        if not cited and match.group(0).startswith(".") and _abbreviation(masked, match.start()):
            continue
        pieces.append(text[begin : match.end()].strip())
        begin = match.end()
    pieces.append(text[begin:].strip())
    return [piece for piece in pieces if piece]


def parse_draft(draft: str) -> ParsedDraft:
    """The draft's definitions, markers and sentences; never raises on any text."""
    definitions: list[Definition] = []
    sentences: list[Sentence] = []
    markers: list[str] = []
    fence: str | None = None
    disclosure_level: int | None = None  # the level of the disclosure heading we are under
    block: list[str] = []
    block_line = 0

    def flush() -> None:
        if not block:
            return
        kind: SentenceKind = "prose" if disclosure_level is None else "disclosure"
        for text in split_sentences(" ".join(block)):
            labels = tuple(MARKER.findall(mask_inline_code(text)))
            markers.extend(labels)
            sentences.append(Sentence(text, labels, kind, block_line))
        block.clear()

    for number, line in enumerate(draft.splitlines(), start=1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened is not None and _closes(opened, line, fence):
                fence = None
            continue
        if opened is not None:
            flush()
            fence = opened.group(1)
            continue
        definition = _parse_definition(line, number)
        if definition is not None:
            flush()
            definitions.append(definition)
            continue
        heading = _HEADING.fullmatch(line)
        if heading is not None:
            flush()
            level, title = len(heading.group(1)), heading.group(2) or ""
            if disclosure_level is not None and level <= disclosure_level:
                disclosure_level = None
            if disclosure_level is None and _disclosure_heading(title):
                disclosure_level = level
            labels = tuple(MARKER.findall(mask_inline_code(title)))
            markers.extend(labels)
            if title.strip():
                sentences.append(Sentence(title.strip(), labels, "heading", number))
            continue
        if not line.strip():
            flush()
            continue
        line = _BLOCK_QUOTE.sub("", line)  # a block quote's text is prose like any other
        item = _LIST_ITEM.match(line)
        if item is not None:
            flush()
            line = line[item.end() :]
        if not block:
            block_line = number
        block.append(line.strip())
    flush()
    return ParsedDraft(tuple(definitions), tuple(markers), tuple(sentences))
