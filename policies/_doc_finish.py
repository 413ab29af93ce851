"""The finish of a documentation question, for `ExtractivePolicy` (split out of `_extractive`).

The best span `_doc_answer` extracts from the opened pages is quoted when it scores at least
`DOC_MIN_SCORE` and no equally good candidate gives a different answer (unless the others
state a narrower case, or one negated as the question is not); otherwise the policy refuses,
naming the candidate it did not trust. On the repair turn after the gate
refused the best candidate, only one scoring about as well (less than one question word's
share lower) may be offered: a lower one answers a worse reading of the question. A question
naming an acronym that no opened page writes ("... over HTTPS/TLS?") is refused before any
extractor runs: the pages cannot say what it asks.
"""

from __future__ import annotations

import re
from typing import Final

from citeloop.events import Page

from ._doc_answer import DocCandidate, answer_doc
from ._doc_clause import asked_clause
from ._doc_identifiers import is_identifier
from ._doc_match import stems
from ._doc_near_miss import (
    another_named_kind,
    another_release,
    name_for_number,
    other_release_state,
    part_of_compound,
)
from ._doc_questions import DocQuestion
from ._react import abstain_reply, finish_reply, hinted_abstain_reply

# A documentation answer is trusted from this score on (docs: policies/_doc_answer.py scores).
DOC_MIN_SCORE: Final = 1.5


def finish_doc(doc: DocQuestion, ranked: list[Page], rejected: set[tuple[str, str]]) -> str:
    """A documentation question: the best extracted span, a low-confidence refusal, or missing_fact.

    `rejected` holds the (answer, evidence) pairs the gate already refused, so a repair moves
    on to the next candidate instead of offering the same one again.
    """
    if not ranked:
        return abstain_reply("no search hit could be opened", "the pages could not be opened")
    unsaid = _unsaid_acronym(doc, ranked)
    if unsaid is not None:
        # "... serve over HTTPS/TLS?": no opened page says TLS, so none says what the question asks.
        return abstain_reply(
            f"no opened page mentions {unsaid}, which the question asks about",
            "the opened pages do not state the answer",
        )
    # Quotes that only come close: another release's state, a whole compound value for one of its
    # parts, another thing of the kind asked about, another release, a name for a number (`_doc_near_miss`).
    candidates = [
        c
        for c in answer_doc(doc, ranked)
        if not other_release_state(doc.text, c.evidence)
        and not part_of_compound(doc.text, c.answer)
        and not (doc.kind == "version" and another_named_kind(doc.text, c.evidence))
        and not another_release(doc.text, c.evidence)
        and not name_for_number(doc.text, c.answer)
    ]
    clause = asked_clause(doc) if not candidates else None
    if clause is not None:
        return finish_doc(clause, ranked, rejected)
    if doc.noun == "unhandled" and not candidates:
        # (Of such a question only the one value a matching sentence quotes is read: `_doc_quoted`.)
        return abstain_reply(
            "a documentation question of a kind this policy does not extract: refusing, not guessing",
            "this kind of question is not answered by the extractive policy",
        )
    found = [c for c in candidates if (c.answer, c.evidence) not in rejected]
    refused = [c for c in candidates if (c.answer, c.evidence) in rejected]
    # One word of the question's share of a score (`overlap`).
    word = 1.0 / max(1, len(doc.words))
    if found and refused and found[0].score <= refused[0].score - word:
        # The gate refused the best reading; one holding a question word fewer reads it worse ("50"
        # packs after "6700" loose objects, refused for naming git gc --auto two sentences earlier).
        return hinted_abstain_reply(
            f"the best {doc.kind} answer {refused[0].answer!r} was not supported; the next one, "
            f"{found[0].answer!r}, scores lower ({found[0].score:.3f})",
            "the opened pages do not clearly state the answer",
            "low_confidence",
            refused[0].answer,
            refused[0].score,
        )
    tied = [c for c in found if refused and c.score >= refused[0].score]
    if tied and _settled([refused[0], *tied], doc) is refused[0]:
        # The tie was settled for the reading the gate refused: the others answer another case.
        return hinted_abstain_reply(
            f"the best {doc.kind} answer {refused[0].answer!r} was not supported; the equally good "
            f"{tied[0].answer!r} answers a case the question does not ask",
            "the opened pages do not clearly state the answer",
            "low_confidence",
            refused[0].answer,
            refused[0].score,
        )
    if not found:
        return abstain_reply(
            f"no sentence of the opened pages gives the {doc.kind} asked for",
            "the opened pages do not state the answer",
        )
    best = found[0]
    if best.score < DOC_MIN_SCORE:
        return hinted_abstain_reply(
            f"best {doc.kind} answer {best.answer!r} scores {best.score:.3f}, below {DOC_MIN_SCORE}",
            "the opened pages do not clearly state the answer",
            "low_confidence",
            best.answer,
            best.score,
        )
    rivals = [c for c in found[1:] if c.score >= best.score and _differs(c, best)]
    plain = _settled([best, *rivals], doc)
    if rivals and plain is not None:
        best, rivals = plain, []  # "... older than this time and are not reachable ...": a case not asked
    if rivals:
        both = f"{best.answer} ({best.url}) / {rivals[0].answer} ({rivals[0].url})"
        return hinted_abstain_reply(
            f"two equally good answers disagree: {both}",
            "the opened pages give different answers",
            "low_confidence",
            both,
            best.score,
        )
    return finish_reply(
        f"{doc.kind} question: {best.how} (score {best.score:.3f}) in {best.url}",
        best.answer,
        [best.url],
        best.evidence,
    )


