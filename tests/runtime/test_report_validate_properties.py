"""Generated drafts (hypothesis): verbatim drafts validate, and each defect gives its code (docs/reports.md).

Example counts are explicit: 3,000 cases in this file. 1,000 drafts are built from random
verbatim spans of random source texts (astral characters, no-break spaces and line breaks
included), each sentence its quote plus a marker (each a paragraph, or run on in one
paragraph as "quote.[^n] quote.[^m]"); each one is checked as written (held to
`answer-in-quote` too, as the report runtime holds it) and then
with one quote character changed, one definition deleted and one marker deleted. 2,000 are
arbitrary text (1,000 any text, 1,000 soups of the format's own tokens), which validation
must take without raising. A draft is built from one drawn seed with `random.Random(seed)`,
as tests/runtime/test_locator_properties.py does: a failure reproduces from the printed seed.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from citeloop.events import DraftFinding
from citeloop.runtime._report_validate import CODES, validate_draft
from citeloop.runtime._text import normalize_ws
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS: dict[str, Any] = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
# Source text: letters of several scripts (upper case ones too: names), digits, astral
# characters (two UTF-16 units each, one an upper-case letter), white space of several
# kinds, and punctuation. Left out are only the characters that are Markdown to the draft
# (`[`, `^`, `]`, backticks, `#`, `*`, `~`) and sentence ends (`.`, `!`, `?`): a quote that
# holds one would not stand alone as one sentence, which is the point of these drafts.
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéßÅжЖ"
_SOURCE_ALPHABET = _LETTERS * 2 + "0123456789" + "      \n\t\u00a0" + ",;:-_()'\"/%&=+<>" + "𝄞😀𐐷"
_FOREIGN = "§"
# The support method the report runtime holds each cited sentence to (runtime/_report_decide.py).
SENTENCE_SUPPORT = ("answer-in-quote",)  # in no source text: a quote holding it is in no source


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(_SOURCE_ALPHABET) for _ in range(rng.randint(20, 400)))


@dataclass
class Built:
    citable: dict[str, tuple[str, str]]
    sentences: list[str]
    definitions: list[str]
    quotes: list[str]  # each definition's quote, as written in it
    run_on: bool = False  # the sentences as one paragraph, each ending in ". " before its marker

    def draft(self) -> str:
        if self.run_on:
            body = " ".join(
                sentence.replace("[^", ".[^", 1) if "[^" in sentence else sentence + "."
                for sentence in self.sentences
            )
        else:
            body = "\n\n".join(self.sentences)
        return body + "\n\n" + "\n".join(self.definitions) + "\n"


def _build(seed: int) -> Built:
    rng = random.Random(seed)
    citable: dict[str, tuple[str, str]] = {}
    for index in range(rng.randint(1, 3)):
        text = _text(rng)
        source = f"https://source.example/{index}" if rng.random() < 0.5 else f"att-{index}"
        citable[source] = (text, hashlib.sha256(text.encode("utf-8")).hexdigest())
    sentences: list[str] = []
    defined: list[tuple[str, str]] = []  # (definition line, its quote)
    numbers = rng.sample(range(1, 40), rng.randint(1, 6))
    for n in numbers:
        source = rng.choice(list(citable))
        text = citable[source][0]
        quote = ""
        while not quote:
            start = rng.randrange(len(text))
            quote = normalize_ws(text[start : start + rng.randint(1, 60)])
        shown = f"<{source}>" if rng.random() < 0.5 else source
        sentences.append(f"{quote}[^{n}]")
        defined.append((f'[^{n}]: {shown} "{quote}"', quote))
    rng.shuffle(defined)  # definitions may come in any order; footnotes come by number
    lines, quotes = [line for line, _ in defined], [quote for _, quote in defined]
    return Built(citable, sentences, lines, quotes, run_on=rng.random() < 0.5)


def _codes(findings: tuple[DraftFinding, ...]) -> list[str]:
    return [finding.code for finding in findings]


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@settings(max_examples=1000, **SETTINGS)
@given(SEEDS)
def test_a_verbatim_draft_validates_and_each_defect_gives_its_code(seed: int) -> None:
    built = _build(seed)
    draft = built.draft()
    findings, footnotes = validate_draft(draft, built.citable, question="What?", support=SENTENCE_SUPPORT)
    assert findings == (), (seed, draft)
    assert [footnote.n for footnote in footnotes] == sorted(footnote.n for footnote in footnotes)
    assert len(footnotes) == len(built.definitions)
    for footnote in footnotes:
        text, sha256 = built.citable[footnote.url]
        assert footnote.sha256 == sha256
        assert text[footnote.start : footnote.end] == footnote.quote
        assert footnote.start_utf16 == _utf16(text[: footnote.start])
        assert footnote.end_utf16 == _utf16(text[: footnote.end])
        definition = next(d for d in built.definitions if d.startswith(f"[^{footnote.n}]:"))
        assert definition.endswith(f' "{normalize_ws(footnote.quote)}"')

    rng = random.Random(seed ^ 0x5EED)
    # One character of one quote changed: that quote is in no source.
    index = rng.randrange(len(built.definitions))
    quote = built.quotes[index]
    at = rng.randrange(len(quote))
    mutated = quote[:at] + _FOREIGN + quote[at + 1 :]
    changed = list(built.definitions)
    changed[index] = changed[index][: -len(quote) - 1] + mutated + '"'
    findings, _ = validate_draft(
        Built(built.citable, built.sentences, changed, [], built.run_on).draft(), built.citable
    )
    assert _codes(findings) == ["quote_not_in_source"], seed

    # One definition deleted: its marker dangles.
    fewer = built.definitions[:index] + built.definitions[index + 1 :]
    findings, footnotes = validate_draft(
        Built(built.citable, built.sentences, fewer, [], built.run_on).draft(), built.citable
    )
    assert _codes(findings) == ["dangling_citation"], seed
    assert len(footnotes) == len(fewer)

    # One marker deleted: its footnote is unreferenced (and the sentence may state an uncited fact).
    index = rng.randrange(len(built.sentences))
    unmarked = list(built.sentences)
    unmarked[index] = unmarked[index][: unmarked[index].rindex("[^")]
    findings, _ = validate_draft(
        Built(built.citable, unmarked, built.definitions, [], built.run_on).draft(), built.citable
    )
    found = _codes(findings)
    assert "unreferenced_footnote" in found, seed
    allowed = {"no_citations", "unreferenced_footnote", "uncited_fact"}
    if built.run_on:
        # Without its marker a sentence before a lower-case one runs on into it, and what it
        # states is then the next sentence's, held to that sentence's quote.
        allowed.add("unsupported_claim")
    assert set(found) <= allowed, (seed, found)


_CITABLE = {"https://a.example": ('Ada 1999 acme.connect() said "no" 𝄞', "0" * 64), "att-1": ("", "")}
_TOKENS = [
    "[^1]", "[^2]", "[^a]", "[^0]", "[^", "]", "]:", ": ", '"', "<", ">", "https://a.example", "att-1",
    "\n", "\n\n", "```", "~~~", "# ", "## Gaps\n", "- ", "1. ", "`", "*", "_", ".", ". ", "!", "?",
    " ", "\t", "\u00a0", "\u2028", "\r\n", "Ada", "acme.connect()", "1999", "not", "e.g.", "𝄞", "\ud800",
]  # fmt: skip


@settings(max_examples=1000, **SETTINGS)
@given(st.text())
def test_validation_never_raises_on_any_text(draft: str) -> None:
    findings, footnotes = validate_draft(draft, _CITABLE, question="Who?", support=["answer-in-quote"])
    codes = _codes(findings)
    assert codes == sorted(codes, key=CODES.index)
    assert all(footnote.n >= 1 for footnote in footnotes)


@settings(max_examples=1000, **SETTINGS)
@given(st.lists(st.sampled_from(_TOKENS), max_size=60).map("".join))
def test_validation_never_raises_on_the_format_s_own_tokens(draft: str) -> None:
    findings, footnotes = validate_draft(draft, _CITABLE, question="Who?", support=["answer-in-quote"])
    codes = _codes(findings)
    assert codes == sorted(codes, key=CODES.index)
    for footnote in footnotes:
        text = _CITABLE[footnote.url][0]
        assert text[footnote.start : footnote.end] == footnote.quote
    if not findings:
        assert footnotes  # a valid draft cites (no_citations otherwise), so it has footnotes
