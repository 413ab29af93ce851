"""'Which <noun>' answered by a keyword beside the noun: "A RESERVED lock will be acquired when ...".

A manual names a kind of thing that is not code (a lock, a datatype, a journal mode) by a
keyword in capitals right before or after the noun: "a RESERVED lock", "datatype ANY". For
"Which lock does SQLite acquire when the first INSERT ... runs?" that keyword is the answer,
from a sentence that holds most of the question's words (`FIT`). Refused: a keyword the
question itself writes ("INSERT"), the product every opened page names (one word), and a sentence
that puts two different keywords beside the noun ("a SHARED lock or a RESERVED lock"). A lock is the
asked command's: not one a sentence opens with another command or a variant of it ("REBUILD
ONLINE takes ...", "REPLAY to a file takes ..."), names after "Unlike", says another command holds
("the SHARE lock that REPLAY holds"), says of older releases, or takes on another object than the
question's ("on the underlying table", asked of the lock on the widget).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, on_every_page, overlap, overlap_words, sentences_of, stems
from ._doc_questions import DocQuestion
from ._sentences import stem

# The share of the question's words (the noun aside) the sentence and its heading must hold.
FIT: Final = 0.6
_KEYWORD: Final = r"((?:[A-Z][A-Z0-9_]+ )*[A-Z][A-Z0-9_]+)"
# After the noun, a keyword may be namespaced: "IMPORTED target CURL::libcurl" names the target whole.
_NAMESPACED: Final = r"((?:[A-Z][A-Z0-9_]+ )*[A-Z][A-Z0-9_]+(?:::[A-Za-z]\w*)*)"


def keyword_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    if q.noun is None:
        return
    noun = re.escape(q.noun)
    # A keyword is a whole word: not the "CURL" of "CURL::libcurl", nor the "JSON" of "JSON.parse".
    beside = (
        re.compile(rf"(?<![\w-])(?<!::){_KEYWORD} (?i:{noun})s?\b"),
        re.compile(rf"\b(?i:{noun})s? {_NAMESPACED}(?![\w-]|::|\.\w)"),
    )
    asked = {word.casefold() for word in re.findall(r"\w+", q.text)}
    on = _ON_OBJECT.search(q.text)
    asked_on = on.group(1).casefold() if on is not None else None
    # A command the question names in capitals, of several words ("TRANSFER TO"), is named whole where
    # the answer is: not "TRANSFER FROM", whose "from" the question's words would not tell apart.
    commands = re.findall(r"\b[A-Z]{2,}(?: [A-Z]{2,})+\b", q.text)
    named = re.findall(r"\b[A-Z]{2,}(?: [A-Z]{2,})*\b", q.text)  # every command in capitals
    described = replace(q, words=tuple(w for w in q.words if w not in _TAKING))
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        fit = overlap(described, text, *line.headings[-1:])
        if not overlap_words(described.words, text):
            continue  # "The format of the JSON file looks like:" under the asked name: its heading says all
        if fit < FIT or not all(re.search(rf"(?<![\w-]){c}(?![\w-])", text) for c in commands):
            continue
        if _another_command(text, q.text) or _set_aside(text, named):
            continue  # "REBUILD ONLINE takes ...", "Unlike DROP TOPIC, ...": not what the asked one takes
        found = {
            match.group(1)
            for pattern in beside
            for match in pattern.finditer(text)
            if not any(word.casefold() in asked for word in match.group(1).split())
            # the product every opened page names ("SQLITE"), a single word; a lock's name ("ACCESS
            # SHARE") may be on every page of a manual's commands and still be the answer
            and not (" " not in match.group(1) and on_every_page(match.group(1), pages))
            and not _on_another(text, match.end(), asked_on)
            and not _held_by_another(text, match.end(), named)
            and not _OLDER.search(text[max(0, text.rfind(";", 0, match.start())) : match.start()])
        }
        if len(found) == 1:
            (keyword,) = found
            yield DocCandidate(page.url, keyword, text, 1.0 + fit, f"the keyword beside {q.noun!r}")


# How a question says a lock is taken: not what it is about.
_TAKING: Final = frozenset(
    stem(w) for w in ("take", "takes", "acquire", "acquires", "obtain", "hold", "use", "need")
)
# What a lock (or any keyword's noun) is taken on: "on the widget", "on the underlying table".
_ON_OBJECT: Final = re.compile(
    r"\bon (?:the |an? |its |each )?((?:[\w'-]+ ){0,2}?[\w-]+)\s*\??$", re.IGNORECASE
)
_ON_AFTER: Final = re.compile(r"\s+on (?:the |an? )?((?:[\w-]+ ?){1,4})", re.IGNORECASE)


def _on_another(text: str, end: int, asked_on: str | None) -> bool:
    """Whether the keyword ending at `end` is said of another object than the question's ("a SHARE ROW
    EXCLUSIVE lock on the underlying table", asked of the lock on the widget)."""
    if asked_on is None:
        return False
    said = _ON_AFTER.match(text, end)
    # with no "on ..." after it, the object must be named elsewhere in the sentence
    held = {stem(w) for w in re.findall(r"[a-z]{2,}", (said.group(1) if said else text).casefold())}
    # every word of "the source queue" ("the table's indexes") is said of the lock
    return not all(stem(w) in held for w in re.findall(r"[a-z]{2,}", asked_on))


