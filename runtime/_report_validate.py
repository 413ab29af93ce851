"""Deterministic validation of a report draft (docs/reports.md): codes in a fixed order, located footnotes.

`validate_draft` reads the draft (runtime/_draft_parse.py), resolves each definition to a
citable source and locates its quote with the locator code every finish uses
(runtime/_locate.py), then holds the body to its footnotes: a sentence stating a fact must
cite, and what a cited sentence states must be in its quotes. The rules, with an example per
code and what is knowingly not checked, are in docs/reports.md ("Validation").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from citeloop.events import DraftFinding, Footnote

from ._draft_parse import (
    INLINE_CODE,
    MARKER,
    Definition,
    Sentence,
    footnote_number,
    mask_inline_code,
    parse_draft,
)
from ._locate import locate_evidence
from ._quantities import Date, find_dates, fold_text, normal_number, quantities
from ._support import assess_support, is_supported
from ._text import normalize_ws

CODES: Final = (
    "no_sources",
    "no_citations",
    "dangling_citation",
    "quote_not_in_source",
    "unreferenced_footnote",
    "uncited_fact",
    "unsupported_claim",
)
_EXCERPT: Final = 60

# Numbers (dates, versions, amounts) are read from folded text (NFKC: full-width digits are ASCII).
_NUMBER: Final = re.compile(r"\d+(?:[.,:/-]\d+)*")
_DIGIT: Final = re.compile(r"\d")
# A word for names: letters with their marks; apostrophes and hyphens inside ("O'Neil", "Jean-Luc").
_WORD: Final = re.compile(r"[^\W\d_][^\W_]*(?:['\u2019-][^\W\d_][^\W_]*)*")
# Before a sentence's first word: opening quotes, brackets, emphasis; a word after these opens a clause.
_LEAD_IN: Final = "\"'([{*_\u201c\u2018\u00ab\u00bf\u00a1\u2013\u2014\u2022-"
# A word after these opens a clause too; `|` separates a table's cells ("| Name | Value |").
_CLAUSE_END: Final = frozenset(".!?:;\u2026|")
# Each identifier form, with a cheap test that the text may hold one (most prose holds none).
_IDENTIFIERS: Final = (
    ("()", re.compile(r"(?<![\w.])[A-Za-z_][\w.]*\(\)")),  # name(), pkg.name()
    (".", re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w(])")),  # dotted.name
    ("_", re.compile(r"(?<![\w.])_*[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*_\w+")),  # snake_case, __dunder__
    ("", re.compile(r"(?<![\w.])[A-Za-z]*[a-z][A-Z]\w*")),  # camelCase, CamelCase, iPhone
)
_INNER_CAPITAL: Final = re.compile(r"[a-z][A-Z]")
_MONTHS: Final = frozenset((
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
))  # fmt: skip
# "## 2.1 Background": a heading's section number is no fact.
_SECTION_NUMBER: Final = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_LINK: Final = re.compile(r"!?\[([^\]]*)\]\([^)\s]*\)")
# Words that turn a statement around: a cited sentence that has one needs a quote that has it.
_NEGATION: Final = re.compile(
    r"(?<![\w'])(?:not|no|never|neither|nor|none|nothing|without|cannot)(?![\w'])|n['\u2019]t(?![\w'])",
    re.IGNORECASE,
)
# A disclosure section's sentence says what was not found; one that says so states no fact.
_DISCLOSES: Final = re.compile(
    r"\b(?:not (?:found|stated|given|covered|mentioned|available|known|confirmed|answered)|no source|"
    r"could ?n[o'\u2019]t|did ?n[o'\u2019]t|unknown|unclear|no information|open question|remains? open)\b",
    re.IGNORECASE,
)


def validate_draft(
    draft: str, citable: Mapping[str, tuple[str, str]], *, question: str = "", support: Sequence[str] = ()
) -> tuple[tuple[DraftFinding, ...], tuple[Footnote, ...]]:
    """The draft's findings, in the order of `CODES` (none when it is valid), and its located footnotes.

    `citable` maps each admitted source id (an opened URL or an attachment id) to `(text,
    sha256)`, as `RunState.citable()` gives it. `support` names the support methods a cited
    sentence is also held to (runtime/_support.py), with `question` the run's question.
    One footnote per valid definition (its source citable, its quote located), in order of
    its number. Never raises on any draft.
    """
    parsed = parse_draft(draft)
    found: dict[str, list[DraftFinding]] = {code: [] for code in CODES}

    def report(code: str, detail: str, footnote: int | None = None) -> None:
        found[code].append(DraftFinding(code=code, detail=detail, footnote=footnote))

    if not citable:
        report("no_sources", "the run admitted no source to cite")
    if not parsed.markers:
        report("no_citations", "the draft has no footnote marker [^n]")

    footnotes = _resolve(parsed.definitions, citable, report)
    defined = {definition.label for definition in parsed.definitions if definition.number is not None}
    for label in dict.fromkeys(parsed.markers):
        if footnote_number(label) is None:
            report("dangling_citation", f"marker [^{label}]: a footnote label is a positive integer")
        elif label not in defined:
            report("dangling_citation", f"marker [^{label}] has no definition", int(label))
    referenced = set(parsed.markers)
    for n in sorted(footnotes):
        if str(n) not in referenced:
            report("unreferenced_footnote", f"footnote [^{n}] is defined but no marker cites it", n)

    for sentence in parsed.sentences:
        _check_sentence(sentence, footnotes, question, support, report)
    findings = tuple(finding for code in CODES for finding in found[code])
    return findings, tuple(footnotes[n] for n in sorted(footnotes))


def _resolve(
    definitions: Sequence[Definition], citable: Mapping[str, tuple[str, str]], report: _Report
) -> dict[int, Footnote]:
    """The valid definitions as located footnotes by number; the invalid ones reported."""
    footnotes: dict[int, Footnote] = {}
    seen: set[str] = set()
    for definition in definitions:
        label, n = definition.label, definition.number
        if n is None:
            report("dangling_citation", f"definition [^{label}]: a footnote label is a positive integer")
            continue
        if label in seen:
            report("dangling_citation", f"footnote [^{n}] is defined twice (line {definition.line})", n)
            continue
        seen.add(label)
        if definition.source is None or definition.quote is None:
            report("dangling_citation", f'definition [^{n}] is not `[^{n}]: <source> "<quote>"`', n)
            continue
        if definition.source not in citable:
            report(
                "dangling_citation", f"footnote [^{n}] cites {definition.source!r}, not a citable source", n
            )
            continue
        located = locate_evidence(definition.quote, [definition.source], citable)
        if not located:
            quote = _excerpt(definition.quote)
            report("quote_not_in_source", f"footnote [^{n}]: {quote!r} is not in {definition.source}", n)
            continue
        footnotes[n] = Footnote(**located[0].model_dump(), n=n)
    return footnotes


class _Report(Protocol):
    """How the checks record a finding (the `report` closure of `validate_draft`)."""

    def __call__(self, code: str, detail: str, footnote: int | None = None) -> None: ...


def _excerpt(text: str) -> str:
    text = normalize_ws(text)
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "\u2026"


def _check_sentence(
    sentence: Sentence,
    footnotes: Mapping[int, Footnote],
    question: str,
    support: Sequence[str],
    report: _Report,
) -> None:
    plain = plain_text(sentence.text)
    if sentence.kind == "disclosure" and not sentence.labels and _DISCLOSES.search(plain):
        return  # it says what is missing: the disclosure the report owes, not a fact
    facts = stated_facts(plain, heading=sentence.kind == "heading")
    if not sentence.labels:
        if facts:
            shown = ", ".join(dict.fromkeys(text for _, text in facts))
            report("uncited_fact", f"{_excerpt(plain)!r} states {shown} without a marker")
        return
    numbers = dict.fromkeys(footnote_number(label) for label in sentence.labels)
    cited = [footnotes[n] for n in numbers if n is not None and n in footnotes]
    if not cited:
        return  # its markers are dangling or their quotes unlocated: reported above
    quotes = "\n".join(footnote.quote for footnote in cited)
    folded_quotes = fold_text(quotes) if any(kind in ("date", "number") for kind, _ in facts) else ""
    missing = [text for kind, text in facts if not _in_quotes(kind, text, quotes, folded_quotes)]
    missing.extend(_negations_missing(plain, quotes))
    first = cited[0].n
    if missing:
        shown = ", ".join(dict.fromkeys(missing))
        report("unsupported_claim", f"{_excerpt(plain)!r}: not in its quotes: {shown}", first)
        return
    # A sentence without a letter or digit ("—") states nothing a method could judge.
    if support and any(char.isalnum() for char in plain):
        verdicts = assess_support(question, plain, quotes, support)
        if not is_supported(verdicts):
            failed = next(verdict for verdict in verdicts if verdict.verdict != "supported")
            detail = f"{_excerpt(plain)!r}: {failed.method} {failed.verdict}: {failed.detail}"
            report("unsupported_claim", detail, first)


def plain_text(sentence: str) -> str:
    """A sentence without its markers and Markdown emphasis; a link is its text, inline code kept as is."""
    pieces: list[str] = []
    done = 0
    for code in INLINE_CODE.finditer(sentence):
        pieces.extend((_plain_prose(sentence[done : code.start()]), code.group(0)))
        done = code.end()
    pieces.append(_plain_prose(sentence[done:]))
    return normalize_ws("".join(pieces))


def _plain_prose(text: str) -> str:
    text = MARKER.sub("", text)
    return _LINK.sub(lambda match: match.group(1), text).replace("*", "")


def stated_facts(plain: str, *, heading: bool = False) -> list[tuple[str, str]]:
    """The facts a sentence states, as (kind, text): numbers and dates, identifiers, names.

    A heading is a label: only its numbers and dates are facts (docs/reports.md).
    """
    facts: list[tuple[str, str]] = []
    if _DIGIT.search(plain) is not None:  # every date form has a digit too: the common case skips
        folded = fold_text(_SECTION_NUMBER.sub("", plain) if heading else plain)
        dates = find_dates(folded)
        facts.extend(("date", folded[date.start : date.end]) for date in dates)
        for date in dates:
            folded = folded[: date.start] + " " * (date.end - date.start) + folded[date.end :]
        facts.extend(("number", match.group(0)) for match in _NUMBER.finditer(folded))
    if heading:
        return facts
    for match in INLINE_CODE.finditer(plain):
        facts.append(("identifier", match.group(2).strip()))
    prose = mask_inline_code(plain)
    prose = INLINE_CODE.sub(lambda match: " " * len(match.group(0)), prose)
    spans: list[tuple[int, int]] = []
    for hint, pattern in _IDENTIFIERS:
        if (hint not in prose) if hint else _INNER_CAPITAL.search(prose) is None:
            continue
        for match in pattern.finditer(prose):
            if any(start < match.end() and match.start() < end for start, end in spans):
                continue
            token = match.group(0)
            if all(len(part) <= 1 for part in token.split(".")):
                continue  # "e.g", "U.S": initials, not a dotted name
            spans.append(match.span())
            facts.append(("identifier", token))
    for start, end in spans:
        prose = prose[:start] + " " * (end - start) + prose[end:]
    dated = any(kind == "date" for kind, _ in facts)
    facts.extend(("name", word) for word in _names(prose, dated=dated))
    return [(kind, text) for kind, text in facts if text]


def _names(prose: str, *, dated: bool) -> list[str]:
    """The capitalized words (two letters or more) that do not open a clause, months of dates aside."""
    names: list[str] = []
    for match in _WORD.finditer(prose):
        start, word = match.start(), match.group(0)
        if len(word) < 2 or not word[0].isupper() or word.startswith(("I'", "I\u2019")):
            continue
        if dated and word.casefold() in _MONTHS:
            continue  # part of a date, checked as one ("September 1, 2021" = "2021-09-01")
        # A word opening a clause ("The", "Use") is no name by itself. In "Ada Lovelace
        # wrote" the run is a name all the same, held by its later words (docs/reports.md).
        if not _opens_clause(prose, start):
            names.append(word)
    return names


def _opens_clause(text: str, start: int) -> bool:
    index = start - 1
    while index >= 0 and (text[index] == " " or text[index] in _LEAD_IN):
        index -= 1
    return index < 0 or text[index] in _CLAUSE_END


def _in_quotes(kind: str, text: str, quotes: str, folded_quotes: str) -> bool:
    if kind == "date":
        return _date_in(text, folded_quotes)
    if kind == "number":
        return _number_in(text, folded_quotes)
    if kind == "identifier":
        base = re.sub(r"\([^()]*\)$", "", text)  # `connect()` stands for the name `connect`
        if " " in normalize_ws(base) or not base:
            return normalize_ws(base) in normalize_ws(quotes)
        return re.search(rf"(?<![\w]){re.escape(base)}(?!\w)", quotes) is not None
    # The bounds of `_WORD`: no letter before (a digit may be: "3Com"), no letter or digit after.
    return re.search(rf"(?<![^\W\d_]){re.escape(text)}(?![^\W_])", quotes) is not None


def _number_in(number: str, folded_quotes: str) -> bool:
    """Whether folded quotes state this number: as written, without thousands commas, or by value.

    By value, a number the quotes give in another spelling counts ("4 000", "4000.0"), but
    not a part of a date ("9" is not in "2021-09-01").
    """
    for spelled in dict.fromkeys((number, number.replace(",", ""))):
        if re.search(rf"(?<!\d)(?<!\d[.,]){re.escape(spelled)}(?![.,]?\d)", folded_quotes):
            return True
        plain = folded_quotes.replace(",", "")
        if re.search(rf"(?<!\d)(?<!\d\.){re.escape(spelled)}(?!\.?\d)", plain):
            return True
    value = normal_number(number.replace(",", ""))
    return value is not None and any(
        quantity.value == value and not quantity.dated for quantity in quantities(folded_quotes)
    )


def _date_in(date: str, folded_quotes: str) -> bool:
    """Whether folded quotes state this date: as written, or a date with every part it gives."""
    if date in folded_quotes:
        return True
    stated = find_dates(date)
    return bool(stated) and any(stated[0].within(other) for other in _dates(folded_quotes))


@functools.lru_cache(maxsize=64)
def _dates(folded_quotes: str) -> tuple[Date, ...]:
    # A sentence's quotes are read for dates once, however many dates the sentence states.
    return tuple(find_dates(folded_quotes))


def _negation_kind(word: str) -> str:
    folded = word.casefold().replace("\u2019", "'")
    return "not" if folded in ("not", "cannot", "n't") else folded


def _negations_missing(plain: str, quotes: str) -> list[str]:
    """The negations of the sentence that its quotes do not have ("not" also as "n't", "cannot")."""
    stated = list(_NEGATION.finditer(plain))
    if not stated:
        return []
    have = {_negation_kind(match.group(0)) for match in _NEGATION.finditer(quotes)}
    return [
        f"the negation {match.group(0)!r}" for match in stated if _negation_kind(match.group(0)) not in have
    ]
