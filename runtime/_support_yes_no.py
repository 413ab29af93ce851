"""`yes-no`: a "yes" or "no" to a yes-or-no question, held to what one quoted clause says.

"Does Postfix support IPv6?" answered "yes" has no word of its answer in its quote, so
`answer-in-quote` has nothing to judge; before this method any quote about Postfix backed a
"yes" and a "no" alike. This is a necessary condition read off the words, not an
understanding of the sentence. The question's content words - what it asks, without its
auxiliary ("does", "is", "can" ...) and function words, but with its relation words
("before", "after", "than", "since" ...) - must be said in **one clause** of one quoted
sentence (no ",", ";", ":", "but", "although", "whereas" between them), **in the question's
order**, and from the second on **each right after the one before** but for function words
("Pluto is a dwarf planet" does not say "Pluto is a planet"; "Postfix version 2.2 and later
supports IPv6" says "Postfix supports IPv6": the first two may stand apart). A word is said
as written or with an ending ("supports", "directories", "child's"); "HTTP/2", "1.2",
"os.remove", "C++" are one word each.
Then, in that clause:

- "yes" is supported when no negation stands in it ("not", "no", "never", "cannot",
  "neither", "nor", "without", any "n't"; not "No. 1"), and `contradicted` when one does;
- "no" is supported only when one does ("Postfix does not support IPv6"); the words said
  without one make it `contradicted`. A "no" that follows from another value ("Is the default
  8080?" against "The default is 8000") is not checked: `unsupported`.

A sentence that qualifies what it says ("unlike", "instead", "rather", "except", "other than",
"only", "lacks", "removed", "dropped", "replaced", "deprecated", "no longer" ...) or, for a question in
the present tense, puts it in the past ("was", "were", "until", "formerly") supports neither
answer. It judges only an answer whose first word is "yes" or "no" to a question that opens
with an auxiliary and holds no negation of its own ("Isn't X enabled?" is left alone), and
leaves a question `same-value` reads (runtime/_support_same.py) to it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Sequence
from typing import Final

from citeloop.events import SupportVerdict
from citeloop.policies import same_value_question

from ._quantities import fold_text, singular

_VERDICT: Final = re.compile(r"(yes|no)\b")
_AUXILIARY: Final = frozenset(
    {"is", "are", "was", "were", "am", "be", "do", "does", "did", "can", "could", "will", "would", "shall",
     "should", "has", "have", "had", "may", "might", "must"}
)  # fmt: skip
_PRESENT: Final = frozenset({"is", "are", "am", "do", "does", "can", "has", "have"})
_PAST: Final = frozenset({"was", "were", "until", "formerly", "former", "once"})
_NEGATIONS: Final = frozenset({"not", "no", "never", "cannot", "neither", "nor", "without"})
_QUALIFIERS: Final = frozenset(
    {"unlike", "instead", "rather", "except", "excluding", "only", "lacks", "lack", "lacked", "lacking",
     "removed", "removes", "dropped", "drops", "replaced", "replaces", "deprecated", "longer"}
)  # fmt: skip
_CLAUSE_BREAKS: Final = frozenset({",", ";", ":", "but", "although", "though", "whereas", "while"})
# Words the support module counts as function words that a yes-or-no question asks about.
_RELATIONS: Final = frozenset(
    {"before", "after", "since", "until", "than", "over", "under", "above", "below", "between", "during",
     "into", "onto", "about", "while", "both", "either"}
)  # fmt: skip
# Words (a name or a version with dots or a slash as one: "http/2", "os.remove", "c++", "c#"),
# and the punctuation that ends a clause.
_TOKEN: Final = re.compile(r"[^\W_]+(?:[./'\u2019-][^\W_]+)*(?:\+\+|#)?|[,;:]")
# A sentence ends at ". " (or "!", "?", a line break), not after an initial or a title ("Mr.").
_SENTENCE_END: Final = re.compile(
    r"\n+|(?<!\b[A-Za-z])(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bMrs)[.!?]\s+"
)
_ENDINGS: Final = ("s", "es", "d", "ed", "ing", "'s", "\u2019s")


def yes_no(
    question: str, answer: str, evidence: str, function_words: Collection[str]
) -> tuple[SupportVerdict, str] | None:
    """The verdict on `answer` (folded) to `question` given the quote(s) of `evidence`."""
    said = _VERDICT.match(answer)
    asked = _TOKEN.findall(fold_text(question))
    if said is None or not asked or asked[0] not in _AUXILIARY or same_value_question(question) is not None:
        return None
    if any(_negates(asked, index) for index in range(len(asked))):
        return None  # "Is X not enabled?": which way "no" points is the asker's, not the quote's
    filler = (set(function_words) - _RELATIONS) | _AUXILIARY
    content = [w for w in dict.fromkeys(asked[1:]) if w not in filler and w not in _CLAUSE_BREAKS]
    if not content:
        return None
    for sentence in _SENTENCE_END.split(evidence):
        tokens = _TOKEN.findall(fold_text(sentence))
        clause = _clause_saying(content, tokens, filler)
        if clause is None:
            continue
        qualified = sorted({t for t in tokens if t in _QUALIFIERS} | _other_than(tokens))
        if qualified:
            return "unsupported", f"the sentence qualifies what it says ({', '.join(qualified)})"
        if asked[0] in _PRESENT and _PAST & set(clause):
            return "unsupported", "the sentence says it of the past; the question asks of now"
        negated = any(_negates(clause, index) for index in range(len(clause)))
        if said.group(1) == "yes":
            if negated:
                return "contradicted", "the quote says what is asked with a negation"
            return "supported", "the quote says what is asked"
        if negated:
            return "supported", "the quote says what is asked with a negation"
        return "contradicted", "the quote says what is asked, without a negation"
    return "unsupported", f"no quoted clause says {' '.join(content)} in that order"


def _clause_saying(
    content: Sequence[str], tokens: Sequence[str], filler: Collection[str]
) -> list[str] | None:
    """The clause of `tokens` that says the content words as `_in_order` asks, or None."""
    clauses: list[list[str]] = [[]]
    for token in tokens:
        if token in _CLAUSE_BREAKS:
            clauses.append([])
        else:
            clauses[-1].append(token)
    for clause in clauses:
        if _in_order(content, clause, filler):
            return clause
    return None


def _in_order(content: Sequence[str], clause: Sequence[str], filler: Collection[str]) -> bool:
    """Whether `clause` says the content words in order, the first two with anything between them
    (the subject may be named at length: "Postfix version 2.2 and later supports") unless they are
    the only two, every later one after only filler or a negation."""

    loose = {1} if len(content) > 2 else set()  # the last word always follows the one before closely

    def plain(start: int, end: int) -> bool:
        return all(clause[i] in filler or _negates(clause, i) for i in range(start, end))

    def rest(word: int, after: int) -> bool:
        if word == len(content):
            return True
        return any(
            _same_word(content[word], clause[at])
            and (word in loose or plain(after + 1, at))
            and rest(word + 1, at)
            for at in range(after + 1, len(clause))
        )

    return any(_same_word(content[0], token) and rest(1, at) for at, token in enumerate(clause))


def _other_than(tokens: Sequence[str]) -> set[str]:
    return {"other than"} if ("other", "than") in set(itertools.pairwise(tokens)) else set()


def _same_word(asked: str, said: str) -> bool:
    if asked == said or singular(asked) == singular(said):
        return True
    for one, other in ((asked, said), (said, asked)):
        stem = other[:-1] if other.endswith("e") else other
        if any(one in (other + ending, stem + ending) for ending in _ENDINGS):
            return True
    return False


def _negates(tokens: Sequence[str], index: int) -> bool:
    token = tokens[index]
    if token.endswith("n't") or token.endswith("n\u2019t"):
        return True
    # "No. 1" is a number, not a negation.
    nothing_counted = token == "no" and index + 1 < len(tokens) and tokens[index + 1][:1].isdigit()
    return token in _NEGATIONS and not nothing_counted
