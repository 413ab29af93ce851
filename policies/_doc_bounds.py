"""'What is the maximum X that Y accepts?': the bound a sentence about Y gives for X.

Manuals state a limit in a few fixed ways: "The maximum buffer size allowed to be set is
CURL_MAX_READ_SIZE (10MB).", "The minimum buffer size allowed to be set is 1024.", "The maximum
value this accepts is 2147483648.", "must be at least 2 characters", "schemes up to 40 bytes long".
The answer is the value with its unit or gloss, from a sentence about the question's name (naming
it, or under its term, heading or page) whose bound is the one asked (largest, highest and maximum
are one; smallest, lowest and minimum the other) and whose words between the bound and its value
are the question's, or say only "value" ("The maximum value this accepts is ...").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._bound_words import LOWER, UPPER
from ._doc_match import NUMBER, UNIT, DocCandidate, about, overlap, overlap_words, page_subject, sentences_of
from ._doc_questions import DocQuestion
from ._sentences import stem

# A value: a number with its unit, or a constant with the size it stands for ("CURL_MAX_READ_SIZE (10MB)").
_VALUE: Final = rf"({NUMBER}(?: ?{UNIT}\b)?(?: \([^()]*\))?|[A-Z][A-Z0-9_]{{2,}}(?: \([^()]*\))?)"
# Words of the frame between the bound and "is", saying nothing of what is bounded.
_FRAME: Final = frozenset(
    stem(w) for w in ("value", "this", "it", "accepts", "allowed", "to", "be", "set", "the")
)


def bound_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The bound a sentence about the question's name gives, of the kind asked."""
    words = UPPER if q.noun == "maximum" else LOWER
    stated = re.compile(rf"\b(?i:the )?(?i:{'|'.join(words)})\b ((?:[\w-]+ ){{0,6}}?)is {_VALUE}")
    phrased = re.compile(
        rf"\b(?:at most|no more than|up to) {_VALUE}" if q.noun == "maximum" else rf"\bat least {_VALUE}"
    )
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if not about(line, text, q):
            continue
        for match in stated.finditer(text):
            between = [stem(w) for w in re.findall(r"[\w-]+", match.group(1).casefold())]
            told = [w for w in between if w not in _FRAME]
            if all(w in q.words for w in told):
                yield _candidate(
                    q, page, line.headings, text, match.group(2), "the bound the sentence states"
                )
                break
        else:
            said = phrased.search(text)
            # "at least 2 characters" answers when the sentence says what is bounded: the question's words.
            if said is not None and overlap_words(q.words, text[: said.start()]):
                yield _candidate(
                    q, page, line.headings, text, said.group(1), "the bound the sentence phrases"
                )


def _candidate(
    q: DocQuestion, page: Page, headings: Sequence[str], text: str, value: str, how: str
) -> DocCandidate:
    score = 1.5 + overlap(q, text, page_subject(page), *headings[-1:])
    return DocCandidate(page.url, value.strip().rstrip("."), text, score, how)
