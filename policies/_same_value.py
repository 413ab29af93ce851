"""Yes-or-no questions about two named entities that one value read from each page settles.

"Were Scott Derrickson and Ed Wood of the same nationality?" names two entities and asks
whether a value each one's page states is the same. Two kinds of value are read, each
mechanically from the page's opening sentence (`_stated_values`): a **nationality** of the
subject ("Scott Derrickson (born July 16, 1966) is an American director" -> American; a thing
published, based or made in a country is read the same way: "Parents is an American
magazine"), a **director** ("... a 2014 documentary directed by Jane Doe"), and a **year** ("One
Big Hapa Family is a 2010 Canadian documentary film").

The questions, and what answers them:

- "the same": "Were A and B of the same nationality?", "Are A and B published in the same
  country?" (published, made, produced, printed; never born, set, located, based or
  headquartered: a birthplace, a setting or a seat is no nationality), "Were A and B directed by the
  same person?", "Are A and B by the same director?"
  -> "yes" when both pages state one value and it is the same (for directors, the same names),
  "no" when they state different ones (no director in common);
- "the same year": "Were A and B released (founded, formed, published ...) in the same year?", and
  "both" a year: "Were A and B both released in 2004?" -> the year each opening sentence writes
  (one each, else a refusal);
- "both" a nationality: "Are both A and B Argentinian authors?" -> "yes" when both pages state
  that nationality and their definitions hold the question's other words ("author"), "no"
  when a page states only another nationality. A nationality joined to another word asks
  something else ("both American-born", "Spanish-language films") and is not read.

Anything else - a value missing on either side, two nationalities on one page ("a
Canadian-American actor"), English against British or Soviet against Russian (a part against
the whole), co-directors with one in common - is a refusal, not a guess. The gate settles a
finish's "yes" or "no" against its quotes with the same reading (runtime/_support_same.py),
so the answer is checked, not taken on trust.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from ._nationalities import NATIONALITIES, WHOLES
from ._sentences import Sentence, split_sentences, stem, words
from ._stated_values import UNREAD, directors, initialled, nationalities, surname, years

Attribute = Literal["nationality", "director", "year"]
Verdict = Literal["yes", "no"]

_AUX: Final = r"(?:are|were|is|was)"
# "of the same nationality", "from the same country", "published in the same country": a country
# that is the thing's own. Born, set, located, based or headquartered in a country is not a
# nationality ("an Argentine company headquartered in Montevideo"): not read.
_SAME_NATIONALITY: Final = (
    r"(?:(?:both\s+)?(?:of|from|have|share)\s+the\s+same\s+(?:nationality|citizenship|country)"
    r"|(?:both\s+)?(?:published|made|produced|printed)\s+in\s+the\s+same\s+country)"
)
_SAME_DIRECTOR: Final = (
    r"(?:(?:both\s+)?(?:directed|made|filmed)\s+by\s+the\s+same\s+(?:person|director|man|woman|filmmaker)"
    r"|(?:both\s+)?by\s+the\s+same\s+(?:director|filmmaker))"
)
# "released in the same year", "both founded in 2004": the year a work, a band, a company dates from.
_DATED: Final = r"(?:released|founded|established|formed|published|premiered|launched|created|written)"
_SAME_YEAR: Final = rf"(?:both\s+)?{_DATED}\s+in\s+the\s+same\s+year"
_SAME: Final = re.compile(
    rf"^{_AUX}\s+(?:both\s+)?(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+"
    rf"(?:(?P<nationality>{_SAME_NATIONALITY})|(?P<director>{_SAME_DIRECTOR})|(?P<year>{_SAME_YEAR}))\s*\?$",
    re.IGNORECASE,
)
_BOTH_IN_YEAR: Final = re.compile(
    rf"^{_AUX}\s+(?P<lead>both\s+)?(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+(?P<tail>both\s+)?{_DATED}\s+in\s+"
    r"(?P<asked>1\d{3}|20\d{2})\s*\?$",
    re.IGNORECASE,
)
# "Are both A and B Argentinian authors?", "Were A and B both American film directors?"
_CAPITAL: Final = re.compile(r"\b[A-Z]")
_BOTH: Final = re.compile(rf"^{_AUX}\s+(?P<lead>both\s+)?(?P<body>.+?)\s*\?$", re.IGNORECASE)
# Where the pair ends: a nationality after it ("... Hall Argentinian authors"), "both" and "a" allowed before.
# "American-born", "Spanish-language": a nationality joined to another word asks something else.
_NATION: Final = re.compile(r"\s+(?P<tail>both\s+)?(?:an?\s+)?(?P<nation>[A-Z][a-z]+)\b(?!-)(?P<rest>.*)$")


@dataclass(frozen=True, slots=True)
class SameValueQuestion:
    """A yes-or-no question settled by one value from each of two pages."""

    first: str
    second: str
    attribute: Attribute
    asked: str = ""  # for "both <nationality>": that nationality; "" for "the same"
    rest: tuple[str, ...] = ()  # the words after it ("authors"), which each definition must hold


def same_value_question(question: str) -> SameValueQuestion | None:
    """The question `question` asks, when it is one of the module docstring's forms."""
    text = " ".join(question.split())
    same = _SAME.match(text)
    if same is not None:
        attribute: Attribute = (
            "nationality" if same.group("nationality") else "director" if same.group("director") else "year"
        )
        return _named(same.group("a"), same.group("b"), attribute)
    dated = _BOTH_IN_YEAR.match(text)
    if dated is not None and (dated.group("lead") is None) != (dated.group("tail") is None):
        # "Were A and B both released in 2004?": "both" says it is asked of the two names.
        found = _named(dated.group("a"), dated.group("b"), "year")
        return None if found is None else replace(found, asked=dated.group("asked"))
    both = _BOTH.match(text)
    if both is None:
        return None
    body = both.group("body")
    joined = body.find(" and ")
    starts = (at.start() for at in re.finditer(r"\s+", body) if at.start() > joined + 4)
    tries = (_NATION.match(body, start) for start in starts)
    # The nationality asked is followed by lower-case words only ("... Hall Argentinian authors"): one
    # inside a title ("The French Lieutenant's Woman British films") is not it.
    ends = (
        m
        for m in tries
        if m is not None
        and m.group("nation").casefold() in NATIONALITIES
        and not _CAPITAL.search(m.group("rest"))
    )
    end = next(ends, None) if joined > 0 else None
    if end is None or (both.group("lead") is None) == (end.group("tail") is None):
        return None  # "both" says it is asked of the two names; without it, "Are A and B ..." is a list
    rest = tuple(w for w in words(end.group("rest")) if len(w) > 2)
    found = _named(body[:joined], body[joined + 5 : end.start()], "nationality")
    asked = NATIONALITIES[end.group("nation").casefold()]
    return None if found is None else SameValueQuestion(found.first, found.second, "nationality", asked, rest)


