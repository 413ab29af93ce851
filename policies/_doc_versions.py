"""Versions a documentation page tells in prose, for "In which version ...?" questions.

A reference manual that keeps no "New in version N" notes says when something changed in its
sentences: "beginning with SQLite version 3.12.0, the default page size increased to 4096",
"The ability to vacuum attached databases was added in version 3.15.0", "For SQLite versions
before 3.16.0, ...". Such a sentence answers when it holds most of what the question says
changed (not the words of asking when), names every capitalised statement the question names
("VACUUM INTO"), says the removal or deprecation asked about, and gives one version of the
product, not "version 1.2.11 of the zlib library". Asked "before which version", the version
after "before" or "prior to" answers; otherwise that one answers only where the sentence
denies its own predicate ("will not work with versions prior to 3.9.0": 3.9.0 is when it
began to work).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, overlap, sentences_of
from ._doc_questions import DocQuestion
from ._sentences import stem

# A release note's own form, which the notes' extractor reads (policies/_doc_answer.py).
NEW_IN: Final = re.compile(r"\b(New|Changed|Deprecated) (?:in|since) version (\d+(?:\.\d+)+)")
# "version 3.12.0", "versions before 3.16.0", "prior to version 3.7.0": groups 1 or 2 say "before".
_PROSE_VERSION: Final = re.compile(
    r"\b(?:(?:versions?|releases?) (before |prior to |earlier than )?|(before |prior to )version )"
    r"(\d+\.\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)
# The denial governs the version's own predicate: "will not work with versions of X prior to", never a
# negation of a condition before it ("When the database is not in WAL mode, versions prior to ...").
_DENIED_USE: Final = re.compile(
    r"(?:\b(?:not|cannot|never)\b|n't)(?: be)? (?:work|available|supported|run|compile|exist|recogni[sz]e)"
    r"\w*\b[^,;.]*$"
)
# "version 1.2.11 of the zlib library": the version of something else.
_OF_ANOTHER: Final = re.compile(r"(?: \([^)]*\))? of\b")
_DENIAL_REACH: Final = 60  # characters before "prior to version N" where "will not work" may stand
_WHEN_WORDS: Final = frozenset(
    {stem(w) for w in ("start", "starting", "need", "needed", "required", "require")}
)
# The share of the question's description a sentence must hold to give the version of its change.
_PROSE_FIT: Final = 0.6


def prose_version(q: DocQuestion, pages: Sequence[Page], feature: Sequence[str]) -> Iterator[DocCandidate]:
    """A sentence that tells the change asked about in prose and gives one version for it: "beginning
    with SQLite version 3.12.0, the default page size increased to 4096", "The ability to vacuum
    attached databases was added in version 3.15.0". Asked "before which version", the version after
    "before" or "prior to". A page of release notes ("New in version N") answers through those."""
    # "Starting with which version ...", "which version is needed": words of asking when, not of the change.
    feature = [w for w in feature if w not in _WHEN_WORDS]
    if not feature:
        return
    before = re.search(r"\b(?:before|prior to|until)\b", q.text.casefold()) is not None
    asked = re.search(r"\b(remov|deprecat|drop)", q.text.casefold())
    event = asked.group(1) if asked is not None else None
    described = replace(q, words=tuple(feature))
    # Words the question writes in capitals ("VACUUM INTO") name a statement: the sentence names all of
    # it, not only its first word ("vacuum attached databases" is not VACUUM INTO).
    spelled = [s.casefold() for s in re.findall(r"\b[A-Z]{2,}(?: [A-Z]{2,})+\b", q.text)]
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if NEW_IN.search(text) is not None or not _PROSE_VERSION.search(text):
            continue
        fit = overlap(described, text)
        if fit < _PROSE_FIT or not about(line, text, q) or not all(s in text.casefold() for s in spelled):
            continue
        if event is not None and event not in text.casefold():
            continue  # asked when it was removed: "was added in version N" is not that
        found = {
            m.group(3)
            for m in _PROSE_VERSION.finditer(text)
            if _answers_when(m, text, before) and not _OF_ANOTHER.match(text, m.end())
        }
        if len(found) == 1:
            how = "version the sentence gives for the change"
            yield DocCandidate(page.url, found.pop(), text, 1.0 + fit, how)


def _answers_when(match: re.Match[str], text: str, before: bool) -> bool:
    """Whether a version of `_PROSE_VERSION` answers: one after "before" for "before which version",
    any other for "which version" - and one after "before" too when the words just before deny
    ("will not work with versions prior to 3.9.0": 3.9.0 is when it began to work)."""
    said_before = bool(match.group(1) or match.group(2))
    if said_before == before:
        return True
    window = text[max(0, match.start() - _DENIAL_REACH) : match.start()]
    return not before and _DENIED_USE.search(window) is not None
