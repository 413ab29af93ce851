"""The finish of a prose or two-hop question, for `ExtractivePolicy` (split out of `_extractive`).

`choose` picks the sentence that best answers the question's type among the opened pages,
with the confidence of two linear models (`_extractive_score`). `finish_prose` turns that
choice - or a second hop (`_two_hop`), a name two pages share, a typed name - into a finish
that quotes it, or refuses when the confidence is below the threshold, no span is of the
asked type, or the pages disagree (`_conflict`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._antecedent import with_antecedent
from ._bridge_answer import asks_typed_last, which_unsaid, wrong_kind
from ._cloze import fill_gap
from ._compare import offered
from ._conflict import disagreement
from ._doc_match import on_every_page
from ._doc_questions import NOUNS
from ._extractive_score import (
    CONF_WEIGHTS,
    RANK_WEIGHTS,
    Scored,
    confidence_vector,
    dot,
    logistic,
    score_sentences,
)
from ._hop_search import hops
from ._nested import from_named_page, offered_answer, page_subject_answer, quoted_unsaid
from ._outline import clean, outline
from ._questions import Question
from ._react import abstain_reply, finish_reply, hinted_abstain_reply
from ._sentences import POINTING_BACK, Sentence, stem, words
from ._shared import common_name
from ._short_answer import says_verb, short_answer, verb_forms
from ._two_hop import plain_title
from ._what import head_noun, typed_name


@dataclass(frozen=True, slots=True)
class Choice:
    """The best sentence found, where it is, a short answer drawn from it, and the confidence."""

    url: str
    sentence: Sentence
    answer: str
    scored: Scored
    confidence: float


def choose(
    question: Question,
    pages: Sequence[Page],
    rank_weights: Sequence[float] = RANK_WEIGHTS,
    conf_weights: Sequence[float] = CONF_WEIGHTS,
) -> Choice | None:
    """The best-answering sentence among `pages` (given in search-rank order), or None if there is none."""
    scored = score_sentences(question, pages, rank_weights)
    if not scored:
        return None
    best = scored[0]
    vector = confidence_vector(best, scored[1] if len(scored) > 1 else None)
    answer = short_answer(question, best.sentence.text) or best.sentence.text
    # Rounded so that the value the thought states is exactly the one compared (the sweep relies on it).
    value = round(logistic(dot(conf_weights, vector)), 6)
    quote = with_antecedent(question, pages[best.rank].body, best.sentence)
    return Choice(pages[best.rank].url, quote, answer, best, value)


# Question kinds whose answer is a span of one type (a name, a date, a place, an amount).
# A short answer that long or shorter may be a name every opened page of a manual carries.
_NAME_CHARS: Final = 60
_TYPED_KINDS: Final = frozenset({"who", "when", "where", "how_many", "how_much"})


def finish_prose(
    question: Question,
    hits_order: list[str],
    pages: Mapping[str, Page],
    min_confidence: float,
    in_structure: bool = False,
    bridging: bool = False,
) -> str:
    """The reply that answers `question` from the opened `pages` (in `hits_order`), or refuses.

    `bridging`: the question nests another, so a second page may answer; `in_structure`: the
    pages hold documentation structure, where only a short span of the asked type answers.
    """
    ranked = [pages[url] for url in hits_order if url in pages]
    if not ranked:
        return abstain_reply("no search hit could be opened", "the pages could not be opened")
    # "Which town is larger, A or B?" is answered by A or B, whichever path finds the answer.
    alternatives = offered(question.text)
    choice = choose(question, ranked)
    # Only a question that nests another ("... the woman who portrayed X") is answered from a
    # second page: "Who founded Acme Robotics?" is about Acme Robotics, not about a page that a
    # page mentioning Acme Robotics names. Any other question may only take the bridge itself
    # as its answer, when the general path is unsure and the bridge's page says the rest.
    unsure = choice is None or choice.confidence < min_confidence
    found = hops(question, pages, hits_order, named_only=not bridging) if bridging or unsure else []
    if found and not in_structure and offered_answer(alternatives, found[0].answer):
        hop = found[0]
        return finish_reply(
            f"second hop: {hop.bridge.page.title} names {hop.bridge.name!r}, whose page answers",
            hop.answer,
            hop.citations,
            hop.evidence,
        )
    # A sentence with no span of the asked type may still write the question's words before a name.
    spanless = choice is not None and choice.answer == choice.scored.sentence.text
    filled = fill_gap(question, ranked) if (unsure or spanless) and not in_structure else None
    if filled is not None and offered_answer(alternatives, filled.answer):
        quote = with_antecedent(question, pages[filled.url].body, filled.sentence)
        return finish_reply(
            f"unsure ({0.0 if choice is None else choice.confidence:.6f}), but {filled.url} writes the "
            f"question's words before {filled.answer!r}",
            filled.answer,
            [filled.url],
            quote.text,
        )
    common = common_name(question, ranked) if unsure and not in_structure else None
    if common is not None and offered_answer(alternatives, common.answer):
        return finish_reply(
            f"{common.pages[0].title} and {common.pages[1].title} both name {common.answer!r}",
            common.answer,
            [page.url for page in common.pages],
            list(common.quotes),
        )
    typed = typed_name(question, ranked) if unsure and not in_structure and question.kind == "what" else None
    if typed is not None and offered_answer(alternatives, typed.answer):
        quote = with_antecedent(question, pages[typed.url].body, typed.sentence)
        return finish_reply(
            f"unsure ({0.0 if choice is None else choice.confidence:.6f}), but the best sentences name "
            f"{typed.answer!r} as what is asked",
            typed.answer,
            [typed.url],
            quote.text,
        )
    if choice is not None and alternatives is not None and not offered_answer(alternatives, choice.answer):
        return abstain_reply(
            f"the question offers {alternatives[0]!r} or {alternatives[1]!r}; the best answer is neither",
            "the opened pages do not tell which of the two",
        )
    if choice is None or choice.confidence < min_confidence:
        shown = 0.0 if choice is None else choice.confidence
        return abstain_reply(
            f"confidence {shown:.6f} is below {min_confidence:.6f}",
            "the opened pages do not state the answer",
        )
    if in_structure and len(choice.answer) <= _NAME_CHARS and on_every_page(choice.answer, ranked):
        # "Which collating sequence ...?" -> "SQLite": a name every opened page of a manual carries is
        # what the manual is about, not the thing asked for.
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but {choice.answer!r} is named on every opened page",
            "the opened pages do not state a short answer",
            "low_confidence",
            choice.answer,
            choice.confidence,
        )
    leads_on = bridging and _names_opened_page(choice, ranked, question.text)
    if (
        not in_structure
        and question.kind == "who"
        and (_verb_unsaid(question.text, choice.scored.sentence.text) or _role_unsaid(question.text, choice))
    ):
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but the best sentence never says who did what is asked",
            "the opened pages do not state the answer",
            "low_confidence",
            choice.answer,
            choice.confidence,
        )
    if not in_structure and (
        (question.kind == "which" and which_unsaid(question.text, choice.sentence.text))
        or wrong_kind(question.text, question.kind, choice.answer)
    ):
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but the best sentence never says what {choice.answer!r} is",
            "the opened pages do not state the answer",
            "low_confidence",
            choice.answer,
            choice.confidence,
        )
    described = _term_described(pages[choice.url].body, choice.scored.sentence) if in_structure else None
    if question.kind == "which" and described is not None and choice.answer not in described:
        # "Which deadlock policy rejects the locker with the fewest write locks?" -> "ID": a word of a
        # description under DB_LOCK_MINWRITE; what the description is of is its term, not a word of it.
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but the best sentence describes {described!r}",
            "the opened pages do not state a short answer",
            "low_confidence",
            choice.answer,
            choice.confidence,
        )
    if in_structure and _ASKS_RELEASE.match(question.text) and not re.search(r"\d", choice.answer):
        # "Which release fixed the leak?" -> "Lucia Ferraro": a release note's author is no release.
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but {choice.answer!r} is no release or version number",
            "the opened pages do not state the answer",
            "low_confidence",
            choice.answer,
            choice.confidence,
        )
    untyped = (
        _noun_unsaid(question, choice)
        or _asks_for_name(question.text)
        or _defines_another(question.text, choice, ranked)
        or _ASKS_DATE.search(question.text) is not None  # ("... - birth date of the author of X?")
        or asks_typed_last(question.text)
    )
    # The scored sentence, not the quote: a quote may add the sentence before it ("He ..." needs its name).
    if choice.answer == choice.scored.sentence.text and (
        in_structure or leads_on or untyped or question.kind in _TYPED_KINDS or _asks_one_of_a_kind(question)
    ):
        # Documentation, a question asking for a name, date, place or amount, one asking for a thing
        # by a noun the sentence never says, or a nested question whose best sentence names another
        # opened page (the first hop, the answer lies beyond): a whole sentence with no span of that
        # type is not an answer; refuse rather than quote it.
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but no span of the best sentence is of the asked type",
            "the opened pages do not state a short answer",
            "low_confidence",
            choice.sentence.text,
            choice.confidence,
        )
    other = disagreement(question, choice.url, choice.answer, choice.scored, ranked)
    if other is not None and other.kind == "conflict":
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}; pages disagree, none a correction: {other.answer}",
            "the opened pages disagree",
            "conflicting_sources",
            other.answer,
            choice.confidence,
        )
    if other is not None:
        return finish_reply(
            f"confidence {choice.confidence:.6f}; {other.url} corrects {choice.answer!r}: its value",
            other.answer,
            [other.url],
            other.evidence,
        )
    page = pages[choice.url]
    if bridging and (
        from_named_page(question, page, ranked) or page_subject_answer(question, page, choice.answer)
    ):
        # "When was the university Hefferline attended founded?" nests a question: the page of the
        # name it writes (Hefferline's) answers the inner one, and its best sentence gives a date of
        # Hefferline's, not the one asked. No hop found the second page: refuse rather than answer
        # from the named entity's own page (`_nested`).
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but the question nests another and no second page answers",
            "the opened pages do not state the answer",
            "low_confidence",
            choice.answer,
            choice.confidence,
        )
    if quoted_unsaid(question.text, page, choice.sentence.text):
        return hinted_abstain_reply(
            f"confidence {choice.confidence:.6f}, but the best sentence never writes the title asked about",
            "the opened pages do not state the answer",
            "low_confidence",
            choice.answer,
            choice.confidence,
        )
    return finish_reply(
        f"confidence {choice.confidence:.6f}: quoting the best sentence of {choice.url}",
        choice.answer,
        [choice.url],
        choice.sentence.text,
    )


# "Which option excludes ...?", "Which Patroni version added ...?": one of a kind a manual names,
# in the first or the second word after "which".
_ONE_OF_A_KIND: Final = re.compile(
    r"^\s*(?:in |since |from )?which\s+([\w-]+)(?:\s+([\w-]+))?", re.IGNORECASE
)


def _asks_one_of_a_kind(question: Question) -> bool:
    """Whether the question asks which one of a kind of thing a manual names ("Which option ...?",
    "Which version ...?"): a name or number answers, never a whole sentence ("Restore excluding the
    specified databases." is the option's description, "Add lz4 compression support." a release's)."""
    asked = _ONE_OF_A_KIND.match(question.text)
    return asked is not None and any(
        word.casefold().rstrip("s") in _MANUAL_KINDS for word in asked.groups() if word is not None
    )


_MANUAL_KINDS: Final = frozenset({*NOUNS, "version", "release", "statement", "endpoint"})


def _names_opened_page(choice: Choice, ranked: Sequence[Page], question: str) -> bool:
    """Whether the chosen sentence is a first hop's: its page is the one `question` names by title
    ("The battle in which Giuseppe Arimondi lost his life ..." read on "Giuseppe Arimondi"), or it
    names, as whole words, the plain title of another opened page."""
    own = next((page.title for page in ranked if page.url == choice.url), "")
    if own and _spells(question, plain_title(own)):
        return True
    return any(
        page.title != own
        and len(plain_title(page.title)) >= 3
        and _spells(choice.sentence.text, plain_title(page.title))
        for page in ranked
    )


def _noun_unsaid(question: Question, choice: Choice) -> bool:
    """Whether `question` asks for a thing by its noun ("... voiced what hedgehog?", "What type of
    magazine is Eugene Habecker the chairman of?") and the quoted sentence never says that noun: a
    sentence that does not say what it names is no answer of that kind, only words shared with the
    question (measured on the shared SQuAD 2.0 sample: HasAns gold at NoAns >= 0.80 0.336 -> 0.340)."""
    head = head_noun(question.text)
    if head is None:
        return False
    return stem(head[0]) not in {stem(w) for w in words(choice.sentence.text)}


# "... under the watchful eye of who?", "What is the name of the executive producer ...?": the
# question asks for a person or a name wherever it says so, not only in its first words.
_NAME_ASKED: Final = re.compile(r"\b(?:who|whom)\s*\?\s*$|\bthe\s+(?:full\s+)?name\s+of\b", re.IGNORECASE)


def _asks_for_name(question: str) -> bool:
    """Whether `question` asks for a person or a name, so that a whole sentence cannot answer it."""
    return _NAME_ASKED.search(question) is not None


# "What is Opry Mills in Nashville, Tennessee?": a name, at most a place, and nothing else asked.
_NAME_RUN: Final = r"[A-Z][\w'.&-]*(?:,?\s+[A-Z][\w'.&-]*)*"
_DEFINITION: Final = re.compile(
    rf"^\s*[Ww]hat\s+(?:is|are|was|were)\s+(?:the\s+)?({_NAME_RUN})(?:\s+(?:in|of|at)\s+{_NAME_RUN})?\s*\?\s*$"
)


def _defines_another(question: str, choice: Choice, ranked: Sequence[Page]) -> bool:
    """Whether `question` asks what a named thing is ("What is Opry Mills in Nashville?") and the
    chosen sentence is about something else: it neither opens with the name nor, opening with
    "It" or "He", stands on the page of that name. Such a sentence names the thing in passing
    ("It was the smaller of two paddle steamers based at Opry Mills") and defines another."""
    match = _DEFINITION.match(question)
    if match is None:
        return False
    focus = stem(words(match.group(1))[0])
    opening = [stem(w) for w in words(choice.scored.sentence.text)[:4]]
    if focus in opening:
        return False
    title = next((page.title for page in ranked if page.url == choice.url), "")
    pointing = opening[:1] and words(choice.scored.sentence.text)[0].casefold() in POINTING_BACK
    return not (pointing and focus in {stem(w) for w in words(plain_title(title))})


# "Which release fixed ...?", "In what version was ... added?": a release is asked for by its number.
_ASKS_RELEASE: Final = re.compile(
    r"^\s*(?:in |since |from |with )?(?:which|what) (?:[\w-]+ )?(?:release|version)s?\b", re.IGNORECASE
)


def _term_described(body: str, sentence: Sentence) -> str | None:
    """The definition term the sentence of `body` sits under, if any (`_outline`)."""
    for line in outline(body):
        if line.start <= sentence.start < line.end:
            return clean(line.terms[-1]) if line.terms else None
    return None


def _verb_unsaid(question: str, sentence: str) -> bool:
    """Whether "Who <verb> ...?" ("Who wrote the poem The Wanderer?") is answered from a sentence that
    never says the verb in any form ("The Wanderer is an Old English poem."): it names who else is
    there, not who did it."""
    forms = verb_forms(question)
    return forms is not None and not any(says_verb(w, forms) for w in words(sentence))


_ASKS_DATE: Final = re.compile(r"(?i)\b(?:date|birthday)\b")
_ROLE: Final = re.compile(
    r"^\s*[Ww]ho\s+(?:is|was|are|were)\s+(?:the|a|an)\s+(?:[a-z-]+\s+){0,3}?([a-z-]{3,})\s+(?:of|for|at|in)\b"
)


def _role_unsaid(question: str, choice: Choice) -> bool:
    """Whether "Who is the general manager of X?" is answered from a sentence that never says the
    role ("manager"): a name beside X is not said to hold it."""
    role = _ROLE.match(question)
    if role is None:
        return False
    return stem(role.group(1)) not in {stem(w) for w in words(choice.scored.sentence.text)}


def _spells(text: str, name: str) -> bool:
    """Whether `text` holds `name` as whole words; an empty name ("(film)" stripped) is held by none."""
    return bool(name) and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None