# The command a sentence opens with, in capitals: "REBUILD ONLINE takes ...", "Plain COMPACT acquires ...".
_SUBJECT_COMMAND: Final = re.compile(r"^(?:Plain |A |An |The )?([A-Z]{2,}(?: [A-Z]{2,})*) [a-z]")


_QUALIFIED: Final = re.compile(
    r" ((?:to|for|with|into|from|in|on) (?:an? |the )?[\w-]+(?: [\w-]+)?)"
    r" (?:takes|acquires|holds|requires|uses)\b"
)


def _another_command(text: str, question: str) -> bool:
    """Whether the sentence's subject is a command the question does not name: another one, or a
    variant ("REBUILD ONLINE") of the one it names ("a standard REBUILD")."""
    subject = _SUBJECT_COMMAND.match(text)
    if subject is None or re.match(r" (?:lock|mode|level)s?\b", text[subject.end(1) :]):
        return False  # "A RESERVED lock will be acquired ...": the keyword itself, no command
    asked = set(re.findall(r"\b[A-Z]{2,}\b", question))
    words = subject.group(1).split()
    qualified = _QUALIFIED.match(text, subject.end(1))
    if qualified is not None and not set(re.findall(r"[a-z]{3,}", qualified.group(1))) <= stems(question):
        return True  # "REPLAY to a file takes ...": a variant the question does not name
    # Another command altogether ("REPLAY TO SUBSCRIPTION takes ...", asked of PURGE QUEUE), or a
    # variant of the asked one.
    return bool(asked) and not set(words) <= asked


def _set_aside(text: str, named: list[str]) -> bool:
    """Whether the sentence names the asked command only to set it aside: "Unlike DROP TOPIC, ..."."""
    return any(
        re.search(rf"\b(?:[Uu]nlike|[Ee]xcept(?: for)?|[Oo]ther than|[Aa]part from) {re.escape(c)}\b", text)
        for c in named
    )


# What older releases did: "; previous releases took an EXCLUSIVE lock".
_OLDER: Final = re.compile(
    r"(?i)\b(?:previous|earlier|older|prior) (?:releases?|versions?)\b|\b(?:before|prior to) version\b"
    # "Prior to Slony-I 2.2.0 the SUBSCRIBE SET command could be used ...", "Before PostgreSQL 9.5"
    r"|\b(?:before|prior to|until) (?:[\w-]+ ){0,2}?(?:version |release )?\d"
    r"|\bused to\b|\bformerly\b"
)
_HELD_BY: Final = re.compile(r"\s+(?:that|which) ([A-Z]{2,}(?: [A-Z]{2,})*) (?:holds|takes|acquires|has)\b")


def _held_by_another(text: str, end: int, named: list[str]) -> bool:
    """Whether the keyword ending at `end` is the lock another command holds: "the SHARE lock that REPLAY
    holds", in a sentence about PURGE QUEUE."""
    holder = _HELD_BY.match(text, end)
    return holder is not None and holder.group(1) not in named
