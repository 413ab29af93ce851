"""The chain rule of `focus-entity` for a multi-quote finish: question -> bridge -> answer.

A two-hop answer cites the sentence that names the bridge and the sentence that answers
("Harbor Lights is a 1950 drama film directed by Marta Lindqvist." then "Marta Lindqvist
(4 May 1912 - 9 June 1990) was a Swedish film director."). The answer sentence does not
name the question's focus, so the rule reads the quotes as a chain, and asks of the link
(docs/gate.md, "Multi-quote evidence"):

- **in the earlier quote**, it stands in the same sentence as the question's focus, and
  neither is mentioned in passing there (not in brackets, not after "such as", "like" ...);
- **in the later quote** (the one holding the answer), it is the subject the answer
  sentence opens with: the run of capitalized words that opens that sentence, or the
  sentence it continues ("He", "It", "The" ... opening the answer's sentence point back),
  holds the link's words in order and ends with the link's last word ("Edward Hunter
  Davies, OBE" is "Hunter Davies"; "Leo Eric Varadkar" is "Leo Varadkar");
- the link is a name of two capitalized words or more, or the title of a cited page
  (without its bracketed qualifier), and not one of the question's own foci.

The page a quote stands on says what it is about, too (the cited pages' titles and bodies):
a later quote on the page titled with the link is about the link when its answer sentence
opens with no other name ("As one of ..., this particular franchise ...", "He spent ...", "Born in
..., she ...") or
with one whose bracket calls it by the link ("KKR & Co. (formerly known as Kohlberg Kravis
Roberts & Co.)"), and an earlier sentence opening with "Its", "He" ... on the focus's own page
is about the focus.

A name both quotes share only in passing - the answer sentence is about someone else and
mentions the bridge on the way - links nothing; a bracket after the focus saying who played or
voiced it ("Raven (voiced by Tara Strong)") is no aside.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from ._focus import Focus, continues, in_passing, occurrences, sentences, within
from ._quantities import fold_text

# A run of capitalized words (particles between them allowed): a name two quotes can share.
_NAME_RUN: Final = re.compile(
    r"(?<![\w-])[A-Z][\w'\u2019.-]*(?:\s+(?:(?:of|de|da|von|van|der|del|la|le|and|the)\s+)?[A-Z][\w'\u2019.-]*)*"
)
_QUALIFIER: Final = re.compile(r"\s*\([^()]*\)\s*$")
# Words that may close a subject's name without being its head: "Lush Ltd.", "Hunter Davies OBE".
_SUFFIXES: Final = frozenset(
    "ltd ltd. inc inc. co co. corp corp. plc llc jr jr. sr sr. obe mbe cbe kbe qc kc frs".split()  # noqa: SIM905
)


def chained(
    evidence: str, answer: str, foci: Sequence[Focus], pages: Sequence[tuple[str, str]] = ()
) -> str | None:
    """The link that chains the quotes of `evidence` (joined by line breaks), described; None if none.

    `answer` is folded (`fold_text`); `pages` are the cited pages' (title, body).
    """
    quotes = [quote for quote in evidence.split("\n") if quote.strip()]
    if len(quotes) < 2 or not answer:
        return None
    holding = [index for index, quote in enumerate(quotes) if within(fold_text(quote), answer)]
    if not holding:
        return None
    last = holding[-1]
    subject = _subject(quotes[last], answer)
    home = _home_title(quotes[last], pages)
    if subject is None and home is None:
        return None
    plain = {_QUALIFIER.sub("", title).strip() for title, _ in pages}
    focused = {focus.folded for focus in foci}
    for earlier in range(last):
        # A sentence pointing back ("Its anchor tenants include ...") on the focus's own page is about it.
        title, body = _home(quotes[earlier], pages) or ("", "")
        page = fold_text(title)
        own_page = [focus for focus in foci if page and focus.folded == page]
        for sentence in _sentence_texts(quotes[earlier]):
            folded = fold_text(sentence)
            about = [
                focus for focus in foci for at in occurrences(folded, focus) if not in_passing(folded, at, 0)
            ]
            if not about and own_page and _points_back(sentence, body):
                about = own_page
            if not about:
                continue
            for link in _links(sentence, plain):
                if fold_text(link) in focused:
                    continue
                if not (subject is not None and _opens(subject, link)) and not _at_home(
                    link, home, subject, quotes[last]
                ):
                    continue
                at = folded.find(fold_text(link))
                if at >= 0 and (not in_passing(folded, at, 0) or _cast_as(folded, at, about)):
                    return (
                        f"the sentence naming {about[0].text!r} names {link!r}, "
                        "the subject of the sentence that answers"
                    )
    return None


def _cast_as(sentence: str, at: int, about: Sequence[Focus]) -> bool:
    """Whether the link at `at` stands in the bracket right after a focus that says who played or
    voiced it: "the dark sorceress Raven (voiced by Tara Strong)" names Tara Strong as Raven's."""
    return any(
        re.search(rf"{re.escape(focus.folded)} \((?:voiced|played|portrayed) by $", sentence[:at]) is not None
        for focus in about
    )


