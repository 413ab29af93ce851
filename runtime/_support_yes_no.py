"""`yes-no`: a "yes" or "no" to a yes-or-no question, held to what one quoted clause says.

"Does Postfix support IPv6?" answered "yes" has no word of its answer in its quote, so
`answer-in-quote` has nothing to judge; before this method any quote about Postfix backed a
"yes" and a "no" alike. This is a necessary condition read off the words, not an
understanding of the sentence (three adversarial reviews shaped it; their cases are tests).
The question's content words - what it asks, without its auxiliary ("does", "is", "can" ...)
and function words, but with its relation words ("before", "after", "than", "since" ...) -
must be said in **one clause** of one quoted sentence (no ",", ";", ":", "but", "although",
"whereas", "while" between them), **in the question's order**, and from the second on **each
right after the one before** but for function words or a negation ("Pluto is a dwarf planet"
does not say "Pluto is a planet"). With three words or more, the first two may stand apart
("Postfix version 2.2 and later supports IPv6"), but not with another subject between them
("JSON supersets such as JSON5 support comments": "such", "like", "than" ...). A question
asked with "is"/"was" needs a copula among the matched words ("koala bear" does not say the
koala is a bear). A word is said as written or with an ending ("supports", "directories"; not
"Earth's" for "Earth"); "HTTP/2", "1.2", "os.remove", "C++" are one word each. Then:

- "yes" is supported when no negation ("not", "no", "never", "cannot", "neither", "nor",
  "without", any "n't"; not "No. 1") stands among the words matched closely or in the two
  before them, and `contradicted` when one does;
- "no" is supported only when one does ("Postfix does not support IPv6"); the words said
  without one make it `contradicted`. A negation elsewhere in the clause ("Node.js does not
  require a browser to run JavaScript") makes either `unsupported`, as does a "no" that follows
  from another value ("Is the default 8080?" against "The default is 8000").

A sentence that qualifies what it says - a contrast or an exception ("unlike", "instead",
"rather", "except", "other than", "only"), a loss or a refusal ("lacks", "removed", "dropped",
"deprecated", "no longer", "refuses", "unable", "fails"), a condition or a mood ("if", "unless",
"when", "may", "will", "could" ...; not one the question asks with), "experimental" - or, for
a question in the present tense, says it in the past ("was", "had", "until", "used to",
"supported" for "support") supports neither answer. It judges only an answer whose first word
is "yes" or "no" to a question that opens with an auxiliary and holds no negation of its own
("Isn't X enabled?" is left alone), and leaves a question `same-value` reads
(runtime/_support_same.py) to it.
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
_PAST: Final = frozenset({"was", "were", "had", "until", "formerly", "former", "once", "used"})
_NEGATIONS: Final = frozenset({"not", "no", "never", "cannot", "neither", "nor", "without"})
_QUALIFIERS: Final = frozenset(
    {"unlike", "instead", "rather", "except", "excluding", "only", "lacks", "lack", "lacked", "lacking",
     "removed", "removes", "dropped", "drops", "replaced", "replaces", "deprecated", "longer", "experimental",
     "partial", "limited", "refuses", "refuse", "refused", "unable", "fails", "fail", "failed", "prevents",
     "prevent", "forbids", "forbidden", "disallows", "rejects", "may", "might", "could", "would", "will",
     "should", "if", "unless", "when", "whenever"}
)  # fmt: skip
_COPULAS: Final = frozenset({"is", "are", "was", "were", "be", "been", "being", "am"})
# In the loose gap after the first word, these say another subject is meant ("JSON supersets such as
# JSON5 support comments", "Toronto and Montreal are larger than the capital").
_OTHER_SUBJECT: Final = frozenset({"such", "like", "including", "includes", "unlike", "than", "versus", "vs"})
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
# No clause of prose runs longer; a longer one is a table or a list read as text (and the search is
# quadratic in a clause's length at worst).
_LONGEST_CLAUSE: Final = 150
_ENDINGS: Final = ("s", "es", "d", "ed", "ing")  # not "'s": "Earth's Moon" is not Earth


def yes_no(
    question: str, answer: str, evidence: str, function_words: Collection[str]
) -> tuple[SupportVerdict, str] | None:
    """The verdict on `answer` (folded) to `question` given the quote(s) of `evidence`."""
    said = _VERDICT.match(answer)
    if said is None:
        return None  # every other answer, on the accepted path: nothing is read
    asked = _TOKEN.findall(fold_text(question))
    if not asked or asked[0] not in _AUXILIARY or same_value_question(question) is not None:
        return None
    if any(_negates(asked, index) for index in range(len(asked))):
        return None  # "Is X not enabled?": which way "no" points is the asker's, not the quote's
    filler = (set(function_words) - _RELATIONS) | _AUXILIARY
    content = [w for w in dict.fromkeys(asked[1:]) if w not in filler and w not in _CLAUSE_BREAKS]
    if not content:
        return None
    copular = asked[0] in _COPULAS
    for sentence in _SENTENCE_END.split(evidence):
        tokens = _TOKEN.findall(fold_text(sentence))
        found = _clause_saying(content, tokens, filler, copular=copular)
        if found is None:
            continue
        clause, matched = found
        qualified = sorted(({t for t in tokens if t in _QUALIFIERS} - set(asked)) | _other_than(tokens))
        if qualified:
            return "unsupported", f"the sentence qualifies what it says ({', '.join(qualified)})"
        if asked[0] in _PRESENT and (_PAST & set(clause) or _said_in_past(content, clause, matched)):
            return "unsupported", "the sentence says it of the past; the question asks of now"
        # The negation that says "no" stands by the verb: among the words matched closely, or in the two
        # before them ("Postfix version 2.2 does not support"); one further off negates something else.
        span = range(max(matched[0], matched[1] - 2) if len(matched) > 2 else matched[0], matched[-1] + 1)
        negated = any(_negates(clause, index) for index in span)
        if not negated and any(_negates(clause, index) for index in range(len(clause))):
            return (
                "unsupported",
                "a negation in the clause, outside what is asked: which way it points is unclear",
            )
        if said.group(1) == "yes":
            if negated:
                return "contradicted", "the quote says what is asked with a negation"
            return "supported", "the quote says what is asked"
        if negated:
            return "supported", "the quote says what is asked with a negation"
        return "contradicted", "the quote says what is asked, without a negation"
    return "unsupported", f"no quoted clause says {' '.join(content)} in that order"


def _clause_saying(
    content: Sequence[str], tokens: Sequence[str], filler: Collection[str], *, copular: bool
) -> tuple[list[str], list[int]] | None:
    """The clause of `tokens` that says the content words as `_in_order` asks, and where, or None."""
    clauses: list[list[str]] = [[]]
    for token in tokens:
        if token in _CLAUSE_BREAKS:
            clauses.append([])
        else:
            clauses[-1].append(token)
    for clause in clauses:
        if len(clause) > _LONGEST_CLAUSE:
            continue  # a table or a list run together, not a clause: it says nothing here
        matched = _in_order(content, clause, filler)
        # "Is the koala a bear?" is not said by "koala bear": a copular question needs its copula.
        if matched is not None and (not copular or _COPULAS & set(clause[matched[0] : matched[-1] + 1])):
            return clause, matched
    return None


def _in_order(content: Sequence[str], clause: Sequence[str], filler: Collection[str]) -> list[int] | None:
    """Where `clause` says the content words in order: the first two with anything between them but
    another subject (the subject may be named at length: "Postfix version 2.2 and later supports")
    unless they are the only two, every later one after only filler or a negation.

    Each word after the first must follow the one before within `_NEAR` words (or anywhere, for the
    loose second), and each (word, position) is tried once: linear in the clause for the close words,
    quadratic at worst for the loose one, however often the clause repeats the words."""
    loose = 1 if len(content) > 2 else 0  # the last word always follows the one before closely
    plain = [t in filler or _negates(clause, i) for i, t in enumerate(clause)]
    # others[i]: how many "such", "like", "than" ... stand before position i (a gap holds one iff it grows).
    others = [0]
    for token in clause:
        others.append(others[-1] + (token in _OTHER_SUBJECT))
    tried: dict[tuple[int, int], list[int] | None] = {}

    def rest(word: int, after: int) -> list[int] | None:
        if word == len(content):
            return []
        if (word, after) in tried:
            return tried[word, after]
        found: list[int] | None = None
        for at in range(after + 1, len(clause)):
            if word != loose and at > after + 1 and not plain[at - 1]:
                break  # a close word: only filler may stand before it
            if word == loose and others[at] > others[after + 1]:
                break  # another subject named between the first two
            if _same_word(content[word], clause[at]):
                later = rest(word + 1, at)
                if later is not None:
                    found = [at, *later]
                    break
        tried[word, after] = found
        return found

    for at, token in enumerate(clause):
        if _same_word(content[0], token):
            later = rest(1, at)
            if later is not None:
                return [at, *later]
    return None


def _said_in_past(content: Sequence[str], clause: Sequence[str], matched: Sequence[int]) -> bool:
    """Whether a word the question asks in the present is said in the past ("Chrome supported Flash")."""
    return any(
        clause[at].endswith("ed") and not word.endswith("ed")
        for word, at in zip(content, matched, strict=True)
    )


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
