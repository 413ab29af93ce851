"""The grounding gate: deterministic code that accepts a finish or names the first failing check.

The payload, the codes and their order are in docs/gate.md.

Cost (docs/benchmarks.md, B6): on an accepted answer the gate reads only the *cited*
bodies - the evidence is searched in them, and the `unsupported` words are looked up in
the evidence, then in the cited bodies. The other opened bodies are read only to tell `evidence_uncited` from
`evidence` after the evidence was not found in any cited body, and for an answer word
found in no cited body: the failure paths. No body is ever normalized (see `_text`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final, Literal, TypeAlias, get_args

from ._text import contains_normalized_any, normalize_ws

GateCode: TypeAlias = Literal[
    "keys",
    "types",
    "abstain_shape",
    "abstain_prefix",
    "need_citation",
    "cite_not_opened",
    "evidence",
    "evidence_uncited",
    "unsupported",
]
GATE_CODES: Final[tuple[GateCode, ...]] = get_args(GateCode)

FINISH_KEYS: Final = frozenset({"answer", "citations", "cannot_answer", "evidence"})
ABSTAIN_PREFIX: Final = "cannot:"


def validate_finish(payload: Mapping[str, object], opened: Mapping[str, str]) -> GateCode | None:
    """None when the finish is accepted, else the first failing code, in docs/gate.md's order.

    `opened` maps each URL this run opened successfully to its body; nothing else is
    consulted. Works on plain dicts. Types are exact JSON types: `cannot_answer` must be a
    bool, `citations` a list of str (a bool is not a str or an int, a tuple is not a list).
    An accepted abstention (`cannot_answer` true) skips the evidence checks.
    """
    if not isinstance(payload, Mapping) or set(payload) != FINISH_KEYS:
        return "keys"
    answer, citations = payload["answer"], payload["citations"]
    cannot_answer, evidence = payload["cannot_answer"], payload["evidence"]
    if not (
        isinstance(answer, str)
        and isinstance(evidence, str)
        and type(cannot_answer) is bool
        and type(citations) is list
        and all(isinstance(url, str) for url in citations)
    ):
        return "types"
    cited: list[str] = list(dict.fromkeys(citations))  # first-seen order, duplicates dropped
    if cannot_answer:
        if cited or evidence.strip():
            return "abstain_shape"
        if not answer.startswith(ABSTAIN_PREFIX):
            return "abstain_prefix"
        return None
    if not cited:
        return "need_citation"
    if any(url not in opened for url in cited):
        return "cite_not_opened"
    quote = normalize_ws(evidence)
    if not quote:
        return "evidence"
    if not contains_normalized_any((opened[url] for url in cited), quote):
        # Failure path only: is it in a page the answer forgot to cite?
        cited_set = set(cited)
        uncited = (body for url, body in opened.items() if url not in cited_set)
        return "evidence_uncited" if contains_normalized_any(uncited, quote) else "evidence"
    if unsupported_words(answer, quote, [opened[url] for url in cited], opened):
        return "unsupported"
    return None


# A year: a standalone number from 1000 to 2099 (not part of a longer word: "1990s", "B2014").
_YEAR: Final = re.compile(r"(?<!\w)(?:1[0-9]{3}|20[0-9]{2})(?!\w)")
# A word: letters/digits with their combining marks (so "José" written with U+0301 stays whole).
_MARKS: Final = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_WORD: Final = re.compile(rf"[^\W_](?:[^\W_]|[{_MARKS}])*")
_SENTENCE_END: Final = frozenset(".!?:;…")
# Opening quotes, brackets, bullets and dashes that may stand before a sentence's first word.
_LEAD_IN: Final = "\"'([{*-\u201c\u2018\u00ab\u00bf\u00a1\u2013\u2014\u2022"


def _sentence_initial(answer: str, start: int) -> bool:
    """Whether the word at `start` opens the answer, a sentence, or a line."""
    # Walk back over white space and lead-in punctuation only: linear over the answer.
    index, line_break = start - 1, False
    while index >= 0 and (answer[index].isspace() or answer[index] in _LEAD_IN):
        line_break = line_break or answer[index] in "\n\r\u2028\u2029"
        index -= 1
    return index < 0 or line_break or answer[index] in _SENTENCE_END


def claimed_words(answer: str) -> list[str]:
    """The words of `answer` the `unsupported` check holds to the opened bodies.

    The rule: every year (a standalone number 1000-2099, so not "1990s") and every
    capitalized word - at least two characters, first one upper case - that does not open
    the answer, a sentence (after . ! ? : ; or …) or a line. So "The", "She" and "Founded"
    at a sentence start are never checked, while "Ortiz" in "Ada Ortiz" is. A word is
    supported when it occurs, case-sensitively, as a substring of an opened body. It is
    imperfect by design: an invented name that opens a sentence on its own slips
    through, and a real name the pages spell differently is rejected.
    """
    words = _YEAR.findall(answer)
    for match in _WORD.finditer(answer):
        word = match.group(0)
        if len(word) >= 2 and word[0].isupper() and not _sentence_initial(answer, match.start()):
            words.append(word)
    return list(dict.fromkeys(words))


def unsupported_words(
    answer: str, quote: str, cited_bodies: Iterable[str], opened: Mapping[str, str]
) -> list[str]:
    """The claimed words of `answer` found in no opened body (evidence, cited bodies first)."""
    missing = [word for word in claimed_words(answer) if word not in quote]
    for body in cited_bodies:
        if not missing:
            return missing
        missing = [word for word in missing if word not in body]
    for body in opened.values():
        if not missing:
            break
        missing = [word for word in missing if word not in body]
    return missing
