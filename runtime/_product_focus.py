"""The product a manual documents, which a sentence about one of its features need not name.

`focus-entity`'s last reading (runtime/_support.py): "What is SQLite's default conflict resolution
algorithm?" is answered by "The default conflict resolution algorithm is ABORT." on the page about
ON CONFLICT, which never says "SQLite" in that sentence, because every page of the manual is about
SQLite. A focus is such a product when it is one capitalised word ("SQLite", "Postfix") that every
page the run opened carries, three pages or more. The quote is then held to the question's own words
instead, unless the question also names code or quotes a phrase (that the quote must name): the
sentence that answers holds at least three of the question's content words besides the
product, and two thirds of them ("default", "conflict", "resolution", "algorithm").

A name of two words or more ("Acme Robotics") is never a product: over news pages one company on
every page opened is still what the question is about. The cost is paid only when every other
reading of the focus failed: the opened pages are scanned for the word then, not on the accepted path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ._focus import Focus
from ._quantities import fold_text, singular


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_MIN_PAGES: Final = 3
_MIN_SHARED: Final = 3
_WORD: Final = re.compile(r"[^\W\d_]{4,}")
# Words of four letters or more that frame a question or join a sentence, not what it is about.
_FRAME: Final = _words(
    "what which when where whose does have will would should could there their these those this that "
    "with from into onto about after before than then also used uses using none many much some "
    "your they them been being were only just like more most other such each every anywhere "
    "happens happen mean means"
)


def product_foci(foci: Sequence[Focus], opened: Sequence[str]) -> tuple[Focus, ...]:
    """The foci that are the manual's product: one capitalised word on every one of `opened`'s bodies
    (three or more), as a whole word."""
    if len(opened) < _MIN_PAGES:
        return ()
    found: list[Focus] = []
    for focus in foci:
        if focus.kind != "name" or " " in focus.text or not focus.text.isalpha():
            continue
        word = re.compile(rf"(?<![\w-]){re.escape(focus.text)}(?![\w-])", re.IGNORECASE)
        if all(word.search(body) is not None for body in opened):
            found.append(focus)
    return tuple(found)


def holds_question_words(question: str, sentence: str, foci: Sequence[Focus]) -> tuple[int, int]:
    """How many of the question's content words (four letters or more, no frame word, no focus) the
    folded `sentence` holds, and how many there are."""
    named = {singular(word) for focus in foci for word in _WORD.findall(focus.folded)}
    wanted = {singular(word) for word in _WORD.findall(fold_text(question)) if word not in _FRAME} - named
    held = {singular(word) for word in _WORD.findall(sentence)}
    return len(wanted & held), len(wanted)


def about_the_product(
    question: str, sentence: str, foci: Sequence[Focus], opened: Sequence[str]
) -> Focus | None:
    """The product focus the answering `sentence` may leave unsaid, when it holds enough of the
    question's other words; else None."""
    products = product_foci(foci, opened)
    if not products or any(focus.kind in ("identifier", "quoted") for focus in foci):
        return None  # code or a quoted phrase the question names is what the quote must name
    shared, total = holds_question_words(question, sentence, foci)
    return products[0] if shared >= _MIN_SHARED and 3 * shared >= 2 * total else None
