"""The date a sentence answers "when" with, for `ExtractivePolicy` (split out of `_short_answer`).

A date as the text writes it: one with a year first; a day without one, or a century, only
where the question asks for one or the time is of what the question names; a range whole.
"""

from __future__ import annotations

import re
from typing import Final

from ._life_dates import life_dates
from ._questions import Question
from ._sentences import stem, words

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


def when_answer(question: Question, text: str) -> str | None:
    """The first date `text` writes that the question does not state in full: one with a year
    ("which replaced a 10th century church, was built in 1150" was built in 1150), else a day
    without one, else a century, either only where the question asks for one ("what date", "what
    century") or the time is of what the question names (`_governed`); a range whole ("from March
    20 to May 21, 1799" or "from 1914 to 1918", not one end alone)."""
    asked = set(question.terms) | set(question.entities)
    life = _ASKS_BIRTH.search(question.text) or _ASKS_DEATH.search(question.text)
    if life is not None and not (_SAYS_LIFE.search(text) or _LIFE_BRACKET.search(text)):
        return None  # a birth or a death is told as one ("born", "(1900 - 1980)"), not by a battle's date
    life_date = _life_asked(question.text, text) if life is not None else None
    if life_date is not None:
        return life_date  # "(5 August 1811 - 12 February 1896) ... Director from 1871 till his death": 1896
    counted = _COUNTED_SUBJECT.search(question.text)
    if counted is not None and stem(counted.group(1)) not in {stem(w) for w in words(text)}:
        return None  # "When was the second single from X released?": not the album's date
    found = list(_WHEN.finditer(text))
    new = [m for m in found if not {stem(w) for w in words(m.group(0))} <= asked]
    if life is None:
        # A birth or a death answers only a question asking for one ("a psychology professor at a
        # university established in what year?" is not asked the professor's birth).
        lived = [d for d in life_dates(text) if d is not None]
        new = [m for m in new if not any(m.group(0) in d or d in m.group(0) for d in lived)]
    # Dates in brackets are a life's or an aside's ("Rui Costa (1900 - 1980) founded Acme in 1930").
    # "(d. 1560)" is no birth date, "(b. 1952)" no date of death.
    other_end = (
        _DIED if _ASKS_BIRTH.search(question.text) else _BORN if _ASKS_DEATH.search(question.text) else None
    )
    new = [m for m in new if other_end is None or not other_end.search(text, 0, m.start())]
    outside = [m for m in new if not _bracketed(text, m)]
    new = outside or new
    if _DAY_ASKED.search(question.text):
        # "On what date was it first performed?": a year alone ("the 1731 novel") is no date.
        new = [m for m in new if _HAS_DAY.search(m.group(0)) or re.search(rf"\d {_MONTH}", m.group(0))]
    for tier in (_HAS_YEAR, _HAS_DAY, None):
        dated = [m for m in new if tier is None or tier.search(m.group(0))]
        if tier is not _HAS_YEAR:
            # A day or a century without a year answers only a question asking for one ("In what
            # century ...?", "On what date ...?"), beside what the question asks, and not as a word
            # describing a thing ("a 12th century fortress", "In March 12 people").
            wanted = _CENTURY_ASKED if tier is None else _DAY_ASKED
            dated = [
                m
                for m in dated
                if (wanted.search(question.text) or _governed(asked, text, m))
                and _beside_question(asked, text, m)
                and not _describes(text, m)
            ]
        if dated:
            chosen = min(dated, key=lambda m: _distance(asked, text, m))
            before = [m for m in found if m.end() <= chosen.start()]
            after = [m for m in found if m.start() >= chosen.end()]
            start = before[-1].start() if before and _joins(text, before[-1], chosen) else None
            end = after[0].end() if after and _joins(text, chosen, after[0]) else None
            return text[chosen.start() if start is None else start : chosen.end() if end is None else end]
    return None


def _bracketed(text: str, match: re.Match[str]) -> bool:
    """Whether `match` stands inside brackets."""
    head = text[: match.start()]
    return head.count("(") > head.count(")")


def _distance(asked: set[str], text: str, match: re.Match[str]) -> int:
    """How many words lie between `match` and the nearest word of the question (ties keep the
    first date): "built between 1150 and 1200 and was restored in 1990" was restored in 1990."""
    before = [stem(w) for w in words(text[: match.start()])]
    after = [stem(w) for w in words(text[match.end() :])]
    gaps = [len(before) - i for i, w in enumerate(before) if w in asked]
    gaps += [i + 1 for i, w in enumerate(after) if w in asked]
    return min(gaps, default=len(before) + len(after) + 1)


