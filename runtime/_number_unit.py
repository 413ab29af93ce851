"""`number-unit`: a question for a count, an amount or a default gets a number the quote gives for it.

Split out of runtime/_support.py (the other methods and the registry are there); the rules and
their limits are in docs/gate.md ("Support").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from ._focus import within as _within
from ._quantities import UNITS, Quantity, fold_text, quantities, singular
from ._table_header import column_header

if TYPE_CHECKING:
    from ._support import Judgement, SupportCase

_HOW_MANY: Final = re.compile(
    r"\bhow many (?:of )?(?:(?:the|these|those|its|their|his|her|our) )?([^\W\d_][\w-]*)"
)
# "what is the number of X" asks for a count; "the count of Apulia" or "why ... a smaller number of" does not.
_NUMBER_OF: Final = re.compile(
    r"^(?:what|which) (?:is|was|are|were) the (?:total )?(?:number|count|total) of (?:(?:the|its|their) )?"
    r"([^\W\d_][\w-]*)"
)
_HOW_MUCH: Final = re.compile(
    r"\bhow (?:much|long|far|big|large|old|tall|high|heavy|fast|wide|deep|often)\b"
    r"|\bwhat (?:percentage|percent|share|proportion|fraction|amount|size|population)\b"
    # "what is the (maximum) range of ...": a measure, asked without "how".
    r"|\bwhat (?:is|was|are|were) (?:the |its |their )?(?:[^\W\d_]+ )?(?:range|length|size|weight|height"
    r"|price|cost|population|distance|speed|capacity|duration|area|depth|width|temperature|percentage)\b"
)
_DEFAULT: Final = re.compile(r"\bdefaults?\b")
# How a quote says a value is the default: "the default is 5", "defaults to 5", "with N defaulting to 100".
_DEFAULT_WORDS: Final = frozenset({"default", "defaults", "defaulting", "defaulted"})
# "If port is omitted, the standard POP3 port (110) is used.": what is used when none is given is the default.
# The omission must be the whole condition ("If port is omitted and tls is true, ..." is another one).
_USED_IF_OMITTED: Final = re.compile(
    r"\bif (?:the )?([\w.]+)(?: argument| parameter)? is "
    r"(?:omitted|not (?:given|specified|provided|passed)), "
    r"((?:(?! and | or | unless | when | if )[^.;])*?) (?:is|will be) used(?=\s*(?:[.;]|$))"
)


def _used_if_omitted(case: SupportCase) -> bool:
    """Whether the quote says the answer is what is used when the asked-for value is left out: the
    parameter is a word of the question and the answer is in what is used ("If port is omitted,
    the standard POP3 port (110) is used." for the default port, not for the default timeout)."""
    question = set(case.folded_question.replace("?", " ").split())
    return any(
        match.group(1) in question and _within(match.group(2), case.folded_answer)
        for match in _USED_IF_OMITTED.finditer(case.folded_evidence)
    )


# A question none of these occur in asks for no count, amount or default.
_QUANTITY_WORDS: Final = ("how ", "what", "number of", "count of", "total of", "default")


def _attached(quantity: Quantity, noun: str) -> bool:
    """Whether `quantity` counts or measures `noun` (the unit next to it, or a word just after)."""
    unit = UNITS.get(noun)
    return (unit is not None and quantity.unit == unit) or noun in quantity.after


_ASSIGNED: Final = re.compile(r"[^\W\d][\w.]*=\S")


def _assigned(answer: str, quote: str) -> bool:
    """Whether the answer is a `name=value` the quote gives (a default in a signature line)."""
    return _ASSIGNED.match(answer) is not None and _within(quote, answer)


def _default_column(case: SupportCase) -> bool:
    """Whether the quote is a table row whose answer cell sits under a "Default" column header."""
    header = column_header(case.evidence, case.answer, case.pages)
    return header is not None and fold_text(header).rstrip(":") in ("default", "default value", "defaults")


_ASKS_SETTING: Final = re.compile(
    r"(?:which|what) (?:configuration |config )?(?:variable|option|setting|parameter|directive)s? "
)
# A setting's name as code writes it: dotted or with underscores ("stash.showIncludeUntracked").
_SETTING_NAME: Final = re.compile(r"[A-Za-z][\w-]*(?:[._][\w-]+)+")


def number_unit(case: SupportCase) -> Judgement | None:
    """`number-unit`: a question for a count or amount gets a number the quote gives for it.

    Judges "how many/how much/how long ...", "what percentage ...", "the number of ...",
    "what is the range/price/size/... of ..." and questions about a default. The answer
    must hold a number (a default may be a word, such as "off": then only "default" is
    asked of the quote); the quote must give that number,
    with the answer's unit, and not only as a date; a unit the quote gives with it must be
    kept in the answer; for a count of something ("how many scooters"), a number the quote
    puts next to that noun that is not the answer's makes the answer `contradicted`.
    """
    question = case.folded_question
    if not any(word in question for word in _QUANTITY_WORDS):
        return None  # the common case, decided by substring tests before any regex
    count = _HOW_MANY.search(question) or _NUMBER_OF.search(question)
    # "Which configuration variable makes git stash show include untracked files by default?" asks
    # for a setting's name: "by default" says what it changes, and the name is no default value.
    default = _DEFAULT.search(question) is not None and not (
        _ASKS_SETTING.match(question) and _SETTING_NAME.fullmatch(case.answer.strip())
    )
    if count is None and not default and _HOW_MUCH.search(question) is None:
        return None
    answer = case.folded_answer
    if (
        default
        and _DEFAULT_WORDS.isdisjoint(case.evidence_words)
        and not _assigned(fold_text(case.answer), case.folded_evidence)
        and not _used_if_omitted(case)
        and not _default_column(case)
    ):
        return "unsupported", "the quote does not say it is the default"
    numbers = [q for q in quantities(answer) if not q.dated]
    if not numbers:
        if count is None and default:
            return "supported", "the quote states the default"
        return "unsupported", "the answer states no number"
    noun = singular(count.group(1)) if count is not None else None
    given = case.evidence_quantities
    counted = [q for q in given if noun is not None and not q.dated and _attached(q, noun)]
    for number in numbers:
        same = [q for q in given if q.value == number.value]
        if not same:
            if counted:
                return "contradicted", f"the quote gives {counted[0].value} {noun}, not {number.value}"
            return "unsupported", f"{number.value} is not in the quote"
        if number.unit is not None:
            same = [q for q in same if q.unit == number.unit]
            if not same:
                return "unsupported", f"the quote does not give {number.value} {number.unit}"
        elif all(q.unit is not None for q in same):
            return "unsupported", f"the quote gives {number.value} {same[0].unit}: the answer drops the unit"
        if all(q.dated for q in same):
            if counted:
                return (
                    "contradicted",
                    f"{number.value} is a date in the quote, which gives {counted[0].value} {noun}",
                )
            return "unsupported", f"{number.value} is a date in the quote, not a count or amount"
        if noun is not None and counted and not any(_attached(q, noun) for q in same if not q.dated):
            return "contradicted", f"the quote gives {counted[0].value} {noun}, not {number.value}"
    shown = " ".join(number.value + (f" {number.unit}" if number.unit else "") for number in numbers)
    return "supported", f"the quote gives {shown}" + (f" {noun}" if noun and counted else "")
