"""ChoiceQuestion questions: "Which filmmaker was known for animation, A or B?" - the name whose page says so.

A question that offers two names (`_compare.offered`) but asks for no value to compare
(no "older", "first", "more ...") asks which of the two a description fits. The policy
opens each name's page (`_lookups`) and reads, in each, the sentence holding most of the
description's words - the question's content words before the two names ("known",
"animation"), matched by stem or by their first letters ("animation" ~ "animated").
The name whose page holds strictly more of them wins; its quote is that sentence with the
page's first sentence (one span when they are near, two quotes otherwise), so that the
evidence names its subject, and the other page's is quoted beside it, citing both pages.

Refused, not guessed: a question with a comparative or superlative ("longest career",
"larger", "higher ratio" ask for values the pages state in ways no rule here compares),
a tie, a winner holding fewer than two of the description's words, or a winning quote
that does not spell the name as the question writes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._compare import comparison, offered
from ._questions import STOPWORDS
from ._sentences import split_sentences, stem, words

_PREFIX: Final = 5
# How far into a page the winning sentence may lie and still be quoted with the first sentence.
MAX_QUOTE_SENTENCES: Final = 3
# A description asking for a value to compare, not for a property one page states.
_GRADED: Final = re.compile(
    r"\b(?:more|most|less|least|fewer|than|longer|larger|bigger|higher|lower|smaller|shorter|taller"
    r"|greater|better|worse|closer|further|farther|older|younger|earlier|later|first|last|[a-z]{3,}est)\b"
)
# Words that shape the question, not the description.
_SHAPE: Final = frozenset({"which", "who", "whom", "whose", "what", "one", "two", "these", "those", "had"})


@dataclass(frozen=True, slots=True)
class ChoiceQuestion:
    """Two offered names and the stems of the description one of them fits."""

    first: str
    second: str
    terms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Fit:
    """How many of the description's words a page's best sentence holds, and the quote it gives."""

    held: int
    quotes: tuple[str, ...]


def choice_question(question: str) -> ChoiceQuestion | None:
    """The choice `question` offers, or None (not an "A or B?" question, a comparison, or graded)."""
    pair = offered(question)
    if pair is None or comparison(question) is not None:
        return None
    first, second = pair
    text = " ".join(question.split())
    head = text[: text.rfind(first)]
    if _GRADED.search(head.casefold()) is not None:
        return None
    names = {stem(w) for w in words(first)} | {stem(w) for w in words(second)}
    terms: list[str] = []
    for word in words(head):
        low = word.casefold()
        if low in STOPWORDS or low in _SHAPE or len(low) < 3 or stem(low) in names:
            continue
        terms.append(stem(low))
    unique = tuple(dict.fromkeys(terms))
    return ChoiceQuestion(first, second, unique) if len(unique) >= 2 else None


def fit(page: Page, what: ChoiceQuestion) -> Fit | None:
    """The sentence of `page` that holds most of the description's words (the first such), or None."""
    sentences = split_sentences(page.body)
    if not sentences:
        return None
    best: tuple[int, int] | None = None
    for index, sentence in enumerate(sentences):
        held = _held(what.terms, sentence.text)
        if best is None or held > best[0]:
            best = (held, index)
    assert best is not None
    held, index = best
    first, sentence = sentences[0], sentences[index]
    if index == 0:
        return Fit(held, (sentence.text,))
    if index < MAX_QUOTE_SENTENCES:
        return Fit(held, (page.body[first.start : sentence.end],))
    return Fit(held, (first.text, sentence.text))  # the first sentence names the subject


def _held(terms: tuple[str, ...], text: str) -> int:
    """How many of `terms` `text` holds: by stem, or a word opening with the term's first letters (at least
    four: "anim" holds "animated", "nazi" holds "nazis")."""
    own = {stem(w) for w in words(text)}
    return sum(t in own or (len(t) >= 4 and any(w.startswith(t[:_PREFIX]) for w in own)) for t in terms)


def chosen(one: Fit, other: Fit) -> int | None:
    """0 when the first page fits the description better, 1 for the second, None when neither clearly."""
    if one.held == other.held or max(one.held, other.held) < 2:
        return None
    return 0 if one.held > other.held else 1
