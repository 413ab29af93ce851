"""Comparison questions: two lookups, a mechanical comparison, both quotes cited.

"Who is older, Annie Morton or Terry Richardson?" names two entities and asks which one
wins on a value each one's page states. The policy searches each name, opens the page
titled with it, reads the value *mechanically*, and answers with the winning name, citing
both pages with one quote each (docs/gate.md, "Multi-quote evidence"). Only values read
without judgement are compared:

- a **birth** or **death** date ("older", "younger", "born first", "died first"), from the
  brackets of the page's first sentence: "(born 14 August 1965)", "(1 May 1900 - 2 June 1980)";
- a **year of origin** ("released first", "formed earlier", "came out first" ...): the year
  right after "is a"/"was a" in the first sentence ("Dinosaur is a 2000 American ... film"),
  or in brackets right after the name that opens it ("The Battle of Guam (July 21 - August 10,
  1944)"), or after "in" a few words from a verb of origin ("formed in 2001");
- a **count** ("more acts"): the number just before the asked noun ("an opera in three acts");
  for "more members", the people a line-up sentence lists by name ("consisting of A (guitar), B
  (bass), and C (drums)", "It currently consists of lead vocalist A, ..."; not who formed it);
  for "larger population" / "more populous" (or smaller, less), the one population the page
  states ("(2011 population: 2,396)", "had a population of 9,629"), in the year the question
  names when it names one; for "the higher X number" (score, rating, index ...), the one number
  the page gives right after the phrase ("a Roud Folk Song Index number of 2571"). A value read
  past a page's first sentence is quoted with it, which names the page's subject;
- a **measure** ("longer", "higher above sea level"): the amount with its unit a page's opening
  marks as that measure, in one unit (`_compare_measures`).

Anything else - a value missing on either side, two values equal at the precision both
give, two pages with the same title, a name its page's quote does not spell - is a refusal,
not a guess. The answer is always one of the two names as the question writes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from citeloop.events import Hit, Page

from ._compare_dates import YEAR, date_key, origin_year
from ._compare_measures import asked_measure, measure_of
from ._life_dates import life_dates
from ._sentences import Sentence, split_sentences, stem, words
from ._two_hop import plain_title

Attribute = Literal["born", "died", "origin", "count"]

_NUMBER_NAMES: Final = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)  # fmt: skip
_NUMBERS: Final = {word: number for number, word in enumerate(_NUMBER_NAMES)}
# Words saying which of the things are counted: "a genus of 5 known species", "more known species".
_COUNTED: Final = frozenset(
    {"known", "recognized", "recognised", "accepted", "described", "extant", "living"}
)
# "Who is older, A or B?", "Which band was formed first: A or B?": the names after the last comma or colon.
# ("Which came out first: Out of Place, the film about surfers, or The Mosuo Sisters?": an appositive
# after the first name, opening with an article, says what it is.) A title's own colon stays in it:
# "..., Orlando: A Biography or The Duchess and the Jeweller?" (capitalised words after a comma, then ":").
_TITLE_BEFORE_COLON: Final = re.compile(r",\s*([A-Z0-9][\w'.&-]*(?:\s+[A-Z0-9][\w'.&-]*)*)$")
_PAIR: Final = re.compile(
    r"^(?P<head>.*?)(?P<sep>[,:]\s*|\s)(?P<a>[^,:]+?)(?:,\s+(?:the|a|an)\s[^,:]+?,)?\s+or\s+(?P<b>.+?)\s*(?:\?+|\.)?\s*$"
)


@dataclass(frozen=True, slots=True)
class Comparison:
    """Which of two named entities wins on one attribute (`smaller_wins`: the earlier date wins)."""

    first: str
    second: str
    attribute: Attribute
    smaller_wins: bool
    noun: str = ""
    noun_year: str = ""  # a census year the question names ("the larger population in 2011")
    numbered: str = ""  # the phrase a number is given after ("roud folk song index number")
    measure: str = ""  # a measure stated with its unit ("long", "high": `_compare_measures`)


@dataclass(frozen=True, slots=True)
class Reading:
    """The value one page gives, as a sortable key with its precision, and the sentence that gives it."""

    key: tuple[int, ...]
    sentence: Sentence


def offered(question: str) -> tuple[str, str] | None:
    """The two names a question offers to choose from ("..., Annie Morton or Terry Richardson?"), if any."""
    match = _PAIR.match(" ".join(question.split()))
    if match is None:
        return None
    first, second = (_trim(match.group(k)) for k in ("a", "b"))
    title = _TITLE_BEFORE_COLON.search(match.group("head")) if match.group("sep").strip() == ":" else None
    first = f"{title.group(1)}: {first}" if title is not None else first
    if match.group("sep").strip() == "" and not first[:1].isupper():
        # No comma before the pair ("who is younger Ulrich Walter or Luca Parmitano?"): the
        # first name is the run of capitalized words just before "or".
        tail = re.search(r"(?:[A-Z][\w.'\u2019-]*\s+(?:(?:of|the|de|and)\s+)?)*[A-Z][\w.'\u2019-]*$", first)
        first = tail.group(0) if tail is not None else ""
    if not first or not second or not _name_like(first) or not _name_like(second):
        return None
    if first.casefold() == second.casefold() or " or " in second:
        return None
    if first.isupper() and second.split()[-1][:1].islower():
        # "... when the first INSERT, UPDATE or DELETE statement runs?": keywords in capitals, and the
        # question goes on past the second: items of a list, not two names offered. (A name may end
        # in a lower-case word: only keywords are told apart so.)
        return None
    return first, second


def comparison(question: str) -> Comparison | None:
    """The comparison `question` asks for, or None when it is not one this module compares."""
    pair = offered(question)
    if pair is None:
        return None
    first, second = pair
    text = " ".join(question.split())
    head = text[: text.rfind(first)].casefold()  # what is asked: the words before the two names
    tokens = head.replace("?", " ").replace(",", " ").replace(":", " ").split()
    said = set(tokens)
    if said & {"older", "elder"}:
        return Comparison(first, second, "born", True)
    if "younger" in said:
        return Comparison(first, second, "born", False)
    graded = _GRADED_NUMBER.search(head)
    if graded is not None:
        # "Which nursery rhyme has the higher Roud Folk Song Index number, A or B?"
        lower = graded.group("dir") in ("lower", "smaller")
        return Comparison(first, second, "count", lower, "", numbered=graded.group("noun"))
    measure = asked_measure(head)
    if measure is not None and _POPULOUS.search(head) is None:
        # "Which is longer, A or B?", "Which peak rises higher above sea level, A or B?"
        return Comparison(first, second, "count", measure[1], "", measure=measure[0])
    populous = _POPULOUS.search(head)
    if populous is not None:
        census = YEAR.search(head)
        less = populous.group("less") is not None
        return Comparison(first, second, "count", less, "population", census.group(0) if census else "")
    early = bool(said & {"first", "earlier", "sooner"})
    late = bool(said & {"later", "last"})
    if early == late:
        more = re.search(rf"\bmore (?:(?:{'|'.join(_COUNTED)}) )?(\w+)", head)  # "more known species"
        if more is not None and more.group(1) not in {"recently", "popular", "famous", "successful"}:
            return Comparison(first, second, "count", False, stem(more.group(1)))
        # "Which opera has fewer acts, A or B?": the smaller count wins.
        fewer = re.search(rf"\bfewer (?:(?:{'|'.join(_COUNTED)}) )?(\w+)", head)
        return Comparison(first, second, "count", True, stem(fewer.group(1))) if fewer is not None else None
    if "born" in said:
        return Comparison(first, second, "born", early)
    if said & {"died", "die"}:
        return Comparison(first, second, "died", early)
    if tokens[:1] == ["who"]:
        # "Who was selected as an astronaut earlier, A or B?": the year a person's page opens with is a
        # birth, which dates no other event of a life.
        return None
    return Comparison(first, second, "origin", early)


def _trim(name: str) -> str:
    # A lower-case "the" is the question's ("the Battle of Guam"); "The Boatniks" is a name. So are the
    # lower-case words saying what the name is ("the chef George Duran", "the drummer Ara Babajian").
    name = name.strip(" \"'\u201c\u201d").removeprefix("the ").strip()
    described = re.match(
        r"(?!(?:de|van|von|der|da|di|del|la|le|du|al|bin|ibn) )(?:[a-z][\w-]* ){1,3}(?=[A-Z])", name
    )
    return name[described.end() :] if described is not None else name


def _name_like(name: str) -> bool:
    """A name opens with a capital, or with a number and then a capitalized word ("888 7th Avenue",
    "1-Hexanol")."""
    return name[:1].isupper() or re.match(r"\d[\w-]*(?: [\w-]+)* [A-Z]|\d+-[A-Z]", name) is not None


def title_hit(name: str, hits: tuple[Hit, ...]) -> Hit | None:
    """The hit titled `name`: the one whose plain title is it (the one titled with it alone, when
    "Ed Wood" and "Ed Wood (film)" both are); else the best hit whose title is part of it ("Manon"
    for "Manon by Massenet"); else the one whose title holds it. None if several tie."""
    folded = name.casefold()
    titles = [plain_title(h.title).casefold() for h in hits]
    exact = [h for h, title in zip(hits, titles, strict=True) if title == folded]
    if len(exact) > 1:
        # "Ed Wood" and "Ed Wood (film)": the page titled with the name alone is the name's own.
        exact = [h for h in exact if " ".join(h.title.split()).casefold() == folded] or exact
    if exact:
        return exact[0] if len(exact) == 1 else None
    if titles and titles[0] in folded:
        return hits[0]
    near = [h for h, title in zip(hits, titles, strict=True) if folded in title or title in folded]
    return near[0] if len(near) == 1 else None


def read_value(page: Page, what: Comparison) -> Reading | None:
    """The value `page` gives for the compared attribute, read mechanically, or None."""
    sentences = split_sentences(page.body)
    if not sentences:
        return None
    first = sentences[0]
    if what.attribute in ("born", "died"):
        born, died = life_dates(first.text)
        value = born if what.attribute == "born" else died
        key = date_key(value) if value is not None else None
        return Reading(key, first) if key is not None else None
    if what.attribute == "origin":
        for index, sentence in enumerate(sentences[:_ORIGIN_SENTENCES]):
            year = origin_year(sentence.text, opening=index == 0)
            if year is not None:
                # The second sentence is quoted with the first, which names the subject.
                span = _from_opening(page, first, sentence)
                return Reading((year,), span if index else sentence)
        return None
    for at, sentence in enumerate(sentences):
        if not _of_the_subject(sentence.text, at, page.title):
            continue  # "The publisher entrance ... goes up to 27 floors": the entrance's, not the tower's
        tokens = words(sentence.text)
        for index in range(1, len(tokens)):
            if stem(tokens[index]) == what.noun:
                # "a genus of 5 known species": a word saying which of them are counted may come between
                counted = index - 2 if index >= 2 and tokens[index - 1].casefold() in _COUNTED else index - 1
                count = _count(tokens[counted])
                if count is not None and 0 < at < _LINEUP_SENTENCES:
                    # "Containing approximately 700 species, ...": quoted with the first, naming the genus.
                    span = _from_opening(page, first, sentence)
                    return Reading((count,), span)
                if count is not None:
                    return Reading((count,), sentence)
    if what.measure:
        found = measure_of(sentences, what.measure)
        if found is None:
            return None
        family, amount, index = found
        span = _from_opening(page, first, sentences[index])
        # The family first: a length and a duration are no two values of one measure (`winner`).
        return Reading((_FAMILIES.index(family), round(amount * 1000)), span)
    if what.numbered:
        return _numbered(page, sentences, what.numbered)
    if what.noun == "population":
        return _population(page, sentences, what)
    if what.noun in _MEMBERS:
        for index, sentence in enumerate(sentences[:_LINEUP_SENTENCES]):
            listed = listed_members(sentence.text)
            if listed is not None:
                # A later sentence ("It currently consists of ...") is quoted with the first, naming the band.
                span = _from_opening(page, first, sentence)
                return Reading((listed,), span if index else sentence)
    return None


_MEMBERS: Final = frozenset({stem("member"), stem("members")})
# How far into a page a year of origin may be read ("One of the eight charter franchises, the club was
# founded in Detroit in 1901." is a team page's third sentence).
_ORIGIN_SENTENCES: Final = 3
# "Which town had the larger population?", "Which city is more populous?" (or less).
_POPULOUS: Final = re.compile(
    r"\b(?:(?:larger|bigger|higher|greater|largest|biggest|highest) population|(?:more|most) populous)\b"
    r"|(?P<less>\b(?:(?:smaller|lower|smallest|lowest) population|(?:less|least) populous)\b)"
)
# A population as a page states it: "had a population of 9,629", "(2011 population: 2,396)".
_POPULATION: Final = re.compile(
    r"\bpopulation(?::| (?:of|was|is|stood at|reached))(?: about| approximately| around| roughly)?"
    r" (\d[\d,]*)(?![\d,]*\.\d)"
)


# "the higher Roud Folk Song Index number", "a lower Elo rating": a number named by a phrase.
_GRADED_NUMBER: Final = re.compile(
    r"\b(?P<dir>higher|larger|greater|bigger|lower|smaller) (?P<noun>(?:[a-z0-9-]+ ){0,4}"
    r"(?:number|score|rating|ranking|index|total))\b"
)


def _numbered(page: Page, sentences: list[Sentence], phrase: str) -> Reading | None:
    """The one number the page gives right after the question's phrase ("It has a Roud Folk Song Index
    number of 2571."); None when it gives none or several."""
    words_of = r"\s+".join(re.escape(word) for word in phrase.split())
    given = re.compile(rf"(?i)\b{words_of}(?: of| is| was|:)? (\d[\d,]*)(?![\d,]*\.\d)")
    return _one_value(page, sentences, given)


