"""`DeterministicWriter`: a report made of the sources' own sentences, each cited to itself.

For the question, each plan item and each part a review said was missing, the writer
ranks every sentence of the sources with the extractive policy's scorer
(policies/_extractive_score.py) and keeps the few it is confident answer it. Each kept
sentence is written verbatim, followed by its marker, and its footnote quotes that very
sentence: `[^n]: <source id> "<the same sentence>"`. One claim per footnote, and a claim
can only state what its quote states, because it *is* its quote. A sub-question with no
sentence good enough is disclosed under `## Gaps`, never filled.

On a later round the writer reads the earlier rounds: a footnote a finding or a review note
names (`[^n]`) and a sentence a finding quotes are not used again, and a part the review
says is neither covered nor disclosed becomes a sub-question of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from citeloop.events import Page

from ._conflict import disagreement
from ._extractive_score import (
    CONF_WEIGHTS,
    Scored,
    confidence_vector,
    dot,
    logistic,
    score_sentences,
)
from ._questions import Question, analyze
from ._report_research import BLOCK_START, CITABLE_ID, research_claims
from ._report_text import (
    answers_kind,
    content_stems,
    covers,
    definitions,
    question_parts,
    uncovered_parts,
)
from ._report_view import DraftRound, ReportView
from ._sentences import split_sentences, words
from ._short_answer import short_answer

WRITER_NAME: Final = "deterministic-writer"
# What the deterministic reviewer writes before each part it finds neither covered nor disclosed.
UNCOVERED: Final = "neither covered nor disclosed:"
_PER_PART: Final = 2  # sentences kept per sub-question: the best, and one more as sure
# The confidence model's floor for a kept sentence. Lower than the extractive policy's 0.42,
# which guards a single answer with no other check: here a sentence is only a candidate once
# it names everything the sub-question names and holds most of its content words (`covers`),
# and the model, fitted to pick one best sentence, scores true ones low when the page says them
# with a pronoun: "She was born in 1979 in Seville." scores 0.26 for "Where was Ada Ortiz born?",
# "... it employs about 480 people." 0.18 for "How many people does Acme Robotics employ".
MIN_CONFIDENCE: Final = 0.15
_MIN_CHARS: Final = 20
_ENDS: Final = re.compile(r"[.!?][\"'\u201d\u2019)\]]*$")
# A sentence end inside the sentence that a Markdown reader could take as one ("Acme Inc. The ..."):
# the marker would then cite only the last piece, so such a sentence is not used.
_INNER_END: Final = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[^\sa-z])")
_FOOTNOTE_REF: Final = re.compile(r"\[\^([1-9][0-9]*)\]")
_QUOTED: Final = re.compile(r"(['\"])(.+?)\1")


@dataclass(slots=True)
class _Avoid:
    """What earlier rounds ruled out: footnotes as (source, quote), and sentence openings findings quoted."""

    quotes: set[tuple[str, str]] = field(default_factory=set)
    openings: list[str] = field(default_factory=list)

    def rules_out(self, source: str, sentence: str) -> bool:
        if (source, sentence) in self.quotes:
            return True
        folded = " ".join(sentence.split())
        return any(folded.startswith(opening) for opening in self.openings)


@dataclass(frozen=True, slots=True)
class _Section:
    title: str | None
    claims: tuple[tuple[str, str], ...]  # (source id, sentence)


def _avoided(rounds: Sequence[DraftRound]) -> _Avoid:
    avoid = _Avoid()
    for past in rounds:
        defined = definitions(past.text)
        for finding in past.findings:
            for number in _FOOTNOTE_REF.findall(finding):
                if int(number) in defined:
                    avoid.quotes.add(defined[int(number)])
            quoted = _QUOTED.search(finding.partition(":")[2])
            if quoted is not None and not _FOOTNOTE_REF.search(finding):
                opening = " ".join(quoted.group(2).removesuffix("\u2026").split())
                if len(opening) >= _MIN_CHARS // 2:
                    avoid.openings.append(opening)
        for number in _FOOTNOTE_REF.findall(past.review_notes):
            if int(number) in defined:
                avoid.quotes.add(defined[int(number)])
    return avoid


def _named_parts(rounds: Sequence[DraftRound]) -> list[str]:
    """The parts the reviews named as neither covered nor disclosed, each once."""
    named: list[str] = []
    for past in rounds:
        for line in past.review_notes.splitlines():
            text = line.strip().lstrip("-* ").strip()
            if text.casefold().startswith(UNCOVERED):
                named.append(text[len(UNCOVERED) :].strip())
    return [part for part in dict.fromkeys(named) if content_stems(part)]


def quotable(sentence: str) -> bool:
    """Whether a source sentence can stand in a report as it is: one whole prose sentence."""
    if len(sentence) < _MIN_CHARS or "\n" in sentence or "[^" in sentence:
        return False
    if BLOCK_START.match(sentence) or not _ENDS.search(sentence):
        return False
    return _INNER_END.search(sentence[:-1]) is None


class DeterministicWriter:
    """A `Writer` quoting the sources' best sentences, each its own footnote; gaps disclosed, not filled."""

    def __init__(self, min_confidence: float = MIN_CONFIDENCE, *, per_part: int = _PER_PART) -> None:
        self.min_confidence = min_confidence
        self.per_part = per_part

    @property
    def name(self) -> str:
        return WRITER_NAME

    async def write(self, view: ReportView) -> str:
        return self.compose(view)

    def compose(self, view: ReportView) -> str:
        """The draft for this view: the same view gives the same draft."""
        pages = [
            Page(url=source.id, title=source.title, body=source.text, sha256=source.sha256)
            for source in view.sources
            if CITABLE_ID.fullmatch(source.id)
        ]
        avoid = _avoided(view.rounds)
        sections: list[_Section] = []
        gaps: list[str] = []
        used: set[tuple[str, str]] = set()

        def answer(title: str | None, asked: str, *, disclose: bool = True) -> None:
            claims = self._pick(_with_names(asked, view.question), pages, avoid, used)
            if claims:
                sections.append(_Section(title, claims))
                used.update(claims)
            elif disclose and asked not in gaps:
                gaps.append(asked)

        # The whole question first, then each plan item; what they leave out is asked part by part,
        # and disclosed by part, with the very check the deterministic reviewer makes.
        anchored = research_claims(view)
        if anchored is None:
            answer(None, view.question, disclose=not question_parts(view.question))
        elif anchored:
            sections.append(_Section(None, anchored))
            used.update(anchored)
        else:
            # The research found no answer it would stand by: the question is a gap, whole and by
            # part. Ranking sentences for it again, with a lower bar, is how a report comes to
            # quote real sentences that answer something else.
            gaps.extend(question_parts(view.question) or (view.question,))
        for item in view.plan:
            answer(item, item)
        titles = {source.id: source.title for source in view.sources}
        named = tuple(part for part in _named_parts(view.rounds) if part not in view.plan)
        drafted = render(view.question, sections, gaps)
        for part in uncovered_parts(drafted, view.question, named, titles, anchored or ()):
            if part not in gaps:
                answer(part, part)
        return render(view.question, sections, gaps)

    def _pick(
        self, asked: str, pages: Sequence[Page], avoid: _Avoid, used: set[tuple[str, str]]
    ) -> tuple[tuple[str, str], ...]:
        """Up to `per_part` sentences answering `asked` at the confidence threshold, best first.

        A kept sentence holds every name the sub-question names and half its other content
        words. When another source corrects the best one's value, or states another value as
        surely (policies/_conflict.py), the report quotes that too: the correction in place
        of what it corrects, a conflict beside it.
        """
        question = analyze(asked)
        eligible: list[tuple[Scored, tuple[str, str]]] = []
        for candidate in score_sentences(question, pages):
            page = pages[candidate.rank]
            claim = (page.url, candidate.sentence.text)
            if claim in used or avoid.rules_out(*claim) or not quotable(claim[1]):
                continue
            if any(claim == seen for _, seen in eligible):
                continue  # the same sentence twice on a page is one claim
            # The page's title names the subject a sentence may leave to a pronoun ("She was born ...").
            if covers(asked, f"{page.title} {claim[1]}") and answers_kind(asked, claim[1]):
                eligible.append((candidate, claim))
        picked: list[tuple[str, str]] = []
        for index, (candidate, claim) in enumerate(eligible[: self.per_part]):
            runner_up = eligible[index + 1][0] if index + 1 < len(eligible) else None
            confidence = round(logistic(dot(CONF_WEIGHTS, confidence_vector(candidate, runner_up))), 6)
            if confidence < self.min_confidence:
                break  # ranked best first: the ones after are no surer
            if not picked:
                other = _disagreeing(question, candidate, pages)
                if other is not None:
                    kind, found = other
                    usable = [c for c in found if c not in used and not avoid.rules_out(*c)]
                    if kind == "corrected" and usable:
                        return tuple(usable)
                    if usable:
                        return (claim, *usable)
            picked.append(claim)
        return tuple(picked)


