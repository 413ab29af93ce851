"""What a nested or an offered-pair question is not answered with, on the general path (`_prose_finish`).

Found by a review of 50 new two-hop questions written over the dev half's HotpotQA paragraphs
(measured before it was read): every answer taken from the page of the entity a nested question
names was wrong ("When was the university Hefferline attended founded?" answered with a date of
Hefferline's), and a comparison the policy did not read was answered with a sentence naming one
of the two ("Wollongbar or Alstonville?" -> "Wollongbar is a town (2011 population: 2,396) ...",
or a name both pages give: "New South Wales").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from citeloop.events import Page

from ._lookups import spelled
from ._questions import Question
from ._two_hop import plain_title

# "Which American actor who starred in X ...?": the question asks for what its relative clause describes.
_ASKS_DESCRIBED: Final = re.compile(r"(?i)^\s*(?:which|what)\s+(?:[\w'-]+\s+){0,4}?(?:who|that|whose)\b")


def from_named_page(question: Question, page: Page, opened: Sequence[Page]) -> bool:
    """Whether an answer from `page` to a nested question comes from the page of an entity the
    question names: the page is titled with a name the question writes, no other opened page has
    that title (paragraphs of one article, all titled with its topic, name no entity), and the
    question does not ask for what its relative clause describes ("Which actor who ...?")."""
    if _ASKS_DESCRIBED.match(question.text) is not None:
        return False
    title = plain_title(page.title).casefold()
    if len(title) < 3 or sum(plain_title(other.title).casefold() == title for other in opened) > 1:
        return False
    return re.search(rf"(?<!\w){re.escape(title)}(?!\w)", question.text.casefold()) is not None


def page_subject_answer(question: Question, page: Page, answer: str) -> bool:
    """Whether an answer to a nested question is the subject of the page it is quoted from, a name the
    question never writes: that is the thing the question describes ("the surfing competition held
    every October at ..." -> "MEO Rip Curl Pro Portugal ..."), not the one it asks about it."""
    if _ASKS_DESCRIBED.match(question.text) is not None:
        return False
    title = plain_title(page.title).casefold()
    return len(title) >= 3 and answer.casefold().startswith(title) and title not in question.text.casefold()


def offered_answer(offered: tuple[str, str] | None, answer: str) -> bool:
    """Whether `answer` may answer a question offering two names (`offered`, None for any other):
    only as one of them (every word of it, at most two words besides) - not "New South Wales", which
    both towns' pages name, nor a sentence naming one."""
    if offered is None:
        return True
    return any(spelled(name, answer) and len(answer.split()) <= len(name.split()) + 2 for name in offered)


# A title the question quotes, capitalised: 'George Harrison's song "Love You To"' (not a phrase
# quoted in a preamble: 'called the "hometown of fish and rice"').
_QUOTED_TITLE: Final = re.compile(r"[\"\u201c]([A-Z0-9][^\"\u201d]{1,79})[\"\u201d]")


def quoted_unsaid(question: str, page: Page, sentence: str) -> bool:
    """Whether the question quotes titles none of which the answer's sentence or its page's title
    writes: '"Within You Without You" is a song ... released on the Beatles' 1967 album ...' answers
    nothing asked of "Love You To"."""
    told = f"{sentence} {page.title}".casefold()
    titles = _QUOTED_TITLE.findall(question)
    return bool(titles) and all(title.casefold() not in told for title in titles)