def _home(quote: str, pages: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The title (without its bracketed qualifier) of the cited pages whose bodies hold the quote, when
    they share one, with the body when it is one page's ("" else); None otherwise."""
    flat = " ".join(quote.split())
    holding = [(_QUALIFIER.sub("", t).strip(), body) for t, body in pages if flat in " ".join(body.split())]
    titles = {title for title, _ in holding}
    if len(titles) != 1:
        return None
    return titles.pop(), holding[0][1] if len(holding) == 1 else ""


def _home_title(quote: str, pages: Sequence[tuple[str, str]]) -> str | None:
    home = _home(quote, pages)
    return home[0] if home is not None else None


def _points_back(sentence: str, body: str) -> bool:
    """Whether a sentence opens with a word pointing back to what its page is about ("He", "Its"), or
    with the noun the page's first sentence calls its subject ("The film was directed by ..." on a
    page opening "Grand Central Murder is a comedy/mystery film released in 1942.")."""
    first = sentence.split(maxsplit=1)[0].casefold() if sentence.strip() else ""
    if first in _POINTING_BACK:
        return True
    noun = re.match(r"The ([a-z]{3,}) ", sentence)
    if noun is None:
        return False
    opening = body[: body.find(". ") + 1] if ". " in body else body
    typed = rf"\b(?:is|was|are|were) (?:a|an|the)(?: [\w/-]+){{0,4}}? {re.escape(noun.group(1))}\b"
    return re.search(typed, opening) is not None


# Words that point back to the subject of the page they stand on.
_POINTING_BACK: Final = frozenset({"he", "she", "it", "its", "his", "her", "they", "their"})
# Capitalized words a sentence opens with that begin no name ("As one of ...", "In 1901, ...").
_OPENING_WORDS: Final = frozenset(
    {"as", "in", "on", "at", "after", "before", "during", "when", "while", "since", "although", "though",
     "because", "if", "for", "with", "from", "by", "unlike", "despite", "upon", "under", "over"}
)  # fmt: skip


# A participle opening a sentence before its subject ("Born in ..., she ...", "Raised in ...",
# "Having left ...") names no one.
_PARTICIPLE: Final = re.compile(
    r"born|raised|educated|trained|based|located|founded|established|known|named|married|having|being"
)


def _at_home(link: str, home: str | None, subject: list[str] | None, quote: str) -> bool:
    """Whether the answering quote stands on the link's own page and is about it: the answer's
    sentence opens with no other name ("As one of the league's charter franchises, this particular
    franchise ...", "He spent the remainder of his life ..."), or with one whose bracket gives the
    link as another name of it ("KKR & Co. L.P. (formerly known as Kohlberg Kravis Roberts & Co.)")."""
    if home is None or fold_text(home) != fold_text(link):
        return False
    if subject is None or subject[0].casefold() in _OPENING_WORDS | _POINTING_BACK:
        return True
    if len(subject) == 1 and _PARTICIPLE.fullmatch(subject[0].casefold()):
        return True  # "Born in an affluent household in Kensington, London, she attended ...": no name
    named = " ".join(subject)
    aliased = re.search(
        rf"{re.escape(named)}[^()]{{0,20}}\((?:formerly|also|previously|originally)(?: known as| called)?"
        rf" [^()]*{re.escape(link)}",
        " ".join(quote.split()),
    )
    return aliased is not None


def _sentence_texts(quote: str) -> list[str]:
    """The sentences of `quote`, as written (white space collapsed)."""
    text = " ".join(quote.split())
    lowered = text.lower()
    if len(lowered) != len(text):  # a rare letter whose lower case is longer: one sentence
        return [text]
    return [text[start:end] for start, end in sentences(lowered)]


def _subject(quote: str, answer: str) -> list[str] | None:
    """The words of the name the answer's sentence (or the one it continues) opens with, if any."""
    texts = _sentence_texts(quote)
    folded = [fold_text(text) for text in texts]
    index = next((i for i, text in enumerate(folded) if within(text, answer)), None)
    if index is None:
        return None
    while index > 0 and continues(folded[index], (0, len(folded[index]))):
        index -= 1
    opening = texts[index].removeprefix("The ").removeprefix("the ")
    match = _NAME_RUN.match(opening)
    if match is None:
        return None
    run = [word.rstrip(",;:").removesuffix("'s").removesuffix("\u2019s") for word in match.group(0).split()]
    while len(run) > 1 and run[-1].casefold() in _SUFFIXES:
        run.pop()
    return run


def _links(sentence: str, titles: set[str]) -> Iterator[str]:
    """The names `sentence` holds that may link two quotes: runs of two words or more, and titles."""
    for match in _NAME_RUN.finditer(sentence):
        words = [word.rstrip(".") for word in match.group(0).split()]
        if words and words[-1].endswith(("'s", "\u2019s")):
            words[-1] = words[-1][:-2]
        for start in range(len(words)):
            for end in range(len(words), start, -1):
                name = " ".join(words[start:end])
                if end - start >= 2 or name in titles:
                    yield name
    for title in titles:
        if re.search(rf"(?<![\w-]){re.escape(title)}(?![\w-])", sentence):
            yield title


def _opens(subject: list[str], link: str) -> bool:
    """Whether the link's words are, in order, words of `subject`, ending with its last word."""
    words = [word for word in link.split() if word.casefold() not in ("the", "of", "and")]
    if not words or words[-1] != subject[-1]:
        return False
    at = 0
    for word in words:
        try:
            at = subject.index(word, at) + 1
        except ValueError:
            return False
    return True
