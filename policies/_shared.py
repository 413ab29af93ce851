"""What two named entities have in common: the words both pages' definitions share, or a name both give.

"What occupation is shared by both Marge Piercy and Richard Aldington?" names two entities
and asks for what their pages both say they are. The policy opens each one's page (as for
a comparison, `_compare`) and reads the *definition* of each: the words of the first
sentence after its first "is"/"was" (brackets left out) - "Marge Piercy (born March 31,
1936) is an American poet, novelist, and social activist." gives "American poet novelist
social activist". The answer is the words both definitions hold, in the first one's order
("poet"), quoting both first sentences and citing both pages. A question about a
nationality keeps the capitalized words ("British"); one about an occupation, a sport or
a genre the others. Nothing shared is a refusal, and so is anything but a definition: no
word is taken from elsewhere in the pages.

`common_name` answers the other shape: "Which English musician is known for both the songs
A and B?" - when the pages titled A and B are open and exactly one name that the question
does not spell is given by both, that name is the answer, quoted from each page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._extractive_score import capitalized_runs
from ._nationalities import NATIONALITIES
from ._questions import CHOOSES_ONE, STOPWORDS, Question, is_month
from ._sentences import Sentence, split_sentences, stem, words
from ._two_hop import plain_title

_NAME: Final = r"[A-Z][\w.'\u2019-]*(?:\s+(?:(?:de|da|von|van|der|del|la|le)\s+)?[A-Z][\w.'\u2019-]*)*"
_PAIR: Final = re.compile(rf"(?P<a>{_NAME})\s*,?\s+and\s+(?P<b>{_NAME})")
_ASKS: Final = re.compile(r"\b(?:in common|both|shared)\b", re.IGNORECASE)
_COPULA: Final = re.compile(r"\b(?:is|was|are|were)\b")
# A question asking a date, a year or an amount asks no name ("What is the birth date of the actress who
# starred as X in Y?": the actress both pages name is the bridge).
_ASKS_VALUE: Final = re.compile(r"(?i)\b(?:date|year|birthday|when|how many|how much|how long)\b")
# A sentence before the one asking: "X stars A, B and one other actress. Which character did she play?"
_PREAMBLE: Final = re.compile(r"[.!]\s+[A-Z][^.!?]*\?\s*$")
# Question words that ask for a nationality: the shared word is then a capitalized one.
_NATIONALITY: Final = frozenset({"nationality", "nationalities", "country", "citizenship"})
# Definition words that say nothing about what the subject is.
_EMPTY: Final = frozenset({"former", "current", "retired", "born", "known", "best", "also", "one", "most"})


@dataclass(frozen=True, slots=True)
class Shared:
    """A question asking what two named entities have in common."""

    first: str
    second: str
    capitalized: bool


@dataclass(frozen=True, slots=True)
class Definition:
    """A page's first sentence and the words of its definition (after the first "is"/"was")."""

    sentence: Sentence
    words: tuple[str, ...]


def shared_question(question: str) -> Shared | None:
    """The two names and the kind of word a "what do A and B have in common?" question asks for
    (also "What nationality were A and B?": a nationality asked of two names is a shared one)."""
    text = " ".join(question.split())
    lowered = {w.casefold() for w in words(text)}
    nationality = bool(lowered & _NATIONALITY)
    if not lowered & {"what", "which"} or (_ASKS.search(text) is None and not nationality):
        return None
    if CHOOSES_ONE.search(text) is not None:
        # "A and B were both tennis players. Which of them reached the higher ranking?": what they share
        # is the question's premise, not its answer.
        return None
    match = _PAIR.search(text)
    if match is None:
        return None
    first, second = match.group("a"), match.group("b")
    if first.split()[0].casefold() in STOPWORDS or first.casefold() == second.casefold():
        return None
    return Shared(first, second, nationality)


def definition(page: Page) -> Definition | None:
    """The definition its first sentence gives, or None when it has no "is"/"was" outside brackets."""
    sentences = split_sentences(page.body)
    if not sentences:
        return None
    first = sentences[0]
    bare = re.sub(r"\([^()]*\)", " ", first.text)
    copula = _COPULA.search(bare)
    if copula is None:
        return None
    said = [
        w
        for w in words(bare[copula.end() :])
        if w.casefold() not in STOPWORDS and w.casefold() not in _EMPTY and not any(c.isdigit() for c in w)
    ]
    return Definition(first, tuple(said))


def common_words(what: Shared, one: Definition, other: Definition) -> list[str]:
    """The words of `one`'s definition that `other`'s holds too (by stem), of the asked kind, in order."""
    theirs = {stem(w) for w in other.words}
    found = [w for w in one.words if stem(w) in theirs and w[:1].isupper() == what.capitalized and len(w) > 2]
    return list(dict.fromkeys(found))


@dataclass(frozen=True, slots=True)
class CommonName:
    """A name two pages the question names both give: the answer, with a quote from each page."""

    pages: tuple[Page, Page]
    answer: str
    quotes: tuple[str, str]


def common_name(question: Question, pages: Sequence[Page]) -> CommonName | None:
    """For "which musician is known for both the songs A and B?": the one name (a run of capitalized
    words the question does not spell) that a sentence of A's page and a sentence of B's page both
    give, A and B being two opened pages whose titles the question spells. None when there is no such
    name, or several."""
    if question.kind not in ("who", "which", "what", "where"):
        return None
    if _PREAMBLE.search(question.text) is not None or _ASKS_VALUE.search(question.text) is not None:
        # "Jawbreaker stars A, B and one other lead actress. Which character did that third actress
        # play?": the name the pages share is the bridge the opening sentence describes, not the answer.
        return None
    text = question.text.casefold()
    named = [page for page in pages if _spells(text, plain_title(page.title).casefold())]
    titled = {plain_title(page.title).casefold(): page for page in named}
    # "... ballet L'histoire de Manon ...": the question spells "Manon" only inside the other title, so
    # it names one page, not two.
    named = [page for title, page in titled.items() if not any(title in o and o != title for o in titled)]
    if len(named) != 2:
        return None
    asked = set(question.terms) | set(question.entities)
    found = [_names_in(page, asked, text) for page in named]
    # A nationality names no one: "American" on a single's page and on its band's page is no answer.
    common = [name for name in found[0] if name in found[1] and name.casefold() not in NATIONALITIES]
    # A name of two words or more outranks single words, which are often adjectives ("American").
    common = [name for name in common if " " in name] or common
    if len(common) != 1:
        return None
    answer = common[0]
    first, second = (found[0][answer], found[1][answer])
    return CommonName((named[0], named[1]), answer, (first, second))


def _spells(text: str, title: str) -> bool:
    return len(title) >= 3 and re.search(rf"(?<![\w-]){re.escape(title)}(?![\w-])", text) is not None


def _names_in(page: Page, asked: set[str], question: str) -> dict[str, str]:
    """Each name a sentence of `page` gives that the question does not spell, with its first sentence."""
    names: dict[str, str] = {}
    for sentence in split_sentences(page.body):
        for _, run in capitalized_runs(words(sentence.text), asked):
            # (not a month: two life dates share "December" without naming anyone)
            if (
                len(run) >= 3
                and run.casefold() not in question
                and run in sentence.text
                and not is_month(run)
            ):
                names.setdefault(run, sentence.text)
    return names
