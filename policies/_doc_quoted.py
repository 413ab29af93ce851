"""The one quoted value of a sentence that says what a documentation question asks.

Manuals quote the literal a user types or sees: 'A single argument of "disabled" prevents
mod_dir from searching for an index.', 'mounted without the "barrier=1" option', 'The string "?000" is
returned if the argument is NULL'. Asked "What single argument to DirectoryIndex prevents
mod_dir from searching for an index at all?", that sentence holds nearly every word of the
question and quotes one thing the question does not say: the answer.

Only when no extractor of the question's kind found a candidate, and only from a sentence
that holds `MIN_OVERLAP` of the question's words, names what the question names (`about`),
and quotes exactly one value the question does not state itself, with a word of the question
beside it saying what the value is (`_named_beside`): two quoted values are two readings, which
this rule does not choose between.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, overlap, own_quote, sentences_of, stems
from ._doc_questions import DocQuestion
from ._questions import STOPWORDS
from ._sentences import stem, words

# The kinds a quoted literal may answer: not a version, a code, a description of what X does, nor a
# default, which `_doc_defaults` reads ('instead of the default "mbox" file' states none).
QUOTED_KINDS: Final = frozenset({"which", "value", "stated", "keyword"})
# The share of the question's words the quoting sentence (with its term) must hold.
MIN_OVERLAP: Final = 0.75
# A quoted literal: in straight or typographic double quotes, or typographic single ones.
_QUOTED: Final = re.compile(
    r"\"([^\"\n]{1,40})\"|\u201c([^\u201d\n]{1,40})\u201d|\u2018([^\u2019\n]{1,40})\u2019"
)
# The score a quoted value gets above its overlap: it passes the policy's bar (1.5) only when the
# sentence holds the share required.
_BASE: Final = 0.75


def quoted_values(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The quoted value of each sentence that holds the question's words and quotes one new value."""
    if q.kind not in QUOTED_KINDS:
        return
    asked = stems(q.text)
    for page, line, sentence in sentences_of(pages):
        held = overlap(q, sentence.text, *line.terms)
        if held < MIN_OVERLAP or not about(line, sentence.text, q):
            continue
        # A quoted value the question states itself ("unless '--broken' is given") is no reading of it.
        new = [m for m in _QUOTED.finditer(sentence.text) if not _stated(_value(m), q.text)]
        if len(new) != 1 or not _named_beside(sentence.text, new[0], asked):
            continue
        quote = own_quote(page, line, sentence)
        yield DocCandidate(page.url, _value(new[0]).strip(), quote, _BASE + held, "the value it quotes")


def _value(quoted: re.Match[str]) -> str:
    return next(group for group in quoted.groups() if group is not None)


def _stated(value: str, question: str) -> bool:
    """Whether a quoted value is empty or the question says it: as written ("--broken", not "-broken"),
    or, plain words, as the question's words."""
    bare = value.strip().casefold()
    if not bare or re.search(rf"(?<![\w-]){re.escape(bare)}(?![\w-])", question.casefold()):
        return True
    return re.fullmatch(r"[a-z ]+", bare) is not None and stems(bare) <= stems(question)


def _named_beside(text: str, quoted: re.Match[str], asked: set[str]) -> bool:
    """Whether a word of the question stands beside the quote, saying what the value is: one of the two
    words before it ('A single argument of "disabled"', 'The string "?000"') or the word after it
    ('the "barrier=1" option'). 'the specified "type:table" lookup table' quotes a table, not the
    daemon asked for."""
    before = words(text[: quoted.start()])[-2:]
    after = words(text[quoted.end() :])[:1]
    return any(stem(w) in asked and w.casefold() not in STOPWORDS for w in (*before, *after))
