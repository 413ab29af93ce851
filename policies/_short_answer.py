"""The short span a chosen sentence answers with, for `ExtractivePolicy` (split out of `_extractive_score`).

The sentence is the evidence; the answer is the span of the asked type in it: the place after
a preposition of place, the longest name (or, for "which N", the name the sentence opens with
and types as an N), the year, the counted amount. Spans are taken as the text writes them, so
the gate finds the answer in the quote; no span of the type means the sentence itself.
"""

from __future__ import annotations

import re
from typing import Final

from ._extractive_score import CONNECTORS, NUMBER_WORDS, YEAR, candidate_positions, capitalized_runs
from ._questions import COUNTED_NOUNS, STOPWORDS, Question
from ._sentences import POINTING_BACK, stem, words


def short_answer(question: Question, text: str) -> str | None:
    """A short span answering the question's type, if one stands out; None to answer with the sentence."""
    if question.kind == "when":
        return _when(question, text)
    positions = candidate_positions(question, text)
    found = [span for _, span in positions]
    if not found:
        return _opening_name(question, text) if question.kind == "who" else None
    if question.kind == "where":
        # A place follows a preposition of place ("born in 1968 in Braga"); the first capitalized
        # word of the sentence may be a nationality ("a Portuguese businessman").
        tokens = words(text)
        placed = [span for i, span in positions if i > 0 and tokens[i - 1].casefold() in _LOCATIVE]
        return _as_written((placed or found)[0], text, commas=True)
    if question.kind == "which":
        subject = _typed_subject(question.text, text)
        if subject is not None and stem(subject.split()[0]) not in set(question.entities):
            return subject
    if question.kind in ("who", "which"):
        # The longest name, as the text writes it: a run read across a comma ("Smith, Jones and
        # Brown", "Ada Brook, Leeds") may be one name of a list or a name and a place, no answer.
        tokens = words(text)
        # "an Old English poem": a run after "a"/"an" describes, it names no one.
        named = [(i, run) for i, run in positions if i == 0 or tokens[i - 1].casefold() not in ("a", "an")]
        if not named:
            return None
        # "written by the monk Aldred Lode": the name after "by" is the doer.
        agents = [run for i, run in named if "by" in (t.casefold() for t in tokens[max(0, i - 3) : i])]
        ranked = sorted(agents or [run for _, run in named], key=lambda run: -len(run.split()))
        return ranked[0] if ranked[0] in text else None
    if question.kind in ("how_many", "how_much"):
        return _amount(question, text, candidate_positions(question, text))
    return _as_written(found[0], text)


_MONTH: Final = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_DAY: Final = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR_SPAN: Final = r"(?:1[0-9]{3}|20[0-9]{2})s?"
_ORDINAL: Final = (
    r"(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
    r"|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth"
    r"|twentieth|twenty-first)"
)
# What answers "when": a date as written, longest form first, or a century ("the mid-18th century").
_WHEN: Final = re.compile(
    rf"\b(?:{_MONTH} {_DAY},? {_YEAR_SPAN}|{_DAY} {_MONTH},? {_YEAR_SPAN}|{_MONTH},? {_YEAR_SPAN}"
    rf"|{_MONTH} {_DAY}(?!\d|,? \d)|(?:(?:early|mid|late)[- ])?{_ORDINAL} centur(?:y|ies)|{_YEAR_SPAN})\b"
)


_HAS_YEAR: Final = re.compile(_YEAR_SPAN)
_HAS_DAY: Final = re.compile(rf"{_MONTH} {_DAY}")


def _when(question: Question, text: str) -> str | None:
    """The first date `text` writes that the question does not state in full, one with a year
    before a day without one before a century ("which replaced a 10th century church, was built in
    1150" was built in 1150), and the whole range where it ends one ("from March 20 to May 21,
    1799" or "from 1914 to 1918", not one end alone)."""
    asked = set(question.terms) | set(question.entities)
    found = list(_WHEN.finditer(text))
    new = [m for m in found if not {stem(w) for w in words(m.group(0))} <= asked]
    for tier in (_HAS_YEAR, _HAS_DAY, None):
        dated = [m for m in new if tier is None or tier.search(m.group(0))]
        if dated:
            chosen = dated[0]
            before = [m for m in found if m.end() <= chosen.start()]
            after = [m for m in found if m.start() >= chosen.end()]
            start = (
                before[-1].start()
                if before and _RANGE.fullmatch(text, before[-1].end(), chosen.start())
                else None
            )
            end = after[0].end() if after and _RANGE.fullmatch(text, chosen.end(), after[0].start()) else None
            return text[chosen.start() if start is None else start : chosen.end() if end is None else end]
    return None


