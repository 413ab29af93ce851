"""Scoring the sentences of opened pages: per-sentence signals, a ranking model, a refusal model.

Two small linear models, both fitted by `bench/tune_extractive.py` on half the articles of
the shared SQuAD 2.0 sample and checked on the other half:

- the *ranking* score picks, among every sentence of every opened page, the one most
  likely to hold the answer (fitted on answerable questions: does the sentence hold gold?);
- the *confidence* is a logistic score over the chosen sentence's signals, its ranking
  score and its lead over the runner-up (fitted on all questions: is the question
  answerable and does the chosen sentence hold gold?).

Every signal has a reason to tell an answering sentence from one that only shares words
with the question. SQuAD 2.0's unanswerable questions are paraphrases of answerable ones
with one twist - a swapped name or number, an added negation, an antonym, an impossible
condition - so the most telling signals are the question's words the page never uses
(weighted by rarity: one rare missing word is a swapped entity), its names and numbers
missing from the sentence, and a negation the sentence lacks.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._questions import STOPWORDS, Question, is_month
from ._sentences import Sentence, split_sentences, stem, words

YEAR: Final = re.compile(r"^(1[0-9]{3}|20[0-9]{2})s?$")
NUMBER_WORDS: Final = frozenset(
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
CONNECTORS: Final = frozenset(
    {"of", "de", "da", "van", "von", "der", "la", "le", "du", "del", "al", "bin", "and"}
)
_NEGATIONS: Final = frozenset({"not", "no", "never", "none", "neither", "nor", "without", "cannot"})
# Opposites that SQuAD 2.0's writers swap in to make a question unanswerable ("antonym" edits).
_OPPOSITES: Final = (
    ("largest", "smallest"), ("biggest", "smallest"), ("most", "least"), ("highest", "lowest"),
    ("first", "last"), ("earliest", "latest"), ("before", "after"), ("increase", "decrease"),
    ("increased", "decreased"), ("maximum", "minimum"), ("north", "south"), ("east", "west"),
    ("northern", "southern"), ("eastern", "western"), ("early", "late"), ("older", "younger"),
    ("oldest", "youngest"), ("more", "less"), ("major", "minor"), ("upper", "lower"), ("win", "lose"),
    ("won", "lost"), ("large", "small"), ("high", "low"), ("longest", "shortest"), ("best", "worst"),
    ("begin", "end"), ("began", "ended"), ("start", "end"), ("inside", "outside"), ("above", "below"),
    ("top", "bottom"), ("positive", "negative"), ("rich", "poor"), ("strong", "weak"), ("legal", "illegal"),
    ("public", "private"), ("female", "male"), ("women", "men"), ("modern", "ancient"), ("same", "different"),
)  # fmt: skip
_OPPOSITE: Final[dict[str, frozenset[str]]] = {
    word: frozenset(b if a == word else a for a, b in _OPPOSITES if word in (a, b))
    for pair in _OPPOSITES
    for word in pair
}
_PREFIX: Final = 5  # a question word matches a page word sharing its first five letters ("govern...")

FEATURE_NAMES: Final[tuple[str, ...]] = (
    "bias",
    "overlap",  # idf-weighted share of question words in the sentence
    "context",  # the same over the sentence and its neighbours
    "entities_in_sentence",  # share of the question's names and numbers in the sentence
    "entities_in_page",
    "type_match",  # the sentence holds a candidate of the asked type the question does not state
    "negation_missing",  # the question is negated, the sentence is not
    "rank",  # search rank of the page, 0 for the first hit, 1 for the third
    "page_coverage",  # idf-weighted share of question words anywhere in the page (prefix match)
    "missing_in_page",  # question words the page never uses, even by prefix (capped at 3, scaled)
    "rare_missing",  # idf of the rarest question word the page lacks, over the question's rarest
    "number_missing",  # a number of the question that the page does not state
    "bigrams",  # share of the question's adjacent word pairs found adjacent in the sentence
    "phrase",  # longest run of question words in the same order in the sentence, scaled
    "antonym",  # the sentence or its neighbours say the opposite of a question word ("largest"/"smallest")
    "nearby",  # an answer-type candidate within four words of a question word in the sentence
    "short",  # a short sentence (under 8 words): headings and fragments rarely answer
    "yes_no",
    "factoid",  # who/when/where/how many/how much
    "open_ended",  # why/how
)

# Fitted by bench/tune_extractive.py (see its --help); bias first, in FEATURE_NAMES order.
RANK_WEIGHTS: Final[tuple[float, ...]] = (
    -4.189, 4.756, 0.606, 0.099, 0.756, 1.043, 0.341, -2.206, -0.369, 0.543, 0.643, 0.111,
    1.020, -0.432, 0.203, 0.119, 0.042, 0.338, -0.624, -0.131,
)  # fmt: skip
# The confidence model reads FEATURE_NAMES plus the ranking score and the margin.
CONF_WEIGHTS: Final[tuple[float, ...]] = (
    -2.730, 1.251, -0.566, 0.211, 0.392, 0.211, -2.794, -0.316, 0.479, 0.649, -0.091, -0.550,
    -0.477, 0.688, -1.322, 0.389, 0.527, -1.242, -0.374, 0.131, 1.189, 0.444,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Scored:
    """One candidate sentence: the page (by search rank), the sentence, its signals and ranking score."""

    rank: int
    position: int
    sentence: Sentence
    vector: tuple[float, ...]
    score: float


def dot(weights: Sequence[float], vector: Sequence[float]) -> float:
    """The weighted sum, in order (deterministic)."""
    return math.fsum(w * x for w, x in zip(weights, vector, strict=True))


def logistic(z: float) -> float:
    """1 / (1 + e^-z), clamped against overflow."""
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def score_sentences(
    question: Question, pages: Sequence[Page], rank_weights: Sequence[float] = RANK_WEIGHTS
) -> list[Scored]:
    """Every sentence of `pages` (given in search-rank order) with its signals, best ranking score first."""
    per_page = [split_sentences(page.body) for page in pages]
    stems = [[[stem(w) for w in words(s.text)] for s in sents] for sents in per_page]
    total = sum(len(s) for s in per_page)
    df: dict[str, int] = {}
    for page_stems in stems:
        for sentence_stems in page_stems:
            for term in set(sentence_stems):
                df[term] = df.get(term, 0) + 1
    terms = question.terms
    # Rare words weigh more; a word absent from every opened sentence gets the highest weight.
    idf = {t: math.log((total + 1) / (df.get(t, 0) + 0.5)) for t in terms}
    weight_all = math.fsum(idf.values()) or 1.0
    rarest = max(idf.values(), default=1.0) or 1.0
    numbers = [e for e in question.entities if any(c.isdigit() for c in e)]
    pairs = list(itertools.pairwise(terms))
    asked_words = {w.casefold() for w in words(question.text)}
    opposites = [(w, o) for w in sorted(asked_words) if w in _OPPOSITE for o in sorted(_OPPOSITE[w])]
    lowered = [[[w.casefold() for w in words(s.text)] for s in sents] for sents in per_page]
    kind = question.kind
    flags = (
        float(kind == "yesno"),
        float(kind in ("who", "when", "where", "how_many", "how_much")),
        float(kind in ("why", "how")),
    )
    out: list[Scored] = []
    for rank, (page, sents) in enumerate(zip(pages, per_page, strict=True)):
        page_set = {stem(w) for w in words(page.title)}
        for sentence_stems in stems[rank]:
            page_set.update(sentence_stems)
        prefixes = {t[:_PREFIX] for t in page_set if len(t) >= _PREFIX}
        in_page = {t for t in terms if t in page_set or (len(t) >= _PREFIX and t[:_PREFIX] in prefixes)}
        missing = [t for t in terms if t not in in_page]
        page_level = (
            sum(e in page_set for e in question.entities) / len(question.entities)
            if question.entities
            else 1.0,
            math.fsum(idf[t] for t in in_page) / weight_all,
            min(3, len(missing)) / 3,
            max((idf[t] for t in missing), default=0.0) / rarest,
            float(any(n not in page_set for n in numbers)),
        )
        for position, sentence in enumerate(sents):
            own_list = stems[rank][position]
            own = set(own_list)
            window = set(own)
            if position > 0:
                window.update(stems[rank][position - 1])
            if position + 1 < len(sents):
                window.update(stems[rank][position + 1])
            candidates = candidate_positions(question, sentence.text)
            window_words: set[str] = set()
            if opposites:
                for near in range(max(0, position - 1), min(len(sents), position + 2)):
                    window_words.update(lowered[rank][near])
            vector = (
                1.0,
                math.fsum(idf[t] for t in terms if t in own) / weight_all,
                math.fsum(idf[t] for t in terms if t in window) / weight_all,
                sum(e in own for e in question.entities) / len(question.entities)
                if question.entities
                else 1.0,
                page_level[0],
                _type_match(question, candidates),
                float(question.negated and not _negated(own_list)),
                rank / 2,
                page_level[1],
                page_level[2],
                page_level[3],
                page_level[4],
                sum(p in set(itertools.pairwise(own_list)) for p in pairs) / len(pairs) if pairs else 0.0,
                _longest_run(terms, own_list) / max(1, len(terms)),
                float(any(o in window_words and w not in window_words for w, o in opposites)),
                _nearby(terms, own_list, candidates),
                float(len(own_list) < 8),
                *flags,
            )
            out.append(Scored(rank, position, sentence, vector, dot(rank_weights, vector)))
    # Best score first; ties go to the higher-ranked page, then the earlier sentence: deterministic.
    out.sort(key=lambda s: (-s.score, s.rank, s.position))
    return out


def confidence_vector(best: Scored, runner_up: Scored | None) -> tuple[float, ...]:
    """The confidence model's input: the signals, the ranking score, and the lead over the runner-up."""
    margin = best.score - runner_up.score if runner_up is not None else 1.0
    return (*best.vector, best.score / 4, min(1.0, margin))


