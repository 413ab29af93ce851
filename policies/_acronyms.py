"""What an abbreviation stands for: "What does GSI stand for?" -> "Generalized Search Index".

Manuals spell an abbreviation out once, beside it in brackets: "GSI (Generalized Search Index)
indexes are ..." or "Write-Ahead Log (WAL)", or say it: "HBA stands for host-based authentication".
Only such a pair answers, and only when the words spell the abbreviation: each word (or part of a
hyphenated one) opens with its next letter, a word may give more letters that it holds in order
("Multiversion" gives MV of MVCC), and short function words ("of", "and") may be skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, sentences_of
from ._doc_questions import DocQuestion

_SKIPPED: Final = frozenset({"of", "and", "the", "for", "to", "in", "on", "a", "an"})
_WORDS: Final = r"[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,7}?"


def expansion_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The spelled-out form of the abbreviation `q` names, where a sentence brackets one with the other."""
    if not q.identifiers:
        return
    short = q.identifiers[0]
    name = re.escape(short)
    after = re.compile(rf"(?<![\w-]){name} \(({_WORDS})\)")
    before = re.compile(rf"(?<![\w-])({_WORDS}) \({name}\)")
    said = re.compile(rf"(?<![\w-]){name} (?:stands for|is short for) ({_WORDS})(?=[.,;)]|$)")
    for page, _line, sentence in sentences_of(pages):
        for pattern in (after, before, said):
            for match in pattern.finditer(sentence.text):
                words = _spelling(match.group(1), short)
                if words is not None:
                    yield DocCandidate(
                        page.url, words, sentence.text, 2.0, "the words the abbreviation stands for"
                    )


def _spelling(text: str, short: str) -> str | None:
    """The shortest run of `text`'s last words that spells `short`, or None."""
    words = text.split()
    for start in range(len(words) - 1, -1, -1):
        run = words[start:]
        if _spells([part for word in run for part in word.split("-") if part], short.casefold()):
            return " ".join(run)
    return None


def _spells(parts: list[str], letters: str) -> bool:
    if not parts:
        return not letters
    head, rest = parts[0].casefold(), parts[1:]
    if head in _SKIPPED and _spells(rest, letters):
        return True
    if not letters or head[0] != letters[0]:
        return False
    # The word gives its first letter, and perhaps more of the next ones that it holds in order.
    for taken in range(1, len(letters) + 1):
        if not _in_order(letters[1:taken], head[1:]):
            break
        if _spells(rest, letters[taken:]):
            return True
    return False


def _in_order(letters: str, word: str) -> bool:
    at = 0
    for letter in letters:
        at = word.find(letter, at) + 1
        if at == 0:
            return False
    return True
