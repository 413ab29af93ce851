"""A question whose gap sits after the words a sentence also writes: the span after them answers.

"Andrew Jaspan was the co-founder of what not-for-profit media outlet?" puts its gap ("what
...") after the words "the co-founder of"; a sentence naming Andrew Jaspan that writes "the
co-founder of "The Conversation"" fills that gap with a name. The question is a sentence with
a hole, and a sentence that writes the same words before a name is that sentence filled in.

Only a gap that is not the question's first word counts (a question opening with "What" or
"Who" puts nothing before its gap). The last two to five words before the gap (the relation)
must hold a content word and no name, and be found verbatim (case aside) in the sentence; the
sentence, with its page's title, must write every other content word of the question (SQuAD
2.0's unanswerable questions swap one), the question's words before the relation must come
before it there too, and the sentence must not negate what the question does not. What fills
the gap must be a name - a quoted title or a run of capitalized words, never one the question
itself spells - and only one name may fill it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._questions import STOPWORDS, Question
from ._sentences import Sentence, split_sentences, stem, words

# "... the co-founder of what not-for-profit media outlet?": the gap word, not the first one.
_GAP: Final = re.compile(
    r"^(?P<before>\S.*?)\s+(?:what|which|whom|who)\b(?P<after>[^?]*)\?\s*$", re.IGNORECASE
)
# The most and fewest words before the gap that must be written before the answer.
_LONGEST: Final = 5
_SHORTEST: Final = 2
_COUNTS: Final = frozenset({"one"})  # a function word that still must be said ("one MSP", not "two")
# "not", but not "not-for-profit".
_NEGATION: Final = re.compile(r"(?<![\w-])(?:not|never|no|none|nor|neither)(?![\w-])|n't\b", re.IGNORECASE)
_ARTICLE: Final = re.compile(r"(?:the|a|an)\s+", re.IGNORECASE)
_QUOTED: Final = re.compile(r"[\"\u201c]([^\"\u201d]{2,80})[\"\u201d]")
_NAME: Final = re.compile(
    r"[A-Z0-9][\w'\u2019.&-]*(?:\s+(?:of|the|and|de|du|la|von|van|&)?\s*[A-Z0-9][\w'\u2019.&-]*)*"
)


@dataclass(frozen=True, slots=True)
class Filled:
    """The name that fills a question's gap, the sentence writing it, and that sentence's page."""

    answer: str
    url: str
    sentence: Sentence


def fill_gap(question: Question, pages: Sequence[Page]) -> Filled | None:
    """The name a sentence of `pages` writes where the question has its gap, if exactly one does."""
    match = _GAP.match(" ".join(question.text.split()))
    if match is None:
        return None
    before = match.group("before").split()
    # Every content word before the gap: SQuAD 2.0's unanswerable questions swap one ("The Second
    # Minister ... sit in the front row" against "The First Minister ... sit in the front row").
    # So must every content word after the gap but the asked thing's own ("what modern New York
    # borough" is what the answer names): "The independence of which Parliament tends to be high?"
    # against a sentence saying it tends to be low.
    after = words(match.group("after"))
    asked_for = next((i for i, w in enumerate(after) if w.casefold() in STOPWORDS), len(after))
    needed = {
        stem(w)
        for w in [*words(match.group("before")), *after[asked_for:]]
        if w.casefold() not in STOPWORDS or w.casefold() in _COUNTS
    }
    if not needed or len(before) < _SHORTEST:
        return None
    leads = [before[-size:] for size in range(min(_LONGEST, len(before)), _SHORTEST - 1, -1)]
    # A lead holds a content word and no name (a name in it is the question's subject).
    leads = [
        lead
        for lead in leads
        if any(w.casefold().strip(",") not in STOPWORDS for w in lead)
        and not any(w[:1].isupper() for w in lead)
    ]
    patterns = [
        (
            len(lead),
            re.compile(r"(?<![\w-])" + r"\s+".join(re.escape(w) for w in lead) + r"\s+", re.IGNORECASE),
        )
        for lead in leads
    ]
    found: dict[str, Filled] = {}
    for page in pages:
        for sentence in split_sentences(page.body):
            if (
                not _says_all(sentence.text, page.title, needed)
                or _negates(sentence.text) != question.negated
            ):
                continue
            for size, pattern in patterns:
                for hit in pattern.finditer(sentence.text):
                    if not _subject_first(sentence.text[: hit.start()], page.title, before[:-size]):
                        continue
                    answer = _name_at(sentence.text, hit.end(), question)
                    if answer is not None:
                        found.setdefault(answer.casefold(), Filled(answer, page.url, sentence))
    # Two names filling the same gap (on two pages, or after a longer and a shorter lead) are a
    # choice this rule cannot make.
    return next(iter(found.values())) if len(found) == 1 else None


def _negates(sentence: str) -> bool:
    """Whether the sentence says no ("Acts of the Scottish Parliament do not begin with ...")."""
    return _NEGATION.search(sentence) is not None


def _subject_first(opening: str, title: str, subject: Sequence[str]) -> bool:
    """Whether the question's words before its relation come before it in the sentence too (or
    name the page, whose sentences say "He" or "It"): "NSF was engineered and operated by who?" is
    not answered by "The network was engineered and operated by MCI ... with the NSF"."""
    held = {stem(w) for w in words(opening)} | {stem(w) for w in words(title)}
    return all(stem(w) in held for w in words(" ".join(subject)) if w.casefold() not in STOPWORDS)


def _says_all(sentence: str, title: str, needed: set[str]) -> bool:
    """Whether the sentence, with the title of its page (its subject when it says "He" or "It"),
    writes every word of `needed` (stems)."""
    held = {stem(w) for w in words(sentence)} | {stem(w) for w in words(title)}
    return needed <= held


def _name_at(text: str, at: int, question: Question) -> str | None:
    """The quoted title or capitalized run at `at` (after an article), unless the question spells it."""
    rest = text[at:]
    article = _ARTICLE.match(rest)
    if article is not None:
        rest = rest[article.end() :]
    quoted = _QUOTED.match(rest)
    span = quoted.group(1) if quoted else None
    if span is None:
        name = _NAME.match(rest)
        span = name.group(0).rstrip(".,") if name else None
    if not span:
        return None
    if quoted is None and " " not in span:
        # "by American country music artist Blake Shelton": a lone capitalized word before lower-case
        # words is an adjective of the name that follows them.
        later = re.match(r"\s+(?:[a-z][\w-]*\s+){1,4}(" + _NAME.pattern + ")", rest[len(span) :])
        if later is not None:
            span = later.group(1).rstrip(".,")
    asked = {stem(w) for w in words(question.text)}
    if all(stem(w) in asked for w in words(span)):
        return None
    return span
