"""A value a sentence names with "is": "The name of the catalog is PUBLIC", "the value range for
TINYINT is -128 to +127", "the soundex value for "Washington" is W252".

A "What is the <noun> of X?" question (`DocQuestion.noun`, "name", "value range", "soundex value")
is answered by a sentence writing that noun, then "of" or "for" and words naming what the question
names, then "is" and the value. What stands between must hold half the other words of the question or
more (a heading above counts), and the value must be a name, a code or a number (a range of two), not a
description ("the name of the file is chosen by the user" names nothing).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, overlap_words, sentences_of, stems
from ._doc_questions import DocQuestion

# A name or code ("PUBLIC", "W252", "utf8_bin", "'Europe/Paris'"), or a number or a range of two.
_NUMBER: Final = r"[-+]?\d(?:[\d,.]*\d)?"
_VALUE: Final = (
    rf"(?P<value>(?-i:{_NUMBER}(?: to | - |\u2013){_NUMBER}|{_NUMBER}"
    r"|'[^']+'|\"[^\"]+\"|[A-Z][A-Z0-9_]*\d*(?![\w])|[A-Za-z_][\w.]*_[\w.]*|[A-Z]\w*\d\w*))"
)


# "default: 1 allowed: 1-999 example: --process-max=4": the range an option allows, as a label.
_ALLOWED: Final = re.compile(rf"(?:^|\s)allowed: ({_NUMBER}-{_NUMBER})(?=\s|$)")


def allowed_ranges(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The range a label line allows the option the question names ("What is the allowed range for
    process-max?"): only under that option, named by the line, its term or its headings."""
    named = [w for w in q.words if w not in stems(q.noun or "")]
    if not q.identifiers and not named:
        return
    for page, line, sentence in sentences_of(pages):
        match = _ALLOWED.search(sentence.text)
        if match is None or not about(line, sentence.text, q):
            continue
        if all(overlap_words([w], sentence.text, *line.terms, *line.headings) for w in named):
            yield DocCandidate(page.url, match.group(1), sentence.text, 2.0, "the range the option allows")


def copular_values(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The value a sentence gives the asked noun of the thing the question names, with "is"."""
    if not q.noun or q.noun in ("expansion", "purpose", "range", "type", "result", "return type"):
        return
    pattern = re.compile(
        rf"\b{re.escape(q.noun)} (?:of|for) (?P<of>[^.;:]{{1,60}}?) (?:is|was) {_VALUE}(?=[\s.,;)]|$)",
        re.IGNORECASE,
    )
    others = [w for w in q.words if w not in stems(q.noun)]
    for page, line, sentence in sentences_of(pages):
        for match in pattern.finditer(sentence.text):
            told = (match.group("of"), *line.terms[-1:], *line.headings[-1:])
            if 2 * sum(overlap_words([w], *told) for w in others) < len(others):
                continue  # "the name of the schema is PUBLIC", asked the catalog's
            yield DocCandidate(
                page.url, match.group("value"), sentence.text, 2.0, f"the {q.noun} it is said to be"
            )
