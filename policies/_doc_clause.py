"""The question inside a question: "Generated columns are missing from PRAGMA table_info; which
pragma lists them?" asks "which pragma lists them", in the scene its first clause sets.

Users set a scene before they ask ("For virtual mailbox delivery, which parameter ...", "X
uses level -1 by default; which numeric level does that correspond to?"). A question whose
whole text is of no kind an extractor reads is read again as its last clause opening with a
question word, keeping the code and the words of the scene: they still say what the answer is
about.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from ._doc_questions import DocQuestion, doc_question

# The last clause after a comma, semicolon, colon, full stop or dash that opens with a question word
# (or a preposition and one: "in which table ...").
_ASKED_CLAUSE: Final = re.compile(
    r"(?:[,;:.?!]|\s[-\u2014\u2013]+)\s+"
    r"((?:(?:in|on|from|for|at|to|by|with|under) )?(?:which|what|how|where|when|who)\b[^,;:.?!]*)$",
    re.IGNORECASE,
)


def asked_clause(q: DocQuestion) -> DocQuestion | None:
    """`q` read as its last question clause, when `q` is of no kind an extractor reads and that
    clause is of one; the scene's code and words are kept. None otherwise."""
    if q.noun != "unhandled":
        return None
    clause = _ASKED_CLAUSE.search(q.text)
    if clause is None:
        return None
    inner = doc_question(clause.group(1), True)
    if inner is None or inner.noun == "unhandled":
        return None
    identifiers = tuple(dict.fromkeys([*inner.identifiers, *q.identifiers]))
    words = tuple(dict.fromkeys([*inner.words, *q.words]))
    return replace(inner, identifiers=identifiers, words=words)
