"""The research's own finish as report claims: what the deterministic writer leads with.

A report run's research is the ordinary loop, and its policy answers the whole question
precision-first (docs/gate.md, "Support"): its finish names an answer, the pages it cites and quotes from
them. The deterministic writer opens the report with those quotes, each widened to the
source sentences holding it, and the deterministic reviewer counts them as the answer to a
question of one part: the research answered that very question. When the research refused,
there are no such claims, and the question is a gap rather than a second, looser guess.
"""

from __future__ import annotations

import re
from typing import Final

from ._report_view import ReportView
from ._sentences import split_sentences

# A source id a footnote definition can carry (`[^n]: <id> "<quote>"`): no space, quote or bracket.
CITABLE_ID: Final = re.compile(r"[^\s\"<>]+")
# A line that Markdown would read as a block of its own (a heading, quote, table, list, fence,
# footnote): not a claim to write inline.
BLOCK_START: Final = re.compile(r"(?:#|>|\||[-*+]\s|\d{1,9}[.)]\s|```|~~~|\[\^)")

Claim = tuple[str, str]  # (source id, the sentence quoted)


def research_claims(view: ReportView) -> tuple[Claim, ...] | None:
    """The sentences the research's finish quoted for its answer; None when it ran out of budget.

    () when it refused, or when its quotes are not in the sources it cited, or when none of
    the sentences holding them holds its answer. The runtime gates the research's finish as
    an `ask` finish is, but a writer's view may come from anywhere: it is read defensively.
    """
    answer = " ".join(view.research_answer.split())
    if not answer:
        return None
    if answer.casefold().startswith("cannot:") or not view.research_citations:
        return ()
    claims: list[Claim] = []
    for quote in view.research_evidence:
        for source in view.sources:
            if source.id not in view.research_citations or not CITABLE_ID.fullmatch(source.id):
                continue
            claims.extend((source.id, text) for text in _sentences_holding(source.text, quote))
    wanted = answer.casefold()
    if not any(wanted in " ".join(text.split()).casefold() for _, text in claims):
        return ()
    return tuple(dict.fromkeys(claims))


def inline(text: str) -> bool:
    """Whether a source line can be written inline as one claim: one line, not a Markdown block."""
    return bool(text.strip()) and "\n" not in text and "[^" not in text and BLOCK_START.match(text) is None


def _sentences_holding(text: str, quote: str) -> list[str]:
    """The sentences of `text` that the quote's first occurrence spans, when each is inline.

    By offsets, not by words: a page that repeats a word of the quote as a sentence of its own
    (a heading "ZIP_STORED", a code term) is not a sentence of the quote.
    """
    if not quote.split():
        return []
    # The research quotes the page verbatim, but a quote across a line break may have had its
    # whitespace folded by the policy: the words, in order, with any whitespace between.
    found = re.search(r"\s+".join(re.escape(word) for word in quote.split()), text)
    if found is None:
        return []
    start, end = found.span()
    spanned = [s.text for s in split_sentences(text) if s.start < end and s.end > start]
    return spanned if spanned and all(inline(sentence) for sentence in spanned) else []
