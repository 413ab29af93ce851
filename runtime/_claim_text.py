"""How a claim states numbers, units and directions: read from its folded text (docs/evidence.md, "Claims").

Numbers are compared as decimals in the premises' own unit: "9 h" for a 9 under "Runtime
(h)", "hours" is "h", and nothing is ever converted. A unit is a known one (runtime/_quantities.py)
or one the premises use themselves ("Wh").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Final, NamedTuple

from ._quantities import UNITS, find_dates, fold_text
from ._text import normalize_ws

_GREATER: Final = ("longer", "more", "higher", "greater", "larger", "exceeds", "exceed")
_LESS: Final = ("shorter", "less", "fewer", "lower", "smaller")
_EQUAL: Final = ("equal", "equals", "the same as", "as long as")

_ISO_DATE: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?"
)
_STATED: Final = re.compile(
    r"(?<![\w.,])(?P<number>-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?!\d|[.,]\d)"
    r"(?:\s?(?P<word>%|[^\W\d_]+))?"
)


class Stated(NamedTuple):
    """A number a text states: its value, its decimal places, the word right after it, as written."""

    value: Decimal
    places: int
    word: str | None
    text: str


def canonical_unit(unit: str) -> str:
    """A unit in one spelling: "hours" and "h" are "h"; an unknown unit stays as written (folded)."""
    folded = fold_text(unit)
    return UNITS.get(folded, folded)


def stated_numbers(text: str, *, leave_out: Sequence[str] = ()) -> list[Stated]:
    """The numbers of `text` (folded; dates and the `leave_out` phrases, such as row names, removed).

    A date is an ISO date or time, or any form `find_dates` reads ("2 March 2026", "March 2,
    2026"): its day and year are not quantities a claim states.
    """
    folded = _ISO_DATE.sub(" ", fold_text(text))
    for date in reversed(find_dates(folded)):
        folded = folded[: date.start] + " " + folded[date.end :]
    for phrase in leave_out:
        if phrase:
            folded = re.sub(rf"(?<!\w){re.escape(fold_text(phrase))}(?!\w)", " ", folded)
    found: list[Stated] = []
    for match in _STATED.finditer(folded):
        number = match["number"]
        value = Decimal(number.replace(",", ""))
        places = len(number.partition(".")[2])
        found.append(Stated(value, places, match["word"], match.group(0).strip()))
    return found


def stated_unit(stated: Stated, known: set[str]) -> str | None:
    """The unit a stated number carries: a known unit, or one of the premises' own (`known`)."""
    if stated.word is None:
        return None
    unit = canonical_unit(stated.word)
    return unit if stated.word in UNITS or unit in known else None


def as_decimal(value: float) -> Decimal:
    return Decimal(repr(value))


def shown(value: float, unit: str) -> str:
    return f"{value:g} {unit}".strip()


def rounds_to(result: float, number: Stated) -> bool:
    """Whether `number` is `result` written with :g, or rounded to the places it states."""
    exact = as_decimal(result)
    try:
        if number.value == Decimal(format(result, "g")):
            return True
        step = Decimal(1).scaleb(-number.places)
        return any(
            exact.quantize(step, rounding=mode) == number.value for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN)
        )
    except InvalidOperation:
        return False


def direction_of(folded: str) -> tuple[int, str] | None:
    """The first direction word of a claim: +1 greater, -1 less, 0 equal, with the word."""
    found: list[tuple[int, int, str]] = []
    for sign, words in ((1, _GREATER), (-1, _LESS), (0, _EQUAL)):
        for word in words:
            match = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", folded)
            if match is not None:
                found.append((match.start(), sign, word))
    if not found:
        return None
    _, sign, word = min(found)
    return sign, word


# -- what a claim names: its rows, its quantity, its operation (docs/evidence.md, "Claims") ---------

_LETTERS: Final = re.compile(r"[^\W\d_]+")
_TOKEN: Final = re.compile(r"[^\W_]+")
_SENTENCE_END: Final = ".!?:;"


def _has_word(folded: str, word: str) -> bool:
    """Whether folded text holds `word` (or `phrase`) as whole words, also with a plural "s"."""
    return re.search(rf"(?<!\w){re.escape(word)}s?(?!\w)", folded) is not None