def candidate_positions(question: Question, text: str) -> list[tuple[int, str]]:
    """Spans of `text` of the asked type that the question does not state, with their word index."""
    tokens = words(text)
    asked = set(question.terms) | set(question.entities)
    kind = question.kind
    if kind == "when":
        return [
            (i, t) for i, t in enumerate(tokens) if (YEAR.match(t) or is_month(t)) and stem(t) not in asked
        ]
    if kind in ("how_many", "how_much"):
        return [
            (i, t)
            for i, t in enumerate(tokens)
            if (any(c.isdigit() for c in t) or t.casefold() in NUMBER_WORDS) and stem(t) not in asked
        ]
    if kind in ("who", "where", "which"):
        # A capitalised word the question itself writes ("the DO UPDATE part") is not what it asks for.
        asked |= {stem(t) for t in words(question.text) if t[:1].isupper()}
        runs = capitalized_runs(tokens, asked)
        # "Crunchy Data provides ...": a name the sentence opens with keeps its first word, when it is
        # the only name there (beside another, an opening name is the subject, not the answer).
        opening = len(runs) == 1 and runs[0][0] == 1 and _opens_name(tokens[0], asked)
        if opening and text.startswith(f"{tokens[0]} {runs[0][1]}"):
            runs[0] = (0, f"{tokens[0]} {runs[0][1]}")
        return runs
    return []


