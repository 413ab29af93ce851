"""Numbers, units and dates read out of text, in one normal form, for the support methods.

Everything here works on *folded* text (`fold_text`: NFKC, case-folded, one space per
white-space run, typographic quotes made ASCII), so "4 000" with a no-break space, full-width
digits and "4,000" are the same text before a number is even read. The forms understood, and
their limits, are in docs/gate.md ("Support").
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from typing import Final, NamedTuple


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_QUOTES: Final = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2212": "-"})


def fold_text(text: str) -> str:
    """`text` in the form the support methods compare: NFKC, case-folded, white space as single spaces."""
    if text.isascii():  # NFKC changes no ASCII text, and casefold is lower there
        return " ".join(text.lower().split())
    return " ".join(unicodedata.normalize("NFKC", text).casefold().translate(_QUOTES).split())


_IRREGULAR: Final = {"people": "person", "children": "child", "men": "man", "women": "woman", "feet": "foot"}


def singular(word: str) -> str:
    """A light English singular of a folded word: enough to match "scooters" with "scooter"."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


# Known units, by every spelling the methods accept (folded), to one canonical name.
_UNIT_NAMES: Final = {
    "b": ("byte", "bytes"),
    "kb": ("kilobyte", "kilobytes"),
    "kib": ("kibibyte", "kibibytes"),
    "mb": ("megabyte", "megabytes"),
    "mib": ("mebibyte", "mebibytes"),
    "gb": ("gigabyte", "gigabytes"),
    "gib": ("gibibyte", "gibibytes"),
    "tb": ("terabyte", "terabytes"),
    "ms": ("millisecond", "milliseconds", "msec"),
    "us": ("microsecond", "microseconds", "µs", "μs"),
    "s": ("second", "seconds", "sec", "secs"),
    "min": ("minute", "minutes", "mins"),
    "h": ("hour", "hours", "hr", "hrs"),
    "d": ("day", "days"),
    "week": ("weeks",),
    "month": ("months",),
    "year": ("years", "yr", "yrs"),
    "km": ("kilometre", "kilometres", "kilometer", "kilometers"),
    "m": ("metre", "metres", "meter", "meters"),
    "cm": ("centimetre", "centimetres", "centimeter", "centimeters"),
    "mm": ("millimetre", "millimetres", "millimeter", "millimeters"),
    "mi": ("mile", "miles"),
    "kg": ("kilogram", "kilograms", "kilo", "kilos"),
    "g": ("gram", "grams"),
    "%": ("percent", "per cent", "pct"),
    "usd": ("$", "dollar", "dollars", "us$"),
    "eur": ("€", "euro", "euros"),
    "gbp": ("£", "pound", "pounds"),
    "jpy": ("¥", "yen"),
}
UNITS: Final[dict[str, str]] = {
    alias: name for name, aliases in _UNIT_NAMES.items() for alias in (name, *aliases)
}

_NUMBER_WORDS: Final = {
    **{
        word: value
        for value, word in enumerate(
            _words(
                "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
                " fifteen sixteen seventeen eighteen nineteen"
            )
        )
    },
    # "specify --force twice" counts two times ("once" is as often "as soon as": not a number).
    "twice": 2,
    "thrice": 3,
}
_TENS: Final = {
    word: 10 * (i + 2)
    for i, word in enumerate(_words("twenty thirty forty fifty sixty seventy eighty ninety"))
}
_SCALES: Final = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_WORDS_RE: Final = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))

# A number: digits grouped by "," "'" or a space in threes, or plain digits, with a decimal
# part; or a number word (up to "ninety-nine"); either optionally followed by a scale word.
# Not inside a word ("H2", "B2014") or another number.
_NUMBER: Final = re.compile(
    rf"""(?<![\w.,])(?<!\w')(?:
        (?P<neg>-)?(?P<int>\d{{1,3}}(?:(?P<sep>[, '])\d{{3}})(?:(?P=sep)\d{{3}})*|\d+)
        (?:\.(?P<frac>\d+))?(?!\d|[.,]\d)
        |(?P<tens>{"|".join(_TENS)})(?:-(?P<ones>{"|".join(list(_NUMBER_WORDS)[1:10])}))?\b
        |(?P<word>{_WORDS_RE})\b
    )(?:\ (?P<scale>{"|".join(_SCALES)})\b)?""",
    re.VERBOSE,
)
# What may stand right after a number as its unit: a symbol, or a word (attached or after a space).
_AFTER: Final = re.compile(r" ?(%|per cent|[^\W\d_]+)(?!\w)")
_BEFORE_CURRENCY: Final = re.compile(r"(us\$|[$€£¥])\s?$")
# Nouns read after a number to see what it counts: up to three words, stopping at punctuation.
_NEXT_WORDS: Final = re.compile(r"(?: [^\W\d_][\w-]*){1,3}")
_ORDINAL: Final = frozenset({"st", "nd", "rd", "th", "s"})  # "1st", "1990s": not units


class Quantity(NamedTuple):
    """A number found in folded text: its value (normal form), unit, the words after it, its span."""

    value: str
    unit: str | None
    after: tuple[str, ...]  # the next (up to three) words, singular, for what the number counts
    start: int
    end: int
    dated: bool  # inside a date, or a year after "in", "since" ...: not a count or amount