# Units a manual spells in several ways: "300s", "300 sec", "300 seconds" are one value.
_UNITS: Final = {
    "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    "ms": "ms", "millisecond": "ms", "milliseconds": "ms",
    "m": "min", "min": "min", "mins": "min", "minute": "min", "minutes": "min",
    "h": "h", "hour": "h", "hours": "h", "d": "d", "day": "d", "days": "d",
}  # fmt: skip


def _quantity(answer: str) -> tuple[str, str] | None:
    """A number and its unit, the unit spelled one way ("300 seconds" -> ("300", "s")), or None.
    Case counts: "1M" (a megabyte) is not "1m" (a minute)."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?) ?([a-z]+)", answer)
    if match is None or match.group(2) not in _UNITS:
        return None
    return match.group(1), _UNITS[match.group(2)]


# A value quoted ("“1m”") or spelled as a word ("two") in one place and bare in another is one value.
_QUOTES: Final = "\"'`\u201c\u201d\u2018\u2019"
_NUMBER_WORDS: Final = {
    word: str(n)
    for n, word in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"))
}


def _plain(answer: str) -> str:
    bare = answer.strip(_QUOTES)
    return _NUMBER_WORDS.get(bare, bare)


def _differs(one: DocCandidate, other: DocCandidate) -> bool:
    """Whether two candidates give different answers (compared without case, white space or quote
    marks, a number word as its digits, a quantity with its unit spelled one way).

    An identifier and the same one with its module ("NetrcParseError", "netrc.NetrcParseError")
    are one answer, and so are a number and the same number with a unit ("2000", "2000 ms").
    """
    first, second = (" ".join(c.answer.casefold().split()) for c in (one, other))
    if _plain(first) == _plain(second) or _quantity(one.answer) == _quantity(other.answer) is not None:
        return False
    # "2000" and "2000 ms": one page gives the number, another the number with its unit.
    for bare, measured in ((one.answer, other.answer), (other.answer, one.answer)):
        amount = _quantity(measured)
        if re.fullmatch(r"\d+(?:\.\d+)?", bare.strip()) and amount is not None and amount[0] == bare.strip():
            return False
    if is_identifier(first) or is_identifier(second):
        return not (first.endswith("." + second) or second.endswith("." + first))
    return True


# A word negated by its prefix ("unreachable", "unset"), not a word that only opens so ("unique").
_UN_PREFIX: Final = re.compile(
    r"\bun(?!i(?:que|code|on|t|versal|x|form)|less|til|der)([a-z]{4,})", re.IGNORECASE
)


def _unqualified(tied: list[DocCandidate], doc: DocQuestion) -> DocCandidate | None:
    """The one tied candidate whose quote each other one repeats with words the question does not
    ask ("removes reflog entries older than this time; defaults to 90 days" against "... older than
    this time and are not reachable from the current tip; defaults to 30 days"): the others state
    the default of a narrower case. Only on one page: another page saying more may correct it.
    None when there is no such one."""
    if len({c.url for c in tied}) != 1:
        return None
    said = {c.url + c.evidence: stems(c.evidence) - stems(c.answer) for c in tied}
    # ("unreachable reflog entries" asks the case of entries "not reachable from the current tip")
    asked = stems(doc.text) | stems(_UN_PREFIX.sub(r"not \1", doc.text))
    for plain in tied:
        words = said[plain.url + plain.evidence]
        others = [said[c.url + c.evidence] for c in tied if c is not plain]
        if others and all(words < other and not (other - words) & asked for other in others):
            return plain
    return None


def _settled(tied: list[DocCandidate], doc: DocQuestion) -> DocCandidate | None:
    """The one of `tied` the question asks about, when the others state a narrower or opposite case."""
    return _unqualified(tied, doc) or _same_polarity(tied, doc)


_NEGATED: Final = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.IGNORECASE)


def _same_polarity(tied: list[DocCandidate], doc: DocQuestion) -> DocCandidate | None:
    """The one tied candidate whose quote is negated as the question is, when each other one's is not
    ("How long are records of merges I already resolved kept?": "Records of conflicted merge you
    resolved earlier are kept ... The default is 60 days.", not "... you have not resolved ... The
    default is 15 days."). Only on one page, as `_unqualified`; None when there is no such one."""
    if len({c.url for c in tied}) != 1:
        return None
    negated = _NEGATED.search(_UN_PREFIX.sub(r"not \1", doc.text)) is not None
    alike = [c for c in tied if (_NEGATED.search(c.evidence) is not None) == negated]
    return alike[0] if len(alike) == 1 else None


# An acronym the question writes in capitals ("TLS", "HTTPS"), not a name of code it quotes.
_ACRONYM: Final = re.compile(r"(?<![\w.-])[A-Z]{2,6}(?![\w.-])")


def _unsaid_acronym(doc: DocQuestion, pages: list[Page]) -> str | None:
    """The first acronym of the question that no opened page writes as a word, if any."""
    acronyms: list[str] = _ACRONYM.findall(doc.text)
    for acronym in dict.fromkeys(acronyms):
        said = re.compile(rf"(?<![\w]){re.escape(acronym)}(?!\w)", re.IGNORECASE)
        if not any(said.search(page.body) or said.search(page.title) for page in pages):
            return acronym
    return None
