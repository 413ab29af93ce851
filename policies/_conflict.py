"""Opened pages that disagree with the chosen answer: a correction to follow, or a conflict to report.

After the general path picks an answer of a checkable type (a year, a count, a name, a
place), the other opened pages are read again for the same question:

- a page that marks itself as a correction ("Correction: ...", "Erratum", "Update", or
  "correction" in its title) and restates the chosen value gives the value it corrects
  it to: the first of its sentences with another value of the asked type that does not
  repeat the chosen one. The answer becomes that value, quoted with the sentence before
  it when that one names what the question names (the correction's own context);
- another page whose best sentences are as good as the chosen one (ranking score within
  `TIE`, naming everything the question names, sharing most of its content words:
  `RESTATED`) but give a different value is a conflict: the policy refuses with
  `conflicting_sources`, both values as the candidate.

The rule is deliberately narrow: a close tie or an explicit correction, never a vote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from citeloop.events import Page

from ._antecedent import with_antecedent
from ._extractive_score import Scored, score_sentences
from ._questions import Question
from ._sentences import Sentence, split_sentences, stem, words
from ._short_answer import short_answer
from ._two_hop import plain_title

TIE: Final = 0.25  # a ranking score this close to the chosen sentence's is as good
RESTATED: Final = 0.6  # the share of content words two sentences must share to state the same fact
_CORRECTION: Final = re.compile(r"^\W*(?:correction|erratum|errata|update|clarification)\b", re.IGNORECASE)
_CHECKED: Final = frozenset({"when", "how_many", "how_much", "who", "where"})


@dataclass(frozen=True, slots=True)
class Disagreement:
    """`corrected`: answer `answer`, quoting `evidence` from `url`; `conflict`: refuse (both in `answer`)."""

    kind: Literal["corrected", "conflict"]
    url: str
    answer: str
    evidence: str


def is_correction(page: Page) -> bool:
    """Whether the page says it corrects something: its title or its first words."""
    return "correction" in page.title.casefold() or _CORRECTION.match(page.body) is not None


def _same(one: str, other: str, titled: str = "") -> bool:
    """Whether two answers are one: equal, or the surname of the person whose own page (`titled`,
    the plain title of the page giving `other`) it is read on: "Duarte" on the page "Ines Duarte"
    is Ines Duarte. Elsewhere a surname may be a relative ("the younger Dumas") and a place's last
    word another place ("York", "New York")."""
    first, second = one.casefold().split(), other.casefold().split()
    if first == second:
        return True
    return bool(titled) and titled.casefold().split() == first and first[-len(second) :] == second


def _names_all(question: Question, text: str) -> bool:
    own = {stem(w) for w in words(text)}
    return all(entity in own for entity in question.entities)


def disagreement(
    question: Question, url: str, answer: str, best: Scored, pages: Sequence[Page]
) -> Disagreement | None:
    """A correction or a conflict among `pages` about the chosen `answer` (from page `url`), or None."""
    if question.kind not in _CHECKED:
        return None
    for page in pages:
        if page.url == url:
            continue
        if is_correction(page) and answer in page.body:
            fixed = _corrected(question, page, answer)
            if fixed is not None:
                return fixed
            continue
        for other in score_sentences(question, [page])[:3]:
            if other.score < best.score - TIE:
                break
            value = short_answer(question, other.sentence.text)
            # "Its chief executive is Rui Costa." names what the question names a sentence or two back.
            quoted = with_antecedent(question, page.body, other.sentence)
            if (
                value
                and not _same(answer, value, plain_title(page.title) if question.kind == "who" else "")
                and _names_all(question, quoted.text)
                and _restates(_without(best.sentence.text, answer), _without(other.sentence.text, value))
            ):
                both = f"{answer} ({url}) / {value} ({page.url})"
                return Disagreement("conflict", page.url, both, quoted.text)
    return None


def _without(sentence: str, value: str) -> str:
    """`sentence` without the value it gives: two sentences that differ only in the value state one fact."""
    return sentence.replace(value, " ")


def _restates(one: str, other: str) -> bool:
    """Whether two sentences state the same thing (most of their content words shared): a disagreement
    about one fact, not two facts about one subject."""
    first = {stem(w) for w in words(one) if len(w) > 3}
    second = {stem(w) for w in words(other) if len(w) > 3}
    return bool(first and second) and len(first & second) / min(len(first), len(second)) >= RESTATED


def _corrected(question: Question, page: Page, answer: str) -> Disagreement | None:
    sentences = split_sentences(page.body)
    for index, sentence in enumerate(sentences):
        value = short_answer(question, sentence.text)
        if value is None or _same(value, answer) or answer in sentence.text:
            continue
        quote: Sentence = sentence
        if index > 0 and not _names_all(question, sentence.text):
            before = sentences[index - 1]
            if _names_all(question, before.text):
                quote = Sentence(before.start, sentence.end, page.body[before.start : sentence.end])
        return Disagreement("corrected", page.url, value, quote.text)
    return None
