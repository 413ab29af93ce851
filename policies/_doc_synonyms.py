"""Words a user and a manual use for one thing: "delete" and "remove", "show" and "display".

A question is matched to a manual's sentences by its words' stems (`_doc_match.overlap`); a
user's word the manual says otherwise leaves the sentence that answers short of the share it
needs. Each group below holds words that mean the same in documentation whichever is used, so a
question word also counts as held when the sentence holds another word of its group. Only
plain verbs and adjectives of general use: never a word that names one thing in some manual
("abort" is a conflict algorithm in SQLite, "append" a Header action in httpd, "insert" a
statement), and never a pair that differs in what it claims ("add" is not "append").
"""

from __future__ import annotations

from functools import cache
from typing import Final

from ._sentences import stem

_GROUPS: Final = (
    ("delete", "remove", "erase"),
    ("disable", "deactivate"),
    ("enable", "activate"),
    ("start", "begin", "commence"),
    ("maximum", "largest", "biggest", "highest"),
    ("minimum", "smallest", "lowest"),
    ("show", "display", "print"),
    ("create", "generate", "produce"),
    ("forbid", "prohibit", "disallow"),
    ("reject", "refuse", "deny"),
    ("need", "require", "mandatory"),
    ("change", "modify", "alter"),
    ("keep", "retain", "preserve"),
    ("ignore", "skip"),
    ("run", "execute", "invoke"),
    ("older", "prior", "earlier", "previous"),
    ("count", "number"),
    ("directory", "folder"),
    ("send", "transmit"),
    ("copy", "duplicate"),
    ("limit", "restrict"),
    ("stop", "halt", "terminate"),
    ("deprecated", "obsolete"),
    ("save", "store"),
)


def _same(one: str, other: str) -> bool:
    """Two stems of one word: equal, or one beginning the other from four letters on."""
    if one == other:
        return True
    return min(len(one), len(other)) >= 4 and (one.startswith(other) or other.startswith(one))


@cache
def related(word: str) -> tuple[str, ...]:
    """The stems of the words sharing a group with the stem `word` (none for most words)."""
    found: list[str] = []
    for group in _GROUPS:
        stems = [stem(member) for member in group]
        if any(_same(word, member) for member in stems):
            found.extend(member for member in stems if not _same(word, member))
    return tuple(dict.fromkeys(found))
