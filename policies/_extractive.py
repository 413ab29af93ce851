"""`ExtractivePolicy`: a deterministic researcher. No model, no network: search, open, quote or refuse.

It searches the question's content words, opens the best hits while leaving room to
finish, and picks the sentence that best answers the question's type (who, when, where,
how many, ...). It finishes with that sentence verbatim as evidence and its page as the
only citation - or abstains when its confidence is below `min_confidence`.

Confidence is a logistic score over a few signals that tell a sentence that answers the
question from one that only shares its words: the weighted share of question words the
sentence holds, whether the names and numbers of the question are in the sentence and
its page, whether the sentence holds a candidate of the asked type that the question
does not (a year for "when", a name for "who", a number for "how many"), a negation the
question has and the sentence lacks, yes/no questions (an extract cannot answer them),
the page's search rank and the lead over the runner-up sentence. The weights were fitted
on the shared SQuAD 2.0 sample (see `runtime/_eval.py` for the sweep); the default
threshold refuses at least 80% of its unanswerable questions.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._questions import Question, analyze, is_month
from ._react import abstain_reply, finish_reply, react
from ._sentences import Sentence, split_sentences, stem, words
from ._view import RunView

DEFAULT_MIN_CONFIDENCE: Final = 0.43
# Logistic weights over `Features.vector()` (bias first); fitted on the shared SQuAD 2.0 sample.
WEIGHTS: Final[tuple[float, ...]] = (
    -4.695, 1.224, 1.093, 0.19, 0.8, 0.764, -2.174, -0.718, 0.834, 0.711, -0.532, 0.953, -0.439, -0.002,
    0.296, 0.155, 0.025,
)  # fmt: skip

_YEAR: Final = re.compile(r"^(1[0-9]{3}|20[0-9]{2})s?$")
_NUMBER_WORDS: Final = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "twenty",
        "thirty",
        "forty",
        "fifty",
        "sixty",
        "seventy",
        "eighty",
        "ninety",
        "hundred",
        "thousand",
        "million",
        "billion",
        "dozen",
        "half",
    ]
)
_CONNECTORS: Final = frozenset(
    {"of", "de", "da", "van", "von", "der", "la", "le", "du", "del", "al", "bin", "and"}
)
_LOCATIVE: Final = frozenset({"in", "at", "from", "near", "on", "to", "into"})


@dataclass(frozen=True, slots=True)
class Features:
    """The signals behind one candidate sentence's confidence."""

    overlap: float  # idf-weighted share of question words in the sentence
    context: float  # the same over the sentence and the one before it
    entities_in_sentence: float
    entities_in_page: float
    type_match: float  # 1 when the sentence holds a candidate of the asked type absent from the question
    negation_missing: float
    yes_no: float
    top_page: float  # 1 when the page was the first search hit
    margin: float  # lead of this sentence's ranking score over the runner-up's
    page_coverage: float  # idf-weighted share of question words anywhere in the page
    missing_in_page: float  # question words the page never uses (capped at 3, scaled to 0..1)
    missing_in_context: float  # question words absent from the sentence and the one before (capped at 4)
    bigrams: float  # share of the question's adjacent word pairs found adjacent in the sentence
    phrase: float  # longest run of question words found in the same order in the sentence, scaled
    factoid: float  # 1 for who/when/where/how many/how much: an extract answers these best
    open_ended: float  # 1 for why/how: a sentence rarely holds just the answer

    def vector(self) -> tuple[float, ...]:
        return (
            1.0,
            self.overlap,
            self.context,
            self.entities_in_sentence,
            self.entities_in_page,
            self.type_match,
            self.negation_missing,
            self.yes_no,
            self.top_page,
            self.margin,
            self.page_coverage,
            self.missing_in_page,
            self.missing_in_context,
            self.bigrams,
            self.phrase,
            self.factoid,
            self.open_ended,
        )


@dataclass(frozen=True, slots=True)
class Choice:
    """The best sentence found, where it is, a short answer drawn from it, and the confidence."""

    url: str
    sentence: Sentence
    answer: str
    features: Features
    confidence: float


