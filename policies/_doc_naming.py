"""How a sentence names, with a plain word, the thing a "which" question asks for (`_doc_which`).

"The git worktree repair command, however, can ...": a word the manual documents as a term,
right before the noun asked for, opening its clause, not denied, in a clause that says some of
what is asked. "the TEABELL variable" only outside a condition's clause when there is a choice;
a constant is a flag when the manual documents it as a term or the sentence calls it a flag.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import clause_start, overlap_words, stems, term_name
from ._doc_questions import DocQuestion
from ._outline import outline

# A clause opened by one of these states a condition or a time, not what the sentence says does what.
_SUBORDINATE: Final = re.compile(
    r"\s*(?:if|when|whenever|unless|unlike|after|before|while|although|though|once|until|since)\b",
    re.IGNORECASE,
)
# "the theirs strategy is never chosen", "the prune command does not ...": denied right after the name.
NEGATED_AFTER: Final = re.compile(r"[^,;.]*?\b(?:not|never|no longer)\b|[^,;.]*?n't\b", re.IGNORECASE)


def opens_clause(text: str, at: int) -> bool:
    """Whether offset `at` opens its clause ("(The repair command, however, ..."), not after "Like",
    "rather than", "Instead of" or a condition's "If", "When", "After" ..."""
    return not text[clause_start(text, at) : at].strip(" (")


def clause_end(text: str, at: int, marks: str) -> int:
    """Where the clause going on from `at` ends: the first of `marks` after it, or the text's end."""
    ends = [found for mark in marks if (found := text.find(mark, at)) >= 0]
    return min(ends, default=len(text))


def says_more(q: DocQuestion, clause: str, noun: str) -> bool:
    """Whether `clause` holds a word of the question besides the noun asked for: what it says is asked."""
    return overlap_words(sorted(set(q.words) - stems(noun)), clause)


def subordinate(text: str, at: int) -> bool:
    """Whether offset `at` of `text` lies in a clause that opens with "If", "When", "After" ..."""
    return _SUBORDINATE.match(text, clause_start(text, at)) is not None


# Nouns for things a manual names with a plain word ("the repair command", "the union strategy").
NAMED_BEFORE: Final = frozenset({"command", "strategy", "action"})


def term_words(pages: Sequence[Page]) -> set[str]:
    """The first word of every definition term of `pages`, case-folded ("repair" of "repair [<path>...]"):
    what the manual documents by name, and so what a plain word may name."""
    return {
        term_name(line.text).split()[0].casefold()
        for page in pages
        for line in outline(page.body)
        if line.is_term and term_name(line.text).split()
    }


def term_names(pages: Sequence[Page]) -> set[str]:
    """The last dotted part of every definition term of `pages`, case-folded ("debug_saveall")."""
    return {
        term_name(line.text).rsplit(".", 1)[-1].casefold()
        for page in pages
        for line in outline(page.body)
        if line.is_term
    }


def a_flag(token: str, text: str, end: int, documented: set[str]) -> bool:
    """A command-line flag ("-x"), or a constant the manual documents as a term or the sentence calls
    a flag ("the POT_LAX flag"): not any constant a sentence names ("With POT_STRICT, ...")."""
    if token.startswith("-"):
        return True
    return token.rsplit(".", 1)[-1].casefold() in documented or re.match(r" flags?\b", text[end:]) is not None
