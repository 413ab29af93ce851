"""What a documented function returns ("What does f return (when ...)?", for `_doc_answer`).

Only a sentence under f that says "return(s)" answers; the span runs from after it to the
first comma, bracket or condition. With a condition in the question, the sentence must hold
it; "return X if C, Y otherwise" asked under the negated condition is not X. A sentence that
lists its values by condition ("one of the following values: None if A; '' if B; or ...")
answers with the value whose condition holds the question's words, and only when one does
more than the others. "..., None is returned" says what is returned as "return None" does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, overlap, overlap_words, stems
from ._doc_questions import DocQuestion
from ._outline import Line, clean
from ._sentences import split_sentences

# The span stops at a bracket, but not at an aside the phrase goes on after ("a copy ("clone") of X").
RETURNS: Final = re.compile(
    r"\b[Rr]eturns? (.+?)(?=,| \((?![^)]*\) of\b)| (?:on|when|if|before|after|which|otherwise)\b|\.$|;|$)"
)
# "If no extension can be guessed, None is returned.": the value said to be returned.
_PASSIVE: Final = re.compile(r"(?:^|, )((?:[^\s,]+ ){0,2}[^\s,]+) (?:is|are) returned\b")
# "For AIFF files, the returned value is b'NONE'.": the value said to be the return value.
_RETURN_VALUE: Final = re.compile(r"\bthe return(?:ed)? value is ([^\s,;]+?)\.?$")
CONDITION: Final = re.compile(r"\b(?:when|if|unless)\b.*$", re.IGNORECASE)
# What f returns under a condition: "If ...", and "otherwise ..." after one
# ("..., otherwise None is returned").
_CONDITIONAL: Final = re.compile(r"\b(?:when|if|unless|otherwise)\b", re.IGNORECASE)
# Not a value: a connecting word ("and that value is returned") or a bracket's opening ("(not (x ...").
_NOT_A_VALUE: Final = re.compile(r"(?:(?:otherwise|and|or|then|but)\b|\()", re.IGNORECASE)
_NEGATION: Final = re.compile(r"\b(?:not|no|never|without)\b|n't\b", re.IGNORECASE)
# "one of the following values: None if ...; ... if ...": a value and the condition it is returned under.
_BRANCH: Final = re.compile(r"^(?:or |and )?(.+?) (?:if|when) (.+)$")
_LIST_INTRO: Final = re.compile(r"^(?:one of )?the following(?: values?)?: ", re.IGNORECASE)


def trim(value: str) -> str:
    return value.rstrip(".") if not value.endswith("...") else value


def returned(q: DocQuestion, page: Page, term: Line, below: Sequence[Line]) -> Iterator[DocCandidate]:
    """What a sentence described under `term` says it returns, for the question's condition."""
    # The condition is what the question says beyond the code it names (a method's class too).
    named = stems(term.text) | stems(" ".join(q.identifiers))
    condition = [w for w in q.words if w not in named]
    for line in below:
        if clean(term.text) not in line.terms:
            break  # past the description of the term
        for sentence in split_sentences(page.body[line.start : line.end]):
            text = sentence.text
            if ">>>" in text:
                continue  # an interactive example: its "return (not ...)" is the example's code
            match = RETURNS.search(text) or _PASSIVE.search(text) or _RETURN_VALUE.search(text)
            if match is None or not match.group(1).strip() or _NOT_A_VALUE.match(match.group(1).strip()):
                continue
            if not condition and _CONDITIONAL.search(sentence.text[: match.start(1)]):
                continue  # "If quiet is 0, ... returns None": what it returns then, not what it returns
            fit = overlap(q, sentence.text, term.text) if condition else 1.0
            if condition and not overlap_words(condition, sentence.text):
                continue
            if " otherwise" in sentence.text and _flips(q.text, sentence.text):
                continue  # "Return True if X, False otherwise" asked "if not X": the span is the other one
            answer = trim(match.group(1).strip())
            branches = _branches(sentence.text[match.start(1) :])
            if len(branches) > 1:
                chosen = _branch_for(condition, branches)
                if chosen is None:
                    continue  # the values are listed by condition, and the question picks none of them
                answer = chosen
            yield DocCandidate(page.url, answer, sentence.text, 1.0 + fit, "what it returns")


def _branches(listed: str) -> list[tuple[str, str]]:
    """`A if C1; B if C2; or D` -> [(A, C1), (B, C2)]: the values a sentence returns, by condition."""
    found = []
    for part in trim(listed).split(";"):
        match = _BRANCH.match(part.strip())
        if match is not None:
            found.append((_LIST_INTRO.sub("", match.group(1)).strip(), match.group(2)))
    return found


def _branch_for(condition: Sequence[str], branches: Sequence[tuple[str, str]]) -> str | None:
    """The value whose condition holds more of the question's condition words than any other's."""
    held = [(sum(overlap_words([w], stated) for w in condition), value) for value, stated in branches]
    held.sort(key=lambda pair: -pair[0])
    best = held[0]
    if best[0] == 0 or best[0] == held[1][0]:
        return None
    return best[1]


def _flips(question: str, sentence: str) -> bool:
    """Whether the question's condition and the sentence's differ in negation ("if not X" / "if X")."""
    asked = CONDITION.search(question)
    stated = CONDITION.search(sentence)
    if asked is None or stated is None:
        return False
    return (_NEGATION.search(asked.group(0)) is None) != (_NEGATION.search(stated.group(0)) is None)
