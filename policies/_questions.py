"""What a question asks for: its type, its content words, the entities and numbers it names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from ._sentences import stem, words

QuestionType = Literal["who", "when", "where", "how_many", "how_much", "which", "why", "how", "yesno", "what"]

STOPWORDS: Final = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "from",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "who",
        "what",
        "when",
        "where",
        "which",
        "why",
        "how",
        "whom",
        "whose",
        "did",
        "do",
        "does",
        "done",
        "doing",
        "has",
        "have",
        "had",
        "having",
        "it",
        "its",
        "it's",
        "this",
        "that",
        "these",
        "those",
        "there",
        "their",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "him",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "as",
        "into",
        "than",
        "then",
        "so",
        "if",
        "about",
        "after",
        "before",
        "during",
        "over",
        "under",
        "between",
        "through",
        "also",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "much",
        "many",
        "some",
        "any",
        "each",
        "other",
        "such",
        "own",
        "same",
        "very",
        "just",
        "one",
        "ones",
        "s",
        "name",
        "named",
        "called",
        "kind",
        "type",
        "many",
        "according",
    ]
)
_NEGATIONS: Final = frozenset(
    {"not", "no", "never", "none", "nothing", "neither", "nor", "without", "cannot"}
)
_YESNO_OPENERS: Final = frozenset(
    {"is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would", "has", "have", "had",
     "should", "may", "might", "must", "shall", "am", "isn't", "wasn't", "didn't", "doesn't"}
)  # fmt: skip
_MONTHS: Final = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ]
)


@dataclass(frozen=True, slots=True)
class Question:
    """A question reduced to what the extractive policy can check in a sentence."""

    text: str
    kind: QuestionType
    terms: tuple[str, ...]  # stems of the content words, in order, without repeats
    entities: tuple[str, ...]  # stems of names and numbers the question states (must be in the answer)
    negated: bool
    query: str  # the search query: the content words as written


def analyze(text: str) -> Question:
    """Classify `text` and pick out its content words, entities and negation."""
    tokens = words(text)
    lowered = [t.casefold() for t in tokens]
    kind = _kind(lowered, text)
    content = [t for t, low in zip(tokens, lowered, strict=True) if low not in STOPWORDS and low.strip("'")]
    entities: list[str] = []
    for index, token in enumerate(tokens):
        is_number = any(c.isdigit() for c in token)
        is_name = token[:1].isupper() and index > 0 and lowered[index] not in STOPWORDS
        if is_number or is_name:
            entities.append(stem(token))
    negated = any(low in _NEGATIONS or low.endswith("n't") for low in lowered)
    terms = tuple(dict.fromkeys(stem(t) for t in content))
    query = " ".join(dict.fromkeys(t.removesuffix("'s").removesuffix("\u2019s") for t in content)) or text
    return Question(text, kind, terms, tuple(dict.fromkeys(entities)), negated, query)


# Units of position: "which bytes of the header ..." asks for their numbers ("bytes 18 and 19").
# Not a collection ("which columns", "which days"): those are asked for by name.
COUNTED_NOUNS: Final = frozenset({"bytes", "bits"})


# Nouns a question asks a place by ("In what city ...?"); the short answer reads them too.
PLACE_NOUNS: Final = frozenset({"city", "town", "village", "country", "state", "county", "province"})
_MEASURES: Final = frozenset({"far", "long", "tall", "high", "wide", "deep", "heavy", "old"})
_LOCATIVE: Final = frozenset({"in", "at", "from", "near"})
# What asks for a part of a whole as an amount: "what share", "what percentage".
_SHARE_NOUNS: Final = frozenset({"share", "percentage", "percent", "proportion", "fraction"})
_SHARES: Final = tuple([noun, "of"] for noun in _SHARE_NOUNS)
_WH_WORDS: Final = frozenset({"who", "whom", "whose", "when", "where", "why", "how", "which", "what"})


def _kind(lowered: list[str], text: str = "") -> QuestionType:
    if not lowered:
        return "what"
    joined = " ".join(lowered)
    if joined.startswith(("what is the number of", "what was the number of", "what are the number of")):
        return "how_many"
    if "how many" in joined or ("how much" in joined and "cost" not in joined):
        return "how_many" if "how many" in joined else "how_much"
    if len(lowered) > 1 and lowered[0] in ("which", "what") and lowered[1] in COUNTED_NOUNS:
        return "how_many"  # "Which bytes of the header ...": numbers, not a capitalised name
    if "what year" in joined or "which year" in joined or "what date" in joined or "what century" in joined:
        return "when"
    opening = lowered[:4] if lowered[0] not in _YESNO_OPENERS else lowered[:1]
    # "With address verification turned on, how long ...?": an opening clause, then "how" (or "what
    # share") right after its comma. Only those: after a place or a time the clause sets ("On a
    # Debian system, where ...?"), "where" or "who" would take a name that clause's sentence holds.
    after_clause = [
        i
        for i, word in enumerate(lowered)
        if _after_comma(text, word)
        and (word == "how" or (word in ("what", "which") and lowered[i + 1 : i + 3] in _SHARES))
    ]
    for index, word in enumerate(opening):
        if word not in _WH_WORDS:
            continue
        at = index
        # An asking wh-word at the end: "what" or "which" among the last four words, or any as the
        # very last ("... was born where?"); "where Lenin lived?" is a relative clause again.
        last = [
            i
            for i in range(max(index + 1, len(lowered) - 4), len(lowered))
            if lowered[i] in ("what", "which") or (lowered[i] in _WH_WORDS and i == len(lowered) - 1)
        ]
        later = last or [i for i in after_clause if i > index]
        if index >= 2 and later and not _after_comma(text, word) and lowered[index - 1].isalpha():
            # "The battle in which Arimondi died secured what for Ethiopia?", "Against a server whose
            # limiter hangs up, what share ...?": a wh-word after the question's first words, right
            # after a word (not a year: "In 1990 who ..."), with no comma, opens a relative clause when
            # another asks the question at its end or after the clause's comma.
            at = later[-1] if last else later[0]
        return _wh_kind(lowered, at)
    if after_clause and lowered[0] not in _YESNO_OPENERS:
        return _wh_kind(lowered, after_clause[0])
    return "yesno" if lowered[0] in _YESNO_OPENERS else "what"


def _wh_kind(lowered: list[str], at: int) -> QuestionType:
    """The kind the wh-word at `at` asks, with the word after it: "in what city" asks where, "how
    far" or "how long" an amount."""
    word, following = lowered[at], lowered[at + 1 : at + 3]
    if word in ("who", "whom", "whose"):
        return "who"
    if word == "when":
        return "when"
    if word == "where":
        return "where"
    if word == "why":
        return "why"
    if word == "how":
        measured = following[:1] and following[0] in _MEASURES and following[1:2] != ["ago"]
        return "how_much" if measured else "how"  # "how long ago" asks when, not an amount
    if at >= 1 and lowered[at - 1] in _LOCATIVE and following[:1] and following[0] in PLACE_NOUNS:
        return "where"  # "In what city was ...?" asks where, as plainly as "Where ...?"
    if at >= 1 and lowered[at - 1] in _LOCATIVE and following == ["part", "of"]:
        return "where"  # "In which part of London was ... born?": a place within it
    if following[:1] and following[0] in _SHARE_NOUNS and following[1:2] == ["of"]:
        return "how_much"  # "What share of the mail ...?" asks an amount, "50%" (not "Which share class")
    return "which" if word == "which" else "what"


