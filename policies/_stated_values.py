"""What one quote states of its subject's nationality, a film's director or its year, read mechanically.

`_same_value` answers, and the gate's `same-value` method checks, yes-or-no questions by these
two readers; both err towards reading nothing, which makes the question a refusal.

- **Nationality**: the nationality words (`_nationalities`) among the first six words after
  the quote's first "is"/"was" outside brackets, capitalized, before a word that starts
  describing something else ("by", "of", "about", "in" ...: "a novel by Irish writer James
  Joyce" states no nationality of the novel). A word joined to "language", "born", "style"
  ... ("French-language", "German-born") is not the subject's nationality, nor is one after
  "South", "Northern", "New" ... ("South Sudanese" is not Sudanese).
- **Director**: the names after "directed by" (also "directed and produced by", "directed by
  Canadian director ...", and a film's maker as Wikipedia writes it: "a 2010 documentary film by
  ...") in the quote's first sentence, unless another work is named before them ("a remake of",
  "about the making of" ...), or in the next one when it opens with "It" or "The film" and says
  who directed it ("It was made by ... and directed by", "The film, directed by ...") - never
  a later sentence, which may name the director of something else. Accents are folded. Initials are
  written closed up ("D. W. Griffith" = "D.W. Griffith"), and a name ends at a full stop that
  does not follow an initial ("directed by Steven Spielberg. It stars ...").
- **Year**: the years (1000-2099) the quote's definition writes (after its first "is"/"was", up to a
  comma or "which"/"that"/"who": "A Film Unfinished is a 2010 documentary film by Yael Hersonski,
  which re-examines ... an unfinished 1942 Nazi propaganda film" -> 2010), else the whole quote's,
  outside brackets: a life's dates are no year of the subject. Two years settle nothing ("a 1960
  film based on the 1950 novel").
"""

from __future__ import annotations

import re
import unicodedata
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
    {"language", "speaking", "born", "based", "style", "era", "descent", "origin", "owned", "made", "trained",
     "football", "rules"}
)  # fmt: skip
# A word before a nationality that makes it another nation's ("South Sudanese", "Latin American").
_OTHER_NATION: Final = frozenset(
    {"north", "south", "northern", "southern", "east", "west", "equatorial", "new", "papua", "latin",
     "central", "pan", "ibero", "bissau"}
)  # fmt: skip
# Joined to a nationality by a hyphen, these make two nations of one ("Anglo-Australian"): read as unknown.
_COMBINING: Final = frozenset(
    {"anglo", "austro", "franco", "sino", "indo", "italo", "russo", "greco", "hispano", "luso", "afro",
     "euro", "judeo", "irano"}
)  # fmt: skip
# A value a quote writes so that it names no single nation: it settles nothing.
UNREAD: Final = "?"
# ", who ...,", ", whose father was Kenyan,": a relative clause before the copula is not the definition.
_RELATIVE: Final = re.compile(r",\s*(?:who|whose|which|where)\b[^,]*,")
_NAME_WORD: Final = r"(?:[A-Z]\.\s*)*[A-Z][\w'\u2019-]+"
_PERSON: Final = rf"{_NAME_WORD}(?:\s+(?:(?:de|da|von|van|der|del|la|le)\s+)?{_NAME_WORD})*"
# "directed by Jane Doe", "directed and produced by ...", "directed by Canadian director Jane Doe", and
# a film's maker as Wikipedia names it: "a 2010 documentary film by Jane Doe".
_DIRECTED_BY: Final = re.compile(
    r"(?:\bdirected(?:\s*,?\s*(?:and\s+)?(?:co-)?(?:produced|written|edited))*|\b(?:film|documentary|movie))"
    r"\s+by\s+(?:(?:the\s+)?(?:[A-Z][a-z]+\s+)?(?:director|filmmaker|film-maker|animator)\s+)?"
    rf"(?P<names>{_PERSON}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){_PERSON})*)"
)
# Before "directed by", these make it another work's director ("a remake of X, directed by Y").
_ANOTHER_WORK: Final = re.compile(
    r"\b(?:remake|sequel|adaptation|version|prequel|spin-off|follow-up|making) (?:of|to)\b"
    r"|\b(?:based on|about)\b"
)
# A sentence ends at ". " before a capital, unless the full stop closes an initial ("D. W.") or a title.
_SENTENCE_END: Final = re.compile(
    r"(?<!\b[A-Z])(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bSt)(?<!\bMrs)[.!?]\s+(?=[A-Z\"'\u201c])"
)


