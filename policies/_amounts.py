"""The amount a sentence answers "how many/much" or "how far/long/old ..." with, for
`ExtractivePolicy` (split out of `_short_answer`).

A count is the number the asked noun follows, with its currency, scale and unit; a measure is
an amount in a unit of that measure which the sentence marks as it ("12 km long").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ._extractive_score import NUMBER_WORDS, YEAR
from ._questions import COUNTED_NOUNS, Question
from ._sentences import stem, words

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
# Words that mark an amount as the measure asked: after it ("12 km long", "80 years old") or
# before it ("weighs 3 tonnes", "lasted 3 months", "for 55 minutes", "7 miles from Windsor").
_MEASURE_AFTER: Final[dict[str, frozenset[str]]] = {
    "far": frozenset(
        {
            "from",
            "away",
            "off",
            "north",
            "south",
            "east",
            "west",
            "northeast",
            "northwest",
            "southeast",
            "southwest",
        }
    ),
    "long": frozenset({"long", "in"}),
    "tall": frozenset({"tall", "high"}),
    "high": frozenset({"high", "tall", "above"}),
    "wide": frozenset({"wide", "across"}),
    "deep": frozenset({"deep"}),
    "heavy": frozenset({"heavy"}),
    "old": frozenset({"old"}),
}
_MEASURE_BEFORE: Final[dict[str, frozenset[str]]] = {
    "far": frozenset({"distance"}),
    "long": frozenset(
        {"for", "lasted", "lasting", "length", "spans", "spanning", "runs", "stretches", "within"}
    ),
    "tall": frozenset({"stands", "rises", "height", "measures"}),
    "high": frozenset({"stands", "rises", "height", "measures"}),
    "wide": frozenset({"width"}),
    "deep": frozenset({"depth"}),
    "heavy": frozenset({"weighs", "weighing", "weight"}),
    "old": frozenset({"aged", "age"}),
}
_MEASURE_AMOUNT: Final = re.compile(r"(?<![\w.,])(\d[\d.,]*)\s?([A-Za-z]+)\b")


def measured(text: str, measure: str, asked: Sequence[str] = ()) -> str | None:
    """The amount answering "how far/long/tall/... ?": a number in a unit of that measure that the
    sentence marks as it ("12 km long", "weighs 3 tonnes", "for 55 minutes"), never the first
    amount in any unit ("took 6 years to dig and is 12 km long" is 12 km long). Of two distances, the
    one from what the question names ("20 mi west of central London, and 7 miles from Windsor")."""
    marked = _marked_amounts(text, measure, asked)
    if measure == "far" and len(marked) > 1:
        named = [m for m in marked if {stem(w) for w in words(text[m.end() :])[:5]} & set(asked)]
        marked = named or marked
    return marked[0].group(0) if marked else None


def _marked_amounts(text: str, measure: str, asked: Sequence[str]) -> list[re.Match[str]]:
    """The amounts of `text` in a unit of the measure that the sentence marks as it, in order."""
    found: list[re.Match[str]] = []
    for match in _MEASURE_AMOUNT.finditer(text):
        if match.group(2).casefold() not in _MEASURE_UNITS[measure]:
            continue
        after = [w.casefold() for w in words(text[match.end() :])[:1]]
        before = [w.casefold() for w in words(text[: match.start()])[-2:]]
        if before[-1:] in (["a"], ["an"]):
            continue  # "a 500 kg clock" describes the clock
        if measure != "far" and set(after) & _MEASURE_AFTER["far"]:
            continue  # "stands 2 miles from the river" is a distance, not a height
        if set(after) & _MEASURE_AFTER[measure] or set(before) & _MEASURE_BEFORE[measure]:
            found.append(match)
            continue
        duration = _DURATION_OF.search(text, 0, match.start()) if measure == "long" else None
        if (
            duration is not None
            and _prefix_stem(stem(duration.group(1)), asked)
            and _of_asked(text, match, asked)
        ):
            found.append(match)  # "a short delay of up to 6 seconds" of "How long is mail delayed?"
    return found


# What a duration is called, before "of" and the amount: "a delay of up to 6 seconds" (not "cached for up
# to 31 days", nor "reduce this from 5 days to 2 days"), when the question says it ("delayed"): "a
# lifetime of 3600 seconds" is not how long resolvers keep negative answers.
_DURATION_OF: Final = re.compile(
    r"\b(delay|duration|period|timeout|interval|lifetime|length) of (?:up to |at most |about )?$"
)

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


def amount(question: Question, text: str, found: list[tuple[int, str]]) -> str | None:
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


def _prefix_stem(word: str, asked: Sequence[str]) -> bool:
    """Whether `word` (a stem) is one of `asked`, or one begins the other from four letters on."""
    return any(word == a or (len(word) >= 4 and (a.startswith(word) or word.startswith(a))) for a in asked)


def _of_asked(text: str, match: re.Match[str], asked: Sequence[str]) -> bool:
    """Whether what a duration is of, if the words after it say ("a delay of 2 seconds between
    deliveries", "a period of 20 years of revolts"), is something the question asks about."""
    after = re.match(r"\s+(?:of|between|for|after|before|in)\s+(?:the |a |an )?(\w+)", text[match.end() :])
    return after is None or _prefix_stem(stem(after.group(1).casefold()), asked)