def normal_number(text: str) -> str | None:
    """A decimal in one spelling: "4,000" / "4 000" / "4000.0" -> "4000"; None when it is not one."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return format(value.normalize(), "f")


def _value(match: re.Match[str]) -> str | None:
    if match.group("int") is not None:
        digits = match.group("int")
        sep = match.group("sep")
        if sep:
            digits = digits.replace(sep, "")
        frac = match.group("frac")
        text = f"{'-' if match.group('neg') else ''}{digits}{'.' + frac if frac else ''}"
        value = Decimal(text)
    elif match.group("tens") is not None:
        ones = match.group("ones")
        value = Decimal(_TENS[match.group("tens")] + (_NUMBER_WORDS[ones] if ones else 0))
    else:
        value = Decimal(_NUMBER_WORDS[match.group("word")])
    scale = match.group("scale")
    if scale:
        value *= _SCALES[scale]
    return normal_number(str(value))


_YEAR_LEADS: Final = frozenset(
    _words("in since by from until till of year during before after around circa between to and")
)


# "an interval of 1000", "a maximum of 2000": an amount of a measure, where "the summer of 1969" and
# "a vintage of 1969" are years.
_INDEFINITE_AMOUNT: Final = re.compile(
    r"\b(?:a|an) (?:interval|maximum|minimum|limit|total|value|size|length|depth|width|height|timeout"
    r"|threshold|capacity|rate|count|number|multiple|default|budget|quota) of $"
)


def quantities(text: str, dates: list[Date] | None = None) -> list[Quantity]:
    """The numbers of folded `text`, each with the unit right after (or the currency right before) it."""
    spans = [(date.start, date.end) for date in (dates if dates is not None else find_dates(text))]
    found: list[Quantity] = []
    for match in _NUMBER.finditer(text):
        value = _value(match)
        if value is None:
            continue
        start, end = match.span()
        unit: str | None = None
        currency = _BEFORE_CURRENCY.search(text[max(0, start - 4) : start])
        if currency is not None:
            unit = UNITS[currency.group(1)]
        after = _AFTER.match(text, end)
        if after is not None and unit is None:
            word = after.group(1)
            attached = after.group(0)[0] != " "
            if word in UNITS and not (attached and word in _ORDINAL):
                unit = UNITS[word]
            elif attached and word not in _ORDINAL:
                continue  # "4x4", "3d": part of a token, not a number
        nouns = _NEXT_WORDS.match(text, end)
        words = tuple(singular(word) for word in nouns.group(0).split()) if nouns else ()
        in_date = any(s <= start < e for s, e in spans)
        lead = ""
        if start >= 2 and text[start - 1] == " ":
            lead = text[text.rfind(" ", 0, start - 1) + 1 : start - 1]
        year_shaped = (
            match.group("int") is not None and len(match.group("int")) == 4 and not match.group("frac")
        )
        # "Defaults to 1000 transactions", "a pool of 2000 connections": a number of things, not a year.
        counts = lead in ("to", "of") and nouns is not None and _plural(nouns.group(0).split()[0])
        dated = in_date or (
            year_shaped
            and 1000 <= int(value) <= 2099
            and unit is None
            and lead in _YEAR_LEADS
            and not counts
            and _INDEFINITE_AMOUNT.search(text, 0, start) is None
        )
        found.append(Quantity(value, unit, words, start, end, dated))
    return _shared_units(text, found)


def _plural(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))


# "5, 10 and 30 seconds": numbers listed before the last one, which alone writes the unit.
_LIST_GAP: Final = re.compile(r",? (?:and|or) |, ")


def _shared_units(text: str, found: list[Quantity]) -> list[Quantity]:
    """`found` with each bare number of a list given the unit its last number writes once."""
    for i in range(len(found) - 2, -1, -1):
        number, after = found[i], found[i + 1]
        listed = _LIST_GAP.fullmatch(text, number.end, after.start) is not None
        if listed and number.unit is None and after.unit is not None and not (number.dated or after.dated):
            found[i] = number._replace(unit=after.unit)
    return found


_MONTHS: Final = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_M: Final = rf"(?P<month>{'|'.join(sorted(_MONTHS, key=len, reverse=True))})\.?"
_D: Final = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_Y: Final = r"(?P<year>\d{4})"
# The date forms read, most specific first; a later form never matches inside an earlier one's span.
_DATE_FORMS: Final = tuple(
    re.compile(form)
    for form in (
        rf"(?<!\d){_Y}-(?P<month_n>[01]?\d)-{_D}(?!\d)",
        rf"(?<![\w]){_D} (?:of )?{_M},? {_Y}(?!\d)",
        rf"(?<![\w]){_M} {_D},? {_Y}(?!\d)",
        rf"(?<![\w]){_M},? (?:of )?{_Y}(?!\d)",
        rf"(?<![\w]){_D} (?:of )?{_M}(?![\w])",
        rf"(?<![\w]){_M} {_D}(?![\w])",
    )
)


class Date(NamedTuple):
    """A calendar date read from folded text; a part the text does not give is None."""

    year: int | None
    month: int | None
    day: int | None
    start: int
    end: int

    def within(self, other: Date) -> bool:
        """Whether `other` states every part this date states, with the same value."""
        return all(
            mine is None or mine == theirs
            for mine, theirs in ((self.year, other.year), (self.month, other.month), (self.day, other.day))
        )


def find_dates(text: str) -> list[Date]:
    """The dates in folded `text`: "1 september 2021", "september 1, 2021", "2021-09-01", "sept. 2021" ..."""
    found: list[Date] = []
    taken: list[tuple[int, int]] = []
    for form in _DATE_FORMS:
        for match in form.finditer(text):
            start, end = match.span()
            if any(s < end and start < e for s, e in taken):
                continue
            parts = match.groupdict()
            month = _MONTHS[parts["month"]] if parts.get("month") else int(parts["month_n"])
            day = int(parts["day"]) if parts.get("day") else None
            year = int(parts["year"]) if parts.get("year") else None
            if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
                continue
            found.append(Date(year, month, day, start, end))
            taken.append((start, end))
    found.sort(key=lambda date: date.start)
    return found
