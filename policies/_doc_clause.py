"""The question inside a question: "I use PRAGMA table_info on a table with generated columns; which
pragma also lists them?" asks "which pragma also lists them", in the scene its first clause sets.

Users set a scene before they ask ("For virtual mailbox delivery, which parameter ...", "X
uses level -1 by default; which numeric level does that correspond to?"). A question whose
whole text is of no kind an extractor reads is read again as its last clause opening with a
question word (the clause may hold commas of its own: "which lock is acquired when the first
INSERT, UPDATE or DELETE ..."), keeping the code and the words of the scene: they still say what
the answer is about.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from ._doc_questions import DocQuestion, doc_question

# Where a question clause opens after a comma, semicolon, colon, full stop or dash: a question word
# (or a preposition and one: "in which table ..."). Not "when", which after a comma sets a condition.
_CLAUSE_OPENS: Final = re.compile(
    r"(?:[,;:.?!]|\s[-\u2014\u2013]+)\s+"
    r"(?=(?:(?:in|on|from|for|at|to|by|with|under) )?(?:which|what|how|where|who)\b)",
    re.IGNORECASE,
)

# A scene saying something is not there ("My foreign key has no ON DELETE clause.") asks what holds
# without it: a default, which the last clause alone ("Which action applies ...?") no longer asks.
_ABSENT: Final = re.compile(
    r"\b(?:no|not|without|never|omit(?:s|ted)?|missing|lacks?)\b|n't\b", re.IGNORECASE
)


def asked_clause(q: DocQuestion) -> DocQuestion | None:
    """`q` read as its last question clause, when `q` is of no kind an extractor reads and that
    clause is of one; the scene's code and words are kept. None otherwise."""
    if q.noun != "unhandled":
        return None
    opens = list(_CLAUSE_OPENS.finditer(q.text))
    if not opens or _ABSENT.search(q.text, 0, opens[-1].start()) is not None:
        return None
    inner = doc_question(q.text[opens[-1].end() :], True)
    if inner is None or inner.noun == "unhandled":
        return None
    identifiers = tuple(dict.fromkeys([*inner.identifiers, *q.identifiers]))
    return replace(inner, identifiers=identifiers, words=tuple(dict.fromkeys([*inner.words, *q.words])))
