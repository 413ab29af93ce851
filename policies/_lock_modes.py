"""Which lock mode a command acquires, from a list of lock modes: "Which lock mode does CREATE
INDEX acquire?".

A manual lists its table-level lock modes as terms ("SHARE (ShareLock)"), each described with the
commands that take it: "Acquired by CREATE INDEX (without CONCURRENTLY) and by REINDEX". The mode
whose description says the command acquires it answers, named as its term (without the bracketed
internal name), quoted from the term's line to that sentence (the gate reads a quote whose first
line is the answer's term as about it throughout). The command must stand whole:
"CREATE INDEX CONCURRENTLY" is another command than "CREATE INDEX".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate
from ._doc_questions import DocQuestion
from ._outline import Line, clean, outline
from ._sentences import split_sentences

_COMMAND: Final = re.compile(r"\b[A-Z]{2,}(?: [A-Z]{2,})*\b")
_ACQUIRED: Final = re.compile(r"\b(?:[Aa]cquired|[Tt]aken|[Oo]btained) (?:automatically )?by\b")
_REACH: Final = 1200  # characters from a term to the sentence that names its command


def acquired_by(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """The lock mode whose description says the command the question names in capitals acquires it."""
    commands = [c for c in _COMMAND.findall(q.text) if c not in ("SQL", "DDL", "DML")]
    if len(commands) != 1:
        return
    command = re.compile(rf"(?<![A-Z] )\b{re.escape(commands[0])}\b(?! [A-Z]{{2,}})")
    for page in pages:
        terms: dict[str, Line] = {}
        for line in outline(page.body):
            if line.is_term:
                terms[clean(line.text)] = line
            term = terms.get(clean(line.terms[-1])) if line.terms else None
            if term is None:
                continue
            for sentence in split_sentences(page.body[line.start : line.end]):
                said = _ACQUIRED.search(sentence.text)
                if said is None or command.search(sentence.text, said.end()) is None:
                    continue
                end = line.start + sentence.end
                if end - term.start > _REACH:
                    continue
                mode = re.sub(r"\s*\([^)]*\)\s*$", "", clean(term.text)).strip()
                quote = page.body[term.start : end]  # its lines kept: the term is the first
                yield DocCandidate(page.url, mode, quote, 2.0, "the lock mode the command acquires")
