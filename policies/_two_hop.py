"""The second hop: a page names a bridge entity, the bridge's own page holds the answer.

A question such as "In which year was the King who made the 1925 Birthday Honours born?" is
answered by no single page. The page about the honours names the bridge ("... appointments by
King George V ..."), and the page titled "George V" holds the answer. This module finds such
a pair among opened pages and draws the answer from the second: the finish then cites both
pages with two quotes, the bridge sentence and the answer sentence (docs/gate.md,
"Multi-quote evidence").

Mechanical and cautious, like the rest of the extractive policy:

- a **bridge** is the title of another opened page (without its parenthesised qualifier:
  "Kiss and Tell (1945 film)" is "Kiss and Tell"), named as whole words in one of the first
  page's sentences that best match the question, and not spelled by the question;
- the **answer** is a span of the asked type (a person or a thing named for who/which/where,
  a year for when, a count for how many) in the bridge page, in the sentence sharing most of
  the question's words that the bridge sentence does not already hold (at least one); a
  birth or death date, for a "when ... born/died" question, is read from the brackets of the
  page's first sentence; a name or number the question or the bridge sentence states is not
  an answer; a "what" question has no type to check, so it gets no span; with nothing of the
  asked type the hop gives nothing and the policy refuses;
- or the **bridge itself** is the answer ("under which former Governor of Arkansas?"), when
  one of its page's first sentences holds two thirds of the question's words the bridge
  sentence does not (at least two);
- a "where" question, and a "what" question asking for a place by its noun ("located in what
  city?"), is answered by the place after "in", "at" or "near", with the larger place a comma
  adds ("in Upper Manhattan, New York City"), since the city asked for may be either part;
- a "who" question is answered by a person, never by a quoted title: not by a span in quotation
  marks ('... written by Ada Lund, named after "The Night Garden"'), nor by a bridge the first
  page quotes as a work's title;
- the bridge quote starts one sentence earlier when its sentence points back ("The first track,
  ...") and names none of the question's names while the sentence before does;
- the answer's quote names the bridge (the answer sentence, or the span from the bridge
  page's sentence naming it to the answer sentence), so that a reader - and the gate's
  `focus-entity` method - can follow the chain: question -> bridge sentence -> bridge ->
  answer sentence.

Tuned on the `dev` half of the shared HotpotQA sample only (runtime/eval/datasets.py,
`hotpotqa_split`); the `held-out` half is measured, not tuned on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from citeloop.events import Page

from ._bridge_answer import asks_another_name, asks_no_name, typed_as_asked, unfit_span, whole_name
from ._extractive_score import capitalized_runs, score_sentences
from ._life_dates import FULL_DATE, life_dates
from ._questions import Question
from ._sentences import POINTING_BACK, Sentence, split_sentences, stem, words
from ._short_answer import short_answer
from ._what import head_noun

# How many of the first page's best sentences are read for a bridge.
BRIDGE_SENTENCES: Final = 3
# The longest answer quote that reaches back to the sentence naming the bridge, in sentences.
MAX_QUOTE_SENTENCES: Final = 3
# How far into the bridge's page a sentence may say what makes the bridge itself the answer.
DEFINING_SENTENCES: Final = 4
_QUALIFIER: Final = re.compile(r"\s*\([^()]*\)\s*$")
_PREFIX: Final = 5
# Words a sentence opens with when it continues the one before ("The first track ...", "It was ...").
_POINTING: Final = POINTING_BACK | {"the"}
_QUOTED: Final = re.compile(r"[\"\u201c][^\"\u201c\u201d]{1,80}[\"\u201d]")
# Nouns a "what N" question asks a place by ("located in what city?").
_PLACES: Final = frozenset({"city", "town", "village", "country", "state", "county", "province", "region"})
_NAME: Final = r"[A-Z][\w'\u2019.-]*(?: (?:of |de |the )?[A-Z][\w'\u2019.-]*)*"
# "in Upper Manhattan, New York City": a place after a preposition of place, a larger one after a comma.
_PLACE: Final = re.compile(rf"\b(?:in|at|near|outside) (?P<x>{_NAME}(?:, {_NAME})*)")
# Question words that ask for a date of birth or death, read from the "(born ...)" or
# "(1 May 1900 - 2 June 1980)" of a page's first sentence.
_BIRTH: Final = frozenset({"born", "birth"})
_DEATH: Final = frozenset({"died", "death", "die"})
_LIFE_WORDS: Final = frozenset(stem(w) for w in (*_BIRTH, *_DEATH))


@dataclass(frozen=True, slots=True)
class Bridge:
    """A name in a sentence of one page that is the title of another page."""

    page: Page
    sentence: Sentence
    name: str
    lead: Sentence | None = None  # the sentence before, when `sentence` points back to it (`_lead`)

    @property
    def quote(self) -> str:
        """The bridge sentence, from the sentence it points back to when there is one (`lead`)."""
        if self.lead is None:
            return self.sentence.text
        return self.page.body[self.lead.start : self.sentence.end]


@dataclass(frozen=True, slots=True)
class Hop:
    """A two-hop answer: the bridge, the page it leads to, the answer and its quote there."""

    bridge: Bridge
    page: Page
    answer: str
    quote: str
    overlap: int

    @property
    def evidence(self) -> list[str]:
        return [self.bridge.quote, self.quote]

    @property
    def citations(self) -> list[str]:
        return [self.bridge.page.url, self.page.url]


def plain_title(title: str) -> str:
    """A page title without its parenthesised qualifier: "Kiss and Tell (1945 film)" -> "Kiss and Tell"."""
    return _QUALIFIER.sub("", title).strip()


def bridge_names(question: Question, page: Page) -> list[tuple[Sentence, str]]:
    """Candidate bridges in `page`: (sentence, name) for each name its best sentences add to the question."""
    scored = score_sentences(question, [page])
    asked = set(question.terms) | set(question.entities)
    own = plain_title(page.title).casefold()
    found: list[tuple[Sentence, str]] = []
    for best in scored[:BRIDGE_SENTENCES]:
        for _, name in capitalized_runs(words(best.sentence.text), asked):
            if stem(name.split()[0]) in asked or name.casefold() == own:
                continue
            found.append((best.sentence, name))
    return found


def find_bridges(question: Question, first: Page, titles: Mapping[str, str]) -> list[Bridge]:
    """Bridges from `first` to a page whose plain title (`titles`: plain title -> url) one of its best
    sentences names as whole words, case and all ("President Bill Clinton's" names "Bill Clinton");
    none from a page that does not state a year or number of three digits or more the question gives."""
    own = plain_title(first.title)
    asked = question.text.casefold()  # a title the question spells, even inside a longer name, is no bridge
    # "the King who made the 1951 Birthday Honours": a page that never says 1951 is not the one meant.
    if any(number not in first.body for number in re.findall(r"\b\d{3,4}\b", question.text)):
        return []
    bridges: list[Bridge] = []
    for best in score_sentences(question, [first])[:BRIDGE_SENTENCES]:
        for title, url in titles.items():
            if url == first.url or title == own or len(title) < 3 or title.casefold() in asked:
                continue
            if _names(best.sentence.text, title):
                bridges.append(Bridge(first, best.sentence, title, _lead(question, first, best.sentence)))
    return bridges


def _lead(question: Question, page: Page, sentence: Sentence) -> Sentence | None:
    """The sentence before `sentence` when `sentence` opens pointing back ("The first track, ...", "It
    was ...") and names none of the question's names while the one before does: the quote then shows
    what "the first track" is the first track of. None otherwise."""
    first = words(sentence.text)[:1]
    if not question.entities or not first or first[0].casefold() not in _POINTING:
        return None
    if set(question.entities) & {stem(w) for w in words(sentence.text)}:
        return None
    before = split_sentences(page.body[: sentence.start])
    if not before or not set(question.entities) & {stem(w) for w in words(before[-1].text)}:
        return None
    return before[-1]


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def second_hop(question: Question, bridge: Bridge, page: Page, *, named_only: bool = False) -> Hop | None:
    """The answer `page` (the bridge's own page) gives to what the bridge sentence leaves open, or None.

    `named_only`: only the bridge itself may be the answer (its page confirming the rest), never a
    span of its page - the one hop a question that nests nothing may take.
    """
    said = {stem(w) for w in words(bridge.sentence.text)} | {stem(w) for w in words(bridge.page.title)}
    residual = [t for t in question.terms if t not in said]
    sentences = split_sentences(page.body)
    if not sentences:
        return None
    residual_set = set(residual)
    # A date answers only a question that asks when ("... the King who made X born?" asks it;
    # "the actor born in 1950 starred in what?" names a birth but asks for a film).
    dated = _life_date(residual_set, sentences[0].text) if question.kind == "when" else None
    year = re.search(r"\d{3,4}$", dated) if dated is not None and _ASKS_YEAR.search(question.text) else None
    dated = year.group(0) if year is not None else dated  # "In what year did he die?": 1951, not May 17, 1951
    if dated is not None:
        return _hop(bridge, page, sentences, 0, dated, 1)
    if question.kind == "when" and residual_set & _LIFE_WORDS:
        return None  # a birth or a death is a life's date: another year of the page is not it
    # A person is no quoted title: the bridge "Under the Pale Moon," (a song) does not answer "who".
    titled = question.kind == "who" and _quoted(bridge.sentence.text, bridge.name)
    # "Who was the ruler in the war in which Arimondi died?": the war's page says "ruler", but a war
    # is no one; "who" takes a bridge whose page gives a life's dates (nor is "Who founded the
    # magazine X chairs?" answered with the magazine).
    nobody = question.kind == "who" and life_dates(sentences[0].text) == (None, None)
    # "Which publisher issued the series that X is a companion to?": a series is no publisher; the bridge
    # answers only as the noun asked, when its page's opening says it is one.
    untyped = not typed_as_asked(question.text, sentences[:DEFINING_SENTENCES])
    renamed = asks_another_name(question.text)  # ("What was the club called during its first year?")
    if (
        question.kind in ("what", "which", "who")
        and len(residual) >= 2
        and not (titled or nobody or untyped or renamed or asks_no_name(question.text))
    ):
        # The bridge may be the answer: the question asks for the name whose page says the rest
        # ("under which former Governor of Arkansas?" -> "... he was the 40th Governor of Arkansas").
        for index, sentence in enumerate(sentences[:DEFINING_SENTENCES]):
            if _holds_most(residual, sentence.text):
                return _hop(bridge, page, sentences, index, bridge.name, len(residual))
    if named_only:
        return None
    # "located in what city?" asks where: the answer is a place, read as a "where" question's.
    if question.kind == "what" and _asks_place(question.text):
        question = replace(question, kind="where")
    # The span must answer the question's type: a "what" question has none the policy can check
    # (a name? a thing? a description?), so only the bridge itself may answer it (above).
    if question.kind in ("what", "how", "why", "yesno"):
        return None
    bridge_words = {stem(w) for w in words(bridge.name)}
    about_bridge = replace(question, entities=(*question.entities, *sorted(bridge_words)))
    # "On what date ...?" takes a full date; "In what year ...?" the year.
    asks_year = _ASKS_YEAR.search(question.text) is not None
    best: tuple[int, int, str] | None = None
    for index, sentence in enumerate(sentences):
        own = {stem(w) for w in words(sentence.text)}
        prefixes = {w[:_PREFIX] for w in own if len(w) >= _PREFIX}
        overlap = sum(t in own or (len(t) >= _PREFIX and t[:_PREFIX] in prefixes) for t in residual)
        if question.kind == "when":
            answer = _year_near(sentence.text, residual_set, dated=not asks_year)
        elif question.kind == "where":
            answer = _place(question, sentence.text)
        elif question.kind == "who":
            # A person is no quoted title: '"To Know Him Is to Love Him" is a song written by ...'. On
            # the bridge's page the bridge is what the question names: "End of Days is a 1999 film
            # directed by Peter Hyams" says who directed it.
            unquoted = _QUOTED.sub(lambda m: " " * len(m.group(0)), sentence.text)
            answer = whole_name(short_answer(about_bridge, unquoted), unquoted) or short_answer(
                question, unquoted
            )
        else:
            answer = whole_name(short_answer(about_bridge, sentence.text), sentence.text) or short_answer(
                question, sentence.text
            )
        if answer is None or not _fresh(answer, question, bridge, bridge_words):
            continue
        if unfit_span(question, answer, sentence.text):
            continue  # "In which sea ...?": not the "North Indian Ocean"; "Who ...?": not "Georgia Dome"
        if best is None or overlap > best[0]:
            best = (overlap, index, answer)
    if best is None or (residual and best[0] == 0):
        return None
    overlap, index, answer = best
    return _hop(bridge, page, sentences, index, answer, overlap)


def _hop(
    bridge: Bridge, page: Page, sentences: Sequence[Sentence], index: int, answer: str, overlap: int
) -> Hop:
    """The hop, quoting from the sentence that names the bridge when the answer's own does not."""
    sentence = sentences[index]
    start = sentence.start
    if bridge.name not in sentence.text:
        naming = [i for i in range(index) if bridge.name in sentences[i].text]
        if naming and index - naming[-1] < MAX_QUOTE_SENTENCES:
            start = sentences[naming[-1]].start
    return Hop(bridge, page, answer, page.body[start : sentence.end], overlap)


def _quoted(text: str, name: str) -> bool:
    """Whether `text` writes `name` inside quotation marks: the title of a work."""
    return any(name in match.group(0) for match in _QUOTED.finditer(text))


def _asks_place(question: str) -> bool:
    """Whether a "what" question asks for a place by its noun: "located in what city?"."""
    head = head_noun(question)
    return head is not None and head[0].casefold() in _PLACES


def _place(question: Question, text: str) -> str | None:
    """A place named after a preposition of place, with the larger place a comma adds to it:
    "in Upper Manhattan, New York City" -> "Upper Manhattan, New York City" (the city asked for
    may be either part, so neither alone is the answer); the question's own names are no answer."""
    asked = set(question.terms) | set(question.entities)
    life = _LIFE_EVENT.search(question.text)
    for match in _PLACE.finditer(text):
        if life is not None and not re.search(
            rf"\b{life.group(0)}\b[^,;.()]{{0,40}}$", text[: match.start("x")], re.I
        ):
            continue  # "born" asked: the place the page says one was born in, not where one worked
        place = match.group("x")
        if "." not in place.rsplit(" ", 1)[-1][:-1]:
            place = place.removesuffix(".")  # the sentence's full stop, not an initial's ("D.C.")
        if not {stem(w) for w in words(place)} <= asked:
            within, _, larger = place.rpartition(", ")  # "which part of London?": Kensington, not ", London"
            return within if within and {stem(w) for w in words(larger)} <= asked else place
    return None


_LIFE_EVENT: Final = re.compile(r"\b(?:born|died)\b", re.IGNORECASE)


def _holds_most(residual: Sequence[str], sentence: str) -> bool:
    """Whether `sentence` holds at least two thirds of the question's words the bridge sentence did not."""
    own = {stem(w) for w in words(sentence)}
    return sum(t in own for t in residual) * 3 >= len(residual) * 2


def _year_near(text: str, residual: set[str], *, dated: bool = False) -> str | None:
    """The year nearest to a word of `residual`, leaving out years in brackets (a life's dates);
    `dated` (a question asking when or on what date, not what year): with its day and month."""
    bare = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), text)
    tokens = words(bare)
    years = [i for i, t in enumerate(tokens) if re.fullmatch(r"1[0-9]{3}|20[0-9]{2}", t)]
    near = [i for i, t in enumerate(tokens) if stem(t) in residual]
    if not years or not near:
        return None
    best = min(years, key=lambda y: (min(abs(y - n) for n in near), y))
    # The year as part of the full date the sentence gives, when it gives one ("released on 6
    # November 2015"): the date is the answer to "when", and new where the year alone is not.
    for date in re.finditer(FULL_DATE, bare) if dated else ():
        if date.group(0).endswith(tokens[best]):
            return date.group(0)
    return tokens[best]


def _fresh(answer: str, question: Question, bridge: Bridge, bridge_words: set[str]) -> bool:
    """Whether `answer` is new: no name or number of the question, of the bridge sentence, or the bridge."""
    stems = {stem(w) for w in words(answer)}
    if not stems:
        return False
    if stems <= set(question.terms) | set(question.entities) | bridge_words:
        return False
    return answer not in bridge.sentence.text


_ASKS_YEAR: Final = re.compile(r"\b(?:year|century|decade)\b", re.IGNORECASE)


def _life_date(residual: set[str], first_sentence: str) -> str | None:
    """For a question about a birth or a death: that date, read from the first sentence's brackets."""
    born, died = life_dates(first_sentence)
    if residual & {stem(w) for w in _BIRTH}:
        return born
    if residual & {stem(w) for w in _DEATH}:
        return died
    return None
