"""For the prose-rule tests: invented pages asked through the real runtime at a given threshold."""

from __future__ import annotations

from collections.abc import Sequence

from citeloop.events import open_store
from citeloop.policies import ExtractivePolicy
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Corpus


async def ask_corpus(corpus: Corpus, question: str, threshold: float = 0.0) -> Outcome:
    """`question` through a `Runtime` over `corpus`, with the extractive policy at `threshold`
    (0 by default: the rule under test, not the confidence, decides)."""
    policy = ExtractivePolicy(min_confidence=threshold)
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=policy) as rt:
        return await rt.run(question)


async def ask_pages(pages: Sequence[tuple[str, str, str]], question: str, threshold: float = 0.0) -> Outcome:
    """`ask_corpus` over a corpus of `pages` ((url, title, body) each), closed afterwards."""
    corpus = Corpus.from_pages(pages, name="prose-rules")
    try:
        return await ask_corpus(corpus, question, threshold)
    finally:
        corpus.close()
