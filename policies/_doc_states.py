"""A default given as a state: "X is off by default", "the default behavior is for X to be disabled".

Read only for a question asking for a state (`ASKS_STATE`: "Is X on or off by default?",
"Are X enabled by default?"), and only from a sentence that states one default, of the
thing asked, without a condition: refused are "A is enabled by default, but B is disabled
by default" (two states), "When compiled with F, X is enabled by default" and "sets
whether X is enabled by default" (a condition or a question before it), "is off by default
in the library but ..." (a qualifier after it), "Neither X nor Y is enabled by default" (a
negation), and a sentence whose subject lacks a word the question names it by ("lid
filenames" for "steam filenames").
"""

from __future__ import annotations

import re
from typing import Final

from ._doc_match import mentions, spelled_out, stems
from ._doc_questions import DocQuestion
from ._doc_returns import CONDITION

# A setting's state, and a question asking for one ("Is X on or off by default?", "Are X enabled ...?").
STATE: Final = r"(on|off|enabled|disabled|true|false)(?![\w-])"
ASKS_STATE: Final = re.compile(
    r"^(?:is|are)\b|\b(?:on|off|enabled|disabled|true|false) or (?:on|off|enabled|disabled|true|false)\b",
    re.IGNORECASE,
)
# The subject comes before the state ("X is off by default"), or between "for" and "to be".
_FORMS: Final = tuple(
    re.compile(form, re.IGNORECASE)
    for form in (
        rf"\b(?:is|are) (?:(?:normally|usually|always) )?{STATE} by default\b",
        rf"\bdefault (?:behaviou?r|setting|state) is (?:for ((?:[\w.-]+ ){{1,5}}))?to be {STATE}",
    )
)
# Before the state: a condition, a question, or a negation makes it no plain default.
_QUALIFIED_BEFORE: Final = re.compile(
    r"\b(?:whether|if|when|whenever|unless|only|except|neither|nor|not|never|no|without)\b|n't\b",
    re.IGNORECASE,
)
# Right after "by default": a qualifier ("in the library but ...", "unless ...", "on Windows").
_QUALIFIED_AFTER: Final = re.compile(
    r"^\s*(?:in|on|for|when|whenever|unless|if|but|except|only|under|since|until|after|before"
    r"|while|where)\b",
    re.IGNORECASE,
)
STATE_WORDS: Final = frozenset(stems("on off enabled disabled enable disable true false"))


def stated_state(q: DocQuestion, text: str, wanted: list[str]) -> tuple[str, bool]:
    """The state `text` gives as the default of what `q` asks about, and whether a state form matched.

    `wanted`: the question's words that name what it asks about (not its code, not a page's subject).

    ("", True): a state form matched but is not trusted (the sentence gives no value then);
    ("", False): no state form matched.
    """
    found = [(form, match) for form in _FORMS for match in form.finditer(text)]
    if not found:
        return "", False
    if len(found) > 1:
        return "", True  # "A is enabled by default, but B is disabled by default": whose is which?
    form, match = found[0]
    before = text[: match.start()]
    if _QUALIFIED_BEFORE.search(before) or _QUALIFIED_AFTER.search(text[match.end() :]):
        return "", True
    # The subject: the words before "is", or the ones between "for" and "to be".
    subject = before if form is _FORMS[0] else f"{before} {match.group(1) or ''}"
    if not all(mentions(subject, i) or spelled_out(subject, i) for i in q.identifiers):
        return "", True
    asked = CONDITION.sub("", q.text)  # "when attaching a database" is not the subject's name
    naming = [w for w in wanted if w in stems(asked) and w not in STATE_WORDS]
    if not all(w in stems(subject) for w in naming):
        return "", True
    return match.group(match.lastindex or 1), True
