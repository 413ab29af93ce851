"""Defaults marked in a list of the values a setting may take: "What does postscreen do by default when
a client fails the bare newline test?" is answered under

    ### When tests fail after the 220 SMTP server greeting
    When the client fails the pipelining, non-SMTP command or bare newline tests, the action is
    specified with postscreen_pipelining_action, ... respectively.
    ignore (default for bare newline)
        Ignore the failure of this test. ...
    enforce (default for pipelining)
        ...

A term that is one value and a bracket saying it is the default ("ignore (default)") is the default of
what the list is about: its heading and the paragraph introducing it. The question must describe that
(`_FIT` of its words, with the page's title), and a default for one case ("(default for bare
newline)") answers only a question naming that case; of a list marking defaults for cases, a plain
"(default)" answers none - which case it is the default of is not said. The quote runs from the
introducing paragraph through the term when that is short, else is the term alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, overlap, prefix_of, stems
from ._doc_questions import DocQuestion
from ._outline import Line, clean, heading_title, outline

# "ignore (default)", "enforce (default for pipelining)", "auto (the default)".
_MARKED: Final = re.compile(r"(?P<value>[\w.:/+-]+) \((?:the )?default(?: for (?P<case>[^()]+))?\)")
# The share of the question's words the list's page title, heading, introduction and case must hold:
# more than a sentence's share, as a list's words say what it is about only in general terms.
_FIT: Final = 0.75
# The quote runs from the introducing paragraph through the term when no longer than this.
_REACH: Final = 400


def marked_defaults(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The value each list marks as the default of what the question describes (and of its case)."""
    asked = stems(q.text)
    for page in pages:
        lines = outline(page.body)
        for index, line in enumerate(lines):
            marked = _term_line(lines, index)
            if marked is None:
                continue
            case = marked.group("case")
            siblings = _marked_siblings(lines, index)
            if case is None and any(s.group("case") for s in siblings):
                continue  # "ignore (default)" beside "drop (default for X)": of which case, not said
            if case is not None and not _case_named(stems(case), asked):
                continue  # the default for another case ("for pipelining", asked of bare newlines)
            intro = _introduction(lines, index, page.body)
            heading = line.headings[-1] if line.headings else ""
            fit = overlap(q, page.title, heading, intro[0] if intro else "", case or "")
            if fit < _FIT:
                continue
            start = intro[1] if intro is not None and line.end - intro[1] <= _REACH else line.start
            quote = " ".join(page.body[start : line.end].split())
            yield DocCandidate(page.url, marked.group("value"), quote, 1.0 + fit, "the value marked default")


def _term_line(lines: Sequence[Line], index: int) -> re.Match[str] | None:
    """The match of line `index` when it is a term marked default: a line of its own that the next
    line describes (it is that line's term)."""
    line = lines[index]
    if line.cells or index + 1 >= len(lines):
        return None
    following = lines[index + 1]
    if not following.terms or clean(following.terms[-1]) != clean(line.text):
        return None
    return _MARKED.fullmatch(clean(line.text))


def _marked_siblings(lines: Sequence[Line], index: int) -> list[re.Match[str]]:
    """The other terms marked default under the same heading."""
    heading = lines[index].headings
    return [
        m
        for i in range(len(lines))
        if i != index and lines[i].headings == heading and (m := _term_line(lines, i)) is not None
    ]


def _case_named(case: set[str], asked: set[str]) -> bool:
    """Whether the question names the case: each of its words, or a word it begins ("command" of
    "commands")."""
    return all(w in asked or (len(w) >= 4 and prefix_of(w, asked)) for w in case)


def _introduction(lines: Sequence[Line], index: int, body: str) -> tuple[str, int] | None:
    """The paragraph before the list's first term under the same heading (the one introducing the
    list), with the offset it starts at."""
    heading = lines[index].headings
    first = index
    while first > 0 and lines[first - 1].headings == heading and heading_title(lines[first - 1]) is None:
        if not lines[first - 1].terms and _term_line(lines, first - 1) is None:
            break  # the paragraph before the list
        first -= 1
    before = first - 1
    if before < 0 or lines[before].headings != heading or lines[before].terms or heading_title(lines[before]):
        return None
    paragraph = lines[before]
    return body[paragraph.start : paragraph.end], paragraph.start