def _one_value(
    page: Page, sentences: list[Sentence], given: re.Pattern[str], said: str = ""
) -> Reading | None:
    """The one number `given` reads in the page's sentences (its first group; only in those that say
    `said`, if given), quoted from the page's opening sentence, which names its subject, when the
    number stands in one of the next two; None when none, several different ones, or one further in."""
    found: dict[int, int] = {}
    for index, sentence in enumerate(sentences):
        if said and said not in sentence.text:
            continue
        for match in given.finditer(sentence.text):
            found.setdefault(int(match.group(1).replace(",", "")), index)
    if len(found) != 1:
        return None
    ((value, index),) = found.items()
    if index >= _LINEUP_SENTENCES:
        return None
    first, sentence = sentences[0], sentences[index]
    return Reading((value,), _from_opening(page, first, sentence))


def _population(page: Page, sentences: list[Sentence], what: Comparison) -> Reading | None:
    """The one population the page's sentences state (in the census year the question names, when
    it names one); None when none, or several different ones, are stated."""
    return _one_value(page, sentences, _POPULATION, said=what.noun_year)


# How far into a page a band's line-up may be read: its opening sentences.
_LINEUP_SENTENCES: Final = 3
# What introduces a band's present line-up: "consisting of A (guitar), B (bass) and C (drums)".
_LINEUP: Final = re.compile(
    r"\b(?:consists? of|consisting of|comprising|comprises|is made up of|is composed of"
    r"|(?:its|the) (?:current )?members are)\s+(?P<list>[^;:]+)"
)
_PERSON: Final = re.compile(r"\b[A-Z][\w'\u2019.-]+(?:\s+[A-Z][\w'\u2019.-]+)+$")


