"""Quick-reference rows: "Default:" and "Compatibility:" rows of a table under what they describe.

Reference manuals list a directive's (or parameter's) facts in a small two-column table
right under its heading ("## DirectoryIndex Directive", then rows such as
`Default:\tDirectoryIndex index.html` and `Compatibility:\tAvailable in 2.4.8 and later`).
A row answers only a question naming what its nearest heading names - the module's row sits
under the module's heading, each directive's under its own. The default is the row's value
without the directive's name repeated before it ("index.html"). A version is read from a
clause that says when something became available ("Available in 2.4.8 and later", "since
version 2.4.39"), never from one that ends something ("2.3.14 and earlier"); a clause with a
subject of its own ("The handshake stage is available since ...") answers only a question
about that subject, and the row's plain "Available in ..." only one about the thing itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, mentions, overlap_words, own_quote, sentences_of, stems
from ._doc_questions import DocQuestion
from ._outline import Line
from ._questions import STOPWORDS
from ._section_owner import heading_owns
from ._sentences import Sentence

_DEFAULT_FIELD: Final = re.compile(r"(?i)defaults?:?")
_DEFAULT_COLUMN: Final = re.compile(r"(?i)default(?: value|s)?")
_TYPE_COLUMN: Final = re.compile(r"(?i)(?:data ?)?type")
# A default cell that gives no value: a dash, or another setting's value by reference ("equally-named
# module parameter", "template set via module parameter": the module's default, asked of it).
_NO_VALUE: Final = re.compile(r"[-\u2013\u2014/]+")
_ANOTHER_SETTINGS: Final = re.compile(r"(?i)\b(?:module|global|equally-named) (?:parameter|setting)\b")
# "Default: see below": the value is in the text, not in the cell.
_SEE: Final = re.compile(r"(?i)see\b")
_AVAILABLE_FIELD: Final = re.compile(r"(?i)(?:compatibility|availability|since):?")
_VERSION: Final = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?!\w|\.\d)")  # "2.4.39." ends a sentence
# What a clause's subject ends at: "The handshake stage | is available since version 2.4.39".
_AVAILABLE: Final = re.compile(r"(?i)\b(?:available|since)\b")
_ENDS: Final = re.compile(r"(?i)\b(?:and|or)\s+earlier\b|\bprior\s+to\b|\bbefore\b|\buntil\b")
_SAYS_START: Final = re.compile(r"(?i)\bavailable\b|\bsince\b|\band\s+later\b|\bor\s+later\b")


def default_rows(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The value of a "Default:" row under the heading of what the question names."""
    for page, line, first in _rows(q, pages, _DEFAULT_FIELD):
        value = line.cells[1].strip()
        named = next((i for i in q.identifiers if value.casefold().startswith(i.casefold() + " ")), None)
        if named is not None:
            value = value[len(named) :].strip()  # "DirectoryIndex index.html": the value is "index.html"
        if value:
            quote = own_quote(page, line, first)
            yield DocCandidate(page.url, value, quote, 2.5, "the default row under its heading")


