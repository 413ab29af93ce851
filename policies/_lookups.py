"""Two lookups: search each of two names, open the one hit titled with it (comparisons, choices, shared).

Split out of `_extractive` so that each question shape naming two entities - a comparison
(`_compare`), a choice (`_choice`), what two share (`_shared`) - opens their pages alike.
"""

from __future__ import annotations

from citeloop.events import Page

from ._compare import title_hit
from ._react import abstain_reply, react
from ._sentences import words
from ._view import RunView


def lookups(view: RunView, names: tuple[str, str], why: str) -> str | list[Page]:
    """Both names' pages (search each name, open the one hit titled with it), or the reply to send first."""
    pages: list[Page] = []
    for name in names:
        hits = view.searched.get(" ".join(name.casefold().split()))
        if hits is None:
            return react(f"{why} of {names[0]!r} and {names[1]!r}: look up {name!r}", "search", name)
        hit = title_hit(name, hits)
        if hit is None or hit.url in view.failed_opens:
            return abstain_reply(
                f"no single page is titled {name!r}: refusing rather than reading the wrong page",
                f"no page found for {name}",
            )
        if hit.url not in view.pages:
            if view.steps_left <= 1:
                return abstain_reply(
                    "the budget ran out before both pages were open", "both pages are needed"
                )
            return react(f"{why}: open the page of {name!r}", "open", hit.url)
        pages.append(view.pages[hit.url])
    return pages


def spelled(name: str, quote: str) -> bool:
    """Whether every word of `name` is a word of `quote`: "Terry Richardson" is spelled in
    'Terrence "Uncle Terry" Richardson'."""
    own = set(words(quote))
    return all(word in own for word in words(name))
