"""The version a section gives "this feature" ("This feature is available in Postfix version 2.1 and
later."), and the words of asking when, which no sentence giving a version needs to hold (`_doc_versions`)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, mentions, overlap, sentences_of
from ._doc_questions import DocQuestion
from ._outline import Line
from ._sentences import Sentence, stem

# Words of asking when ("Starting with which version ...", "which version is needed"), not of a change.
WHEN_WORDS: Final = frozenset(
    {stem(w) for w in ("start", "starting", "need", "needed", "required", "require", "release")}
)
# The words of a question asking when the thing itself arrived ("Since which version is X available?").
ARRIVAL_WORDS: Final = frozenset(stem(w) for w in ("available", "added", "introduced", "new", "supported"))
# The share of the question's description a sentence must hold to give the version of its change.
PROSE_FIT: Final = 0.6


# "This feature is available in Postfix version 2.1 and later.": what the section told before it.
_FEATURE_CAME: Final = (
    r"^This (?:feature|functionality|support) (?:is|was|became|has been) (?:available|introduced|added)"
)
# A sentence that adds a capability to what the section tells: "this feature" after it is the addition.
_ADDS_CAPABILITY: Final = re.compile(
    r"\b(?:can|may|will|does) also\b|\balso (?:supports?|allows?|provides?|offers?|lets)\b"
    r"|^(?:In addition|Additionally)\b"
)
_FEATURE_REACH: Final = 800  # characters of the section a quote may reach back to name the asked code


def section_version(q: DocQuestion, pages: Sequence[Page], feature: Sequence[str]) -> Iterator[DocCandidate]:
    """The version a section gives for "this feature", when the section before it tells the asked
    feature: the headings above and the sentences before it in the section hold most of the
    question's words and every code it names. Quoted from the last sentence naming that code."""
    feature = [w for w in feature if w not in WHEN_WORDS and w not in ARRIVAL_WORDS]
    if not feature or q.noun is None:
        return
    came = re.compile(
        rf"{_FEATURE_CAME} (?:in|since|with|as of) (?:{re.escape(q.noun)} )?(?:version |release )?"
        r"(\d+(?:\.\d+)*)\b",
        re.IGNORECASE,
    )
    described = replace(q, words=tuple(feature))
    told: list[tuple[Line, Sentence]] = []
    section: tuple[str, ...] | None = None
    add_on = False  # "It can also keep the results in a cache": "this feature" is that, not the heading's
    for page, line, sentence in sentences_of(pages):
        if (page.url, *line.headings) != section:
            section, told, add_on = (page.url, *line.headings), [], False
        if _ADDS_CAPABILITY.search(sentence.text):
            told, add_on = [], True
        match = came.match(sentence.text)
        told.append((line, sentence))
        if match is None:
            continue
        # (the words of a code name tell no feature: "leaf_verify_map" is no "leaf verification")
        before = re.sub(r"\w+_\w+", " ", " ".join(said.text for _, said in told[:-1]))
        fit = overlap(described, before, *(() if add_on else line.headings))
        if fit < PROSE_FIT:
            continue
        start = line.start + sentence.start
        if q.identifiers:
            naming = [
                (at, said) for at, said in told[:-1] if all(mentions(said.text, i) for i in q.identifiers)
            ]
            if not naming:
                continue
            start = naming[-1][0].start + naming[-1][1].start
        if line.start + sentence.end - start > _FEATURE_REACH:
            continue
        quote = " ".join(page.body[start : line.start + sentence.end].split())
        yield DocCandidate(
            page.url, match.group(1), quote, 1.0 + fit, "version the section gives its feature"
        )
