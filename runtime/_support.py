"""Support: whether the located evidence backs the answer, judged by named deterministic methods.

Location (runtime/_gate.py, runtime/_locate.py) says *where* a quote is; support says
whether that quote backs the answer to *this question*. A support method is a plain
function of a `SupportCase` returning a verdict and a short detail, or None when it has
nothing to judge (a count check on a "who" question). Methods are registered by name in
`SUPPORT_METHODS`; a run records the names it is held to in `RunStarted.support`, and
`decide_finish` (runtime/_decide_finish.py) runs them after the gate accepted a positive
finish, so the driver and `check` judge alike. A verdict is a mechanical check under a named
method, not a proof of truth: the rules and their limits are in docs/gate.md ("Support").

Cost: every method reads the question, the answer and the evidence quote; a cited page is
read only when the quote alone does not settle it (`focus-entity`'s context, `same-value`'s
titles), so the accepted path stays within B6 (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, TypeAlias

from citeloop.events import Support, SupportVerdict

from ._chain import chained
from ._focus import Focus, continues, in_passing, middle_named, occurrences, question_focus, quote_sentences
from ._focus import within as _within
from ._number_unit import number_unit
from ._product_focus import about_the_product
from ._quantities import UNITS, Date, Quantity, find_dates, fold_text, quantities, singular
from ._support_context import inline_term, member_of, own_page_members, quote_context
from ._support_same import same_value
from ._support_yes_no import yes_no


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


MAX_DETAIL: Final = 160


class SupportCase:
    """What a support method judges: the run's question, the answer, the evidence quote.

    The folded forms (`fold_text`: NFKC, case-folded, single spaces) are computed once, and
    what is read out of the evidence once on first use, and shared by the methods.
    """

    def __init__(
        self,
        question: str,
        answer: str,
        evidence: str,
        pages: Sequence[tuple[str, str]] = (),
        opened: Sequence[str] = (),
    ) -> None:
        self.question = question
        self.pages = pages  # (title, body) of the cited pages, read only for `context`
        self.opened = opened  # the bodies of every page the run opened, read only for a product focus
        self.answer = answer
        self.evidence = evidence
        self.folded_question = fold_text(question)
        # The answer without the punctuation and quotes around it.
        self.folded_answer = fold_text(answer).strip(_EDGE)
        self.folded_evidence = fold_text(evidence)
        self._dates: list[Date] | None = None
        self._quantities: list[Quantity] | None = None
        self._words: frozenset[str] | None = None
        self._context: str | None = None

    @property
    def evidence_dates(self) -> list[Date]:
        if self._dates is None:
            self._dates = find_dates(self.folded_evidence)
        return self._dates

    @property
    def evidence_quantities(self) -> list[Quantity]:
        if self._quantities is None:
            self._quantities = quantities(self.folded_evidence, self.evidence_dates)
        return self._quantities

    @property
    def evidence_words(self) -> frozenset[str]:
        if self._words is None:
            self._words = frozenset(singular(word) for word in _WORD.findall(self.folded_evidence))
        return self._words

    @property
    def context(self) -> str:
        """The terms and headings the quote sits under in its cited page, folded and joined by " | "."""
        if self._context is None:
            self._context = " | ".join(fold_text(text) for text in quote_context(self.evidence, self.pages))
        return self._context


Judgement: TypeAlias = tuple[SupportVerdict, str]
# A support method: its verdict on a case and a short detail, or None when it has nothing to judge.
SupportMethod: TypeAlias = Callable[[SupportCase], Judgement | None]

_EDGE: Final = " .,;:!?\"'()[]{}*_`"
_WORD: Final = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_YESNO: Final = re.compile(r"(?:yes|no)[.!]?")
_LEADING_YESNO: Final = re.compile(r"^(?:yes|no)\b[,.;:!]?\s*")
# Words that carry no content of their own; negations are *not* here: "not" must be quoted too.
_FUNCTION_WORDS: Final = _words(
    "a an the of in on at by for from to with and or but is are was were be been being am it "
    "its this that these those he she they them his her their we our you your i as which who "
    "whom whose what when where there here has have had do does did so than then also about "
    "into onto over after before since until while per each both either"
)


# An answer that is a symbol of up to three characters written as a literal (the gate's empty_answer
# lets exactly these through): "'#'", "''", "`|`".
_SYMBOL_LITERAL: Final = re.compile(r"""(['"`])[^\s'"`\w]{0,3}\1""")


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def answer_in_quote(case: SupportCase) -> Judgement | None:
    """`answer-in-quote`: the answer's content occurs in the quote.

    Supported when the folded answer is in the folded quote as whole words; otherwise when
    each of its dates, numbers (with their unit) and content words is: a date by its
    parts ("1 September 2021" = "2021-09-01"), a number by value ("4,000" = "4 000" =
    "4000"; "2 GB" = "2GB" = "2 gigabytes"), a word by its light singular. A bare "yes"
    or "no" is not judged.
    """
    answer, quote = case.folded_answer, case.folded_evidence
    literal = _SYMBOL_LITERAL.fullmatch(case.answer.strip())
    if literal is not None:
        # A symbol written as a literal ("'#'", "''"): the quote must write that literal, quotes
        # and all; the bare symbol is also punctuation of the prose ("split(s) - Split s").
        if literal.group(0) in case.evidence:
            return "supported", "the quote writes the literal"
        return "unsupported", f"the quote does not write the literal {literal.group(0)}"
    if _YESNO.fullmatch(answer):
        return None
    if answer and (_within(quote, answer) or _glued_after_digits(quote, answer)):
        return "supported", "the answer's text is in the quote"
    rest = _LEADING_YESNO.sub("", answer)
    missing: list[str] = []
    checked = 0
    dates = find_dates(rest)
    for date in dates:
        checked += 1
        if not any(date.within(other) for other in case.evidence_dates):
            missing.append(rest[date.start : date.end])
    rest = _blank(rest, [(date.start, date.end) for date in dates])
    numbers = quantities(rest, [])
    values = {quantity.value for quantity in case.evidence_quantities}
    for number in numbers:
        checked += 1
        if number.unit is not None:
            found = any(q.value == number.value and q.unit == number.unit for q in case.evidence_quantities)
        else:
            found = number.value in values
        if not found:
            missing.append(rest[number.start : number.end] + (f" {number.unit}" if number.unit else ""))
    rest = _blank(rest, [(number.start, number.end) for number in numbers])
    for word in _WORD.findall(rest):
        if word in _FUNCTION_WORDS or word in UNITS:
            continue
        checked += 1
        if singular(word) not in case.evidence_words:
            missing.append(word)
    if not checked:
        return "unsupported", "the answer holds no content word to find in the quote"
    if missing:
        return "unsupported", f"not in the quote: {', '.join(dict.fromkeys(missing))}"
    return "supported", f"the answer's {checked} content words, numbers and dates are all in the quote"


def _glued_after_digits(quote: str, answer: str) -> bool:
    """Whether an answer opening with a letter stands in the quote right after a digit, whole at its
    end: extracted text that lost the dash between two dates glues the second to the year before it
    ("(July 24, 1978November 2, 2010)")."""
    if not answer[:1].isalpha():
        return False
    return re.search(rf"\d{re.escape(answer)}(?![^\W_])", quote) is not None


def focus_entity(case: SupportCase) -> Judgement | None:
    """`focus-entity`: the quote is about what the question names (runtime/_focus.py has the rule).

    Not judged when the question names nothing the rule can find.
    """
    foci = question_focus(case.question)
    if not foci:
        return None
    restated = _restates(case.folded_answer, foci)
    if restated is not None and not _ASKS_EXPANSION.search(case.question):
        return "unsupported", f"the answer restates the question's {restated.text!r}"
    quote = case.folded_evidence
    own = inline_term(case.evidence) if "\n" not in case.evidence.strip() else None
    if own is not None and any(fold_text(own) == focus.folded for focus in foci):
        # "traceback_level: sets the level ... Default value is ERROR.": one line describing the focus
        return "supported", f"the quote is the line describing {own!r}"
    spans, openings = quote_sentences(case.evidence, quote)
    single = len(spans) == 1  # the common case: one sentence, nothing to locate
    if _opens_with_its_term(case):
        allowed = set(range(len(spans)))
    else:
        allowed = {0} if single else _answer_sentences(quote, case.folded_answer, spans, openings)
    aside: list[Focus] = []
    titles = [title for title, _ in case.pages]
    members = [*own_page_members(foci, titles), *middle_named(foci, case.evidence, titles)]
    for focus in (*foci, *members):
        for at in occurrences(quote, focus):
            index = 0 if single else _sentence_of(spans, at)
            if index not in allowed:
                continue
            if in_passing(quote, at, spans[index][0], case.folded_answer):
                aside.append(focus)
                continue
            return "supported", f"the quote is about {focus.text!r}"
    # The chain may start from the focus as its own page writes it, middle names and all.
    link = chained(case.evidence, case.folded_answer, (*foci, *members), case.pages)
    if link is not None:
        return "supported", link
    names = " or ".join(repr(focus.text) for focus in foci)
    context = case.context if case.pages else ""
    for focus in (*foci, *members):
        if occurrences(context, focus):
            return "supported", f"the quote sits under {focus.text!r} (a term or heading above it)"
        if focus.kind == "identifier" and member_of(context, focus.folded):
            return "supported", f"the quote sits under {focus.text!r} (a member's term under its class)"
    if aside:
        return "unsupported", f"the quote names {aside[0].text!r} only in passing"
    answering = " ".join(quote[start:end] for index, (start, end) in enumerate(spans) if index in allowed)
    product = about_the_product(case.question, answering, foci, case.opened)
    if product is not None:
        return (
            "supported",
            f"the quote holds the question's words; {product.text!r} is every opened page's product",
        )
    return "unsupported", f"the sentence that answers does not name {names}"


# "What does GSI stand for?": spelling the acronym out is the answer asked for, not a restatement.
_ASKS_EXPANSION: Final = re.compile(r"\bstands? for\b|\bshort for\b|\babbreviat|\bacronym\b", re.IGNORECASE)


_TERM_WORDS: Final = 8


def _opens_with_its_term(case: SupportCase) -> bool:
    """Whether the quote's first line is the answer's definition term, a few words that are no
    sentence ("SHARE (ShareLock)" over "Conflicts with ... Acquired by CREATE INDEX."): every line
    after it describes the answer, so the focus may stand in any of them."""
    first_line, _, rest = case.evidence.strip().partition("\n")
    term = fold_text(first_line)
    return (
        bool(rest.strip())
        and bool(case.folded_answer)
        and term.startswith(case.folded_answer)
        and len(term.split()) <= _TERM_WORDS
        and not term.endswith((".", "!", "?", ";", ":"))
    )


def _restates(answer: str, foci: Sequence[Focus]) -> Focus | None:
    """The acronym the answer only spells out ("United States" for a question about the "US"), if any."""
    initials = "".join(word[0] for word in answer.split() if word[0].isalpha())
    for focus in foci:
        if focus.kind == "acronym" and len(initials) > 1 and initials == focus.folded:
            return focus
    return None


def _sentence_of(spans: list[tuple[int, int]], at: int) -> int:
    return next((index for index, (start, end) in enumerate(spans) if start <= at < end), len(spans) - 1)


def _answer_sentences(
    quote: str, answer: str, spans: list[tuple[int, int]], openings: frozenset[int] = frozenset()
) -> set[int]:
    """The sentences a focus may stand in: the answer's, and earlier ones that it continues
    (within its own quote: a sentence in `openings` opens a quote and continues none)."""
    holding = {
        index for index, (start, end) in enumerate(spans) if answer and _within(quote[start:end], answer)
    }
    if not holding:
        return set(range(len(spans)))  # the answer is not quoted verbatim: any sentence
    allowed = set(holding)
    for index in holding:
        earlier = index
        while earlier > 0 and earlier not in openings and continues(quote, spans[earlier]):
            earlier -= 1
            allowed.add(earlier)
        start, end = spans[index]
        if not openings and _BARE_DEFAULT.fullmatch(quote[start:end].strip()):
            # "... git gc --auto will pack them. Some Porcelain commands ... The default value is 6700.":
            # a default stated on its own closes the paragraph describing what it is the default of.
            allowed.add(0)
    return allowed


# A sentence giving a default and nothing else ("The default value is 6700.", "This defaults to 50.").
_BARE_DEFAULT: Final = re.compile(
    r"\(?(?:the default(?: value)? is|(?:this|it) defaults to|defaults to|when unspecified, defaults to)"
    r" [^.;,()]{1,40}?\.?\)?"
)


def same_value_method(case: SupportCase) -> Judgement | None:
    """`same-value`: a "yes" or "no" settled by the value each quote states (runtime/_support_same.py)."""
    return same_value(case.question, case.folded_answer, case.evidence, case.pages)


def yes_no_method(case: SupportCase) -> Judgement | None:
    """`yes-no`: a "yes" or "no" to a yes-or-no question, held to the quote (runtime/_support_yes_no.py)."""
    return yes_no(case.question, case.folded_answer, case.evidence, _FUNCTION_WORDS)


SUPPORT_METHODS: Final[Mapping[str, SupportMethod]] = MappingProxyType(
    {
        "answer-in-quote": answer_in_quote,
        "focus-entity": focus_entity,
        "number-unit": number_unit,
        "same-value": same_value_method,
        "yes-no": yes_no_method,
    }
)
# The methods a Runtime holds positive finishes to unless told otherwise: all the deterministic ones.
DEFAULT_SUPPORT: Final[tuple[str, ...]] = tuple(SUPPORT_METHODS)


def assess_support(
    question: str,
    answer: str,
    evidence: str,
    names: Sequence[str],
    methods: Mapping[str, SupportMethod] = SUPPORT_METHODS,
    pages: Sequence[tuple[str, str]] = (),
    opened: Sequence[str] = (),
) -> tuple[Support, ...]:
    """The verdicts of the methods `names`, in that order; a method with nothing to judge is left out.

    `pages` are the cited pages' (title, body): where a method reads what the quote sits under;
    `opened` the bodies of every page the run opened (a manual's product, runtime/_product_focus.py).

    A name with no method in `methods` is judged `unsupported` (a run is never accepted by
    a method that did not run).
    """
    if not names:
        return ()
    case = SupportCase(question, answer, evidence, pages, opened)
    verdicts: list[Support] = []
    for name in names:
        method = methods.get(name)
        judged: Judgement | None = (
            ("unsupported", "no support method of this name is configured")
            if method is None
            else method(case)
        )
        if judged is not None:
            verdict, detail = judged
            if len(detail) > MAX_DETAIL:
                detail = detail[: MAX_DETAIL - 1] + "…"
            verdicts.append(Support(method=name, verdict=verdict, detail=detail))
    return tuple(verdicts)


def is_supported(verdicts: Sequence[Support]) -> bool:
    """Whether every verdict is `supported` (no verdict at all counts as supported)."""
    return all(verdict.verdict == "supported" for verdict in verdicts)