def _labelled(text: str, label: str) -> bool:
    """Whether `text` holds `label` ("A", "B2") case-sensitively, as a word that does not open a sentence.

    So the article in "A prototype ..." is not the row label "A" of "Prototype A".
    """
    for match in re.finditer(rf"(?<!\w){re.escape(label)}(?!\w)", text):
        before = text[: match.start()].rstrip()
        if before and before[-1] not in _SENTENCE_END:
            return True
    return False


def names_row(text: str, row: str) -> bool:
    """Whether a claim's text names a row by its header: the whole header ("prototype A's"), or
    each of its words, its labels (one letter, or holding a digit) as written ("prototypes A and B").
    """
    folded = fold_text(text)
    if _has_word(folded, fold_text(row)):
        return True
    tokens = _TOKEN.findall(row)
    if not tokens:
        return False
    for token in tokens:
        if len(token) == 1 or any(char.isdigit() for char in token):
            if not _labelled(text, token):
                return False
        elif not _has_word(folded, fold_text(token)):
            return False
    return True


def names_quantity(text: str, quantity: str) -> bool:
    """Whether a claim's text names the quantity its cell's column measures ("runtime", "charge time").

    Every word of the quantity, as whole words (a plural "s" allowed): "runtime" is not named
    by a claim about "charge time", nor "charge time" by one about "runtime".
    """
    words = _LETTERS.findall(fold_text(quantity))
    folded = fold_text(text)
    return bool(words) and all(_has_word(folded, word) for word in words)


# The words that name each calculation operation (`compare` is named by a direction word).
OPERATION_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "sum": ("sum", "total", "combined", "together"),
    "mean": ("mean", "average", "averaged"),
    "min": ("minimum", "min", "smallest", "lowest", "shortest", "least"),
    "max": ("maximum", "max", "largest", "highest", "longest", "greatest"),
    "difference": ("difference", "differ", "differs"),
    "ratio": ("ratio", "times", "divided"),
}


def named_operations(text: str) -> list[str]:
    """The operations whose words a claim's text uses, in `OPERATION_WORDS` order."""
    folded = fold_text(text)
    return [
        operation
        for operation, words in OPERATION_WORDS.items()
        if any(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", folded) for word in words)
    ]


def first_place(text: str, row: str) -> int | None:
    """Where a claim's text first names a row (the whole header, else its first label), or None."""
    folded = fold_text(text)
    match = re.search(rf"(?<!\w){re.escape(fold_text(row))}", folded)
    if match is not None:
        return match.start()
    labels = [t for t in _TOKEN.findall(row) if len(t) == 1 or any(c.isdigit() for c in t)]
    for label in labels:
        for found in re.finditer(rf"(?<!\w){re.escape(label)}(?!\w)", text):
            before = text[: found.start()].rstrip()
            if before and before[-1] not in _SENTENCE_END:
                return found.start()
    return None


# -- what an answer states outside its claims ------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


NEGATION: Final = re.compile(
    r"(?<![\w'])(?:not|no|never|neither|nor|none|nothing|without|cannot)(?![\w'])|n['\u2019]t\b",
    re.IGNORECASE,
)
_NUMBER_WORDS: Final = _words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred thousand million billion dozen half quarter twice thrice double "
    "triple once percent first second third fourth fifth"
)
_DATE_WORDS: Final = _words(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday "
    "friday saturday sunday today yesterday tomorrow"
)
_COMPARISON_WORDS: Final = frozenset(
    {*_GREATER, *_LESS, "equal", "equals", "same", "than", "versus", "vs", "compared", "comparison"}
    | _words(
        "differ differs different difference better worse best worst most least faster slower "
        "bigger heavier lighter cheaper newer older earlier later above below over under "
        "outlasts outlast outperforms beats exceeded surpasses before after"
    )
)
# Sentence openers that name nothing: any other capitalized word outside the claims is a name.
_OPENERS: Final = _words(
    "yes so thus hence therefore also and but overall in on the a an this these that those "
    "both here there as see note sources source summary answer briefly it its they their we our "
    "all each"
)
_WORD: Final = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
# A negation that discloses a gap ("... was not checked", "not found in the sources") states no
# fact of its own: what it is about still holds no number, name, date or comparison.
_GAP: Final = re.compile(
    r"\s+(?:(?:yet|been|be)\s+)*(?:checked|found|given|established|known|verified|covered|settled"
    r"|answered|available|stated|researched|measured|assessed|addressed|determined)(?!\w)",
    re.IGNORECASE,
)