def default_columns(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The cell under a "Default" column in the row of a table of parameters whose first cell is the
    parameter the question names ("ssl | boolean | off | Enables SSL connections."), or of a table
    under a heading that names it."""
    asked = {i.casefold() for i in q.identifiers}
    seen: set[tuple[str, int]] = set()
    for page, line, _ in sentences_of(pages):
        if (page.url, line.start) in seen or len(line.cells) < 3 or len(line.header) != len(line.cells):
            continue
        seen.add((page.url, line.start))
        column = next((k for k, h in enumerate(line.header) if _DEFAULT_COLUMN.fullmatch(h.strip())), None)
        if column is None or column == 0 or line.cells == line.header:
            continue
        # The row names its parameter in its first cell, unless that column holds types (a type
        # may be named as a parameter is: "FileCreateMode"); or the heading above the table does
        # ("#### TimeRequery" over "type | default | mandatory" and one row).
        named = line.cells[0].strip().casefold() in asked and not _TYPE_COLUMN.fullmatch(
            line.header[0].strip()
        )
        if not named and not heading_owns(line, q, q.words, page.body, page.title):
            continue
        # Another function or setting the question names (snake_case, dotted, a call: not a product's
        # CamelCase name, "CMake") must be named above the row too.
        where = " | ".join((page.title, *line.headings, *line.terms, line.text))
        others = [
            i
            for i in q.identifiers
            if re.search(r"[_.(]", i) and i.casefold() != line.cells[0].strip().casefold()
        ]
        if not all(mentions(where, i) for i in others):
            continue  # "heap_paths | BOOLEAN | false" on pgr_KSP's page is not pgr_withPointsKSP's default
        value = line.cells[column].strip()
        if value and not _NO_VALUE.fullmatch(value) and not _ANOTHER_SETTINGS.search(value):
            row = Sentence(0, len(line.text), line.text)
            yield DocCandidate(
                page.url, value, own_quote(page, line, row), 2.5, "the default column of its row"
            )


def labelled_cells(q: DocQuestion, pages: Sequence[Page], label: str) -> Iterator[DocCandidate]:
    """The value of a "Label: value" cell in the row that opens with the name the question asks about:
    Exim's option rows, "smtp_accept_max | Use: main | Type: integer | Default: 20", one per option
    above its description. Only a row naming an identifier of the question in its first cell answers."""
    asked = {i.casefold() for i in q.identifiers}
    if not asked:
        return
    field = re.compile(rf"(?i){label}:\s*(\S.*)")
    seen: set[tuple[str, int]] = set()
    for page, line, _ in sentences_of(pages):
        if len(line.cells) < 2 or (page.url, line.start) in seen:
            continue
        seen.add((page.url, line.start))
        if line.cells[0].strip().rstrip("\u2020 ").casefold() not in asked:
            continue  # ("\u2020" marks an option expanded before use)
        for cell in line.cells[1:]:
            given = field.fullmatch(cell.strip())
            if (
                given is not None
                and not _NO_VALUE.fullmatch(given.group(1))
                and not _SEE.match(given.group(1))
            ):
                row = Sentence(0, len(line.text), line.text)
                quote = own_quote(page, line, row)
                yield DocCandidate(page.url, given.group(1), quote, 2.5, f"the {label} cell of its row")


def available_rows(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The version a "Compatibility:" row under the asked heading says the asked thing became available."""
    named = set().union(*(stems(i) for i in q.identifiers)) if q.identifiers else set()
    feature = [w for w in q.words if w not in named]
    for page, line, first in _rows(q, pages, _AVAILABLE_FIELD):
        plain: list[str] = []  # "Available in 2.4.8 and later": the thing under the heading itself
        specific: list[str] = []  # "The handshake stage is available since 2.4.39": a part of it
        for clause in re.split(r"[.;,]\s+|\s+-\s+", line.cells[1]):
            match = _VERSION.search(clause)
            if match is None or _ENDS.search(clause) or not _SAYS_START.search(clause):
                continue
            said = _AVAILABLE.search(clause)
            # "Available in Apache HTTPD 2.2.15 and later", "2.4.58 and later": no subject of its own.
            subject = [
                w for w in stems(clause[: said.start() if said else match.start()]) if w not in STOPWORDS
            ]
            if not subject:
                plain.append(match.group(0))
            elif feature and overlap_words(feature, " ".join(subject)):
                specific.append(match.group(0))
        # "... did RequestReadTimeout gain the MinRate parameter?": code the row and its heading never
        # name is a part asked about, whose version the heading's own availability is not.
        part = any(not mentions(f"{line.headings[-1]} {line.text}", i) for i in q.identifiers)
        found = specific or ([] if part else plain)
        if len(set(found)) == 1:
            quote = own_quote(page, line, first)
            yield DocCandidate(page.url, found[0], quote, 2.0, "the availability row under its heading")


def _rows(
    q: DocQuestion, pages: Sequence[Page], field: re.Pattern[str]
) -> Iterator[tuple[Page, Line, Sentence]]:
    """The two-cell rows naming `field` whose nearest heading names something the question names,
    each as one sentence: a row is quoted whole."""
    if not q.identifiers:
        return
    seen: set[tuple[str, int]] = set()
    for page, line, _ in sentences_of(pages):
        if len(line.cells) != 2 or not field.fullmatch(line.cells[0].strip()) or not line.headings:
            continue
        if (page.url, line.start) in seen:
            continue  # a row is one line, however many sentences it holds
        seen.add((page.url, line.start))
        if any(mentions(line.headings[-1], i) for i in q.identifiers):
            yield page, line, Sentence(0, len(line.text), line.text)
