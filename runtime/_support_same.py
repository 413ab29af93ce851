"""`same-value`: a "yes" or "no" to a question two stated values settle, checked against the quotes.

"Were Scott Derrickson and Ed Wood of the same nationality?" is answered "yes" or "no", and
no word of the answer is in its evidence, so `answer-in-quote` has nothing to judge. This
method reads the value each quote states - with the reading the extractive policy answers
by (`citeloop.policies.same_value_question`, the forms and their limits are in that
module's docstring) - and settles the question itself: the answer is supported only when
the quotes give that verdict. Each of the two names needs a quote of its own, about it: one
whose subject (what it says before its first "is"/"was", up to a comma) ends with the name, or
one on a cited page titled with it - "The Shape of Water is a 2017 American film directed by
Guillermo del Toro", "Guillermo del Toro's The Shape of Water is ..." and "Mishima: A Life in
Four Chapters is ..." are about films, not about the men. Any other answer, or a
yes-or-no question of another form, is left to the other methods (None).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from citeloop.events import SupportVerdict
from citeloop.policies import same_value_question, settle_same_value, stated_values

from ._quantities import fold_text

_VERDICT: Final = re.compile(r"(yes|no)\b")
_QUALIFIER: Final = re.compile(r"\s*\([^()]*\)\s*$")
_COPULA: Final = re.compile(r"\b(?:is|was|are|were)\b")


def same_value(
    question: str, answer: str, evidence: str, pages: Sequence[tuple[str, str]]
) -> tuple[SupportVerdict, str] | None:
    """The verdict on `answer` (folded) given the quotes of `evidence` (one per line) and the cited pages."""
    said = _VERDICT.match(answer)
    if said is None:
        return None
    asked = same_value_question(question)
    if asked is None:
        return None
    quotes = [line for line in evidence.split("\n") if line.strip()]
    first = _quote_about(asked.first, quotes, pages)
    second = _quote_about(asked.second, [q for q in quotes if q != first], pages)
    if first is None or second is None:
        missing = asked.first if first is None else asked.second
        return "unsupported", f"no quote of its own is about {missing!r}"
    verdict = settle_same_value(asked, [first, second])
    read = (", ".join(sorted(stated_values(quote, asked.attribute))) or "none" for quote in (first, second))
    values = " and ".join(read)
    if verdict is None:
        return "unsupported", f"the quotes' {asked.attribute} values ({values}) do not settle it"
    if verdict != said.group(1):
        return "unsupported", f"the quotes' {asked.attribute} values ({values}) say {verdict}"
    return "supported", f"the quotes' {asked.attribute} values ({values}) say {verdict}"


_SUFFIXES: Final = frozenset({"jr", "ii", "iii", "iv"})


def _names(said: list[str], wanted: list[str]) -> bool:
    """Whether a subject's words name `wanted`: from its first word (after "the") to its last (or a
    suffix after it: "Washington Jr."), every word of it in between - "The widow of John Lennon" and
    "Barack Obama Sr." do not name John Lennon or Barack Obama."""
    if said[:1] == ["the"] and wanted[:1] != ["the"]:
        said = said[1:]
    if said[-1:] and said[-1] in _SUFFIXES and wanted[-1] not in _SUFFIXES:
        said = said[:-1]
    return bool(said) and said[0] == wanted[0] and said[-1] == wanted[-1] and set(wanted) <= set(said)


def _quote_about(name: str, quotes: Sequence[str], pages: Sequence[tuple[str, str]]) -> str | None:
    """The first quote whose subject is `name`, else the first on a cited page titled with it (a
    bracketed qualifier left out). The subject: what the quote says before its first "is"/"was",
    brackets left out, up to a comma; it must name the name (`_names`) and no one else's thing
    ("'s", ":")."""
    wanted = re.findall(r"\w+", fold_text(name))
    for quote in quotes:
        folded = fold_text(re.sub(r"\([^()]*\)", " ", quote))
        parts = _COPULA.split(folded, maxsplit=1)
        subject = parts[0].split(",")[0]
        said = re.findall(r"\w+", subject)
        if len(parts) == 2 and _names(said, wanted) and "'s" not in subject and ":" not in subject:
            return quote
    titled = [
        body for title, body in pages if re.findall(r"\w+", fold_text(_QUALIFIER.sub("", title))) == wanted
    ]
    return next((quote for quote in quotes if any(quote in body for body in titled)), None)
