"""A command named by what it does, from its reference page's "Name" line.

A reference manual opens each command's page with a "Name" section of one line: "VACUUM --
garbage-collect and optionally analyze a database", "SYNC -- Generate an ordinary SYNC event".
"Which command generates an ordinary SYNC event?" is answered by the name on the line whose
purpose holds the question's words (all but at most one of four or more), quoted with its purpose;
"What does VACUUM do?" by the purpose on the line of exactly that name ("VACUUM FULL" has none).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, overlap, stems
from ._doc_questions import DocQuestion
from ._outline import clean, outline
from ._sentences import stem

# The nouns that ask for a command or program by what it does.
ENTRY_NOUNS: Final = frozenset(
    {"command", "statement", "utility", "program", "tool", "application", "client", "function"}
)
_NAME_LINE: Final = re.compile(r"^(?P<name>[^\s].{0,60}?)\s+(?:--|\u2014|\u2013)\s+(?P<purpose>\S.*)$")


def _name_lines(pages: Sequence[Page]) -> Iterator[tuple[Page, str, re.Match[str]]]:
    """Each reference page's Name line: the page, the line's text as in the body, and its parts."""
    for page in pages:
        for line in outline(page.body):
            if line.headings and clean(line.headings[-1]).casefold() == "name":
                entry = _NAME_LINE.match(line.text)
                if entry is not None:
                    yield page, page.body[line.start : line.end], entry


# The command a "what does X do" question names: a run of capitals ("STORE NODE") or code.
_CAPITALS: Final = re.compile(r"\b[A-Z]{2,}(?: [A-Z]{2,})*\b")
_PROGRAM_FRAME: Final = re.compile(
    r"^(?:the\s+)?|\s+(?:command|program|utility|tool|application|client|server)$", re.IGNORECASE
)


def entry_purposes(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """What the command "What does X do?" names does, by its reference page's Name line."""
    subject = q.subject or ""
    named = [*_CAPITALS.findall(subject), *q.identifiers]
    # A program named by a plain word ("What does initdb do?", "the lbvacuum utility"): the one word
    # left of the subject; only a Name line of exactly that name answers.
    plain = _PROGRAM_FRAME.sub("", subject).strip()
    if not named and re.fullmatch(r"[a-z][\w-]*", plain):
        named = [plain]
    if len(named) != 1:
        return
    wanted = named[0].casefold()
    for page, text, entry in _name_lines(pages):
        if entry.group("name").strip().casefold() == wanted:
            # (above what the description below says: the Name line is the page's own summary)
            how = "what its reference page's Name line says it does"
            yield DocCandidate(page.url, entry.group("purpose").strip(), text, 3.0, how)


def named_entries(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The command whose reference page's Name line says what the question asks it to do."""
    # The words of what it does, not the noun asked for (the page's title may hold the product named).
    asked = tuple(w for w in q.words if w not in stems(q.noun or ""))
    if len(asked) < 2:
        return
    described = replace(q, words=asked)
    for page, text, entry in _name_lines(pages):
        fit = overlap(described, entry.group("purpose"), page.title)
        missing = round((1 - fit) * len(asked))
        if missing > (1 if len(asked) >= 4 else 0):
            continue
        if _other_object(q.text, entry.group("purpose")):
            continue  # "Add a sequence to a ... set" is no answer to "Which command adds a table to a set?"
        how = "the command its reference page names for it"
        yield DocCandidate(page.url, entry.group("name").strip(), text, 2.0 + fit, how)


# A verb, an article and the noun it acts on: "adds a table", "Add a sequence".
_OBJECT: Final = re.compile(r"\b([a-z]{3,}?)(?:e?s)? (?:an?|the) ([a-z]{3,})\b", re.IGNORECASE)


def _other_object(question: str, purpose: str) -> bool:
    """Whether the purpose does what the question asks to a different thing: the same verb with
    another object ("Add a sequence to a set" asked "adds a table to a set")."""
    asked = {stem(verb.casefold()): stem(noun.casefold()) for verb, noun in _OBJECT.findall(question)}
    for verb, noun in _OBJECT.findall(purpose):
        wanted = asked.get(stem(verb.casefold()))
        if wanted is not None and wanted != stem(noun.casefold()):
            return True
    return False
