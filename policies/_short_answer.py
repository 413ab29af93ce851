"""The short span a chosen sentence answers with, for `ExtractivePolicy` (split out of `_extractive_score`).

The sentence is the evidence; the answer is the span of the asked type in it: the place after
a preposition of place, the name (the doer after "by", for "which N" the name the sentence
opens with and types as an N, the longest otherwise), the date or century beside what is asked,
the counted amount (in a unit of the measure "how far/long/old" asks). Spans are taken as the
text writes them, so the gate finds the answer in the quote; no span of the type means the
sentence itself, which the finish then refuses for a typed question.
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
        return _name(question, text, positions)
    if question.kind in ("how_many", "how_much"):
        amount = _amount(question, text, candidate_positions(question, text))
        measure = re.search(r"\bhow (far|long|tall|high|wide|deep|heavy|old)\b", question.text.casefold())
        if (
            amount is not None
            and measure is not None
            and not _MEASURE_UNITS[measure.group(1)] & set(amount.casefold().split())
        ):
            return None  # "How old was he when ...?" is not answered by "two" (friends): a unit says what
        return amount
    return _as_written(found[0], text)


def _name(question: Question, text: str, positions: list[tuple[int, str]]) -> str | None:
    """The name answering "who" or "which": the doer after "by" when "by" follows the asked verb
    ("written by the monk Aldred Lode"; "... which was opened by Ines Duarte" names who opened it,
    not who built it), else the longest name; never a run after "a"/"an" ("an Old English poem"
    describes), and only as the text writes it (a run read across a comma, "Smith, Jones and
    Brown" or "Ada Brook, Leeds", may be one name of a list or a name and a place: no answer)."""
    tokens = words(text)
    named = [(i, run) for i, run in positions if i == 0 or tokens[i - 1].casefold() not in ("a", "an")]
    if not named:
        return None
    forms = verb_forms(question.text)
    agents = [run for i, run in named if forms is not None and _agent(tokens, i, forms)]
    ranked = sorted(agents or [run for _, run in named], key=lambda run: -len(run.split()))
    return ranked[0] if ranked[0] in text else None


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
        if tier is not _HAS_YEAR:
            # A day or a century without a year answers only beside what the question asks, and
            # not as a word describing a thing ("a 12th century fortress", "In March 12 people").
            dated = [m for m in dated if _beside_question(asked, text, m) and not _describes(text, m)]
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
_RANGE: Final = re.compile(r"\s*(?:to|until|till|and|through|[-\u2013\u2014])\s*")


# "Which American character actor ...?" -> "actor": the last word before a verb or a relative pronoun.
_WHICH_NOUN: Final = re.compile(
    r"\b[Ww]hich\s+((?:[\w'-]+\s+){0,6}?)([a-z][a-z-]{2,})(?=\s+(?:is|was|are|were|did|does|do|has|had|have|who|that|which|whose|starred|played|won)\b|\s*[?,])"
)
# Words a sentence may open with before its subject, capitalized as its first word.
_OPENERS: Final = frozenset(
    {"today", "now", "then", "later", "however", "meanwhile", "yesterday", "here", "there", "also", "still"}
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
        rf"(?:(?!(?:who|which|that|whose|of)\b)[\w'-]+\s+){{0,4}}{noun}s?\b",
        text,
    )
    if typed is None:
        return None
    name = typed.group("name").split()
    if name[0].casefold() in _OPENERS and len(name) > 1:
        name = name[1:]  # "Today Robert Shaw is the actor ...": the name is Robert Shaw
    if name[0].casefold() in STOPWORDS or name[0].casefold() in _OPENERS or name[0].casefold().endswith("ly"):
        return None  # "In Paris, the Louvre is ...": a sentence opening with no name types none
    return " ".join(name)


# Past tenses whose base form shares no four letters with them ("wrote" / "writer").
_IRREGULAR_PAST: Final = {
    "wrote": "write", "led": "lead", "built": "build", "won": "win", "made": "make", "sang": "sing",
    "drew": "draw", "took": "take", "gave": "give", "began": "begin", "became": "become", "bought": "buy",
    "sold": "sell", "taught": "teach", "brought": "bring", "held": "hold", "told": "tell", "ran": "run",
    "spoke": "speak", "fought": "fight", "chose": "choose", "sent": "send", "paid": "pay", "met": "meet",
}  # fmt: skip
_AUX_AFTER_WHO: Final = frozenset(
    {
        "is",
        "was",
        "are",
        "were",
        "has",
        "had",
        "have",
        "did",
        "does",
        "do",
        "can",
        "could",
        "will",
        "would",
        "may",
    }
)


def verb_forms(question: str) -> frozenset[str] | None:
    """The verb of "Who <verb> ...?" as the four-letter stems its forms share ("directed"/"director"),
    with an irregular past's base ("wrote" -> "write"/"writer"); None for "Who is ...?" and the like."""
    asked = re.match(r"\s*[Ww]ho\s+([a-z]+)\b", question)
    if asked is None or asked.group(1) in _AUX_AFTER_WHO:
        return None
    verb = asked.group(1)
    return frozenset({verb[:4], _IRREGULAR_PAST.get(verb, verb)[:4]})


def says_verb(word: str, forms: frozenset[str]) -> bool:
    """Whether `word` is a form of the asked verb (`verb_forms`)."""
    return len(word) >= 3 and word.casefold()[:4] in forms


def _agent(tokens: list[str], at: int, forms: frozenset[str]) -> bool:
    """Whether the run at `at` follows "by" (at most two words between) right after the asked verb."""
    for by in range(max(1, at - 3), at):
        if tokens[by].casefold() == "by" and says_verb(tokens[by - 1], forms):
            return True
    return False


def _opening_name(question: Question, text: str) -> str | None:
    """The name a sentence opens with, for "Who <verb> ...?" when the sentence names no one else and
    the asked verb follows the name: "Lenin wrote ... that imperialism was the highest stage of
    capitalism" answers who wrote it. Not "Dickens admired the bridge, which was built ..." (another
    verb), "Originally built as ..." (an adverb), nor a name the question states."""
    forms = verb_forms(question.text)
    tokens = words(text)
    first = tokens[0].casefold() if tokens else ""
    if forms is None or not first or first in STOPWORDS or first in POINTING_BACK or first.endswith("ly"):
        return None
    asked = set(question.terms) | set(question.entities) | {stem(t) for t in words(question.text)}
    runs = capitalized_runs(["", *tokens], asked)
    opening = next((run for begin, run in runs if begin == 1), None)
    written = _as_written(opening, text) if opening is not None else None
    after = re.match(rf"{re.escape(written)} ([a-z]+)", text) if written is not None else None
    if written is None or after is None or not says_verb(after.group(1), forms):
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
    # "Paris, Texas." but not "Porto, Ines Duarte in Lisbon": the larger place ends its clause.
    found = re.search(r",?\s+".join(re.escape(part) for part in parts) + r"(?=\s*[.,;:)]|\s*$)", text)
    return found.group(0) if found is not None else None


_LENGTHS: Final = frozenset(
    {
        "m",
        "km",
        "metres",
        "meters",
        "kilometres",
        "kilometers",
        "feet",
        "ft",
        "miles",
        "mi",
        "inches",
        "yards",
        "cm",
    }
)
_DURATIONS: Final = frozenset({"seconds", "minutes", "hours", "days", "weeks", "months", "years", "decades"})
# The units an amount must carry to answer "how far/long/tall/... ?".
_MEASURE_UNITS: Final[dict[str, frozenset[str]]] = {
    "far": _LENGTHS,
    "long": _LENGTHS | _DURATIONS,
    "tall": _LENGTHS,
    "high": _LENGTHS,
    "wide": _LENGTHS,
    "deep": _LENGTHS,
    "heavy": frozenset({"kg", "kilograms", "tonnes", "tons", "pounds", "lb", "grams", "g"}),
    "old": frozenset({"years", "year", "months"}),
}
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
