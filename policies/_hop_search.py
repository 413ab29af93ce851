"""Finding a second hop among opened pages, for `ExtractivePolicy` (split out of `_extractive`).

`multi_hop` tells a question that nests another; `hops` reads the pages already open for a
page naming another one's title whose page answers (`_two_hop`); `bridge_search` picks the
name to search for when none does, and `bridge_query` the query when it finds no name;
`named_hit` picks, among search hits, the one an opened page names as a bridge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from citeloop.events import Hit, Page

from ._extractive_score import capitalized_runs, score_sentences
from ._questions import Question
from ._sentences import stem, words
from ._two_hop import BRIDGE_SENTENCES, Hop, bridge_names, find_bridges, plain_title, second_hop
from ._view import RunView

# Words that open a relative clause: "the woman who portrayed ...", "the group that formed ...".
# Wider than `_RELATIVES` (the words `described` reads a noun before): "where" and "when" too.
_RELATIVE: Final = frozenset({"who", "whom", "whose", "which", "that", "where", "when"})


def multi_hop(question: Question) -> bool:
    """Whether the question nests a second question: in a relative clause ("... by the man who ..."),
    or in a description by a participle ("a movie starring X", "a show hosted by whom")."""
    lowered = [w.casefold() for w in words(question.text)]
    if _RELATION_OF.search(question.text) is not None:
        return True
    return any(w in _RELATIVE for w in lowered[2:-1]) or _NESTED.search(question.text) is not None


# "the author of Seven Brief Lessons on Physics", "the winner of the 2017 Fine Gael leadership election":
# someone named by a relation to a thing the question names, whom a second page is about.
_RELATION_OF: Final = re.compile(
    r"\bthe (?:father|mother|son|daughter|wife|husband|brother|sister|founder|creator|author|director"
    r"|singer|composer|writer|producer|owner|designer|architect|inventor|developer|publisher"
    r"|host|narrator|illustrator|editor|coach|captain|winner) of (?:the |a )?(?:[\w-]+ ){0,2}"
    r"[\"\u201c]?[A-Z0-9]"
)


# "a movie starring ...", "the show hosted by ...": an unnamed thing described by what it did.
_NESTED: Final = re.compile(
    r"\b(?:a|an|the)\s+(?:[a-z]+\s+){0,2}[a-z]+\s+(?:starring|featuring|hosted|directed|written|owned|founded|co-founded"
    r"|based|located|named|known|released|produced|published|created)\b"
)


def hops(
    question: Question, pages: Mapping[str, Page], order: list[str], *, named_only: bool = False
) -> list[Hop]:
    """Two-hop answers among the opened pages: a page naming another opened page's title, which answers
    (`named_only`: only when the title itself is the answer, `second_hop`)."""
    ranked = [pages[url] for url in dict.fromkeys([*order, *pages]) if url in pages]
    titles = {plain_title(page.title): page.url for page in ranked}
    found: list[Hop] = []
    asked = {w.casefold() for w in words(question.text)}
    for first in ranked:
        # A chain starts at a page the question names ("... thanKing Horse pub chain" still names
        # "Hungry Horse" by a word): from another, it reads on from a page the question is not about
        # (the album's page to one of its singles, for "the album with On My Mind").
        if not _names_title(question.text, asked, plain_title(first.title)):
            continue
        for bridge in find_bridges(question, first, titles):
            hop = second_hop(question, bridge, pages[titles[bridge.name]], named_only=named_only)
            if hop is not None:
                found.append(hop)
    found.sort(key=lambda hop: -hop.overlap)  # stable: ties keep the search order
    return found


def _names_title(question: str, asked: set[str], title: str) -> bool:
    """Whether the question names a page's title: by one of its words of four letters or more, or,
    a title of short words only ("Oh My God"), by the whole title."""
    long = [w.casefold() for w in words(title) if len(w) >= 4]
    if long:
        return any(w in asked for w in long)
    whole = rf"(?<!\w){re.escape(title.casefold())}(?!\w)"
    return bool(title) and re.search(whole, question.casefold()) is not None


def bridge_search(question: Question, opened: list[Page]) -> str | None:
    """The name to search alone for the second hop: one an opened page's best sentences add that is no
    opened page's title, of two words or more.

    A name right after the noun the question's relative clause describes comes first ("the King
    who made the 1925 Birthday Honours" -> "... appointments by King George V ..."): the page
    calls the unknown entity by the question's own word, then names it. Then a name holding that
    noun ("a university that ..." -> "Columbia University"). Otherwise the first name.
    """
    titles = {plain_title(page.title).casefold() for page in opened}
    heads = described(question.text)
    found: list[str] = []
    for page in opened:
        for sentence, name in bridge_names(question, page):
            if name.casefold() in titles or len(name.split()) < 2:
                continue
            if heads and _after_head(sentence.text, name, heads):
                return name
            found.append(name)
    holding = _holding_head(question, opened, heads, titles) if heads else None
    return holding or (found[0] if found else None)


def bridge_query(question: Question, pages: Sequence[Page]) -> str | None:
    """A second search: the names the best sentence adds to the question, with the words it lacks."""
    scored = score_sentences(question, pages)
    if not scored:
        return None
    best = scored[0].sentence.text
    asked = set(question.terms) | set(question.entities)
    names = [run for _, run in capitalized_runs(words(best), asked) if stem(run.split()[0]) not in asked]
    if not names:
        return None
    own = {stem(w) for w in words(best)}
    lacking = [w for w in words(question.query) if stem(w) not in own]
    return " ".join([names[0], *lacking])


_RUN: Final = re.compile(r"[A-Z][\w'\u2019.-]*(?:\s+(?:(?:of|the|de|del|di)\s+)*[A-Z][\w'\u2019.-]*)*")


def _holding_head(
    question: Question, opened: list[Page], heads: frozenset[str], titles: set[str]
) -> str | None:
    """A name in an opened page's best sentences that holds the described noun itself ("a university
    that ..." -> "Columbia University"; "the battle in which ..." -> "Battle of Adwa")."""
    asked = question.text.casefold()
    for page in opened:
        for best in score_sentences(question, [page])[:BRIDGE_SENTENCES]:
            for match in _RUN.finditer(best.sentence.text):
                name = match.group(0).rstrip(".")  # a sentence's full stop is not part of the name
                parts = name.split()
                if len(parts) < 2 or name.casefold() in titles or name.casefold() in asked:
                    continue
                if any(stem(part) in heads for part in parts):
                    return name
    return None


_RELATIVES: Final = frozenset({"who", "whom", "whose", "which", "that"})


def described(question: str) -> frozenset[str]:
    """Stems of the nouns a relative clause of `question` describes ("the King who made ..." -> king)."""
    tokens = words(question)
    return frozenset(
        stem(tokens[i - 1])
        for i in range(1, len(tokens))
        if tokens[i].casefold() in _RELATIVES and tokens[i - 1].isalpha() and len(tokens[i - 1]) > 2
    )


def _after_head(sentence: str, name: str, heads: frozenset[str]) -> bool:
    """Whether `name` follows one of `heads` in `sentence`, at most one word between ("author Hunter Davies",
    "King George V", "the Italian physicist Carlo Rovelli")."""
    at = sentence.find(name)
    if at < 0:
        return False
    before = [stem(w) for w in words(sentence[:at])[-2:]]
    return any(word in heads for word in before)


def named_hit(question: Question, view: RunView, candidates: list[Hit]) -> Hit | None:
    """The candidate hit whose plain title an opened page names as a bridge, if any."""
    titles = {plain_title(h.title): h.url for h in candidates}
    for page in view.pages.values():
        for bridge in find_bridges(question, page, titles):
            return next(h for h in candidates if h.url == titles[bridge.name])
    return None