def nationalities(quote: str) -> frozenset[str]:
    """The nationalities (`_nationalities` names) `quote` states of its subject (module docstring);
    `UNREAD` among them when one is written so that it names no single nation."""
    bare = _RELATIVE.sub(" ", re.sub(r"\([^()]*\)", " ", quote))
    copula = _COPULA.search(bare)
    if copula is None:
        return frozenset()
    tokens = _TOKEN.findall(bare[copula.end() :])[:_DEFINING_WORDS]
    found: set[str] = set()
    previous = ""
    for index, token in enumerate(tokens):
        if token.casefold() in _WINDOW_ENDS:
            break
        parts = token.split("-")
        following = tokens[index + 1].casefold() if index + 1 < len(tokens) else ""
        # "French-language", "Spanish language": a language, a birthplace, a style - not a nationality.
        if not {part.casefold() for part in parts} & _NOT_NATIONALITY and following not in _NOT_NATIONALITY:
            if {part.casefold() for part in parts} & _COMBINING:
                found.add(UNREAD)  # "Anglo-Australian", "Austro-Hungarian": more than one nation
            for part in parts:
                key = NATIONALITIES.get(part.casefold()) if part[:1].isupper() else None
                if key is not None and previous.casefold() not in _OTHER_NATION:
                    found.add(key)
                previous = part
        previous = parts[-1]
    return frozenset(found)


# A second sentence about the same work that says who directed it: "It was directed by X", "It was
# made by ..., released by ... and directed by X", "The film, directed by X, is based on ...".
_POINTS_BACK_DIRECTED: Final = re.compile(r"(?:It|The film)\b[^.;]*?\bdirected by\b")


def directors(quote: str) -> frozenset[str]:
    """The names `quote` says directed its subject (module docstring), initials closed up, accents
    folded ("Oshima" for "Ōshima"): the first "directed by" of its first sentence, unless another
    work is named before it ("a remake of X, directed by Y"), or an "It was directed by" (or "The
    film, directed by") after it."""
    sentences = _SENTENCE_END.split(_unaccented(quote).strip())
    first = _DIRECTED_BY.search(sentences[0])
    if first is not None and _ANOTHER_WORK.search(sentences[0][: first.start()]):
        first = None
    if first is None and len(sentences) > 1 and _POINTS_BACK_DIRECTED.match(sentences[1]):
        first = _DIRECTED_BY.search(sentences[1])
        if first is not None and _ANOTHER_WORK.search(sentences[1][: first.start()]):
            first = None  # "It is the sequel to Halloween, directed by John Carpenter."
    if first is None:
        return frozenset()
    return frozenset(
        _closed_up(name) for name in re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", first.group("names"))
    )


def surname(name: str) -> str:
    """The last word of a director's name, folded."""
    return name.split()[-1].casefold()


def initialled(name: str) -> bool:
    """Whether a name is written with initials: "D.W. Griffith" may be "David Wark Griffith"."""
    return re.search(r"\b[A-Z]\.", name) is not None


def _closed_up(name: str) -> str:
    return re.sub(r"\b([A-Z]\.)\s+(?=[A-Z]\.)", r"\1", " ".join(name.split()))


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


_YEAR: Final = re.compile(r"(?<![\w.,-])(1\d{3}|20\d{2})(?![\w-]|\.\d|,\d)")


def years(quote: str) -> frozenset[str]:
    """The years `quote` writes outside brackets (module docstring): those of its definition (after the
    first "is"/"was", up to a comma or a relative clause) when it writes one there."""
    bare = re.sub(r"\([^()]*\)", " ", quote)
    copula = _COPULA.search(bare)
    if copula is not None:
        clause = re.split(r",|;| which | that | who ", bare[copula.end() :], maxsplit=1)[0]
        defined = frozenset(_YEAR.findall(clause))
        if defined:
            return defined
    return frozenset(_YEAR.findall(bare))
