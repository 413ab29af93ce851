"""Amounts asked in the user's words, of no kind the other extractors read: "How deeply nested can a
JSON document be before SQLite's JSON functions treat it as invalid?" is answered by "any JSON input
that has more than 2000 levels of nesting is considered invalid".

A question asking for an amount ("how many / much / large / deep / long ...", "what's the most ...")
is answered by the one amount of the sentence that holds most of its words: the sentence (with the
terms and headings it sits under and its page's title) holds at least half of the question's content
words, every code the question names is said there, the sentence states one amount and no other
(a number the question gives itself, a date or a release is no amount asked), the sentence itself
holds 40% of the question's words at least, and no sentence stating another amount holds about as
many of the question's words (with its context) and as many in the sentence itself (the page's title
and headings are every sentence's context). The
amount is the number with the word after it when that counts or measures ("2000 levels", "0.2
second"), or "twice"; a number after "version" or a product's name ("Python 3.6") is a release, and one
in brackets after a name ("local(8)") a manual's section. A line of code, or what a value means ("A
value of 0 means no limit") is not read; the question asks for the amount from its start or after a
scene ("...: how many ...?"), not inside a "which" question.
Read for a question no extractor of a kind answered, reading no sentence stating a default (a default
is no bound), and for a default question asking an amount, reading only sentences that state one ("By
default, ... reflog entries ... not reachable ...; defaults to 30 days"), beside what the default
extractors read (`_doc_answer`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, on_every_page, overlap, own_quote, sentences_of
from ._doc_questions import DocQuestion
from ._sentences import stem

_ASKED: Final = re.compile(
    r"(?:^|[,;:?\u2014-] )(?:\w+ ){0,3}?(?:how (?:many|much|large|big|deep(?:ly)?|long|far|small|high|old)\b"
    r"|what(?:'s| is) the (?:maximum|max|most|highest|largest|longest|minimum|min|lowest|smallest|fewest)\b"
    r"|\bat (?:most|least) how\b)",
    re.IGNORECASE,
)
# The words asking for the amount say nothing of where it is stated ("deeply": "2000 levels").
_ASKING_WORDS: Final = (
    "how many much large big deep deeply long far small high old what maximum max most highest largest "
    "longest minimum min lowest smallest fewest least"
)
_ASKING: Final = frozenset(stem(w) for w in _ASKING_WORDS.split())
# A number (not inside a name, "SHA-256", nor a release, "3.8.0", nor a date, "2021-08-23", nor a
# manual section, "local(8)") and the word after it; or "twice".
_AMOUNT: Final = re.compile(
    r"(?<![\w.$/-])(?<!\w\()(?P<number>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w.,-]*\d)(?![\w-])"
    r"(?:(?P<sign>%)|[ -](?P<word>[a-z]+))?"
    r"|\b(?P<count>twice)\b",
    re.IGNORECASE,
)
_FIT: Final = 0.5
# A default is no bound, and an example of code or a value's meaning ("A value of 0 means no limit")
# states no amount of what is asked.
_NO_AMOUNT_ASKED: Final = re.compile(r">>>|\s=\s|\bvalue of \S+ means\b", re.IGNORECASE)
# A sentence stating what happens by default: the amount of a default question, no other's.
_DEFAULT_STATED: Final = re.compile(
    r"\bby default\b|\bdefaults? (?:to|is|value)\b|\bnormally\b", re.IGNORECASE
)
# The word after a number is said with it when it is a plural noun ("2000 levels") or a unit.
_UNIT_WORDS: Final = (
    "second minute hour day week month year byte bit page row level frame table character item entry "
    "digit thread file connection process time"
)
_UNITS: Final = frozenset(_UNIT_WORDS.split())
_OWN: Final = 0.4  # of the question's words, the sentence itself holds this share at least
# "New in version 3.6", "Postfix 2.7 and later": a release, not an amount.
_RELEASE_BEFORE: Final = re.compile(r"\b(?:versions?|releases?|[A-Z][A-Za-z]+) $")
_MARGIN: Final = 0.15


def asked_amounts(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The one amount of the sentence holding most of an amount question's words, if clearly best."""
    by_default = q.kind == "default"
    if (q.noun != "unhandled" and not by_default) or _ASKED.search(q.text) is None:
        return
    # The manual's product, named on every page opened ("SQLite's JSON functions"), tells no sentence
    # from another either.
    product = {stem(w.casefold()) for w in re.findall(r"\b[A-Z]\w+", q.text) if on_every_page(w, pages)}
    wanted = tuple(w for w in q.words if w not in _ASKING and w not in product)
    if len(wanted) < 2:
        return
    asked = replace(q, words=wanted)
    given = {_value(m) for m in _AMOUNT.finditer(q.text)}
    found: list[tuple[float, float, DocCandidate]] = []
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if not about(line, text, q) or _NO_AMOUNT_ASKED.search(text) is not None:
            continue
        if by_default != (_DEFAULT_STATED.search(text) is not None):
            continue  # a default is no bound; a bound, no default
        amounts = [m for m in _AMOUNT.finditer(text) if _value(m) not in given and not _release(text, m)]
        if len({_value(m) for m in amounts}) != 1:
            continue
        own = overlap(asked, text)
        if own < _OWN:
            continue
        fit = overlap(asked, text, *line.terms[-1:], *line.headings, page.title)
        quote = own_quote(page, line, sentence)
        found.append((fit, own, DocCandidate(page.url, _said(amounts[0]), quote, 1.0 + fit, "amount stated")))
    found.sort(key=lambda item: (-item[0], -item[1]))
    if not found or found[0][0] < _FIT:
        return
    fit, own, best = found[0]
    for other_fit, other_own, other in found[1:]:
        if (
            _value_of(other.answer) != _value_of(best.answer)
            and other_fit > fit - _MARGIN
            and other_own >= own
        ):
            return  # another amount, stated by a sentence holding as many of the question's words
    yield best


def _release(text: str, match: re.Match[str]) -> bool:
    return _RELEASE_BEFORE.search(text, 0, match.start()) is not None


def _value(match: re.Match[str]) -> str:
    return (match.group("number") or match.group("count")).casefold()


def _said(match: re.Match[str]) -> str:
    if match.group("count"):
        return match.group("count")
    word = match.group("word")
    if match.group("sign"):
        return match.group("number") + "%"
    if word and word.casefold().removesuffix("s") in _UNITS:
        return f"{match.group('number')} {word}"
    return match.group("number")


def _value_of(answer: str) -> str:
    return answer.split(" ", 1)[0].casefold()
