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

This module decides which step comes next; the finishes live beside it: `_prose_finish`
(prose and two-hop questions), `_doc_finish` (documentation questions), `_pair_answers`
(comparisons, choices, what two share), and the second hop's searches in `_hop_search`.
"""

from __future__ import annotations

import re
from typing import Final

from citeloop.events import Finish

from ._choice import choice_question
from ._compare import comparison
from ._doc_finish import finish_doc
from ._doc_questions import doc_question, structured
from ._hop_search import bridge_query, bridge_search, hops, multi_hop, named_hit
from ._pair_answers import answer_choice, answer_comparison, answer_same_value, answer_shared
from ._prose_finish import choose, finish_prose
from ._questions import Question, analyze
from ._react import abstain_reply, finish_reply, hinted_abstain_reply, react
from ._same_value import same_value_question
from ._shared import shared_question
from ._view import RunView

DEFAULT_MIN_CONFIDENCE: Final = 0.42
# "Which options ...", "Which roles can ...": a question for several names (a plural noun, not "class").
_ASKS_SEVERAL: Final = re.compile(
    r"(?i)(?:which|what) (?:[a-z]+ )?[a-z]+[^s\W]s (?:can|cannot|are|do|must|may|should)\b"
)


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
        same = same_value_question(view.question) if general else None
        if same is not None:
            return answer_same_value(view, same)
        compared = comparison(view.question) if general else None
        if compared is not None:
            return answer_comparison(view, compared)
        offered_choice = choice_question(view.question) if general else None
        if offered_choice is not None:
            return answer_choice(view, offered_choice)
        shared = shared_question(view.question) if general else None
        if shared is not None:
            return answer_shared(view, shared)
        if not view.searched:
            return react(
                f"search for the question's content words ({question.kind} question)",
                "search",
                _with_code(question.query, view.question),
            )
        searches = list(view.searched.values())
        hits = searches[0]
        if not hits:
            return abstain_reply("the search found nothing", "no page matches the question")
        # A documentation question is answered from the pages the first search found: no second hop.
        # Whether it is one may show only once a page is open: a question naming no code is one
        # over structured pages, and its third hit then beats a second search for a name.
        opened_structure = any(structured(page.body) for page in view.pages.values())
        bridging = multi_hop(question) and doc_question(view.question, opened_structure) is None
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
            return finish_prose(
                question,
                hits_order=order,
                pages=view.pages,
                min_confidence=self.min_confidence,
                bridging=True,
            )
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
            return finish_doc(doc, ranked, set())
        if in_structure and _ASKS_SEVERAL.match(view.question.strip()) is not None:
            # "Which options cannot be used together?" asks for several names; the prose path finds one.
            thought = "a question for several names over a manual: refusing, not giving one"
            return abstain_reply(thought, "the opened pages do not state the answer")
        return finish_prose(
            question,
            hits_order=order,
            pages=view.pages,
            min_confidence=self.min_confidence,
            in_structure=in_structure,
            bridging=bridging,
        )

    def _repair(self, view: RunView, question: Question, code: str) -> str:
        doc = doc_question(view.question, any(structured(page.body) for page in view.pages.values()))
        if doc is not None:
            # The next candidate scoring about as well, never the rejected one again; else refuse.
            action = view.turns[-1].action
            payload = action.payload if isinstance(action, Finish) else {}
            tried = {(str(payload.get("answer")), str(payload.get("evidence")))}
            order = [h.url for hits in view.searched.values() for h in hits if h.url in view.pages]
            ranked = [view.pages[url] for url in dict.fromkeys(order)]
            return finish_doc(doc, ranked, tried)
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


def _with_code(query: str, question: str) -> str:
    """The search words and, after them, each name the question writes as code ("compare_files",
    "--log-level"), whole: the index matches such a name as the phrase of its words."""
    asked = doc_question(question)
    code = [i for i in (asked.identifiers if asked is not None else ()) if i not in query.split()]
    return " ".join([query, *code])
