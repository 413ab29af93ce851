"""Generated finish payloads and bodies (hypothesis): the gate, the evidence search and the locator agree.

Example counts are explicit: 6,000 cases in this file (2,500 + 1,000 + 1,000 + 500 + 500 +
500); with tests/policies/test_parser_properties.py a run checks 12,500 generated replies
and payloads.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from citeloop.runtime import GATE_CODES, locate_evidence, validate_finish
from citeloop.runtime._text import contains_normalized, find_normalized, normalize_ws
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS: dict[str, Any] = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
# One seed per case, expanded with random.Random (see test_parser_properties.py for why).
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)

URLS = ["https://wiki.example/acme", "https://news.example/ada", "https://evil.example", "docs/a.md"]
# Words and separators that stress the rules: NBSP and other white space, combining marks,
# astral characters (surrogate pairs in UTF-16), capitalized names, years, punctuation.
WORDS = [
    "Acme", "Robotics", "was", "founded", "by", "Ada", "Ortiz", "in", "2014", "Lisbon.", "The",
    "She", "CEO", "Kenji", "Ito", "1999", "cannot:", "e\u0301", "Jose\u0301", "\U0001f916",
    "\U0001d49c\U0001d49e", "na\u00efve", "\u00c5ngstr\u00f6m", "x", "a", "20145", "1990s",
]  # fmt: skip
SPACES = [" ", " ", " ", "\u00a0", "\t", "\n", "\r\n", "  ", "\u2003", "\u3000", " \n\t "]


def text(rng: random.Random, words: int) -> str:
    parts = [rng.choice(WORDS) for _ in range(words)]
    out = rng.choice(["", "", " ", "\n"])
    for word in parts:
        out += word + rng.choice(SPACES)
    return out


def respace(rng: random.Random, quote: str) -> str:
    """The same words with other white space between them (what a model's copy looks like)."""
    return rng.choice(["", " "]) + rng.choice(SPACES).join(quote.split()) + rng.choice(["", "\n"])


def any_value(rng: random.Random) -> object:
    return rng.choice([None, True, False, 0, 1, 2.5, "", "x", [], ["x"], [1], {}, (), text(rng, 3), URLS[:1]])


def fuzz_payload(rng: random.Random, opened: dict[str, str]) -> dict[str, Any]:
    """A finish payload that is right in some ways and wrong in others."""
    cannot = rng.random() < 0.3
    cited = rng.sample(URLS, rng.randrange(3))
    evidence = ""
    if cited and rng.random() < 0.7:
        body = opened.get(rng.choice(cited)) or rng.choice(list(opened.values()))
        words = body.split()
        start = rng.randrange(len(words)) if words else 0
        evidence = respace(rng, " ".join(words[start : start + rng.randrange(1, 6)]))
    elif rng.random() < 0.5:
        evidence = text(rng, rng.randrange(4))
    payload: dict[str, Any] = {
        "answer": ("cannot: " if cannot and rng.random() < 0.7 else "") + text(rng, rng.randrange(6)),
        "citations": cited,
        "cannot_answer": cannot if rng.random() < 0.9 else rng.choice([0, 1, "true", None]),
        "evidence": evidence,
    }
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        mutation = rng.random()
        key = rng.choice(["answer", "citations", "cannot_answer", "evidence", "extra"])
        if mutation < 0.4:
            payload[key] = any_value(rng)
        elif key in payload:
            del payload[key]
    return payload


def opened_pages(rng: random.Random) -> dict[str, str]:
    return {url: text(rng, rng.randrange(1, 40)) for url in rng.sample(URLS, rng.randrange(1, len(URLS) + 1))}


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


@settings(max_examples=2500, **SETTINGS)
@given(SEEDS)
def test_the_gate_returns_none_or_a_code_and_agrees_with_the_locator(seed: int) -> None:
    rng = random.Random(seed)
    opened = opened_pages(rng)
    payload = fuzz_payload(rng, opened)
    verdict = validate_finish(payload, opened)
    assert verdict is None or verdict in GATE_CODES
    assert verdict == validate_finish(dict(payload), dict(opened))  # deterministic
    if verdict is None and payload["cannot_answer"] is False:
        pages = {url: (body, hashlib.sha256(body.encode()).hexdigest()) for url, body in opened.items()}
        (locator,) = locate_evidence(payload["evidence"], payload["citations"], pages)
        body = opened[locator.url]
        assert locator.url in payload["citations"]
        assert body[locator.start : locator.end] == locator.quote
        assert normalize_ws(locator.quote) == normalize_ws(payload["evidence"])
        # Nothing blank gets through: the answer states something, the evidence quotes something.
        assert any(char.isalnum() for char in payload["answer"])
        assert sum(char.isalnum() for char in payload["evidence"]) >= 3


@settings(max_examples=1000, **SETTINGS)
@given(SEEDS)
def test_evidence_copied_from_a_cited_body_is_found_and_located_exactly(seed: int) -> None:
    rng = random.Random(seed)
    opened = opened_pages(rng)
    url = rng.choice(list(opened))
    body = opened[url]
    words = body.split()
    start = rng.randrange(len(words))
    evidence = respace(rng, " ".join(words[start : start + rng.randrange(1, 8)]))
    payload = {"answer": "a", "citations": [url], "cannot_answer": False, "evidence": evidence}
    long_enough = sum(char.isalnum() for char in evidence) >= 3
    assert validate_finish(payload, opened) == (None if long_enough else "evidence")

    (locator,) = locate_evidence(evidence, [url], {url: (body, "digest")})
    assert body[locator.start : locator.end] == locator.quote
    assert normalize_ws(locator.quote) == normalize_ws(evidence)
    assert locator.start_utf16 == utf16(body[: locator.start])
    assert locator.end_utf16 == utf16(body[: locator.end])
    assert len(body[: locator.start].encode("utf-16-le")) // 2 == locator.start_utf16
    # The first occurrence: no earlier start begins a span with the same normalized text.
    needle = normalize_ws(evidence)
    for earlier in range(locator.start):
        assert body[earlier].isspace() or not normalize_ws(body[earlier:]).startswith(needle)


@settings(max_examples=1000, **SETTINGS)
@given(SEEDS)
def test_the_fast_search_matches_the_definition(seed: int) -> None:
    """`contains_normalized` (which never normalizes the body) equals substring-after-normalizing."""
    rng = random.Random(seed)
    body = text(rng, rng.randrange(0, 30))
    needle = normalize_ws(text(rng, rng.randrange(0, 4)))
    expected = needle in normalize_ws(body)
    assert contains_normalized(body, needle) == expected
    span = find_normalized(body, needle)
    assert (span is not None) == (expected and bool(needle))
    if span is not None:
        assert normalize_ws(body[span[0] : span[1]]) == needle


# Digits of other scripts, by value: full-width, Arabic-Indic, Devanagari, Bengali, Thai.
DIGIT_ZEROS = [0xFF10, 0x0660, 0x0966, 0x09E6, 0x0E50]


def other_digits(rng: random.Random, text: str) -> str:
    """`text` with each ASCII digit written, at random, in the same digit of another script."""
    return "".join(
        chr(rng.choice(DIGIT_ZEROS) + int(char))
        if char.isascii() and char.isdigit() and rng.random() < 0.8
        else char
        for char in text
    )


def positive(rng: random.Random, opened: dict[str, str], answer: str) -> dict[str, Any]:
    """A positive finish whose citation and evidence pass, so only the answer decides."""
    url = rng.choice(list(opened))
    return {"answer": answer, "citations": [url], "cannot_answer": False, "evidence": opened[url]}


def pages_with_words(rng: random.Random) -> dict[str, str]:
    return {
        url: "Acme Ada " + text(rng, rng.randrange(1, 40)) for url in rng.sample(URLS, rng.randrange(1, 4))
    }


@settings(max_examples=500, **SETTINGS)
@given(SEEDS)
def test_a_blank_answer_is_always_refused(seed: int) -> None:
    rng = random.Random(seed)
    opened = pages_with_words(rng)
    blank = "".join(
        rng.choice([*SPACES, ".", "?", "-", "\u2014", "\u0301", "\U0001f916"])
        for _ in range(rng.randrange(6))
    )
    assert validate_finish(positive(rng, opened, blank), opened) == "empty_answer"


@settings(max_examples=500, **SETTINGS)
@given(SEEDS)
def test_the_verdict_on_an_answer_does_not_depend_on_its_white_space(seed: int) -> None:
    """A line break is a space to the gate: a name split over lines is checked as on one line."""
    rng = random.Random(seed)
    opened = pages_with_words(rng)
    answer = text(rng, rng.randrange(1, 8))
    other = respace(rng, answer)
    assert validate_finish(positive(rng, opened, answer), opened) == validate_finish(
        positive(rng, opened, other), opened
    )


@settings(max_examples=500, **SETTINGS)
@given(SEEDS)
def test_digits_of_another_script_do_not_escape_the_year_check(seed: int) -> None:
    """With ASCII-digit pages, an answer gets the same verdict whatever script its digits are in."""
    rng = random.Random(seed)
    opened = pages_with_words(rng)
    answer = text(rng, rng.randrange(1, 8)) + rng.choice(["", " in 1999", " in 2014", " in 1066."])
    payload = positive(rng, opened, answer)
    assert validate_finish({**payload, "answer": other_digits(rng, answer)}, opened) == validate_finish(
        payload, opened
    )