def confidence(features: Features, weights: Sequence[float] = WEIGHTS) -> float:
    """The logistic confidence that the sentence answers the question."""
    z = sum(w * x for w, x in zip(weights, features.vector(), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def choose(question: Question, pages: Sequence[Page], weights: Sequence[float] = WEIGHTS) -> Choice | None:
    """The best-answering sentence among `pages` (given in search-rank order), or None if there is none."""
    scored: list[tuple[float, int, int, Sentence, list[str], float, float, set[str]]] = []
    per_page: list[list[Sentence]] = [split_sentences(page.body) for page in pages]
    stems_of = {id(s): [stem(w) for w in words(s.text)] for sents in per_page for s in sents}
    total = sum(len(s) for s in per_page)
    df: dict[str, int] = {}
    for sents in per_page:
        for s in sents:
            for term in set(stems_of[id(s)]):
                df[term] = df.get(term, 0) + 1
    idf = {t: math.log((total + 1) / (df.get(t, 0) + 0.5)) for t in question.terms}
    weight_all = sum(idf.values()) or 1.0
    for rank, sents in enumerate(per_page):
        previous: set[str] = set()
        for position, sentence in enumerate(sents):
            own = set(stems_of[id(sentence)])
            overlap = sum(idf[t] for t in question.terms if t in own) / weight_all
            context = sum(idf[t] for t in question.terms if t in own or t in previous) / weight_all
            window = own | previous
            previous = own
            score = overlap + 0.3 * context + 0.25 * _type_match(question, sentence.text) - 0.05 * rank
            scored.append((score, rank, position, sentence, stems_of[id(sentence)], overlap, context, window))
    if not scored:
        return None
    # Best score first; ties go to the higher-ranked page, then the earlier sentence: deterministic.
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    best_score, rank, _, sentence, sentence_stems, overlap, context, window = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    page = pages[rank]
    own = set(sentence_stems)
    page_stems = {stem(w) for w in words(page.title + " " + page.body)}
    entities = question.entities
    pairs = list(itertools.pairwise(question.terms))
    sentence_pairs = set(itertools.pairwise(sentence_stems))
    features = Features(
        overlap=overlap,
        context=context,
        entities_in_sentence=sum(e in own for e in entities) / len(entities) if entities else 1.0,
        entities_in_page=sum(e in page_stems for e in entities) / len(entities) if entities else 1.0,
        type_match=_type_match(question, sentence.text),
        negation_missing=float(question.negated and not _negated(sentence.text)),
        yes_no=float(question.kind == "yesno"),
        top_page=float(rank == 0),
        margin=min(1.0, best_score - runner_up),
        page_coverage=sum(idf[t] for t in question.terms if t in page_stems) / weight_all,
        missing_in_page=min(3, sum(t not in page_stems for t in question.terms)) / 3,
        missing_in_context=min(4, sum(t not in window for t in question.terms)) / 4,
        bigrams=sum(p in sentence_pairs for p in pairs) / len(pairs) if pairs else 0.0,
        phrase=_longest_run(question.terms, sentence_stems) / max(1, len(question.terms)),
        factoid=float(question.kind in ("who", "when", "where", "how_many", "how_much")),
        open_ended=float(question.kind in ("why", "how")),
    )
    answer = _short_answer(question, sentence.text) or sentence.text
    # Rounded so that the value the thought states is exactly the one compared (the sweep relies on it).
    return Choice(page.url, sentence, answer, features, round(confidence(features, weights), 6))


def _longest_run(terms: Sequence[str], sentence: Sequence[str]) -> int:
    """The longest run of consecutive question terms that occur in order, adjacent, in the sentence."""
    best = 0
    content = [t for t in sentence if t in set(terms)]
    for i in range(len(terms)):
        for j in range(len(content)):
            k = 0
            while i + k < len(terms) and j + k < len(content) and terms[i + k] == content[j + k]:
                k += 1
            best = max(best, k)
    return best


def _negated(text: str) -> bool:
    lowered = [w.casefold() for w in words(text)]
    return any(
        w in ("not", "no", "never", "none", "neither", "nor", "without") or w.endswith("n't") for w in lowered
    )


def _candidates(question: Question, text: str) -> list[str]:
    """Spans of `text` of the asked type that the question does not already state."""
    tokens = words(text)
    asked = set(question.terms) | set(question.entities)
    kind = question.kind
    if kind == "when":
        dates = [t for t in tokens if _YEAR.match(t)]
        months = [t for t in tokens if is_month(t)]
        return [t for t in dates + months if stem(t) not in asked]
    if kind in ("how_many", "how_much"):
        return [
            t
            for t in tokens
            if (any(c.isdigit() for c in t) or t.casefold() in _NUMBER_WORDS) and stem(t) not in asked
        ]
    if kind in ("who", "where", "which"):
        runs = _capitalized_runs(tokens, asked)
        if kind == "where":
            return runs
        return runs
    return [t for t in tokens if stem(t) not in asked and t.casefold() not in _CONNECTORS][:1]


def _type_match(question: Question, text: str) -> float:
    found = _candidates(question, text)
    if not found:
        return 0.0
    if question.kind == "who" and all(len(run.split()) < 2 for run in found):
        return 0.5  # people are mostly named with two words or more
    return 1.0


def _capitalized_runs(tokens: list[str], asked: set[str]) -> list[str]:
    runs: list[str] = []
    current: list[str] = []
    for index, token in enumerate([*tokens, ""]):
        capital = token[:1].isupper() and index > 0 and stem(token) not in asked
        if capital or (
            current and token in _CONNECTORS and index + 1 < len(tokens) and tokens[index + 1][:1].isupper()
        ):
            current.append(token)
            continue
        while current and current[-1] in _CONNECTORS:
            current.pop()
        if current:
            runs.append(" ".join(current))
        current = []
    return runs


def _short_answer(question: Question, text: str) -> str | None:
    """A short span answering the question's type, if one stands out; None to answer with the sentence."""
    found = _candidates(question, text)
    if not found or question.kind not in ("who", "when", "where", "how_many", "how_much", "which"):
        return None
    if question.kind in ("who", "which"):
        found.sort(key=lambda run: -len(run.split()))
        return found[0] if found[0] in text else None
    if question.kind == "when":
        years = [t for t in found if _YEAR.match(t)]
        return years[0] if years else None
    return found[0] if found[0] in text else None


class ExtractivePolicy:
    """Search, open the best hits, then quote the best sentence or refuse (`min_confidence`)."""

    def __init__(self, min_confidence: float = DEFAULT_MIN_CONFIDENCE, *, max_opens: int = 3) -> None:
        self.min_confidence = min_confidence
        self.max_opens = max_opens

    @property
    def name(self) -> str:
        return "extractive"

    async def next_step(self, view: RunView) -> str:
        """The next ReAct reply, computed from the view alone (same view, same reply)."""
        return self.decide(view)

    def decide(self, view: RunView) -> str:
        """The synchronous core of `next_step`."""
        question = analyze(view.question)
        last = view.turns[-1].shown if view.turns else ""
        if last.startswith("finish rejected:"):
            return self._repair(view, question, last.removeprefix("finish rejected:").strip())
        if not view.searched:
            return react(
                f"search for the question's content words ({question.kind} question)",
                "search",
                question.query,
            )
        hits = next(iter(view.searched.values()))
        if not hits:
            return abstain_reply("the search found nothing", "no page matches the question")
        opened = [view.pages[h.url] for h in hits if h.url in view.pages]
        tried = len(opened) + sum(h.url in view.failed_opens for h in hits)
        pending = [h for h in hits if h.url not in view.pages and h.url not in view.failed_opens]
        # Keep one step for the finish (and one for a repair, when the budget allows it).
        if pending and tried < self.max_opens and view.steps_left > 1:
            hit = pending[0]
            return react(f"open search hit {tried + 1}: {hit.title}", "open", hit.url)
        return self._finish(question, hits_order=[h.url for h in hits], pages=view.pages)

    def _finish(self, question: Question, hits_order: list[str], pages: Mapping[str, Page]) -> str:
        ranked = [pages[url] for url in hits_order if url in pages]
        if not ranked:
            return abstain_reply("no search hit could be opened", "the pages could not be opened")
        choice = choose(question, ranked)
        if choice is None or choice.confidence < self.min_confidence:
            shown = 0.0 if choice is None else choice.confidence
            return abstain_reply(
                f"confidence {shown:.6f} is below {self.min_confidence:.6f}",
                "the opened pages do not state the answer",
            )
        return finish_reply(
            f"confidence {choice.confidence:.6f}: quoting the best sentence of {choice.url}",
            choice.answer,
            [choice.url],
            choice.sentence.text,
        )

    def _repair(self, view: RunView, question: Question, code: str) -> str:
        if code == "unsupported":
            ranked = [page for page in view.pages.values()]
            choice = choose(question, ranked)
            if choice is not None and choice.confidence >= self.min_confidence:
                # The sentence itself: every name and year in it is in the cited body.
                return finish_reply(
                    f"finish rejected ({code}): answering with the quoted sentence itself",
                    choice.sentence.text,
                    [choice.url],
                    choice.sentence.text,
                )
        return abstain_reply(
            f"finish rejected ({code}): refusing rather than guessing", "the finish could not be grounded"
        )
