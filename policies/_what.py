"""A "what N" question answered by a name the text types as an N.

"What WB supernatural drama series was Rose McGowan best known for being in?" asks for a
*series*: a name the page itself calls one. The head noun is the last word of the phrase
after "what" (up to a verb or a comma); a sentence types a name X as an N when it writes

- `N "X"` or `N X` ("the WB supernatural drama series "Charmed""),
- `"X" N` ("the "Animorphs" series"),
- `X is a ... N` at the start of the sentence ("Starlite is a material ..."), or
- `X, a ... N` ("his invention of Starlite, a thermal shielding material").

X is a quoted string or a run of capitalized words the question does not spell, and the
sentence holds one of the words the question puts before its noun, if it puts any. Only the
best-ranked sentences of the opened pages are read (`TYPED_SENTENCES`), and the policy
uses this only when its general path is unsure: a name typed as asked, or a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._extractive_score import score_sentences
from ._questions import STOPWORDS, Question
from ._sentences import Sentence, stem, words

# How many of the best-ranked sentences are read for a typed name.
TYPED_SENTENCES: Final = 3
_VERBS: Final = frozenset(
    "is are was were did does do has had have can could will would may might should".split()  # noqa: SIM905
)
_CAPS: Final = r"[A-Z][\w'\u2019.&-]*(?:\s+(?:of|the|and|de|du|la|von|van)?\s*[A-Z0-9][\w'\u2019.&-]*)*"


@dataclass(frozen=True, slots=True)
class Typed:
    """A name a sentence types as the asked noun, and the sentence (with its page's url)."""

    answer: str
    url: str
    sentence: Sentence


def head_noun(question: str) -> tuple[str, tuple[str, ...]] | None:
    """The noun a "what ..." question asks for, and the stems of the words before it:
    "What WB supernatural drama series was ..." -> ("series", ("wb", "supernatural", "drama"))."""
    match = re.search(r"\b[Ww]hat\s+([^,?;:]+)", question)
    if match is None:
        return None
    phrase: list[str] = []
    for word in words(match.group(1)):
        if word.casefold() in _VERBS:
            break
        phrase.append(word)
    if len(phrase) >= 2 and phrase[0].casefold() in ("kind", "type", "sort") and phrase[1] == "of":
        phrase = phrase[2:]
    if not phrase:
        return None
    noun = phrase[-1]
    if not noun.isalpha() or not noun.islower() or len(noun) < 3 or noun in STOPWORDS:
        return None
    return noun, tuple(stem(w) for w in phrase[:-1] if w.casefold() not in STOPWORDS)


def typed_name(question: Question, pages: Sequence[Page]) -> Typed | None:
    """The first name one of the best-ranked sentences types as the question's head noun, or None."""
    head = head_noun(question.text)
    if head is None:
        return None
    noun, modifiers = head
    patterns = _patterns(noun)
    asked = question.text.casefold()
    for scored in score_sentences(question, pages)[:TYPED_SENTENCES]:
        text = scored.sentence.text
        if modifiers and not set(modifiers) & {stem(w) for w in words(text)}:
            continue  # a "drama series" asked, no word of "drama" in the sentence: not the one asked
        for pattern in patterns:
            for match in pattern.finditer(text):
                name = match.group("x").strip(" ,").rstrip(".") if match.group("x")[-2:] != ".." else ""
                if name and len(name) <= 60 and name.casefold() not in asked and _named(name):
                    return Typed(name, pages[scored.rank].url, scored.sentence)
    return None


def _named(name: str) -> bool:
    """Whether `name` names something: not a bare question word or article run ("The", "In 1990")."""
    parts = name.split()
    if parts[0].casefold() not in STOPWORDS:
        return True
    return len(parts) > 1 and parts[1][:1].isupper()


def _patterns(noun: str) -> list[re.Pattern[str]]:
    plural = rf"{re.escape(noun)}(?:s|es)?"
    return [
        re.compile(rf"\b{plural}\s+[\"\u201c](?P<x>[^\"\u201d]{{1,60}})[\"\u201d]"),
        re.compile(rf"[\"\u201c](?P<x>[^\"\u201d]{{1,60}})[\"\u201d]\s+{plural}\b"),
        re.compile(rf"\b{plural}\s+(?P<x>{_CAPS})"),
        re.compile(
            rf"^(?:The\s+)?(?P<x>{_CAPS})(?:\s*\([^()]*\))?\s+(?:is|was|are|were)\s+(?:an?|the)\s+"
            rf"(?:[\w-]+\s+){{0,4}}{plural}\b"
        ),
        re.compile(rf"(?P<x>{_CAPS}),\s+an?\s+(?:[\w-]+\s+){{0,3}}{plural}\b"),
    ]
