"""The grounding gate: deterministic code that accepts a finish or names the first failing check.

The payload, the codes and their order are in docs/gate.md.

Cost (docs/benchmarks.md, B6): on an accepted answer the gate reads only the *cited*
bodies - the evidence is searched in them, and the `unsupported` words are looked up in
the evidence, then in the cited bodies. The other opened bodies are read only to tell `evidence_uncited` from
`evidence` after the evidence was not found in any cited body, and for an answer word
found in no cited body: the failure paths. No body is ever normalized (see `_text`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Final, Literal, NamedTuple, TypeAlias, get_args

from citeloop.events import EVIDENCE_CLASSES, AbstainReason

from ._text import contains_normalized_any, normalize_ws

GateCode: TypeAlias = Literal[
    "keys",
    "types",
    "abstain_shape",
    "abstain_prefix",
    "empty_answer",
    "need_citation",
    "cite_not_opened",
    "evidence",
    "evidence_uncited",
    "unsupported",
    # Checked with the run itself (runtime/_claims_gate.py, `validate_claims`), right after
    # `validate_finish`: a finish's claims and disclosed gaps (docs/evidence.md, "Claims").
    "premise_uncited",
    "claim_not_in_answer",
    "unclaimed_statement",
    "undisclosed_gaps",
    # Decided after the claims are assessed (runtime/_claims.py, `decide_finish`).
    "unsupported_claims",
    # Decided after the gate's own checks pass, by the support methods (runtime/_support.py,
    # `decide_finish`): `validate_finish` never returns it.
    "unsupported_answer",
]
GATE_CODES: Final[tuple[GateCode, ...]] = get_args(GateCode)

FINISH_KEYS: Final = frozenset({"answer", "citations", "cannot_answer", "evidence"})
# The optional fifth key of an abstention: the reason it asks for (docs/gate.md, "How a run abstains").
ABSTAIN_KEY: Final = "abstain"
# The optional keys of a positive finish: its claims and the plan items it discloses as gaps.
CLAIM_KEYS: Final = frozenset({"claims", "gaps"})
_CLAIM_FIELDS: Final = frozenset({"text", "premises", "class", "method"})
_CLAIM_OPTIONAL: Final = frozenset({"item", "tolerance_days"})
ASKABLE_REASONS: Final[tuple[AbstainReason, ...]] = ("missing_fact", "low_confidence", "conflicting_sources")
_HINT_KEYS: Final = frozenset({"reason", "candidate", "score"})
ABSTAIN_PREFIX: Final = "cannot:"
# The least evidence that can be a quote: this many letters or digits (docs/gate.md).
MIN_EVIDENCE_WORD_CHARS: Final = 3


# A symbol written as a literal states it: "'#'" answers "Which characters does shlex.commenters
# include by default?", and "''" (the empty string) "What does linecache.getline return on
# errors?". Bare punctuation ("-", "?!") still states nothing.
_QUOTED_SYMBOL: Final = re.compile(r"""\s*(['"`])[^\s'"`]{0,3}\1\s*""")


def validate_finish(payload: Mapping[str, object], opened: Mapping[str, str]) -> GateCode | None:
    """None when the finish is accepted, else the first failing code, in docs/gate.md's order.

    `opened` maps each URL this run opened successfully to its body; nothing else is
    consulted. Works on plain dicts. Types are exact JSON types: `cannot_answer` must be a
    bool, `citations` a list of str (a bool is not a str or an int, a tuple is not a list).
    An accepted abstention (`cannot_answer` true) skips the evidence checks.
    """
    if not isinstance(payload, Mapping):
        return "keys"
    keys = set(payload)
    claimed = False  # a finish with the keys `claims` or `gaps`: checked only off the four-key path
    if keys != FINISH_KEYS:
        if keys == FINISH_KEYS | {ABSTAIN_KEY} and payload["cannot_answer"] is True:
            pass
        elif keys > FINISH_KEYS and keys - FINISH_KEYS <= CLAIM_KEYS and payload["cannot_answer"] is not True:
            claimed = True
        else:
            return "keys"
    answer, citations = payload["answer"], payload["citations"]
    cannot_answer, evidence = payload["cannot_answer"], payload["evidence"]
    if not (
        isinstance(answer, str)
        and (isinstance(evidence, str) or _evidence_shape(evidence))  # one quote: no call
        and type(cannot_answer) is bool
        and type(citations) is list
        and all(isinstance(url, str) for url in citations)
        and (ABSTAIN_KEY not in payload or abstain_hint(payload) is not None)
        and (not claimed or _claims_shape(payload))
    ):
        return "types"
    cited: list[str] = list(dict.fromkeys(citations))  # first-seen order, duplicates dropped
    # Its shape was checked above; `evidence_quotes` inlined for the single quote of the common finish.
    quotes: tuple[str, ...] = (evidence,) if isinstance(evidence, str) else tuple(evidence)  # type: ignore[arg-type]
    if cannot_answer:
        if cited or any(quote.strip() for quote in quotes):
            return "abstain_shape"
        if not answer.startswith(ABSTAIN_PREFIX):
            return "abstain_prefix"
        return None
    if not any(char.isalnum() for char in answer) and _QUOTED_SYMBOL.fullmatch(answer) is None:
        return "empty_answer"  # blank, or punctuation only: it states nothing
    if not cited:
        return "need_citation"
    if any(url not in opened for url in cited):
        return "cite_not_opened"
    normalized = list(map(normalize_ws, quotes))
    if claimed and payload.get("claims") and not any(normalized):
        normalized = []  # with claims, "" or [] is no quote at all: the premises are the evidence
    elif not normalized:
        return "evidence"  # an empty list of quotes is no evidence
    for quote in normalized:
        if _word_chars(quote) < MIN_EVIDENCE_WORD_CHARS:
            return "evidence"  # blank, punctuation, or one or two letters: no quote at all
        if not contains_normalized_any((opened[url] for url in cited), quote):
            # Failure path only: is it in a page the answer forgot to cite?
            cited_set = set(cited)
            uncited = (body for url, body in opened.items() if url not in cited_set)
            return "evidence_uncited" if contains_normalized_any(uncited, quote) else "evidence"
    if unsupported_words(answer, " ".join(normalized), [opened[url] for url in cited], opened):
        return "unsupported"
    return None


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 1


def _claim_shape(claim: object) -> bool:
    """One claim: exactly text, premises, class, method, and optionally item and tolerance_days."""
    if not isinstance(claim, Mapping) or not _CLAIM_FIELDS <= set(claim) <= _CLAIM_FIELDS | _CLAIM_OPTIONAL:
        return False
    text, premises, tolerance = claim["text"], claim["premises"], claim.get("tolerance_days", 0)
    return (
        isinstance(text, str)
        and any(char.isalnum() for char in text)
        and type(premises) is list
        and all(isinstance(premise, str | Mapping) for premise in premises)
        and claim["class"] in EVIDENCE_CLASSES
        and isinstance(claim["method"], str)
        and ("item" not in claim or _is_count(claim["item"]))
        and type(tolerance) in (int, float)
        and math.isfinite(tolerance)
        and tolerance >= 0
    )


def _claims_shape(payload: Mapping[str, object]) -> bool:
    """`claims` a list of claims, `gaps` a list of plan items (integers from 1)."""
    claims, gaps = payload.get("claims", []), payload.get("gaps", [])
    return (
        type(claims) is list
        and all(_claim_shape(claim) for claim in claims)
        and type(gaps) is list
        and all(_is_count(gap) for gap in gaps)
    )


def _evidence_shape(evidence: object) -> bool:
    """One quote (a str), or a multi-quote finish's list of them (docs/gate.md, "Evidence")."""
    if isinstance(evidence, str):
        return True
    return type(evidence) is list and all(isinstance(quote, str) for quote in evidence)


def evidence_quotes(evidence: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A finish's evidence as its quotes: one for a str, each item of a list."""
    return (evidence,) if isinstance(evidence, str) else tuple(evidence)


class AbstainHint(NamedTuple):
    """What an abstaining finish asks for in its `abstain` key: a reason, the candidate it did not trust."""

    reason: AbstainReason
    candidate: str | None
    score: float | None


def abstain_hint(payload: Mapping[str, object]) -> AbstainHint | None:
    """The payload's `abstain` hint, or None when it has none or it is malformed (docs/gate.md).

    The hint is an object with `reason` (one of `ASKABLE_REASONS`), and optionally
    `candidate` (a string; required and non-blank for `low_confidence`) and `score` (a
    finite number, not a boolean).
    """
    hint = payload.get(ABSTAIN_KEY)
    if not isinstance(hint, Mapping) or not set(hint) <= _HINT_KEYS:
        return None
    reason, candidate, score = hint.get("reason"), hint.get("candidate"), hint.get("score")
    if not isinstance(reason, str) or reason not in ASKABLE_REASONS:
        return None
    if candidate is not None and not isinstance(candidate, str):
        return None
    if reason == "low_confidence" and not (candidate and candidate.strip()):
        return None
    number: float | None = None
    if score is not None:
        if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
            return None
        number = float(score)
    asked = next(known for known in ASKABLE_REASONS if known == reason)
    return AbstainHint(asked, candidate, number)


# A year: a standalone number from 1000 to 2099 (not part of a longer word: "1990s", "B2014").
_YEAR: Final = re.compile(r"(?<!\w)(?:1[0-9]{3}|20[0-9]{2})(?!\w)")
# A word: letters/digits with their combining marks (so "José" written with U+0301 stays whole).
_MARKS: Final = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_WORD: Final = re.compile(rf"[^\W_](?:[^\W_]|[{_MARKS}])*")
_SENTENCE_END: Final = frozenset(".!?:;…")
# Opening quotes, brackets, bullets and dashes that may stand before a sentence's first word.
_LEAD_IN: Final = "\"'([{*-\u201c\u2018\u00ab\u00bf\u00a1\u2013\u2014\u2022"


def _sentence_initial(answer: str, start: int) -> bool:
    """Whether the word at `start` of a white-space-normalized answer opens it or a sentence."""
    # Walk back over spaces and lead-in punctuation only: linear over the answer.
    index = start - 1
    while index >= 0 and (answer[index] == " " or answer[index] in _LEAD_IN):
        index -= 1
    return index < 0 or answer[index] in _SENTENCE_END


def _ascii_digits(text: str) -> str:
    """`text` with every digit of any script (full-width, Arabic-Indic ...) as its ASCII digit.

    The result has the same length, so a match in it is a span of `text` too.
    """
    if text.isascii():
        return text
    digits = (unicodedata.digit(char, None) for char in text)
    return "".join(char if digit is None else str(digit) for char, digit in zip(text, digits, strict=True))


def claimed_words(answer: str) -> list[str]:
    """The words of `answer` the `unsupported` check holds to the opened bodies.

    The rule: every year (a standalone number 1000-2099, so not "1990s", in the digits of
    any script: full-width 1999 is a year) and every capitalized word - at least two
    characters, first one upper case - that does not open the answer or a sentence
    (after . ! ? : ; or …). White space is normalized first, so a line break is a space:
    "Ada\nOrtiz" is checked like "Ada Ortiz". So "The", "She" and "Founded" at a sentence
    start are never checked, while "Ortiz" in "Ada Ortiz" is. A word is supported when it
    occurs, case-sensitively, as a substring of an opened body (a year also in ASCII
    digits). It is imperfect by design: an invented name that opens a sentence on its own
    slips through, and a real name the pages spell differently is rejected.
    """
    answer = normalize_ws(answer)
    words = [answer[match.start() : match.end()] for match in _YEAR.finditer(_ascii_digits(answer))]
    for match in _WORD.finditer(answer):
        word = match.group(0)
        if len(word) >= 2 and word[0].isupper() and not _sentence_initial(answer, match.start()):
            words.append(word)
    return list(dict.fromkeys(words))


def _word_chars(text: str) -> int:
    """How many letters or digits `text` holds, counted up to `MIN_EVIDENCE_WORD_CHARS`."""
    count = 0
    for char in text:
        if char.isalnum():
            count += 1
            if count >= MIN_EVIDENCE_WORD_CHARS:
                break
    return count


def _found(word: str, text: str) -> bool:
    # A year in other digits counts in its own spelling or in ASCII digits.
    return word in text or (not word.isascii() and _ascii_digits(word) in text)


def unsupported_words(
    answer: str, quote: str, cited_bodies: Iterable[str], opened: Mapping[str, str]
) -> list[str]:
    """The claimed words of `answer` found in no opened body (evidence, cited bodies first)."""
    missing = [word for word in claimed_words(answer) if not _found(word, quote)]
    for body in cited_bodies:
        if not missing:
            return missing
        missing = [word for word in missing if not _found(word, body)]
    for body in opened.values():
        if not missing:
            break
        missing = [word for word in missing if not _found(word, body)]
    return missing
