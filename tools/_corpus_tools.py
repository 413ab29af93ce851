"""The `search` and `open` tools over a `Corpus`. Both are read-only: running them again is safe."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from citeloop.events import Observation, SearchHits, ToolError

if TYPE_CHECKING:
    from ._corpus import Corpus


@dataclass(frozen=True, slots=True)
class SearchTool:
    """`search(query)`: the corpus's best pages for a query, possibly none.

    The SQLite work runs inline: a few milliseconds at most (see `bench/search.py`).
    """

    corpus: Corpus
    limit: int = 5
    name: str = "search"
    read_only: bool = True

    async def __call__(self, argument: str) -> Observation:
        return SearchHits(query=argument, hits=tuple(self.corpus.search(argument, self.limit)))


@dataclass(frozen=True, slots=True)
class OpenTool:
    """`open(url)`: a page the corpus holds under exactly that URL, or `not_found`.

    It looks the URL up in the index and never reads a file, so no URL reaches outside the root.
    """

    corpus: Corpus
    name: str = "open"
    read_only: bool = True

    async def __call__(self, argument: str) -> Observation:
        page = self.corpus.open(argument)
        if page is None:
            return ToolError(code="not_found", url=argument, message="no page with this URL in the corpus")
        return page
