"""Defaults of a parameter a question describes instead of naming: "How many simultaneous connections
may a single SMTP client make by default?" is answered under

    smtpd_client_connection_count_limit (default: 50)
        The maximum number of connections that an SMTP client may make simultaneously.

A manual that lists parameters as terms with their default in brackets says what each is in the
description right under it. A question naming no code is answered by the term whose first sentence
(with the term's own words: "connection count limit") holds most of the question's words; the quote
runs from the term through that sentence, so it shows both the default and what it is the default of.
So is a default a code term's description states in a sentence of its own ("Defaults to
concatenate." under `notes.rewriteMode`, whose first sentence the question describes). So is a
directive's "Default:" row ("Default: DeflateBufferSize 8096") under its "## DeflateBufferSize
Directive" heading, by its "Description:" row and the first sentence after the table.
A description that states another setting's default itself ("... the time interval specified with
anvil_rate_time_unit (default: 60s)") is read by neither: which of the two the question describes is
not clear.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, mentions, overlap, sentences_of
from ._doc_questions import DocQuestion
from ._doc_states import ASKS_STATE
from ._marked_defaults import marked_defaults
from ._outline import Line, clean, outline
from ._sentences import split_sentences

# "smtpd_client_connection_count_limit (default: 50)", "maximal_queue_lifetime (default: 5 days)".
_TERM_DEFAULT: Final = re.compile(r"(?P<name>[a-z][a-z0-9]*(?:_[a-z0-9]+)+) \(default:? (?P<value>[^()]+?)\)")
# The share of the question's words the description (with the term's words) must hold, and how many.
_FIT: Final = 0.6
_LEAST_WORDS: Final = 3


def described_defaults(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The bracketed default of each term whose description's first sentence the question describes,
    and the value a list marks as the default of what the question describes (`_marked_defaults`)."""
    yield from marked_defaults(q, pages)
    if q.identifiers or len(q.words) < _LEAST_WORDS:
        return
    for page, line, sentence in sentences_of(pages):
        term = clean(line.terms[-1]) if line.terms else ""
        entry = _TERM_DEFAULT.fullmatch(term)
        if not term or sentence.start != 0:
            continue
        opens = page.body.rfind(term, 0, line.start)
        if opens < 0 or page.body[opens + len(term) : line.start].strip():
            continue  # not the line right under the term: a later paragraph of its description
        if entry is None:
            yield from _stated_under_term(q, page, line, term, opens)
            continue
        if re.search(r"\(default:? ", sentence.text):
            continue  # "... in the time interval specified with anvil_rate_time_unit (default: 60s)": two
        fit = overlap(q, sentence.text, entry.group("name").replace("_", " "))
        if fit < _FIT:
            continue
        quote = " ".join(page.body[opens : line.start + sentence.end].split())
        yield DocCandidate(
            page.url, entry.group("value"), quote, 1.0 + fit, "the default of the term described"
        )


# A term that is code ("notes.rewriteMode", "Repr.maxlevel", "--depth"), and a sentence of its
# description stating its default and nothing else ("Defaults to concatenate.", "The default is 6.").
_CODE_TERM: Final = re.compile(r"--?[a-z][\w-]*|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[a-z]+(?:_[a-z0-9]+)+")
_DEFAULT_SENTENCE: Final = re.compile(
    r"(?:(?:The )?default(?: value)? is|(?:This |It )?[Dd]efaults to) (?P<value>[^.;,()]{1,40}?)\.?"
)
_FIRST_SENTENCES: Final = 4
_STATES: Final = frozenset({"true", "false", "yes", "no", "on", "off", "enabled", "disabled"})


def _stated_under_term(
    q: DocQuestion, page: Page, line: Line, term: str, opens: int
) -> Iterator[DocCandidate]:
    """The default a code term's description states in a sentence of its own, when the question
    describes the term by the description's first sentence (as `described_defaults` reads a bracket):
    "When copying notes during a rewrite ..., determines what to do if the target commit already has
    a note. Must be one of overwrite, concatenate, cat_sort_uniq, or ignore. Defaults to concatenate."
    under `notes.rewriteMode`. A default for some cases only ("The default is 4 for maxdict, 5 for
    maxarray") is none, and a state ("Defaults to true.") answers only a question asking for one."""
    if _CODE_TERM.fullmatch(term) is None:
        return
    sentences = split_sentences(page.body[line.start : line.end])[:_FIRST_SENTENCES]
    words = " ".join(re.findall(r"[A-Za-z][a-z]+", term))  # "notes rewrite Mode"
    fit = overlap(q, sentences[0].text, words) if sentences else 0.0
    if fit < _FIT:
        return
    for sentence in sentences[1:]:
        stated = _DEFAULT_SENTENCE.fullmatch(sentence.text.strip())
        if stated is None or " for " in stated.group("value"):
            continue
        if stated.group("value").casefold() in _STATES and ASKS_STATE.search(q.text) is None:
            return  # "Defaults to true." answers whether something is on, not what it does or shows
        quote = " ".join(page.body[opens : line.start + sentence.end].split())
        yield DocCandidate(
            page.url, stated.group("value"), quote, 1.0 + fit, "the default of the term described"
        )
        return


# "## DeflateBufferSize Directive": the heading a directive's table of Description / Default rows is under.
_DIRECTIVE_HEADING: Final = re.compile(r"(?P<name>[A-Z]\w+) Directive")


def described_directive_defaults(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The value of a directive's "Default:" row ("Default: DeflateBufferSize 8096") when the question
    describes the directive: its "Description:" row, its first sentence after the table and the words of
    its name hold most of the question's words, and the quote (from the "Description:" row through that
    sentence) names every code the question names ("mod_deflate")."""
    if len(q.words) < _LEAST_WORDS:
        return
    for page in pages:
        lines = outline(page.body)
        for at, line in enumerate(lines):
            heading = _DIRECTIVE_HEADING.fullmatch(clean(line.headings[-1])) if line.headings else None
            if heading is None or line.cells[:1] != ("Default:",) or len(line.cells) < 2:
                continue
            name, value = heading.group("name"), line.cells[1]
            described = _section_start(lines, at, "Description:")
            if not value.startswith(name + " ") or described is None:
                continue
            prose = next((rest for rest in lines[at + 1 :] if not rest.cells), None)
            if prose is None or prose.headings[-1:] != line.headings[-1:]:
                continue
            first = split_sentences(prose.text)[0]
            fit = overlap(q, described.cells[-1], first.text, " ".join(re.findall(r"[A-Z][a-z]+", name)))
            quote = " ".join(page.body[described.start : prose.start + first.end].split())
            if fit >= _FIT and all(mentions(quote, i) for i in q.identifiers):
                yield DocCandidate(
                    page.url, value[len(name) :].strip(), quote, 1.0 + fit, "directive described"
                )


def _section_start(lines: list[Line], at: int, label: str) -> Line | None:
    """The row labelled `label` of the table row `at` belongs to, under the same heading."""
    for line in reversed(lines[:at]):
        if not line.cells or line.headings[-1:] != lines[at].headings[-1:]:
            return None
        if line.cells[0] == label:
            return line
    return None
