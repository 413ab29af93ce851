"""`ExtractivePolicy`: a deterministic researcher. No model, no network: search, open, quote or refuse.

It searches the question's content words, opens the best hits while leaving room to
finish, and picks the sentence that best answers the question's type (who, when, where,
how many, ...). It finishes with that sentence verbatim as evidence and its page as the
only citation - or abstains when its confidence is below `min_confidence`.

A question that nests another ("... the woman who portrayed X ...") opens two hits, then
searches again for the name the best sentence adds (the bridge) and opens that hit. When an
opened page names another opened page by its title, the answer may come from that second
page: the finish then cites both, quoting the bridge sentence and the answer sentence
(`_two_hop`). A comparison of two named entities ("Who is older, A or B?") opens each one's
page and compares values read mechanically, or refuses (`_compare`).
Which sentence is best, and how confident the policy is, come from two linear models
over per-sentence signals (`_extractive_score`), fitted by `bench/tune_extractive.py` on
the shared SQuAD 2.0 sample with a held-out article split; the default threshold refuses
at least 80% of its unanswerable questions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Finish, Page

from ._choice import ChoiceQuestion, choice_question, chosen, fit
from ._compare import Comparison, comparison, offered, read_value, winner
from ._conflict import disagreement
from ._doc_answer import DocCandidate, answer_doc
from ._doc_questions import DocQuestion, doc_question, is_identifier, structured
from ._extractive_score import (
    CONF_WEIGHTS,
    RANK_WEIGHTS,
    Scored,
    capitalized_runs,
    confidence_vector,
    dot,
    logistic,
    score_sentences,
    short_answer,
)
from ._hop_search import bridge_search, hops, named_hit
from ._lookups import lookups, spelled
from ._questions import Question, analyze
from ._react import abstain_reply, finish_reply, hinted_abstain_reply, react
from ._sentences import POINTING_BACK, Sentence, split_sentences, stem, words
from ._shared import Shared, common_name, common_words, definition, shared_question
from ._two_hop import plain_title
from ._view import RunView
from ._what import head_noun, typed_name

DEFAULT_MIN_CONFIDENCE: Final = 0.42
# A documentation answer is trusted from this score on (docs: policies/_doc_answer.py scores).
DOC_MIN_SCORE: Final = 1.5
# Words that open a relative clause: "the woman who portrayed ...", "the group that formed ...".
_RELATIVE: Final = frozenset({"who", "whom", "whose", "which", "that", "where", "when"})


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
    quote = _with_antecedent(question, pages[best.rank].body, best.sentence)
    return Choice(pages[best.rank].url, quote, answer, best, value)


# Question kinds whose answer is a span of one type (a name, a date, a place, an amount).
_TYPED_KINDS: Final = frozenset({"who", "when", "where", "how_many", "how_much"})


def _with_antecedent(question: Question, body: str, sentence: Sentence) -> Sentence:
    """The sentence, or with the one before it when it opens with "He", "It", "The" ... and only the
    one before names what the question names: the quote then shows what "he" or "it" is."""
    first = words(sentence.text)[:1]
    if not question.entities or not first or first[0].casefold() not in POINTING_BACK:
        return sentence
    if all(entity in {stem(w) for w in words(sentence.text)} for entity in question.entities):
        return sentence
    before = [s for s in split_sentences(body[max(0, sentence.start - 600) : sentence.start])]
    if not before:
        return sentence
    previous = before[-1]
    if not any(entity in {stem(w) for w in words(previous.text)} for entity in question.entities):
        return sentence
    start = max(0, sentence.start - 600) + previous.start
    return Sentence(start, sentence.end, body[start : sentence.end])


def multi_hop(question: Question) -> bool:
    """Whether the question nests a second question: in a relative clause ("... by the man who ..."),
    or in a description by a participle ("a movie starring X", "a show hosted by whom")."""
    lowered = [w.casefold() for w in words(question.text)]
    return any(w in _RELATIVE for w in lowered[2:-1]) or _NESTED.search(question.text) is not None


# "a movie starring ...", "the show hosted by ...": an unnamed thing described by what it did.
_NESTED: Final = re.compile(
    r"\b(?:a|an)\s+(?:[a-z]+\s+){0,2}[a-z]+\s+(?:starring|featuring|hosted|directed|written|owned|founded"
    r"|based|located|named|known|released|produced|published|created)\b"
)


def bridge_query(question: Question, pages: Sequence[Page]) -> str | None:
    """A second search: the names the best sentence adds to the question, with the words it lacks."""
    scored = score_sentences(question, pages)
    if not scored:
        return None
    best = scored[0].sentence.text
    asked = set(question.terms) | set(question.entities)
    names = [run for _, run in capitalized_runs(words(best), asked) if stem(run.split()[0]) not in asked]
    if not names:
        return None
    own = {stem(w) for w in words(best)}
    lacking = [w for w in words(question.query) if stem(w) not in own]
    return " ".join([names[0], *lacking])


class ExtractivePolicy:
    """Search, open the best hits, then quote the best sentence or refuse (`min_confidence`)."""

    def __init__(self, min_confidence: float = DEFAULT_MIN_CONFIDENCE, *, max_opens: int = 3) -> None:
        self.min_confidence = min_confidence
        self.max_opens = max_opens

    @property
    def name(self) -> str:
        return "extractive"

    async def next_step(self, view: RunView) -> str:
        """The next ReAct reply, computed from the view alone (same view, same reply)."""
        return self.decide(view)

    def decide(self, view: RunView) -> str:
        """The synchronous core of `next_step`."""
        question = analyze(view.question)
        last = view.turns[-1].shown if view.turns else ""
        if last.startswith("finish rejected:"):
            return self._repair(view, question, last.removeprefix("finish rejected:").strip())
        general = doc_question(view.question) is None
        compared = comparison(view.question) if general else None
        if compared is not None:
            return self._compare(view, compared)
        offered_choice = choice_question(view.question) if general else None
        if offered_choice is not None:
            return self._choose(view, offered_choice)
        shared = shared_question(view.question) if general else None
        if shared is not None:
            return self._shared(view, shared)
        if not view.searched:
            return react(
                f"search for the question's content words ({question.kind} question)",
                "search",
                question.query,
            )
        searches = list(view.searched.values())
        hits = searches[0]
        if not hits:
            return abstain_reply("the search found nothing", "no page matches the question")
        # A documentation question is answered from the pages the first search found: no second hop.
        bridging = multi_hop(question) and doc_question(view.question) is None
        # A nested question keeps two opens for its first hop, then one search and one open for the second.
        first_opens = min(2, self.max_opens) if bridging else self.max_opens
        tried = sum(h.url in view.pages or h.url in view.failed_opens for h in hits)
        pending = [h for h in hits if h.url not in view.pages and h.url not in view.failed_opens]
        # Keep one step for the finish (and one for a repair, when the budget allows it).
        if pending and tried < first_opens and view.steps_left > 1:
            named = named_hit(question, view, pending) if bridging else None
            if named is not None:
                return react(f"second hop: open {named.title}, which an opened page names", "open", named.url)
            hit = pending[0]
            return react(f"open search hit {tried + 1}: {hit.title}", "open", hit.url)
        order = [h.url for h in hits]
        if bridging and len(searches) == 1 and hops(question, view.pages, order):
            return self._finish(question, hits_order=order, pages=view.pages, bridging=True)
        if bridging and len(searches) == 1 and view.steps_left >= 3:
            opened = [view.pages[url] for url in order if url in view.pages]
            query = bridge_search(question, opened) or bridge_query(question, opened)
            if query is not None and query.casefold() not in view.searched:
                return react(
                    f"second hop: search for what the best sentence names ({query})", "search", query
                )
        if len(searches) > 1:
            second = [h for h in searches[1] if h.url not in view.failed_opens]
            fresh = [h for h in second if h.url not in view.pages]
            if (
                fresh
                and not any(h.url in view.pages for h in second if h.url not in order)
                and view.steps_left > 1
            ):
                hit = named_hit(question, view, fresh) or fresh[0]
                return react(f"open second-hop hit: {hit.title}", "open", hit.url)
            order += [h.url for h in second if h.url not in order]
        ranked = [view.pages[url] for url in order if url in view.pages]
        in_structure = any(structured(page.body) for page in ranked)
        doc = doc_question(view.question, in_structure)
        if doc is not None:
            return self._finish_doc(doc, ranked, set())
        return self._finish(
            question, hits_order=order, pages=view.pages, in_structure=in_structure, bridging=bridging
        )

    def _compare(self, view: RunView, what: Comparison) -> str:
        """Two lookups (search each name, open the page titled with it), then compare, or refuse."""
        looked = lookups(view, (what.first, what.second), "comparison")
        if isinstance(looked, str):
            return looked
        pages = looked
        readings = [read_value(page, what) for page in pages]
        one, other = readings
        if one is None or other is None:
            missing = what.first if one is None else what.second
            return abstain_reply(
                f"the {what.attribute} value of {missing!r} cannot be read mechanically: refusing",
                f"the pages do not state a comparable {what.attribute} for both",
            )
        won = winner(what, one, other)
        if won is None:
            return abstain_reply(
                f"{what.attribute} values {one.key} and {other.key} cannot be told apart: refusing",
                "the pages do not tell the two apart",
            )
        answer = (what.first, what.second)[won]
        quotes = [one.sentence.text, other.sentence.text]
        if not spelled(answer, quotes[won]):
            return abstain_reply(
                f"the quote for {answer!r} does not spell the name as the question does: refusing",
                "the pages do not name the answer as asked",
            )
        return finish_reply(
            f"comparison on {what.attribute}: {what.first} {one.key} vs {what.second} {other.key}",
            answer,
            [page.url for page in pages],
            quotes,
        )

    def _choose(self, view: RunView, what: ChoiceQuestion) -> str:
        """Two lookups, then the name whose page holds more of the description (`_choice`), or refuse."""
        looked = lookups(view, (what.first, what.second), "choice")
        if isinstance(looked, str):
            return looked
        fits = [fit(page, what) for page in looked]
        one, other = fits
        won = chosen(one, other) if one is not None and other is not None else None
        if one is None or other is None or won is None:
            return abstain_reply(
                "neither page clearly fits the description better: refusing",
                "the opened pages do not tell which of the two",
            )
        answer = (what.first, what.second)[won]
        if not spelled(answer, " ".join((one, other)[won].quotes)):
            return abstain_reply(
                f"the quote for {answer!r} does not spell the name as the question does: refusing",
                "the pages do not name the answer as asked",
            )
        return finish_reply(
            f"choice: {what.first} holds {one.held}, {what.second} {other.held} of the description's words",
            answer,
            [page.url for page in looked],
            [*one.quotes, *other.quotes],
        )

    def _shared(self, view: RunView, what: Shared) -> str:
        """Two lookups, then the words both pages' definitions share, or refuse."""
        looked = lookups(view, (what.first, what.second), "what they share")
        if isinstance(looked, str):
            return looked
        one, other = (definition(page) for page in looked)
        if one is None or other is None:
            return abstain_reply(
                "a page gives no definition to compare: refusing", "the pages do not define both"
            )
        common = common_words(what, one, other)
        if not common:
            return abstain_reply(
                f"the definitions of {what.first!r} and {what.second!r} share no word of the asked kind",
                "the pages do not say what the two share",
            )
        return finish_reply(
            f"both definitions say {' '.join(common)!r}",
            " ".join(common),
            [page.url for page in looked],
            [one.sentence.text, other.sentence.text],
        )

    def _finish_doc(self, doc: DocQuestion, ranked: list[Page], rejected: set[tuple[str, str]]) -> str:
        """A documentation question: the best extracted span, a low-confidence refusal, or missing_fact."""
        if doc.noun == "unhandled":
            return abstain_reply(
                "a documentation question of a kind this policy does not extract: refusing, not guessing",
                "this kind of question is not answered by the extractive policy",
            )
        if not ranked:
            return abstain_reply("no search hit could be opened", "the pages could not be opened")
        found = [c for c in answer_doc(doc, ranked) if (c.answer, c.evidence) not in rejected]
        if not found:
            return abstain_reply(
                f"no sentence of the opened pages gives the {doc.kind} asked for",
                "the opened pages do not state the answer",
            )
        best = found[0]
        if best.score < DOC_MIN_SCORE:
            return hinted_abstain_reply(
                f"best {doc.kind} answer {best.answer!r} scores {best.score:.3f}, below {DOC_MIN_SCORE}",
                "the opened pages do not clearly state the answer",
                "low_confidence",
                best.answer,
                best.score,
            )
        rivals = [c for c in found[1:] if c.score >= best.score and _differs(c, best)]
        if rivals:
            both = f"{best.answer} ({best.url}) / {rivals[0].answer} ({rivals[0].url})"
            return hinted_abstain_reply(
                f"two equally good answers disagree: {both}",
                "the opened pages give different answers",
                "low_confidence",
                both,
                best.score,
            )
        return finish_reply(
            f"{doc.kind} question: {best.how} (score {best.score:.3f}) in {best.url}",
            best.answer,
            [best.url],
            best.evidence,
        )

    def _finish(
        self,
        question: Question,
        hits_order: list[str],
        pages: Mapping[str, Page],
        in_structure: bool = False,
        bridging: bool = False,
    ) -> str:
        ranked = [pages[url] for url in hits_order if url in pages]
        if not ranked:
            return abstain_reply("no search hit could be opened", "the pages could not be opened")
        choice = choose(question, ranked)
        # Only a question that nests another ("... the woman who portrayed X") is answered from a
        # second page: "Who founded Acme Robotics?" is about Acme Robotics, not about a page that a
        # page mentioning Acme Robotics names. Any other question may only take the bridge itself
        # as its answer, when the general path is unsure and the bridge's page says the rest.
        unsure = choice is None or choice.confidence < self.min_confidence
        found = hops(question, pages, hits_order, named_only=not bridging) if bridging or unsure else []
        if found and not in_structure:
            hop = found[0]
            return finish_reply(
                f"second hop: {hop.bridge.page.title} names {hop.bridge.name!r}, whose page answers",
                hop.answer,
                hop.citations,
                hop.evidence,
            )
        common = common_name(question, ranked) if unsure and not in_structure else None
        if common is not None:
            return finish_reply(
                f"{common.pages[0].title} and {common.pages[1].title} both name {common.answer!r}",
                common.answer,
                [page.url for page in common.pages],
                list(common.quotes),
            )
        typed = (
            typed_name(question, ranked) if unsure and not in_structure and question.kind == "what" else None
        )
        if typed is not None:
            quote = _with_antecedent(question, pages[typed.url].body, typed.sentence)
            return finish_reply(
                f"unsure ({0.0 if choice is None else choice.confidence:.6f}), but the best sentences name "
                f"{typed.answer!r} as what is asked",
                typed.answer,
                [typed.url],
                quote.text,
            )
        alternatives = offered(question.text)
        if choice is not None and alternatives and not any(spelled(a, choice.answer) for a in alternatives):
            return abstain_reply(
                f"the question offers {alternatives[0]!r} or {alternatives[1]!r}; the best answer is neither",
                "the opened pages do not tell which of the two",
            )
        if choice is None or choice.confidence < self.min_confidence:
            shown = 0.0 if choice is None else choice.confidence
            return abstain_reply(
                f"confidence {shown:.6f} is below {self.min_confidence:.6f}",
                "the opened pages do not state the answer",
            )
        leads_on = bridging and _names_opened_page(choice, ranked, question.text)
        untyped = _type_unsaid(question, choice, ranked)
        if choice.answer == choice.sentence.text and (
            in_structure or leads_on or untyped or question.kind in _TYPED_KINDS
        ):
            # Documentation, a question asking for a name, date, place or amount, or a nested question
            # whose best sentence names another opened page (the first hop, the answer lies beyond):
            # a whole sentence with no span of that type is not an answer; refuse rather than quote it.
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
        return finish_reply(
            f"confidence {choice.confidence:.6f}: quoting the best sentence of {choice.url}",
            choice.answer,
            [choice.url],
            choice.sentence.text,
        )

    def _repair(self, view: RunView, question: Question, code: str) -> str:
        doc = doc_question(view.question, any(structured(page.body) for page in view.pages.values()))
        if doc is not None:
            # The next candidate, never the rejected one again; with none left, refuse.
            action = view.turns[-1].action
            payload = action.payload if isinstance(action, Finish) else {}
            tried = {(str(payload.get("answer")), str(payload.get("evidence")))}
            order = [h.url for hits in view.searched.values() for h in hits if h.url in view.pages]
            ranked = [view.pages[url] for url in dict.fromkeys(order)]
            return self._finish_doc(doc, ranked, tried)
        if code == "unsupported_answer":
            # The general path has no better-typed answer to offer (a next-best sentence was
            # measured on SQuAD 2.0 to add wrong answers, not right ones): refuse, keeping the candidate.
            action = view.turns[-1].action
            payload = action.payload if isinstance(action, Finish) else {}
            candidate = str(payload.get("answer", "")).strip()
            if candidate:
                return hinted_abstain_reply(
                    f"finish rejected ({code}): the best answer is not supported by its quote; refusing",
                    "the opened pages do not support the answer found",
                    "low_confidence",
                    candidate,
                    0.0,
                )
        if code == "unsupported":
            ranked = [page for page in view.pages.values()]
            choice = choose(question, ranked)
            if choice is not None and choice.confidence >= self.min_confidence:
                # The sentence itself: every name and year in it is in the cited body.
                return finish_reply(
                    f"finish rejected ({code}): answering with the quoted sentence itself",
                    choice.sentence.text,
                    [choice.url],
                    choice.sentence.text,
                )
        return abstain_reply(
            f"finish rejected ({code}): refusing rather than guessing", "the finish could not be grounded"
        )


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


