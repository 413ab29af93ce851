"""What one quote states of its subject's nationality or of a film's director, read mechanically.

`_same_value` answers, and the gate's `same-value` method checks, yes-or-no questions by these
two readers; both err towards reading nothing, which makes the question a refusal.

- **Nationality**: the nationality words (`_nationalities`) among the first six words after
  the quote's first "is"/"was" outside brackets, capitalized, before a word that starts
  describing something else ("by", "of", "about", "in" ...: "a novel by Irish writer James
  Joyce" states no nationality of the novel). A word joined to "language", "born", "style"
  ... ("French-language", "German-born") is not the subject's nationality, nor is one after
  "South", "Northern", "New" ... ("South Sudanese" is not Sudanese).
- **Director**: the names after "directed by" (also "directed and produced by") in the quote's
  first sentence, or in the next one when it opens with "It" ("It was directed by ...") -
  never a later sentence, which may name the director of something else. Initials are
  written closed up ("D. W. Griffith" = "D.W. Griffith"), and a name ends at a full stop that
  does not follow an initial ("directed by Steven Spielberg. It stars ...").
"""

from __future__ import annotations

import re
from typing import Final

from ._nationalities import NATIONALITIES

_COPULA: Final = re.compile(r"\b(?:is|was|are|were)\b")
_TOKEN: Final = re.compile(r"[\w'\u2019]+(?:-[\w'\u2019]+)*")
_DEFINING_WORDS: Final = 6
# Words after which the definition describes something else than its subject.
_WINDOW_ENDS: Final = frozenset(
    {"by", "of", "about", "for", "from", "to", "with", "in", "on", "at", "who", "which", "that", "whose"}
)
# Joined to a nationality, these make it a language, a birthplace or a style, not the subject's nationality.
_NOT_NATIONALITY: Final = frozenset(
    {"language", "speaking", "born", "based", "style", "era", "descent", "origin", "owned", "made", "trained"}
)
_OTHER_NATION: Final = frozenset(
    {"north", "south", "northern", "southern", "east", "west", "equatorial", "new", "papua"}
)
_NAME_WORD: Final = r"(?:[A-Z]\.\s*)*[A-Z][\w'\u2019-]+"
_PERSON: Final = rf"{_NAME_WORD}(?:\s+(?:(?:de|da|von|van|der|del|la|le)\s+)?{_NAME_WORD})*"
_DIRECTED_BY: Final = re.compile(
    r"\bdirected(?:\s*,?\s*(?:and\s+)?(?:co-)?(?:produced|written|edited))*\s+by\s+"
    rf"(?P<names>{_PERSON}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_PERSON})*)"
)
# A sentence ends at ". " before a capital, unless the full stop closes an initial ("D. W.").
_SENTENCE_END: Final = re.compile(r"(?<!\b[A-Z])[.!?]\s+(?=[A-Z\"'\u201c])")


def nationalities(quote: str) -> frozenset[str]:
    """The nationalities (`_nationalities` names) `quote` states of its subject (module docstring)."""
    bare = re.sub(r"\([^()]*\)", " ", quote)
    copula = _COPULA.search(bare)
    if copula is None:
        return frozenset()
    found: set[str] = set()
    previous = ""
    for token in _TOKEN.findall(bare[copula.end() :])[:_DEFINING_WORDS]:
        if token.casefold() in _WINDOW_ENDS:
            break
        parts = token.split("-")
        if not any(part.casefold() in _NOT_NATIONALITY for part in parts):
            for part in parts:
                key = NATIONALITIES.get(part.casefold()) if part[:1].isupper() else None
                if key is not None and previous.casefold() not in _OTHER_NATION:
                    found.add(key)
                previous = part
        previous = parts[-1]
    return frozenset(found)


def directors(quote: str) -> frozenset[str]:
    """The names `quote` says directed its subject (module docstring), initials closed up."""
    sentences = _SENTENCE_END.split(quote.strip())
    read = sentences[:1] + [s for s in sentences[1:2] if s.startswith("It ")]
    names = (
        re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", match.group("names"))
        for sentence in read
        for match in _DIRECTED_BY.finditer(sentence)
    )
    return frozenset(_closed_up(name) for found in names for name in found)


def surname(name: str) -> str:
    """The last word of a director's name, folded: two names with different ones are two people."""
    return name.split()[-1].casefold()


def _closed_up(name: str) -> str:
    return re.sub(r"\b([A-Z]\.)\s+(?=[A-Z]\.)", r"\1", " ".join(name.split()))