def listed_members(sentence: str) -> int | None:
    """How many people a sentence lists as a band's line-up, each named with two capitalized words or
    more, with a role before the name or in brackets after it ("lead vocalist Sam Harris", "Emma
    Richardson (bass, vocals)"); None when the sentence lists none, one, or an item that is no name."""
    lineup = _LINEUP.search(sentence)
    if lineup is None:
        return None
    listed = re.sub(r"\s*\([^()]*\)", "", lineup.group("list")).rstrip(" .")
    items = [item.strip() for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", listed) if item.strip()]
    if len(items) < 2 or not all(_PERSON.search(item) for item in items):
        return None
    return len(items)


def _of_the_subject(sentence: str, index: int, title: str) -> bool:
    """Whether a page's sentence may give the page's subject's count: not one opening with another
    thing as its subject ("The publisher entrance ... goes up to 27 floors" on a tower's page). The
    first sentence, one naming the title, "It ...", "Containing approximately 700 species, ...",
    "There are about 30 species ..." may."""
    if index == 0 or plain_title(title).casefold() in sentence.casefold():
        return True
    return re.match(r"(?:The|A|An)\s", sentence) is None


def _from_opening(page: Page, first: Sentence, sentence: Sentence) -> Sentence:
    """The page's text from its first sentence, which names its subject, to `sentence`, as one quote."""
    return Sentence(first.start, sentence.end, page.body[first.start : sentence.end])


def _count(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _NUMBERS.get(token.casefold())


_FAMILIES: Final = ("length", "time")


def winner(what: Comparison, one: Reading, other: Reading) -> int | None:
    """0 when the first entity wins, 1 for the second, None when the values cannot be told apart."""
    if what.measure and one.key[0] != other.key[0]:
        return None  # a length against a duration
    width = min(len(one.key), len(other.key))
    a, b = one.key[:width], other.key[:width]
    if a == b:
        return None
    first_smaller = a < b
    return 0 if first_smaller == what.smaller_wins else 1
