"""'What value do you give X to allow unlimited redirects?': the value a sentence about X says does that.

A manual tells what a value of a setting is for in a few fixed ways: "Set it to -1 for an infinite
number of redirects.", "Set to zero to completely disable caching, or set to -1 to make the cached
entries remain forever.", "If set to 0, the limit is disabled.", "0 disables the limit." The answer
is the value whose purpose clause says most of what the question asks it to do (half of its words
at least), from a sentence about X. A question asking for a value with no purpose ("Which value of
X ...?" with nothing after) goes to the "which" rules as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, overlap, sentences_of
from ._doc_questions import DocQuestion
from ._doc_which import which_candidates
from ._sentences import stem

# A value a setting is given: a number (C's "1L" too), a constant, a quoted string, a state.
_VALUE: Final = r"(-?\d+L?|[A-Z][A-Z0-9_]{2,}|\"[^\"]*\"|'[^']*'|zero|one|true|false|yes|no|on|off)"
# Where a purpose clause ends: the sentence, or the next "or set to ..." of a list of them.
_REST: Final = r"((?:(?!,? or (?:set|use|pass)\b)[^.;])+)"
_FORMS: Final = (
    # "Set it to -1 for an infinite number of redirects.", "set to -1 to make the entries remain forever"
    re.compile(
        r"\b(?i:set)(?: it| this(?: option)?| the value)? to "
        rf"{_VALUE},? (?:to|for|in order to|so that) {_REST}"
    ),
    # "Use -1 to ...", "Pass 0 to ..."
    re.compile(rf"\b(?i:use|pass|specify) {_VALUE},? (?:to|for|in order to|so that) {_REST}"),
    # "If set to 0, the limit is disabled.", "When set to -1, ..."
    re.compile(rf"\b(?i:if|when) (?:it is |this is )?set to {_VALUE}, {_REST}"),
    # "0 disables the limit.", "-1 means no limit."
    re.compile(rf"^{_VALUE} (?=(?:means|disables|enables|turns|makes|allows|lets)\b){_REST}"),
)
# What the question asks the value to do: what follows "to", "for", "so that" or a verb of effect.
_PURPOSE: Final = re.compile(
    r"\b(?:to|for|so that|in order to|(?=makes?|disables?|enables?|allows?|lets?|turns?|causes?))\s*(.+)$"
)
# Words for unboundedness a question or a manual may use where the other says "infinite".
_UNBOUNDED: Final = ("unlimited", "endless")
_SAME: Final = {stem(w): stem("infinite") for w in _UNBOUNDED}


def which_or_purpose(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """For "What value ... to <purpose>?", the value a sentence gives that purpose, first; then the
    "which" rules."""
    purpose = _asked_purpose(q) if q.noun == "value" else None
    if purpose:
        yield from _purpose_values(replace(q, words=tuple(purpose)), q, pages)
    yield from which_candidates(q, pages)


def _asked_purpose(q: DocQuestion) -> list[str]:
    """The stems of what the question asks the value to do (after the code it names), or []."""
    lowered = q.text.casefold()
    ends = [lowered.find(i.casefold()) + len(i) for i in q.identifiers if i.casefold() in lowered]
    if not ends:
        return []
    found = _PURPOSE.search(lowered, max(ends))
    if found is None:
        return []
    asked = {stem(w) for w in re.findall(r"[a-z0-9]+", found.group(1))}
    return [_SAME.get(w, w) for w in q.words if w in asked]


def _purpose_values(purpose: DocQuestion, q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if not about(line, text, q):
            continue
        told = [
            (overlap(purpose, _same(match.group(2))), match.group(1))
            for form in _FORMS
            for match in form.finditer(text)
        ]
        fit, value = max(told, default=(0.0, ""))
        if fit >= 0.5:
            yield DocCandidate(page.url, value, text, 2.0 + fit, "the value the sentence gives that purpose")


def _same(clause: str) -> str:
    """The clause with a manual's word for unboundedness read as the question's ("infinite")."""
    return re.sub(rf"\b(?:{'|'.join(_UNBOUNDED)})\b", "infinite", clause, flags=re.IGNORECASE)