def _disagreeing(
    question: Question, best: Scored, pages: Sequence[Page]
) -> tuple[str, list[tuple[str, str]]] | None:
    """A correction of the best sentence's value, or a conflicting one: the sentences to quote for it."""
    url = pages[best.rank].url
    answer = short_answer(question, best.sentence.text) or best.sentence.text
    found = disagreement(question, url, answer, best, pages)
    if found is None:
        return None
    sentences = [piece.text for piece in split_sentences(found.evidence)]
    return found.kind, [(found.url, text) for text in sentences if quotable(text)]


def _with_names(part: str, question: str) -> str:
    """A part of the question with the question's names added when it has none ("where is it based")."""
    if any(word[:1].isupper() for word in words(part)[1:]):
        return part
    names = [word for word in words(question)[1:] if word[:1].isupper() and word not in part]
    return " ".join([part, *names]) if names else part


def _heading(text: str) -> str:
    """A heading for a sub-question; a number in a heading would be an uncited fact, so none is shown."""
    shown = " ".join(text.split()).rstrip("?.!:").replace("[^", "[")  # a heading cites nothing
    return shown if shown and not any(ch.isdigit() for ch in shown) else "Further question"


def _gap_line(asked: str) -> str:
    """One line saying what was not found, with no sentence end or marker inside it."""
    text = _INNER_END.sub(", ", " ".join(asked.split())).rstrip("?.!:, ").replace("[^", "[")
    return f"- Not found in the sources: {text}."


