"""`yes-no`: a "yes" or "no" to a yes-or-no question, held to what the quote says.

"Does Postfix support IPv6?" answered "yes" has no word of its answer in its quote, so
`answer-in-quote` has nothing to judge, and before this method any quote about Postfix
backed a "yes" and a "no" alike. Here the question's content words - what it asks, without
its auxiliary ("does", "is", "can" ...) and function words - must each be in the quote (as
written, by light singular, or by their first five letters: "supports" for "support"), and:

- "yes" is supported when the quote says them all and negates nothing ("not", "no", "never",
  "n't", "cannot", "without" ...); said with a negation, the answer is `contradicted`;
- "no" is supported only when the quote says them all *with* a negation ("Postfix does not
  support X"); the words said without one make the answer `contradicted`. A "no" read from a
  different value ("Is the default 8080?" against "The default is 8000") is not checked
  mechanically, so it is `unsupported`: the run gets its repair turn, then refuses.

It judges only an answer whose first word is "yes" or "no" to a question that opens with an
auxiliary and holds no negation of its own ("Isn't X enabled?" is left alone), and leaves a
question `same-value` settles (runtime/_support_same.py) to it. It does not parse: the words
in another clause pass, and a negation anywhere in the quote counts.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from citeloop.events import SupportVerdict
from citeloop.policies import same_value_question

from ._quantities import fold_text, singular

_VERDICT: Final = re.compile(r"(yes|no)\b")
_AUXILIARY: Final = frozenset(
    {"is", "are", "was", "were", "am", "be", "do", "does", "did", "can", "could", "will", "would", "shall",
     "should", "has", "have", "had", "may", "might", "must"}
)  # fmt: skip
_NEGATIONS: Final = frozenset({"not", "no", "never", "cannot", "none", "neither", "nor", "without"})
_WORD: Final = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_PREFIX: Final = 5


def yes_no(
    question: str, answer: str, evidence: str, function_words: Collection[str]
) -> tuple[SupportVerdict, str] | None:
    """The verdict on `answer` (folded) to `question` given the quote(s) of `evidence`."""
    said = _VERDICT.match(answer)
    asked = _WORD.findall(fold_text(question))
    if said is None or not asked or asked[0] not in _AUXILIARY or same_value_question(question) is not None:
        return None
    if any(w in _NEGATIONS or w.endswith("n't") for w in asked):
        return None  # "Isn't X enabled?": which way "no" points is the asker's, not the quote's
    content = [w for w in dict.fromkeys(asked[1:]) if w not in function_words and w not in _AUXILIARY]
    if not content:
        return None
    quote = _WORD.findall(fold_text(evidence))
    missing = [w for w in content if not _said(w, quote)]
    if missing:
        return "unsupported", f"the quote does not say {', '.join(missing)}"
    negated = any(w in _NEGATIONS or w.endswith("n't") for w in quote)
    if said.group(1) == "yes":
        if negated:
            return "contradicted", "the quote says it with a negation"
        return "supported", "the quote says what is asked"
    if negated:
        return "supported", "the quote says what is asked with a negation"
    return "contradicted", "the quote says what is asked, without a negation"


def _said(word: str, quote: list[str]) -> bool:
    one = singular(word)
    return any(
        w == word or singular(w) == one or (len(word) >= _PREFIX and w[:_PREFIX] == word[:_PREFIX])
        for w in quote
    )