def _type_unsaid(question: Question, choice: Choice, ranked: Sequence[Page]) -> bool:
    """Whether `question` asks what type of N the subject of the chosen page is tied to ("What type of
    magazine is Eugene Habecker the chairman of?" read on "Eugene Habecker") and the chosen sentence
    does not say N: it names what the subject is tied to, not its type (that is a second page's)."""
    if _KIND_OF.search(question.text) is None:
        return False
    head = head_noun(question.text)
    own = next((page.title for page in ranked if page.url == choice.url), "")
    if head is None or not own or not _spells(question.text, plain_title(own)):
        return False
    return stem(head[0]) not in {stem(w) for w in words(choice.sentence.text)}


_KIND_OF: Final = re.compile(r"\b(?:type|kind|sort)s? of\b", re.IGNORECASE)


def _spells(text: str, name: str) -> bool:
    """Whether `text` holds `name` as whole words; an empty name ("(film)" stripped) is held by none."""
    return bool(name) and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def _differs(one: DocCandidate, other: DocCandidate) -> bool:
    """Whether two candidates give different answers (compared without case or white space).

    An identifier and the same one with its module ("NetrcParseError", "netrc.NetrcParseError")
    are one answer.
    """
    first, second = (" ".join(c.answer.casefold().split()) for c in (one, other))
    if first == second:
        return False
    if is_identifier(first) or is_identifier(second):
        return not (first.endswith("." + second) or second.endswith("." + first))
    return True