def stated_values(quote: str, attribute: Attribute) -> frozenset[str]:
    """The values `quote` states (`_stated_values`): nationalities ("Argentine"), directors' names or
    years ("2010")."""
    if attribute == "year":
        return years(quote)
    return directors(quote) if attribute == "director" else nationalities(quote)


def settle(what: SameValueQuestion, sentences: Sequence[str]) -> Verdict | None:
    """ "yes" or "no" from the first and second entity's sentences, or None when they do not settle it."""
    stated = [stated_values(sentence, what.attribute) for sentence in sentences]
    if any(UNREAD in values for values in stated):
        return None  # "Anglo-Australian": no single nation
    if what.asked:
        # A page stating only other nationalities settles "no"; "yes" needs both to state the asked one alone.
        if any(
            values and what.asked not in values and not _within_one_union(values | {what.asked})
            for values in stated
        ):
            return "no"
        if all(values == {what.asked} for values in stated):
            return "yes" if all(_holds(sentence, what.rest) for sentence in sentences) else None
        return None
    first, second = stated
    if what.attribute == "director" and first and second:
        # The same names is "yes"; "no" only when no name is shared and none could be another's
        # spelling: co-directors with one in common, a one-word name, or one surname with initials
        # on a side ("D.W. Griffith", "David W. Griffith") settle nothing; Tony and Ridley Scott differ.
        if first == second:
            return "yes"
        if first & second or any(len(name.split()) < 2 for name in first | second):
            return None
        spelled = any(
            surname(a) == surname(b) and (initialled(a) or initialled(b)) for a in first for b in second
        )
        return None if spelled else "no"
    if len(first) != 1 or len(second) != 1:
        return None  # a value missing, or two on one page ("English-born American")
    if first == second:
        return "yes"
    return None if _within_one_union(first | second) else "no"


def _named(first: str, second: str, attribute: Attribute) -> SameValueQuestion | None:
    # "the documentaries Out of Place": the lower-case words before a name describe it.
    first = re.sub(r"^(?:[a-z]+\s+)+(?=[^\W\d_a-z]|[0-9\"'])", "", first.strip(" \"'"))  # ("Über Goober")
    second = second.strip(" \"'").removeprefix("the ")
    if not first[:1].isupper() or not second[:1].isupper() or first.casefold() == second.casefold():
        return None
    if second.casefold() in ("the", "a", "an") or first.casefold() in ("the", "a", "an"):
        return None  # a name cut at its article: the pair was read wrongly
    if _ANOTHER_NAME.search(first) or _ANOTHER_NAME.search(second) or "," in first or "," in second:
        return None  # three names or more: not a pair ("Charley and the Angel" is one title)
    return SameValueQuestion(first, second, attribute)


# "and" before a capital starts another name; before a lower-case word it is part of a title.
_ANOTHER_NAME: Final = re.compile(r" and (?![a-z])")


def _holds(sentence: str, rest: Sequence[str]) -> bool:
    said = {stem(w) for w in words(sentence)}
    return all(stem(w) in said for w in rest)


def _within_one_union(keys: frozenset[str]) -> bool:
    """English against British or Scottish, Soviet against Russian: a nationality that is part of
    another, or two parts of the United Kingdom, are neither plainly the same nor plainly different,
    so they settle nothing. (Soviet against American, or Czech against Slovak, do.)"""
    if any(whole in keys and keys & parts for whole, parts in WHOLES.items()):
        return True
    return len(keys & WHOLES["British"]) > 1


def value_sentence(body: str, attribute: Attribute) -> Sentence | None:
    """The quote that states a page's value: its opening sentence, with the next one when that
    opens with "It" or "The film" ("It was directed by ..."), if the reader finds a value there."""
    sentences = split_sentences(body)
    if not sentences:
        return None
    end = sentences[0].end
    if len(sentences) > 1 and sentences[1].text.startswith(("It ", "The film")):
        end = sentences[1].end
    quote = Sentence(sentences[0].start, end, body[sentences[0].start : end])
    return quote if stated_values(quote.text, attribute) else None
