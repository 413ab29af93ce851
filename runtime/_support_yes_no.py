"""`yes-no`: a "yes" or "no" to a yes-or-no question, held to what one quoted sentence says.

"Does Postfix support IPv6?" answered "yes" has no word of its answer in its quote, so
`answer-in-quote` has nothing to judge; before this method any quote about Postfix backed a
"yes" and a "no" alike. Here the question's content words - what it asks, without its
auxiliary ("does", "is", "can" ...) and function words, but with its relation words
("before", "after", "than", "since" ...) - must be said in **one sentence** of the evidence,
**in the question's order**, close together (within twice their number plus six words, no
";" between them). A word is said as written or with an ending ("supports", "supported",
"directories", "child's"); a version or a name with dots or a slash is one word ("HTTP/2",
"1.2", "os.remove"). Then:

- "yes" is supported when no negation ("not", "no", "never", "cannot", "neither", "nor",
  "without", any "n't") stands among those words or just before them; with one, the answer is
  `contradicted` ("Postfix does not support IPv6");
- "no" is supported only with such a negation; the words said without one make the answer
  `contradicted`. A "no" that follows from another value ("Is the default 8080?" against
  "The default is 8000") is not checked mechanically: `unsupported`, so the run gets its
  repair turn, then refuses.

It judges only an answer whose first word is "yes" or "no" to a question that opens with an
auxiliary and holds no negation of its own ("Isn't X enabled?" is left alone), and leaves a
question `same-value` settles (runtime/_support_same.py) to it. It does not parse: the order
check keeps "the child process inherits the environment of the parent process" from backing
"Does the parent process inherit the child's environment?", but roles said in the same order
("Mercury is larger than Ganymede, wrote no one") pass, and a copular question asked in the
other order than its sentence ("Is Kenji the CEO?" / "The CEO is Kenji Ito.") is refused.
"""

from __future__ import annotations

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
_NEGATIONS: Final = frozenset({"not", "no", "never", "cannot", "neither", "nor", "without"})
# Words the support module counts as function words that a yes-or-no question asks about.
_RELATIONS: Final = frozenset(
    {"before", "after", "since", "until", "than", "over", "under", "above", "below", "between", "during",
     "into", "onto", "about", "while", "both", "either"}
)  # fmt: skip
# Words, a version or a name with dots or a slash as one ("http/2", "os.remove"), and ";" (a clause break).
_TOKEN: Final = re.compile(r"[^\W_]+(?:[./'\u2019-][^\W_]+)*|;")
_SENTENCE_END: Final = re.compile(r"\n+|(?<!\b[A-Z])[.!?]\s+(?=[A-Z\"'\u201c(])")
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
    ignored = (set(function_words) - _RELATIONS) | _AUXILIARY
    content = [w for w in dict.fromkeys(asked[1:]) if w not in ignored and w != ";"]
    if not content:
        return None
    spans = [
        (tokens, span)
        for sentence in _SENTENCE_END.split(evidence)
        for tokens in [_TOKEN.findall(fold_text(sentence))]
        for span in [_closest_in_order(content, tokens)]
        if span is not None
    ]
    if not spans:
        return "unsupported", f"no quoted sentence says {' '.join(content)}, in that order, close together"
    tokens, (start, end) = spans[0]
    negated = any(_negates(tokens, index) for index in range(max(0, start - 2), end + 1))
    if said.group(1) == "yes":
        if negated:
            return "contradicted", "the quote says what is asked with a negation"
        return "supported", "the quote says what is asked"
    if negated:
        return "supported", "the quote says what is asked with a negation"
    return "contradicted", "the quote says what is asked, without a negation"


def _closest_in_order(content: Sequence[str], tokens: Sequence[str]) -> tuple[int, int] | None:
    """The shortest run of `tokens` holding the content words in order, if short enough and with no ";"."""
    limit = 2 * len(content) + 6
    best: tuple[int, int] | None = None
    for start, token in enumerate(tokens):
        if not _same_word(content[0], token):
            continue
        at, found = start, 1
        while found < len(content) and at + 1 < len(tokens) and at - start < limit:
            at += 1
            found += _same_word(content[found], tokens[at])
        if found == len(content) and at - start < limit and (best is None or at - start < best[1] - best[0]):
            best = (start, at)
    if best is None or ";" in tokens[best[0] : best[1] + 1]:
        return None  # another clause
    return best


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
