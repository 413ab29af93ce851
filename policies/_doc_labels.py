"""'Which argument gives X?': the value whose own line in a list of values says X.

Manuals list a directive's values one per line, each a word and a colon: "on: issues a 302
redirection to the index resource.", "seeother: issues a 303 redirection (also known as "See
Other") ...". Asked "Which DirectoryIndexRedirect argument produces a 303 "See Other"
redirect?", the answer is the label of the line that says every number and quoted phrase the
question gives (under the heading or term naming the directive the question names). Only for a
question asking for an argument, a value or a keyword; two lines saying it are two
answers, which the policy refuses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, own_quote, sentences_of
from ._doc_questions import DocQuestion

VALUE_NOUNS: Final = frozenset({"argument", "value", "keyword"})
_LABELLED: Final = re.compile(r"([a-z][\w-]*): (\S.*)")
# What the question gives that a line must say: a number of two digits or more, a quoted phrase.
_MARKS: Final = re.compile(r"(?<![\w.])(\d{2,})(?![\w.])|[\"\u201c]([^\"\u201d]{1,40})[\"\u201d]")


def labelled_values(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The label of each line of a list of values that says every mark the question gives."""
    marks = [m.group(1) or m.group(2) for m in _MARKS.finditer(q.text)]
    if q.kind != "which" or q.noun not in VALUE_NOUNS or not marks:
        return
    for page, line, sentence in sentences_of(pages):
        labelled = _LABELLED.match(sentence.text)
        if labelled is None or not about(line, sentence.text, q):
            continue
        said = labelled.group(2)
        if all(re.search(rf"(?i)(?<![\w.]){re.escape(mark)}(?![\w.])", said) for mark in marks):
            quote = own_quote(page, line, sentence)
            yield DocCandidate(page.url, labelled.group(1), quote, 2.0, "the value whose line says it")
