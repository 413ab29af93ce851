"""What the deterministic writer and reviewer share: the question's parts and a light reading of a draft.

The policies layer cannot import the runtime's draft parser (runtime/_draft_parse.py), so
this reads only what the writer and reviewer need - which body sentences cite, which sit
under a disclosure heading, which definitions a draft has - with the same section rule.
Validation stays the runtime's: nothing here decides whether a draft is valid.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ._questions import STOPWORDS, analyze
from ._sentences import split_sentences, stem, words

# Headings that open a disclosure of what was not found: the list runtime/_draft_parse.py uses.
DISCLOSURE_HEADINGS: Final = ("gap", "not found", "unknown", "open question", "limitation", "missing")
DEFINITION: Final = re.compile(
    r' {0,3}\[\^(?P<n>[1-9][0-9]*)\]:[ \t]+<?(?P<source>[^\s"<>]+)>?[ \t]+"(?P<quote>.*)"'
)
_MARKER: Final = re.compile(r"\[\^([1-9][0-9]*)\]")
_HEADING: Final = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*")
_LIST_ITEM: Final = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
# Where a question is cut into the parts a report must each cover or disclose.
_PART_SPLIT: Final = re.compile(r"\s*(?:,|;|\band\b|\bas well as\b)\s*", re.IGNORECASE)
_PREFIX: Final = (
    5  # a word matches one sharing its first five letters ("founded" ~ "founder"), as the scorer does
)
# Words that ask rather than say: never a part's content.
_ASKING: Final = frozenset(
    {"who", "whom", "whose", "what", "which", "when", "where", "why", "how", "list", "name"}
)


# A piece of a question that is only its question word ("... and when?").
_BARE_ASKING: Final = re.compile(r"(?:who|when|where|why|how(?: many| much| long| often)?)", re.IGNORECASE)
_LEADING_ASKING: Final = re.compile(
    r"(?:who|whom|what|which|when|where|why|how(?: many| much| long| often)?)\b\s*", re.IGNORECASE
)
# What a cited sentence must hold to answer a part of a kind: a date for "when", a number for "how many".
_DATE_LIKE: Final = re.compile(
    r"\b(?:1[0-9]{3}|20[0-9]{2})s?\b|\b(?:January|February|March|April|May|June|July|August|September"
    r"|October|November|December)\b"
)
_NUMBER_LIKE: Final = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand)\b",
    re.IGNORECASE,
)


def _asked_again(previous: str, asking: str) -> str:
    """The part a bare question word makes of the piece before: its own word in place of that one's."""
    return f"{asking.capitalize()} {_LEADING_ASKING.sub('', previous, count=1)}"


def answers_kind(part: str, text: str) -> bool:
    """Whether `text` holds what a part of its kind asks for: a date for "when", a number for "how
    many/much"; any text for other kinds (a name, a place and a clause are not told apart here)."""
    kind = analyze(part).kind
    if kind == "when":
        return _DATE_LIKE.search(text) is not None
    if kind in ("how_many", "how_much"):
        return _NUMBER_LIKE.search(text) is not None
    return True


@dataclass(frozen=True, slots=True)
class BodySentence:
    """A sentence of a draft's body, whether it cites a footnote, and whether it discloses a gap."""

    text: str
    labels: tuple[int, ...]  # the footnotes it cites
    disclosure: bool

    @property
    def cited(self) -> bool:
        return bool(self.labels)


def content_stems(text: str) -> tuple[str, ...]:
    """The stems of the words of `text` that carry content: no stopwords, no question words."""
    kept = (word for word in words(text) if word.casefold() not in STOPWORDS | _ASKING)
    return tuple(dict.fromkeys(stem(word) for word in kept))


def question_parts(question: str, plan: Sequence[str] = ()) -> tuple[str, ...]:
    """The parts a report must each cover or disclose: the question cut at "and" and commas, then the plan.

    A bare question word asks it of the piece before ("Where was Ada Ortiz born, and when?"
    has the part "when was Ada Ortiz born"); any other piece with no content word of its own
    is no part. Repeats are dropped.
    """
    pieces = [" ".join(piece.split()).strip(" ?.!:") for piece in _PART_SPLIT.split(question)]
    parts: list[str] = []
    for piece in pieces:
        if content_stems(piece):
            parts.append(piece)
        elif parts and _BARE_ASKING.fullmatch(piece):
            parts.append(_asked_again(parts[-1], piece))
    # One line each: the reviewer names a part per line of its notes.
    parts.extend(" ".join(item.split()) for item in plan if content_stems(item))
    return tuple(dict.fromkeys(parts))