def _written(text: str) -> str:
    """A quoted line as the report shows it: a prose sentence as it is; any other line (a signature,
    a table row) and a sentence with a `*` in a code span, so that Markdown (and validation, which
    reads `*` as emphasis) shows it as the source has it: "a period of 2**19937-1"."""
    if "`" in text or (_ENDS.search(text) and "*" not in text):
        return text
    return f"`{text}`"


def _definition(n: int, source: str, quote: str) -> str:
    return f'[^{n}]: {source} "{quote}"'


def render(question: str, sections: Sequence[_Section], gaps: Sequence[str]) -> str:
    """The draft's Markdown: a title, the sections, the gaps, then one definition per footnote."""
    numbers: dict[tuple[str, str], int] = {}
    lines = [f"# {_heading(question)}" if _heading(question) != "Further question" else "# Report", ""]
    for section in sections:
        if section.title is not None:
            lines.extend([f"## {_heading(section.title)}", ""])
        cited = []
        for claim in section.claims:
            n = numbers.setdefault(claim, len(numbers) + 1)
            cited.append(f"{_written(claim[1])}[^{n}]")
        lines.extend([" ".join(cited), ""])
    if gaps:
        lines.extend(["## Gaps", "", *(_gap_line(gap) for gap in gaps), ""])
    lines.extend(_definition(n, source, quote) for (source, quote), n in numbers.items())
    return "\n".join(lines).rstrip() + "\n"
