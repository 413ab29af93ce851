"""A value given as a section of its own, as manual pages print it: "## DEFAULT" over "300".

libcurl's pages (and man pages in that style) document one option per page, titled with its name,
and give its default as the whole of a section headed DEFAULT. Asked the default of the name the
page is titled with, the section's first line answers when it is a value - short, a few words at
most ("300", "NULL", "CURL_HTTP_VERSION_2TLS") - not a sentence, which the sentence forms read.
A section under another page title, or a DEFAULT heading on a page about something else, gives
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, mentions
from ._doc_questions import DocQuestion
from ._outline import outline

_DEFAULT_HEADINGS: Final = frozenset({"default", "defaults", "default value"})
# A value, not a sentence: at most four words and forty characters ("0 (disabled)", "NULL").
_MAX_WORDS: Final = 4
_MAX_CHARS: Final = 40


def default_sections(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The first line of a DEFAULT section on the page titled with the name the question asks about."""
    if not q.identifiers:
        return
    for page in pages:
        heading_at = 0
        for line in outline(page.body):
            if line.text.startswith("#"):
                heading_at = line.start + len(line.text) - len(line.text.lstrip("# "))
                continue
            if len(line.headings) < 2:
                continue
            if line.headings[-1].casefold() not in _DEFAULT_HEADINGS:
                continue
            if not all(mentions(line.headings[0], name) for name in q.identifiers):
                break  # the page is about another name: none of its sections is the asked one's
            value = line.text.strip().rstrip(".")
            if value and len(value) <= _MAX_CHARS and len(re.findall(r"\S+", value)) <= _MAX_WORDS:
                # Quoted with its heading ("DEFAULT\n300"): the quote says whose and what the value is.
                quote = page.body[heading_at : line.start + len(line.text.rstrip())]
                yield DocCandidate(page.url, value, quote, 3.0, "the page's DEFAULT section")
            break  # only the section's first line