_RANGE: Final = re.compile(r"\s*(?:to|until|till|and|through|[-\u2013\u2014])\s*")


# "Which American character actor ...?" -> "actor": the last word before a verb or a relative pronoun.
_WHICH_NOUN: Final = re.compile(
    r"\b[Ww]hich\s+((?:[\w'-]+\s+){0,6}?)([a-z][a-z-]{2,})(?=\s+(?:is|was|are|were|did|does|do|has|had|have|who|that|which|whose|starred|played|won)\b|\s*[?,])"
)
# What may follow a name after a comma and still be the name: a degree, a suffix, initials of honours.
_SUFFIX: Final = r"(?:Ph\.?D\.?|Jr\.?|Sr\.?|M\.?D\.?|[A-Z]{2,5})"
_SUBJECT: Final = r"(?P<name>[A-Z][\w.'&-]*(?:\s+(?:of|the|de|van|von)?\s*[A-Z][\w.'&-]*)*)"


def which_noun(question: str) -> str | None:
    """The noun a "which N" question asks for: "Which American character actor starred ...?" -> "actor"."""
    asked = _WHICH_NOUN.search(question)
    return asked.group(2) if asked is not None else None


def _typed_subject(question: str, text: str) -> str | None:
    """For "Which American character actor starred in ...?", the name a sentence opens with and then
    types as that noun: "Don Davis, PhD (1942 - 2008) was an American character actor ..." -> "Don
    Davis". A sentence that opens with a name and says what it is answers which one it is."""
    asked = _WHICH_NOUN.search(question)
    if asked is None:
        return None
    noun = re.escape(asked.group(2))
    typed = re.match(
        rf"{_SUBJECT}(?:,\s*{_SUFFIX})?(?:\s*\([^()]*\))?,?\s+(?:is|was|are|were)\s+(?:a|an|the)\s+"
        rf"(?:(?!(?:who|which|that|whose)\b)[\w'-]+\s+){{0,4}}{noun}s?\b",
        text,
    )
    if typed is None or typed.group("name").split()[0].casefold() in STOPWORDS:
        return None  # "In Paris, the Louvre is ...": a sentence opening with no name types none
    return typed.group("name")


_PAST_TENSE: Final = frozenset(
    {
        "wrote", "said", "made", "led", "took", "gave", "became", "began", "won", "found", "built",
        "ran", "sang", "drew", "told", "held", "brought", "taught", "thought", "saw", "knew", "met",
        "sent", "set", "paid", "fought", "sold", "bought", "chose", "spoke", "rose", "fell", "left",
        "came", "went",
    }
)  # fmt: skip


def _opening_name(question: Question, text: str) -> str | None:
    """The name a sentence opens with, for "who" when it names no one else: "Lenin wrote ... that
    imperialism was the highest stage of capitalism" answers who wrote it. Only a name its verb
    follows ("However, ..." opens with no name), and not one the question states."""
    tokens = words(text)
    if not tokens or tokens[0].casefold() in STOPWORDS or tokens[0].casefold() in POINTING_BACK:
        return None
    asked = set(question.terms) | set(question.entities) | {stem(t) for t in words(question.text)}
    runs = capitalized_runs(["", *tokens], asked)
    opening = next((run for begin, run in runs if begin == 1), None)
    written = _as_written(opening, text) if opening is not None else None
    after = re.match(rf"{re.escape(written)} ([a-z]+)", text) if written is not None else None
    if written is None or after is None:
        return None
    # One capitalized word may be an adjective ("American actors starred ..."): it names the doer
    # only when a past-tense verb follows it ("Lenin wrote ...", "Rivet founded ...").
    if " " not in written and not (after.group(1).endswith("ed") or after.group(1) in _PAST_TENSE):
        return None
    return written


