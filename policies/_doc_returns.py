"""What a documented function returns ("What does f return (when ...)?", for `_doc_answer`).

Only a sentence under f that says "return(s)" answers; the span runs from after it to the
first comma, bracket or condition. With a condition in the question, the sentence must hold
it; "return X if C, Y otherwise" asked under the negated condition is not X. A sentence that
lists its values by condition ("one of the following values: None if A; '' if B; or ...")
answers with the value whose condition holds the question's words, and only when one does
more than the others; so does "returns X, or None if C" asked under C, and "eof is
returned (the empty string in non-POSIX mode, and None in POSIX mode)" asked for a mode.
A condition answers only a question whose condition is as negated as its own ("cannot be
determined" is not "can be determined"). "..., None is returned" says what is returned as
"return None" does. Asked without a condition, a value returned only under one is answered
with its condition ("True if the signal was registered, False otherwise"), never bare.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, overlap, overlap_words, prefix_of, stems
from ._doc_questions import FRAME, DocQuestion
from ._outline import Line, clean
from ._questions import STOPWORDS
from ._sentences import split_sentences, stem

# The span stops at a bracket, but not at an aside the phrase goes on after ("a copy ("clone") of X").
RETURNS: Final = re.compile(
    r"\b[Rr]eturns? (.+?)(?=,| \((?![^)]*\) of\b)| (?:on|when|if|before|after|which|otherwise)\b|\.$|;|$)"
)
# "If no extension can be guessed, None is returned.": the value said to be returned.
_PASSIVE: Final = re.compile(r"(?:^|, )((?:[^\s,]+ ){0,2}[^\s,]+) (?:is|are) returned\b")
# "For AIFF files, the returned value is b'NONE'.": the value said to be the return value.
_RETURN_VALUE: Final = re.compile(r"\bthe return(?:ed)? value is ([^\s,;]+?)\.?$")
# "The result is a tuple of 2 integers: (message count, mailbox size).": what a call gives back.
# Only a noun phrase or a literal is a value: "The result is written to teapot.log" or "... is undefined
# if ..." says what happens to the result, not what it is; "an error if ..." is one only then, and "the
# same as for f()" points elsewhere.
_RESULT: Final = re.compile(
    r"The result is (?!the same as\b)((?:an?|the) (?:(?! if | when | unless )[^;])+?|[\d'\"(\[][^;]*?)\.?$"
)
CONDITION: Final = re.compile(r"\b(?:when|if|unless)\b.*$", re.IGNORECASE)
# What f returns under a condition: "If ...", and "otherwise ..." after one
# ("..., otherwise None is returned").
_CONDITIONAL: Final = re.compile(r"\b(?:when|if|unless|otherwise)\b", re.IGNORECASE)
# Not a value: a connecting word ("and that value is returned") or a bracket's opening ("(not (x ...").
_NOT_A_VALUE: Final = re.compile(r"(?:(?:otherwise|and|or|then|but)\b|\()", re.IGNORECASE)
# "can't" as pages print it too, with a right single quotation mark.
_NEGATION: Final = re.compile(r"\b(?:not|no|never|without|cannot|non-\w+)\b|n['\u2019]t\b", re.IGNORECASE)
# "one of the following values: None if ...; ... if ...": a value and the condition it is returned under.
_BRANCH: Final = re.compile(r"^(?:or |and )?(.+?) (?:if|when) (.+)$")
# Values listed in the bracket after a returned name, by the mode or case they hold in.
_ASIDE_BRANCH: Final = re.compile(r"^(?:or |and )?(.+?) (?:if|when|in|for|on) (.+)$")
# What follows a returned value when it is returned only under a condition ("True if ...").
_THEN_CONDITION: Final = re.compile(r" (?:if|when|unless)\b")
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
        sentences = split_sentences(page.body[line.start : line.end])
        for text in (part for sentence in sentences for part in _parts(sentence.text, term.text)):
            if ">>>" in text:
                continue  # an interactive example: its "return (not ...)" is the example's code
            match = (
                RETURNS.search(text)
                or _PASSIVE.search(text)
                or _RETURN_VALUE.search(text)
                or _RESULT.match(text)
            )
            if match is None or not match.group(1).strip() or _NOT_A_VALUE.match(match.group(1).strip()):
                continue
            if not condition and _CONDITIONAL.search(text[: match.start(1)]):
                continue  # "If quiet is 0, ... returns None": what it returns then, not what it returns
            passive_condition = match.re is _PASSIVE and _THEN_CONDITION.match(text, match.end(0))
            if not condition and passive_condition:
                continue  # "NULL is returned if X is negative": what it returns then, not what it returns
            fit = overlap(q, text, term.text) if condition else 1.0
            if condition and not overlap_words(condition, text):
                continue
            if " otherwise" in text and _flips(q.text, text):
                continue  # "Return True if X, False otherwise" asked "if not X": the span is the other one
            answer = trim(match.group(1).strip())
            # "NULL is returned if C": the value is the subject; its condition is the question's.
            branches = [] if passive_condition else _branches(text[match.start(1) :])
            aside = _aside(text, match.end(0)) if match.re is _PASSIVE else []
            if len(branches) > 1 or aside or (condition and branches and branches[0][0] != answer):
                # Several values by condition, a bracket of them, or "X, or None if C": the one asked for.
                chosen = _branch_for(condition, aside or branches, q.text)
                if chosen is None:
                    continue  # the values are listed by condition, and the question picks none of them
                answer = chosen
            elif CONDITION.search(q.text) is None and _THEN_CONDITION.match(text, match.end(1)):
                answer = _with_condition(text[match.start(1) :])
            yield DocCandidate(page.url, answer, text, 1.0 + fit, "what it returns")


def _parts(sentence: str, term: str) -> list[str]:
    """ "Return the square root of X. NULL is returned if X is negative." read under `sqrt(X)`: the
    term's one-letter argument ends a sentence there, which the general splitter keeps whole as if
    "X." were an initial ("J. Smith" stays one sentence: J is no argument of the term)."""
    arguments = re.findall(r"\b[A-Z]\b", term[term.find("(") :]) if "(" in term else []
    if not arguments:
        return [sentence]
    return re.split(rf"(?<=\b[{''.join(sorted(set(arguments)))}]\.) (?=[A-Z])", sentence)


def _with_condition(span: str) -> str:
    """ "True if C, False otherwise": the values with their conditions, up to "otherwise" (or the
    clause's end), not what the sentence goes on to say ("..., and log it")."""
    otherwise = re.search(r"\botherwise\b", span)
    clause = span[: otherwise.end()] if otherwise is not None else re.split(r";|, and ", span)[0]
    return trim(clause.strip())


def _branches(listed: str) -> list[tuple[str, str]]:
    """`A if C1; B if C2; or D` -> [(A, C1), (B, C2)]: the values a sentence returns, by condition.

    ", or" separates values as ";" does: "X, or None if C" gives [(None, C)].
    """
    found = []
    for part in re.split(r";|, or ", trim(listed)):
        match = _BRANCH.match(part.strip())
        if match is not None:
            found.append((_LIST_INTRO.sub("", match.group(1)).strip(), match.group(2)))
    return found


def _aside(text: str, end: int) -> list[tuple[str, str]]:
    """The values a bracket right after `end` lists by condition ("(A in M1, and B in M2)"), if any."""
    if not text.startswith(" (", end):
        return []
    depth, start = 0, end + 2
    for index in range(end + 1, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            parts = re.split(r",? (?:and|or) |, |; ", text[start:index])
            found = [m.groups() for m in map(_ASIDE_BRANCH.match, parts) if m is not None]
            return [(value, stated) for value, stated in found] if len(found) > 1 else []
    return []


def _branch_for(condition: Sequence[str], branches: Sequence[tuple[str, str]], question: str) -> str | None:
    """The value whose condition holds more of the question's condition words than any other's.

    A condition negated unlike the question's ("cannot", "non-POSIX") is not the one asked about,
    nor one saying what the question does not ("if the tank is empty", asked "if it is full").
    """
    asked = CONDITION.search(question)
    negated = asked is not None and _NEGATION.search(asked.group(0)) is not None
    said = _content(question)
    held = [
        (sum(overlap_words([w], stated) for w in condition), value)
        for value, stated in branches
        if (_NEGATION.search(stated) is not None) == negated
        and all(w in said or any(prefix_of(w, {h}) for h in said) for w in _content(stated))
    ]
    held.sort(key=lambda pair: -pair[0])
    if not held or held[0][0] == 0 or (len(held) > 1 and held[0][0] == held[1][0]):
        return None
    return held[0][1]


def _content(text: str) -> set[str]:
    """The stems of what a condition says: not its function words, framing or negation ("can't")."""
    return {
        stem(w)
        for w in re.findall(r"[a-z]{3,}", text.casefold())
        if w not in STOPWORDS and w not in FRAME and not _NEGATION.fullmatch(w)
    }


def _flips(question: str, sentence: str) -> bool:
    """Whether the question's condition and the sentence's differ in negation ("if not X" / "if X")."""
    asked = CONDITION.search(question)
    stated = CONDITION.search(sentence)
    if asked is None or stated is None:
        return False
    return (_NEGATION.search(asked.group(0)) is None) != (_NEGATION.search(stated.group(0)) is None)