def _type_match(question: Question, candidates: list[tuple[int, str]]) -> float:
    if question.kind not in ("who", "when", "where", "which", "how_many", "how_much"):
        return 0.0
    if not candidates:
        return 0.0
    if question.kind == "who" and all(len(run.split()) < 2 for _, run in candidates):
        return 0.5  # people are mostly named with two words or more
    return 1.0


def _nearby(terms: Sequence[str], sentence: Sequence[str], candidates: list[tuple[int, str]]) -> float:
    """1 when a candidate answer sits within four words of a question word: the answer is about them."""
    if not candidates:
        return 0.0
    wanted = set(terms)
    hits = {i for i, t in enumerate(sentence) if t in wanted}
    # Look up the nine positions around each candidate: linear, where pairing every
    # candidate with every hit was quadratic on a long sentence full of both.
    return float(any(c + d in hits for c, _ in candidates for d in range(-4, 5)))


def _longest_run(terms: Sequence[str], sentence: Sequence[str]) -> int:
    """The longest run of consecutive question terms that occur in order, adjacent, in the sentence."""
    best = 0
    wanted = set(terms)
    content = [t for t in sentence if t in wanted]
    for i in range(len(terms)):
        for j in range(len(content)):
            k = 0
            while i + k < len(terms) and j + k < len(content) and terms[i + k] == content[j + k]:
                k += 1
            best = max(best, k)
    return best


def _negated(stems: Sequence[str]) -> bool:
    return any(w in _NEGATIONS or w.endswith("n't") for w in stems)


def capitalized_runs(tokens: list[str], asked: set[str]) -> list[tuple[int, str]]:
    runs: list[tuple[int, str]] = []
    current: list[str] = []
    begin = 0
    for index, token in enumerate([*tokens, ""]):
        capital = token[:1].isupper() and index > 0 and stem(token) not in asked
        if capital or (
            current and token in CONNECTORS and index + 1 < len(tokens) and tokens[index + 1][:1].isupper()
        ):
            if not current:
                begin = index
            current.append(token)
            continue
        while current and current[-1] in CONNECTORS:
            current.pop()
        if current:
            runs.append((begin, " ".join(current)))
        current = []
    return runs


# Capitalized words a sentence opens with that begin no name.
_OPENING_WORDS: Final = frozenset(
    {"today", "now", "then", "later", "however", "meanwhile", "yesterday", "here", "there", "also", "still",
     "since", "after", "before", "during", "when", "while", "although", "though", "because", "unlike"}
)  # fmt: skip


def _opens_name(first: str, asked: set[str]) -> bool:
    """Whether a sentence's capitalized first word begins the name run right after it ("Crunchy
    Data provides ..."): not a function word, an opening adverb, or a word of the question."""
    low = first.casefold()
    return (
        first[:1].isupper()
        and low not in STOPWORDS
        and low not in _OPENING_WORDS
        and not low.endswith("ly")
        and stem(first) not in asked
    )