def _as_written(run: str, text: str, commas: bool = False) -> str | None:
    """The longest leading part of a capitalized `run` that `text` writes as is: a run read across
    punctuation ("Tenerife (Canary Islands, Spain)" read as "Tenerife Canary Islands Spain") is not
    a span of the text, its first words are. With `commas`, a place keeps the larger one a comma
    adds ("Paris, Texas" is not Paris)."""
    parts = run.split(" ")
    while parts and _written(parts, text, commas) is None:
        parts.pop()
    written = _written(parts, text, commas) if parts else None
    if written is not None and written != " ".join(parts):
        return written
    while parts and parts[-1] in CONNECTORS:
        parts.pop()
    return " ".join(parts) or None


def _written(parts: list[str], text: str, commas: bool) -> str | None:
    """How `text` writes the words `parts` in a row: with spaces, or (`commas`) also with commas."""
    joined = " ".join(parts)
    if joined in text:
        return joined
    if not commas:
        return None
    found = re.search(r",?\s+".join(re.escape(part) for part in parts), text)
    return found.group(0) if found is not None else None


_LOCATIVE: Final = frozenset({"in", "at", "near", "from", "on", "outside", "inside", "across"})
_SCALE_WORDS: Final = frozenset({"hundred", "thousand", "million", "billion", "dozen", "half"})
# What an amount keeps from around its number: a currency before it, a scale or unit after it.
_AMOUNT: Final = re.compile(
    r"(?:[$€£¥]\s?)?{number}(?:\s?(?:%|percent|per cent|million|billion|thousand|hundred))*"
    r"(?:\s(?:dollars|euros|pounds|years|months|weeks|days|hours|minutes|seconds|miles|feet|metres|meters"
    r"|kilometres|kilometers|km|kg|tons|tonnes|acres|square miles|square kilometres)\b)?"
)


_SIZED: Final = re.compile(r"[$€£¥]\s?[\d.,]+|[\d.,]+\s?(?:%|percent|million|billion|thousand)")


def _around(text: str, token: str) -> tuple[int, int]:
    at = text.find(token)
    return (max(0, at - 2), at + len(token) + 10) if at >= 0 else (0, 0)


def _amount(question: Question, text: str, found: list[tuple[int, str]]) -> str | None:
    """The number the question counts: the one followed by a word of the question ("30,000 men"),
    else the first that is not a year; with its currency, scale and percent sign."""
    tokens = words(text)
    lowered = question.text.casefold()
    asked = re.search(r"\bhow (?:many|much) (\w+)|\bnumber of (\w+)", lowered)
    noun = stem(asked.group(1) or asked.group(2)) if asked is not None else None
    # "Which bytes of the header ...": only a number beside that noun ("bytes 18 and 19") answers.
    which = re.match(r"(?:which|what) (\w+)", lowered)
    measure = stem(which.group(1)) if which is not None and which.group(1) in COUNTED_NOUNS else None
    numbers = [
        (i, t)
        for i, t in found
        if re.fullmatch(r"[\d.,]+", t) or (t.casefold() in NUMBER_WORDS and t.casefold() not in _SCALE_WORDS)
    ]
    if not numbers:
        return None
    # The number the asked noun follows ("4,000 H2 scooters"), skipping a model name or an adjective.
    counted = [
        (i, t) for i, t in numbers if noun is not None and noun in {stem(w) for w in tokens[i + 1 : i + 4]}
    ]
    if measure is not None:
        beside = [(i, t) for i, t in numbers if measure in {stem(w) for w in tokens[max(0, i - 1) : i + 2]}]
        if not beside:
            return None
        counted = beside
    plain = [(i, t) for i, t in numbers if not YEAR.match(t)]
    # An amount with a currency or a scale ("$2.2 billion") before a bare day of the month.
    sized = [(i, t) for i, t in plain if _SIZED.search(text, *_around(text, t))]
    if not (counted or sized or plain):
        return None  # only years: "How many laps ...?" is not answered by "in 1970"
    _, token = (counted or sized or plain)[0]
    if measure is not None:
        # "Which bytes": the numbers listed together ("bytes 18 and 19"), not the first alone.
        listed = re.search(rf"(?<![\w.]){re.escape(token)}(?:, \d+)*,? (?:and|or) \d+\b", text)
        if listed is not None:
            return listed.group(0)
    match = re.compile(_AMOUNT.pattern.format(number=re.escape(token))).search(text)
    return match.group(0) if match is not None else (token if token in text else None)