def shares_content(wanted: Sequence[str], text: str) -> bool:
    """Whether `text` holds more than half of the `wanted` stems (all of one or two), by stem or prefix."""
    if not wanted:
        return False
    held = set(content_stems(text))
    prefixes = {word[:_PREFIX] for word in held if len(word) >= _PREFIX}
    found = sum(1 for term in wanted if term in held or (len(term) >= _PREFIX and term[:_PREFIX] in prefixes))
    return 2 * found > len(wanted)


def covers(part: str, text: str) -> bool:
    """Whether `text` says what `part` asks about: every name and number the part states, and more
    than half of its other content words. "Acme Robotics was founded by Ada Ortiz" does not cover
    "Where was Ada Ortiz born"; "It has invested in Acme Robotics" does not cover "Who founded
    Acme Robotics"."""
    named = analyze(part).entities
    own = {stem(word) for word in words(text)}
    if not all(entity in own for entity in named):
        return False
    others = [term for term in content_stems(part) if term not in named]
    return not others or shares_content(others, text)


def body_sentences(draft: str) -> list[BodySentence]:
    """The body's sentences (headings, definitions and fenced code left out), each marked cited or not."""
    out: list[BodySentence] = []
    disclosure_level: int | None = None
    in_fence = False
    for line in draft.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or DEFINITION.fullmatch(line) or not line.strip():
            continue
        heading = _HEADING.fullmatch(line)
        if heading is not None:
            level, title = len(heading.group(1)), heading.group(2)
            if disclosure_level is not None and level <= disclosure_level:
                disclosure_level = None
            if disclosure_level is None and is_disclosure_heading(title):
                disclosure_level = level
            continue
        item = _LIST_ITEM.match(line)
        text = line[item.end() :] if item is not None else line
        for sentence in split_sentences(text.strip()):
            labels = tuple(int(label) for label in _MARKER.findall(sentence.text))
            out.append(BodySentence(sentence.text, labels, disclosure_level is not None))
    return out


def is_disclosure_heading(title: str) -> bool:
    return " ".join(title.casefold().split()).lstrip("*_ ").startswith(DISCLOSURE_HEADINGS)


def definitions(draft: str) -> dict[int, tuple[str, str]]:
    """A draft's footnote definitions by number: (source, quote). The first of a repeated number counts."""
    found: dict[int, tuple[str, str]] = {}
    for line in draft.splitlines():
        match = DEFINITION.fullmatch(line)
        if match is not None:
            found.setdefault(int(match.group("n")), (match.group("source"), match.group("quote")))
    return found


def uncovered_parts(
    draft: str,
    question: str,
    plan: Sequence[str] = (),
    titles: Mapping[str, str] | None = None,
    answered: Collection[tuple[str, str]] = (),
) -> list[str]:
    """The parts of the question and plan that the draft neither covers nor discloses, in order.

    A cited sentence covers a part when it, read with the titles of the sources it cites
    (`titles`: source id to title; "it employs about 480 people" on the page "Acme
    Robotics"), covers it (`covers`); a sentence under a disclosure heading discloses it when it
    covers it itself. A question of one part is also covered by a footnote quoting one of the
    research's own answer sentences (`answered`, policies/_report_research.py): the research
    answered that very question, in words the part's need not share ("The default is 6.").
    """
    sentences = body_sentences(draft)
    defined = definitions(draft)
    titles = titles or {}

    def read(sentence: BodySentence) -> str:
        cited = (defined[n][0] for n in sentence.labels if n in defined)
        return " ".join([sentence.text, *(titles.get(source, "") for source in cited)])

    own = question_parts(question)
    settled = set(own) if len(own) == 1 and _quotes_any(sentences, defined, answered) else set()

    def settles(part: str, sentence: BodySentence) -> bool:
        # A cited sentence answers a part when it covers it and holds what its kind asks for
        # ("when ..." a date); a disclosure only has to name it.
        if sentence.disclosure:
            return covers(part, sentence.text)
        return sentence.cited and covers(part, read(sentence)) and answers_kind(part, sentence.text)

    missing: list[str] = []
    for part in question_parts(question, plan):
        if part not in settled and not any(settles(part, s) for s in sentences):
            missing.append(part)
    return missing


def _quotes_any(
    sentences: Sequence[BodySentence],
    defined: Mapping[int, tuple[str, str]],
    claims: Collection[tuple[str, str]],
) -> bool:
    """Whether a cited sentence of the body carries a footnote quoting one of `claims` (source, quote)."""
    return any(defined.get(n) in claims for s in sentences if s.cited for n in s.labels)
