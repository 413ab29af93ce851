"""The sentence before a quote that says what its "it" or "he" is, for `ExtractivePolicy`.

A best sentence that opens pointing back ("Its chief executive is Ines Duarte.") is quoted with
the sentences before it, as far back as the one naming what the question names, so the quote
(and the gate's focus check) sees what "it" is; the conflict check reads other pages' sentences
the same way.
"""

from __future__ import annotations

from typing import Final

from ._questions import Question
from ._sentences import POINTING_BACK, Sentence, split_sentences, stem, words

# How far back a quote may reach for the sentence naming what "it" or "he" is.
_ANTECEDENT_SENTENCES: Final = 3
_ANTECEDENT_CHARS: Final = 600


def with_antecedent(question: Question, body: str, sentence: Sentence) -> Sentence:
    """The sentence, or with those before it when it opens with "He", "It", "The" ... and only an
    earlier one names what the question names, each in between pointing back too: the quote then
    shows what "he" or "it" is."""
    first = words(sentence.text)[:1]
    if not question.entities or not first or first[0].casefold() not in POINTING_BACK:
        return sentence
    if all(entity in {stem(w) for w in words(sentence.text)} for entity in question.entities):
        return sentence
    offset = max(0, sentence.start - _ANTECEDENT_CHARS)
    before = split_sentences(body[offset : sentence.start])
    # Back over sentences that point back in turn ("It was formed ... Its chief executive is ..."),
    # as far as the one that names what the question names.
    family = _FAMILY.get(first[0].casefold())
    for back, previous in enumerate(reversed(before[-_ANTECEDENT_SENTENCES:])):
        if any(entity in {stem(w) for w in words(previous.text)} for entity in question.entities):
            start = offset + previous.start
            if back and body[:start].strip():
                # Further back than one sentence only to the page's opening one, whose subject a
                # page's "It" goes on meaning; mid-page, "it" may be anything named in between.
                return sentence
            return Sentence(start, sentence.end, body[start : sentence.end])
        # Only the same "it" all along: "He later founded Borg Industries." between leaves "Its"
        # pointing at Borg, not at the company named before him.
        opening = words(previous.text)[:1]
        if not opening or family is None or _FAMILY.get(opening[0].casefold()) != family:
            break
    return sentence


# Pronouns that point back to one thing: a chain of sentences continues only within one family.
_FAMILY: Final = {
    "it": "it", "its": "it",
    "he": "he", "his": "he",
    "she": "she", "her": "she",
    "they": "they", "their": "they",
}  # fmt: skip