def _after_comma(text: str, word: str) -> bool:
    """Whether `word` follows a comma in `text`: "In 1990, who bought ...?" asks who."""
    # Not a comma of a quoted title: 'In the film "Oh, How I Miss You", which actor ...?'.
    unquoted = re.sub(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d", '""', text)
    return re.search(rf",\s*{word}\b", unquoted, re.IGNORECASE) is not None


# "Which of them ...?", "Which of these two firms, A or B, ...?": the answer is one of two the question
# names, not what they share nor anything else.
CHOOSES_ONE: Final = re.compile(
    r"(?i)\bwhich (?:one )?of (?:them|(?:these|the|those) two)\b|\bwhich one\b"
    r"|\bwhich (?:one )?of (?-i:[A-Z])[^?,]*? and (?-i:[A-Z])"  # "Which of Marcel Trillat and Ron Kelly ...?"
    # "A and B both appeared on the cover. Which model is older?": a comparative chooses one of them.
    r"|\bwhich (?:[\w-]+ ){0,2}(?:is|was|are|were) (?:the )?(?:older|younger|taller|shorter|larger|bigger"
    r"|smaller|longer|earlier|later|first|last)\b"
)


def is_month(word: str) -> bool:
    """Whether `word` names a month."""
    return word.casefold() in _MONTHS