def unclaimed_text(answer: str, claims: Sequence[str]) -> str:
    """The part of an answer (white space normalized) that no claim's text covers, longest claims first."""
    rest = normalize_ws(answer)
    for claim in sorted((normalize_ws(text) for text in claims), key=len, reverse=True):
        if claim:
            rest = rest.replace(claim, " \u2029 ")  # a claim ends a sentence, whatever follows it
    return rest


def unclaimed_statement(rest: str) -> str | None:
    """What text outside the claims states on its own, or None when it states nothing checkable.

    A cheap rule (docs/evidence.md, "Text outside the claims"): a digit (a number or a date),
    a number word, a month or day, a comparison word, a negation (but one that discloses a gap:
    "was not checked"), or a capitalized word that is a name (anything but a plain sentence
    opener such as "The", "Yes", "So").
    """
    for negated in NEGATION.finditer(rest):
        if _GAP.match(rest, negated.end()) is None:
            return f"the negation {negated.group(0)!r}"
    for match in _WORD.finditer(rest):
        word = match.group(0)
        folded = fold_text(word)
        if any(char.isdigit() for char in word):
            return f"the number {word!r}"
        if folded in _NUMBER_WORDS:
            return f"the number word {word!r}"
        if folded in _DATE_WORDS:
            return f"the date word {word!r}"
        if folded in _COMPARISON_WORDS or (len(folded) > 5 and folded.endswith("est")):
            return f"the comparison {word!r}"
        if any(char.isupper() for char in word):
            before = rest[: match.start()].rstrip(" \"'([{*-\u201c\u2018\u00ab\u2013\u2014\u2022")
            opens = not before or before[-1] in _SENTENCE_END or before[-1] == "\u2029"
            if not (opens and folded in _OPENERS and word[1:].islower()):
                return f"the name {word!r}"
    return None


# -- whether a claim addresses the plan item it names ---------------------------------------------

_QUESTION_WORDS: Final = _words(
    "what which who whom whose when where why how is are was were be been do does did the a "
    "an of in on at to for by with from and or their its his her this that these those there "
    "it they much many long often any some each"
)
_SUFFIXES: Final = ("ing", "ed", "es", "s")
_DIRECTIONS: Final = frozenset({*_GREATER, *_LESS, *_EQUAL})


def _stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def item_words(item: str) -> list[str]:
    """A plan item's content words: letters-only words of three or more letters, question and
    function words left out, each stemmed (a plural "s", "ed", "es", "ing" cut); and its labels
    (a one-letter capital or a word with a digit, as written: the "A" of "prototype A")."""
    words: list[str] = []
    for index, match in enumerate(_TOKEN.finditer(item)):
        token = match.group(0)
        if any(char.isdigit() for char in token) or (len(token) == 1 and token.isupper() and index):
            words.append(token)
            continue
        folded = fold_text(token)
        if len(folded) >= 3 and folded.isalpha() and folded not in _QUESTION_WORDS:
            words.append(_stem(folded))
    return list(dict.fromkeys(words))


def missing_item_word(text: str, item: str) -> str | None:
    """The first content word of a plan item that a claim's text does not share, or None.

    A stem is shared when a word of the claim starts with it ("run" in "runtime", "declar" in
    "declares"); a label when the claim holds it as written, not opening a sentence; a direction
    word ("longer") when the claim has any direction word ("shorter" answers "which is longer").
    """
    folded_words = [fold_text(word) for word in _TOKEN.findall(text)]
    for word in item_words(item):
        if word in _DIRECTIONS:
            # "Which runs longer?" is answered by "shorter" as much as by "longer".
            if direction_of(fold_text(text)) is None:
                return word
        elif word.islower() and word.isalpha():
            if not any(claimed.startswith(word) for claimed in folded_words):
                return word
        elif not _labelled(text, word):
            return word
    return None
