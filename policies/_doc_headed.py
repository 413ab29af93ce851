"""'Which directive ...?' answered by the heading of the section whose description says it.

A server's reference gives each directive (or option, parameter, setting) a section headed by
its name, then a few facts and its description: "### client_max_body_size", rows such as
`Syntax:`, `Default:` and `Context:`, then "Sets the maximum allowed size of the client request
body."; Apache's "## ScriptAlias Directive" opens with a `Description:` row instead. The
description never names the directive, so a sentence-level search finds no name in it: the
heading is that name. Only a heading that is one name (shaped as code, or followed by the kind
asked: "ScriptAlias Directive") answers, only with the first sentence of its description (its
`Description:` row, that row with the first sentence after the table - the row is often a terse
label, "Define a default URL for requests that don't map to a file" - or the first sentence of a
section without the row), and only when that holds most of what the question says the directive
does, and never one saying what the question asks it to do without ("(without regular
expressions)"). The quote runs from the heading's title through the description, so that it names what
it describes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, overlap, stems
from ._doc_questions import DocQuestion
from ._outline import Line, heading_title, outline
from ._section_owner import one_name
from ._sentences import split_sentences
from ._which_checks import SETTING_NOUNS

# The share of the question's words a description must hold, as for a sentence naming its answer.
_FIT: Final = 0.6
# A quote reaches this far from the heading at most (a few quick-reference rows and one sentence).
_REACH: Final = 700
# Shaped as code: words joined by "_", "-" or "." ("client_max_body_size"), or camel case.
_CODE_SHAPED: Final = re.compile(r"\w[_.-]\w|[a-z][A-Z]")
_WITHOUT: Final = re.compile(r"\bwithout ([^,;:()?]+)", re.IGNORECASE)
_FRAME_WORDS: Final = frozenset({"a", "an", "the", "any"})
_DESCRIPTION_ROW: Final = re.compile(r"(?i)description:?")


def headed_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The name heading the section whose description holds most of the question's words."""
    noun = q.noun
    if noun is None or noun not in SETTING_NOUNS:
        return
    # "(without regular expressions)": what the description must not say, and no words to match.
    denied = {w for m in _WITHOUT.finditer(q.text) for w in stems(m.group(1))} - _FRAME_WORDS
    q = replace(q, words=tuple(w for w in q.words if w not in denied))
    for page in pages:
        lines = outline(page.body)
        for index, line in enumerate(lines):
            title = heading_title(line)
            if title is None or not line.text.startswith("##"):
                continue
            name = _named(title, noun)
            if name is None or name.casefold() in q.text.casefold():
                continue
            readings = [
                (text, end)
                for text, end in _descriptions(lines[index + 1 :], page.body)
                if not denied & stems(text)  # "Maps a URL ... using a regular expression": asked without
                and end - line.start <= _REACH
            ]
            # Of readings as good, the shorter quote: the row alone when the sentence adds nothing.
            fit, end = max(
                ((overlap(q, text), end) for text, end in readings),
                key=lambda r: (r[0], -r[1]),
                default=(0.0, 0),
            )
            if fit < _FIT:
                continue
            start = line.start + line.text.index(title)
            quote = " ".join(page.body[start:end].split())
            yield DocCandidate(page.url, name, quote, 1.0 + fit, "the heading over the description")


def _named(title: str, noun: str) -> str | None:
    """The name a heading gives: itself when one name shaped as code, or the name before the kind
    asked ("ScriptAlias Directive")."""
    title = title.strip()
    words = title.split()
    if len(words) == 2 and words[1].casefold() == noun and one_name(words[0]):
        return words[0]
    if one_name(title) and _CODE_SHAPED.search(title):
        return title
    return None


def _descriptions(below: list[Line], body: str) -> Iterator[tuple[str, int]]:
    """The section's `Description:` row, then that row with the first sentence of the prose after the
    section's table ("Use this to set a handler for any URL that doesn't map to anything ..."), else
    the first sentence of its first paragraph; each with the offset it ends at. Nothing past the
    section's next heading."""
    row: str | None = None
    for line in below:
        if heading_title(line) is not None:
            return
        if line.cells:
            if len(line.cells) == 2 and _DESCRIPTION_ROW.fullmatch(line.cells[0].strip()):
                row = line.cells[1]
                yield row, line.end
            continue
        first = split_sentences(body[line.start : line.end])
        if first:
            yield f"{row or ''} {first[0].text}", line.start + first[0].end
        return
