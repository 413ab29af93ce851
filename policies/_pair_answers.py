"""Questions naming two entities, for `ExtractivePolicy` (split out of `_extractive`).

Each looks both names up alike (`_lookups`), then answers from the two pages or refuses:
a comparison ("Who is older, A or B?") by values read mechanically (`_compare`), a choice
("Which of A or B is a ...?") by which page holds more of the description (`_choice`), and
what two share by the words both definitions say (`_shared`).
"""

from __future__ import annotations

from ._choice import ChoiceQuestion, chosen, fit
from ._choice_nationality import nationality_choice
from ._compare import Comparison, read_value, winner
from ._lookups import lookups, spelled
from ._react import abstain_reply, finish_reply
from ._same_value import SameValueQuestion, settle, stated_values, value_sentence
from ._shared import Shared, common_words, definition
from ._view import RunView


def answer_comparison(view: RunView, what: Comparison) -> str:
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


def answer_choice(view: RunView, what: ChoiceQuestion) -> str:
    """Two lookups, then the name whose page holds more of the description (`_choice`), or refuse."""
    looked = lookups(view, (what.first, what.second), "choice")
    if isinstance(looked, str):
        return looked
    by_nationality = nationality_choice(view.question, (what.first, what.second), looked)
    if by_nationality is not None:
        side, quotes = by_nationality
        answer = (what.first, what.second)[side]
        if spelled(answer, quotes[side]):
            return finish_reply(
                f"choice by nationality: {answer}'s page states the one asked, the other's another",
                answer,
                [page.url for page in looked],
                list(quotes),
            )
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


def answer_shared(view: RunView, what: Shared) -> str:
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


def answer_same_value(view: RunView, what: SameValueQuestion) -> str:
    """Two lookups, then "yes" or "no" from the value each page states (`_same_value`), or refuse."""
    looked = lookups(view, (what.first, what.second), f"the {what.attribute} of each")
    if isinstance(looked, str):
        return looked
    quotes = [value_sentence(page.body, what.attribute) for page in looked]
    one, other = quotes
    if one is None or other is None:
        missing = what.first if one is None else what.second
        return abstain_reply(
            f"the page of {missing!r} states no {what.attribute}: refusing",
            f"the pages do not state a {what.attribute} for both",
        )
    verdict = settle(what, [one.text, other.text])
    values = [sorted(stated_values(quote.text, what.attribute)) for quote in (one, other)]
    if verdict is None:
        return abstain_reply(
            f"{what.attribute} {values[0]} and {values[1]} do not settle the question: refusing",
            f"the pages' {what.attribute} values do not settle it",
        )
    return finish_reply(
        f"{what.attribute}: {what.first} {values[0]}, {what.second} {values[1]}",
        verdict,
        [page.url for page in looked],
        [one.text, other.text],
    )