def _joins(text: str, first: re.Match[str], second: re.Match[str]) -> bool:
    """Whether two dates make one range: "1914 to 1918", "1914 - 1918", "between 1150 and 1200"."""
    if _RANGE.fullmatch(text, first.end(), second.start()):
        return True
    between = re.fullmatch(r"\s+and\s+", text[first.end() : second.start()]) is not None
    return between and words(text[: first.start()])[-1:] == ["between"]


def _life_asked(question: str, text: str) -> str | None:
    """The birth or death date (the last of "born", "die", "died", "death" the question says) that the
    sentence's life dates in brackets give: the year alone when a year is asked."""
    asked = re.findall(r"\b(born|die|died|death)\b", question, re.IGNORECASE)
    born, died = life_dates(text)
    dated = born if asked[-1].casefold() == "born" else died
    if dated is not None and re.search(r"\byear\b", question, re.IGNORECASE):
        return dated[-4:] if re.fullmatch(r".*\b\d{4}", dated) else None
    return dated


# A subject counted among others of its kind ("the second single from", "the first novel of"): a
# sentence dating it says that kind.
_COUNTED_SUBJECT: Final = re.compile(
    r"(?i)\bthe (?:first|second|third|fourth|fifth|last|final|next|debut|\d+(?:st|nd|rd|th)) ([a-z]+) "
    r"(?:from|of|on|by|in)\b"
)
# A life's end marked just before a date, and its start.
_DIED: Final = re.compile(r"\b(?:d\.|died|death:?)\s*$", re.IGNORECASE)
_BORN: Final = re.compile(r"\b(?:b\.|born)\s*$", re.IGNORECASE)
_ASKS_BIRTH: Final = re.compile(r"\bborn\b", re.IGNORECASE)
_ASKS_DEATH: Final = re.compile(r"\b(?:die|died|death)\b", re.IGNORECASE)
_SAYS_LIFE: Final = re.compile(r"\b(?:born|birth|died|dies|death|b\.|d\.)", re.IGNORECASE)
_LIFE_BRACKET: Final = re.compile(r"\([^()]*\b(?:1[0-9]{3}|20[0-9]{2})\b[^()]*\)")
_CENTURY_ASKED: Final = re.compile(r"\b(?:what|which) century\b", re.IGNORECASE)
_DAY_ASKED: Final = re.compile(r"\b(?:what|which) (?:date|day)\b|\bwhen exactly\b", re.IGNORECASE)


_TIME_PREPOSITIONS: Final = frozenset({"in", "on", "during", "by", "since", "until", "from", "of", "at"})


def _governed(asked: set[str], text: str, match: re.Match[str]) -> bool:
    """Whether the day or century is the time of what the question asks: the preposition before it
    opens the sentence ("On December 12, Washington ...") or follows a word of the question ("the
    French Wars of Religion in the 16th century"), not another thing ("relics from the 12th
    century", "the Battle of Kell, fought on June 12")."""
    before = [w.casefold() for w in words(text[: match.start()])]
    for at in range(len(before) - 1, max(-1, len(before) - 5), -1):
        if before[at] in _TIME_PREPOSITIONS:
            return at == 0 or stem(before[at - 1]) in asked
    return False


def _beside_question(asked: set[str], text: str, match: re.Match[str]) -> bool:
    """Whether a word of the question stands within six words of `match` in `text`."""
    before = words(text[: match.start()])[-6:]
    after = words(text[match.end() :])[:6]
    return any(stem(w) in asked for w in (*before, *after))


def _describes(text: str, match: re.Match[str]) -> bool:
    """Whether the span is used as a describing word: after "a"/"an", or right before a lowercase
    word that is no preposition or conjunction ("March 12 people drowned")."""
    before = words(text[: match.start()])[-1:]
    following = re.match(r"\s+([a-z]+)", text[match.end() :])
    if before and before[0].casefold() in ("a", "an"):
        return True
    return following is not None and following.group(1) not in _AFTER_DATE


_AFTER_DATE: Final = frozenset(
    {
        "in",
        "on",
        "at",
        "and",
        "or",
        "when",
        "to",
        "until",
        "by",
        "of",
        "the",
        "as",
        "after",
        "before",
        "with",
        "for",
    }
)
_RANGE: Final = re.compile(r"\s*(?:to|until|till|through|[-\u2013\u2014])\s*")
