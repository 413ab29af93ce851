"""Whether a second hop's page answers as the question asks: the bridge as the noun asked, a doer by "by".

A nested question may be answered by the bridge itself ("under which former Governor of Arkansas?" ->
the page of the man "he was the 40th Governor of Arkansas"), but only when the bridge's page says it
is the noun the question asks for: "Animorphs is a science fantasy series" answers no "Which
publisher ...?", nor does the sarod's page "What is the name for the continuous slides ...?", nor a
district "Which former General Secretary of the ... Party ...?", nor a city "What is the approximate
urban population of the city whose ...?", nor an author "... is based in what New York city?". On the
bridge's page, what the question names is the bridge: "End of Days is a 1999 film directed by Peter
Hyams" says who directed it, a name read whole after "by".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ._questions import CHOOSES_ONE, STOPWORDS, Question
from ._sentences import Sentence, stem, words
from ._short_answer import says_verb, verb_forms, which_noun, which_verb

# The noun a "which N <verb>" or "what N <verb>" question asks for ("Which publisher issued ...?"), and
# the one "the name for the N that ..." asks the name of ("the continuous slides between notes").
_ASKED_NOUN: Final = re.compile(
    # (after a sentence that sets the question up, too: "... a young adult book series. Which company ...?")
    r"(?:^|[.;,] )\s*(?:(?:[Ii]n|[Oo]f|[Ff]or|[Aa]t|[Oo]n) )?(?:[Ww]hich|[Ww]hat) "
    r"(?:[a-z-]+ ){0,3}?([a-z]{3,})"
    # (an irregular past too: "Which publisher put out that series?")
    r" (?:[a-z]+ed|is|was|are|were|put|made|wrote|built|won|led|ran|held|bought|sold|gave|took|began|sang"
    r"|brought|did|does|do|has|had|have)\b"
    r"|\bname (?:for|of) (?:the |a |an )?(?:[a-z-]+ ){0,2}?([a-z]{3,})(?= (?:that|which|who|between|of|in)\b)"
    # "Which former General Secretary of the Communist Party ... was born in ...?": a title asked for
    r"|^\s*[Ww]hich (?:[A-Za-z-]+ ){0,2}?([A-Za-z]{3,}) of (?:the )?[A-Z]"
    # "What is the approximate urban population of the city whose ...?": the measure, not the city
    # (or of a named index: "What is the Roud Folk Song Index number of the song ...?")
    r"|^\s*[Ww]hat (?:is|was|are|were) (?:the |an? )(?:[\w-]+ ){0,4}?([a-z]{3,}) of (?:the |an? )"
    # "The director of ... is based in what New York city?": the noun asked for at the question's end
    r"|\b(?:in|into|to|until|during|since|at|on|from|near|by|of|for|with) (?:what|which) "
    r"(?:[A-Z][\w-]* ){0,3}?(?:[a-z-]+ ){0,2}?([a-z]{3,})\s*\??\s*$"
)


def typed_as_asked(question: str, opening: Sequence[Sentence]) -> bool:
    """Whether the bridge's page opening says the bridge is the noun the question asks for, "is a ... N"
    (or the question asks for no noun this reads): "Animorphs is a ... series" is no publisher."""
    asked = _ASKED_NOUN.search(question)
    noun = next((group for group in asked.groups() if group), None) if asked is not None else None
    if noun is None or noun.casefold() in _VAGUE_NOUNS:
        return True
    noun = noun.casefold()
    typed = re.compile(rf"(?i)\b(?:is|was|are|were) (?:a|an|the)(?: [\w-]+){{0,4}}? {re.escape(noun)}s?\b")
    return any(typed.search(sentence.text) for sentence in opening)


# Nouns too wide to type anything by.
_VAGUE_NOUNS: Final = frozenset({"one", "thing", "name", "person", "people", "man", "woman", "entity"})


# Kinds of place a name often ends with ("Andaman Sea", "Orange County"): asked for one, a name ending
# with another kind is not it ("In which sea did the cyclone ...?" is no "North Indian Ocean").
_PLACE_KINDS: Final = frozenset(
    {"sea", "ocean", "river", "lake", "bay", "gulf", "strait", "island", "mountain", "desert", "valley"}
    | {"peninsula", "canal", "county", "city", "province", "district"}
    # (and of events and bodies a name ends with: "Which campaign ...?" is no "American Civil War")
    | {"war", "battle", "campaign", "siege", "university", "college"}
)
_ASKED_KIND: Final = re.compile(
    rf"(?i)\b(?:which|what) (?:[a-z-]+ ){{0,2}}?({'|'.join(sorted(_PLACE_KINDS))})s?\b"
)


def another_kind(question: str, answer: str) -> bool:
    """Whether `answer` ends with a kind of place other than the one `question` asks for."""
    asked = _ASKED_KIND.search(question)
    last = answer.rstrip(" .,").rsplit(" ", 1)[-1].casefold().removesuffix("s")
    return asked is not None and last in _PLACE_KINDS and last != asked.group(1).casefold()


def unfit_span(question: Question, answer: str, sentence: str) -> bool:
    """Whether a span of the bridge's page is of another kind than asked: another kind of place
    (`another_kind`), a thing for "who", or the name in a sentence saying neither the noun nor the
    verb of "which N <verb>" ("Which firm designed the skyscraper ...?" is not answered by "888 7th
    Avenue is a ... skyscraper in Midtown Manhattan", which says nothing of who designed it)."""
    if another_kind(question.text, answer) or (question.kind == "who" and names_a_thing(answer)):
        return True
    # "Who directed the film ...?": a sentence that says no directing names no director ("... starring
    # Sela Ward as PI Bobbi Bacha of Blue Moon Investigations").
    done = verb_forms(question.text) if question.kind == "who" else None
    if done is not None and not any(says_verb(w, done) for w in words(sentence)):
        return True
    noun = which_noun(question.text) if question.kind == "which" else None
    if noun is None:
        return False
    told = words(sentence)
    if stem(noun) in {stem(w) for w in told}:
        return False
    asked = re.search(rf"\b{re.escape(noun)}s?\b", question.text)
    forms = which_verb(question.text, asked.end()) if asked is not None else None
    return forms is None or not any(says_verb(w, forms) for w in told)


def which_unsaid(question: str, sentence: str) -> bool:
    """Whether a "which N" question ("Which Kentucky author has had works published by X?") is
    answered from a sentence that never says N: the name it gives is not said to be an N."""
    noun = which_noun(question)
    if noun is None:
        return False
    told = {stem(w) for w in words(sentence)}
    # The word that says which kind of N, too: "To which plant family ...?" is no butterfly's family.
    kind = re.search(rf"\b([a-z][a-z-]+) {re.escape(noun)}s?\b", question)
    unsaid_kind = kind is not None and kind.group(1) not in STOPWORDS and stem(kind.group(1)) not in told
    return stem(noun) not in told or unsaid_kind


def whole_name(name: str | None, text: str) -> str | None:
    """`name` when `text` writes it as a whole name after "by" (the doer of the asked verb, at most two
    words between), no capitalized word right before or after it (reading the bridge's words as asked
    cuts "Agnes" out of "Agnes Calder")."""
    if name is None:
        return None
    whole = rf"\bby (?:[\w-]+ ){{0,2}}(?<![A-Z][\w'.-] ){re.escape(name)}(?! [A-Z])"
    return name if re.search(whole, text) is not None else None


# A question asking what something was called, or known as, then: a name it no longer goes by.
_CALLED_THEN: Final = re.compile(
    r"\b(?:was|were) (?:it|they|he|she|the [\w-]+(?: [\w-]+)?) (?:originally |first |formerly )?"
    r"(?:called|named|known as)\b",
    re.IGNORECASE,
)


# The question a sentence setting it up leads to, when it asks no name: "... chairs an evangelical
# magazine. Where is that magazine based?" asks a place, so the bridge (the magazine) is no answer.
_ASKS_NO_NAME: Final = re.compile(r"[.;]\s+(?:[Ww]here|[Ww]hen|[Hh]ow|[Ww]hy)\b[^.;]*$")
# A question whose subject is what it describes: "The actor who played X played which character ...?".
_DESCRIBED_SUBJECT: Final = re.compile(
    r"\s*The\s+(?:[\w'-]+\s+){0,3}?(?:of|who|that|whose)\b[^?]*\b(?:which|what)\b"
)


def asks_no_name(question: str) -> bool:
    """Whether the question a preamble sentence leads to asks where, when, how or why (not a name), or
    the question's subject is what it describes ("The actor who played General Hammond ... played which
    character in Twin Peaks?"): the bridge, that subject, is then no answer."""
    return _ASKS_NO_NAME.search(question) is not None or _DESCRIBED_SUBJECT.match(question) is not None


# What a person's name does not end with: a kind of place, building, body or work ("Georgia Dome" is
# no one asked "Who was named Most Valuable Player ...?").
_THING_ENDINGS: Final = _PLACE_KINDS | frozenset(
    {"dome", "stadium", "arena", "park", "hall", "center", "centre", "bridge", "street", "tower", "building"}
    | {"church", "cathedral", "school", "airport", "station", "company", "corporation", "records", "band"}
    | {"album", "film", "series", "league", "party", "award", "prize", "cup", "championship", "bowl"}
)


def names_a_thing(answer: str) -> bool:
    """Whether `answer` ends with a word naming a kind of place or thing, or names a state ("People's
    Republic of China"), so it names no person."""
    named = answer.rstrip(" .,").split()
    return bool(named) and (
        named[-1].casefold() in _THING_ENDINGS or any(w.casefold() in _STATE_WORDS for w in named)
    )


_STATE_WORDS: Final = frozenset({"republic", "kingdom", "empire", "federation", "emirate", "sultanate"})


def wrong_kind(question: str, kind: str, answer: str) -> bool:
    """Whether `answer` is of another kind than asked: another kind of place (`another_kind`), a thing
    for "who", neither of two names a comparison offers ("Which genus contains more species, Sorbaria
    or goldenrod?" is no "Rosaceae"), or a span of years for "which year"."""
    offered = _OFFERED_CHOICE.search(question) or CHOOSES_ONE.search(question)
    # (as the question spells one of them, at least in its first word: "Ajuga, also known as bugleweed")
    named = answer.split()[:1]
    unoffered = offered is not None and not (named and named[0].casefold() in question.casefold())
    # "In which year did X launch ...?" asks one year: "March 2011 until March 2017" is a span of two.
    years = set(re.findall(r"\b(?:1[0-9]|20)[0-9]{2}\b", answer))
    span = _ONE_YEAR.search(question) is not None and len(years) > 1
    return another_kind(question, answer) or (kind == "who" and names_a_thing(answer)) or unoffered or span


_ONE_YEAR: Final = re.compile(r"(?i)\b(?:which|what) year\b")


_OFFERED_CHOICE: Final = re.compile(
    r"(?i)\b(?:more|fewer|less|larger|smaller|bigger|older|younger|earlier|later|first|longer|shorter|taller"
    r"|higher|lower)\b[^?]*?[,:]\s*([^,:?]+?)\s+or\s+([^,:?]+?)\s*\??\s*$"
)
# The question a sentence setting it up leads to, when it asks a person, a time, a place or an amount:
# a whole sentence is no answer to it ("... Who directed that film?", "... What number president ...?").
_ASKS_TYPED_LAST: Final = re.compile(
    r"[.;]\s+(?:[Ww]ho|[Ww]hom|[Ww]hen|[Ww]here|[Hh]ow (?:many|much|long|old)|[Ww]hat (?:number|year|date))\b"
    r"[^.;]*$"
)


def asks_typed_last(question: str) -> bool:
    """Whether the question after a sentence setting it up asks a person, time, place or amount."""
    return _ASKS_TYPED_LAST.search(question) is not None


def asks_another_name(question: str) -> bool:
    """Whether `question` asks for another name than the bridge's own: what something was called then
    ("What was the club called during that first year?"), or another thing of the bridge's kind
    ("The instrument X plays is, along with which other instrument, ...?"). The bridge is then no answer."""
    return _CALLED_THEN.search(question) is not None or _OTHER_ASKED.search(question) is not None


_OTHER_ASKED: Final = re.compile(r"(?i)\b(?:which|what) other\b")
