"""How a sentence of an opened page matches a documentation question (for `_doc_answer`).

Words are compared as stems (`_sentences.stem`), split the way the question's are, so
`hashlib.scrypt` holds `scrypt`; a question word also matches a page word it begins or
that begins it, from four letters on ("serv" / "serve"). Identifiers match as whole
dotted names or by their last part (`gzip.GzipFile` / `GzipFile`), without a call or
an index (`peek(n)` / `peek`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from citeloop.events import Page

from ._doc_questions import DocQuestion
from ._doc_synonyms import related
from ._outline import Line, clean, outline
from ._questions import STOPWORDS
from ._sentences import Sentence, split_sentences, stem, words

PLAIN: Final = re.compile(r"[a-z0-9][a-z0-9'-]*")
# A number as documentation writes it: in digits, or in words.
NUMBER_WORDS: Final = (
    r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty|thirty|sixty|hundred"
)
NUMBER: Final = rf"(?:-?\d[\d.,]*|{NUMBER_WORDS})"
# A unit documentation writes after a number: sizes, durations, shares.
UNIT: Final = (
    r"(?:[KMGTP]i?B|[kmgt]B|bytes?|(?:kilo|mega|giga|tera)bytes?|ms|s|min|h|d|(?:milli|micro)?seconds?"
    r"|minutes?|hours?|days?|weeks?|months?|years?|percent|%)"
)
# A value as documentation states it: quoted, bracketed, or a token; a number (in digits or
# words) keeps its unit, and a bracketed restatement right after it ("four megabytes (4MB)").
VALUE: Final = (
    # Not from inside a word: "X (the default)" would otherwise be tried from every letter of a long one.
    # ("180 million": a number keeps its scale word)
    rf"(?<![\w.])({NUMBER} (?:thousand|million|billion)\b(?: ?{UNIT}(?![\w]))?"
    rf"|{NUMBER} ?{UNIT}(?![\w])(?: \([^)]*\))?|'[^']*'|\"[^\"]*\"|\([^)]*\)|\[[^\]]*\]"
    # in typographic quotes, spaces and all (texinfo's HTML: "\u2018%J %U user\u2019")
    r"|\u2018[^\u2019]*\u2019|\u201c[^\u201d]*\u201d"
    # a call without arguments keeps its brackets ("sys.getrecursionlimit()"), a token its balanced ones
    # ("%(asctime)s")
    r"|[\w.]+\(\)|(?:[^\s,;()]|\([^\s()]*\))+|[^\s,;)]+)"
)
# A name may join words by hyphens: a command "zone-key-rollover", not "zone".
_CALL: Final = re.compile(r"^(?:class |exception |async |classmethod |staticmethod )?([\w.]+(?:-[\w.]+)*)")


@dataclass(frozen=True, slots=True)
class DocCandidate:
    """An answer, the page it is quoted from, the verbatim evidence, and how well it matches."""

    url: str
    answer: str
    evidence: str
    score: float
    how: str


def stems(text: str) -> set[str]:
    # Split as the question's words are (doc_question): "hashlib.scrypt" holds "scrypt".
    return {stem(w.rstrip("'")) for w in PLAIN.findall(text.casefold())}


def term_name(term: str) -> str:
    """`class gzip.GzipFile(filename=None)\u00b6` -> `gzip.GzipFile`."""
    match = _CALL.match(clean(term))
    return match.group(1) if match else clean(term)


def names(identifier: str) -> tuple[str, str]:
    """An identifier as written and its last dotted part, without a call or index ("peek(n)" -> "peek")."""
    bare = re.sub(r"[(\[].*$", "", identifier).strip(".").casefold()
    return bare, bare.rsplit(".", 1)[-1]


def clause_start(text: str, at: int) -> int:
    """Where the clause holding offset `at` of `text` begins: after the last , ; . or ( before it."""
    return max(text.rfind(mark, 0, at) for mark in ",;.(") + 1


def under_named(terms: Sequence[str], identifiers: Sequence[str]) -> bool:
    """Whether the nearest of `terms` documents one of `identifiers` in full: "statistics.mean(data)"
    for "statistics.mean", "fromfile(f, n)" under "class array.array(...)" for "array.fromfile", or
    "-p, --patch" for "--patch"."""
    if not terms:
        return False
    nearest = term_name(terms[-1]).casefold()
    # A command's options are listed together on one term line ("-p, --patch"): each names it.
    flags = {flag.strip(",") for flag in clean(terms[-1]).casefold().split() if flag.startswith("-")}
    for identifier in identifiers:
        wanted = names(identifier)[0]
        flag = identifier.casefold()
        if flag.startswith("-") and (flag in flags or nearest == flag):
            return True
        owner, _, member = wanted.rpartition(".")
        if not owner:
            continue
        if nearest == wanted or nearest.endswith("." + wanted):
            return True
        outer = [term_name(term).casefold() for term in terms[:-1]]
        if nearest == member and any(name == owner or name.endswith("." + owner) for name in outer):
            return True
    return False


def mentions(text: str, identifier: str) -> bool:
    full, last = names(identifier)
    folded = text.casefold()
    return any(re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", folded) for n in {full, last} if n)


# From this many opened pages on, a name every one of them carries is what the manual is about (its
# product: "SQLite"), not something a sentence must name or an answer.
PRODUCT_PAGES: Final = 3


def on_every_page(name: str, pages: Sequence[Page]) -> bool:
    """Whether `name` occurs, as whole words in any case, on each of `PRODUCT_PAGES` or more pages."""
    return len(pages) >= PRODUCT_PAGES and all(mentions(page.body, name) for page in pages)


def about(line: Line, sentence: str, q: DocQuestion) -> bool:
    """Whether every identifier the question names is in the sentence, its terms or its headings
    (a snake_case name also as the words it joins: prose says "the analysis limit" of `analysis_limit`)."""
    around = " | ".join((*line.terms, *line.headings, sentence))
    return all(mentions(around, i) or spelled_out(around, i) for i in q.identifiers if not i.startswith("-"))


def spelled_out(text: str, identifier: str) -> bool:
    """Whether `text` names a snake_case `identifier` by its words after an article ("the analysis
    limit", "the default journal size limit" for `analysis_limit`, `journal_size_limit`), not as the
    end of a longer name ("temp cache size" is not `cache_size`).
    Only words of three letters or more: "x max" or "foo id" say too little."""
    parts = identifier.casefold().split("_")
    if len(parts) < 2 or not all(part.isalpha() and len(part) >= 3 for part in parts):
        return False
    named = rf"\b(?:the|a|an|this|its|their|that)\s+(?:default\s+)?{' '.join(parts)}(?![\w])"
    return re.search(named, text.casefold()) is not None


def overlap(q: DocQuestion, *texts: str) -> float:
    """The share of the question's words in `texts` (a stem matches one it begins, from four letters,
    and a user's word is held by the manual's word of one meaning, "deletes" by "removes":
    `_doc_synonyms`)."""
    if not q.words:
        return 1.0
    held: set[str] = set()
    for text in texts:
        held |= stems(text)
    prefixes = {h[:4] for h in held if len(h) >= 4}

    def holds(w: str) -> bool:
        return w in held or (len(w) >= 4 and w[:4] in prefixes and prefix_of(w, held))

    found = sum(holds(w) or any(holds(r) for r in related(w)) for w in q.words)
    return found / len(q.words)


def in_order(q: DocQuestion, text: str) -> float:
    """The share of the question's words that `text` holds in the question's order (a common subsequence)."""
    if not q.words:
        return 0.0
    held = [stem(w) for w in PLAIN.findall(text.casefold())]
    # Longest common subsequence, a word matching as in `overlap` (equal, or a prefix from four letters).
    previous = [0] * (len(held) + 1)
    for word in q.words:
        current = [0]
        for j, h in enumerate(held):
            same = word == h or (
                len(word) >= 4 and len(h) >= 4 and (h.startswith(word) or word.startswith(h))
            )
            current.append(previous[j] + 1 if same else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1] / len(q.words)


def adjacent(q: DocQuestion, text: str) -> float:
    """The share of the question's adjacent word pairs that `text` holds adjacent too: "any tag found
    in the refs/tags namespace" is said by "use any tag found in refs/tags namespace", not by "use any
    ref found in refs/ namespace", though both hold every word."""
    asked = [stem(w) for w in PLAIN.findall(q.text.casefold())]
    pairs = {(a, b) for a, b in itertools.pairwise(asked) if a not in STOPWORDS or b not in STOPWORDS}
    if not pairs:
        return 0.0
    held = set(itertools.pairwise(stem(w) for w in PLAIN.findall(text.casefold())))
    return len(pairs & held) / len(pairs)


def overlap_words(wanted: Sequence[str], *texts: str) -> bool:
    """Whether any of `wanted` (stems) is in `texts` (a stem matches one it begins, from four letters)."""
    held: set[str] = set()
    for text in texts:
        held |= stems(text)
    return any(w in held or (len(w) >= 4 and prefix_of(w, held)) for w in wanted)


def prefix_of(word: str, held: set[str]) -> bool:
    parts = [part for part in word.split("-") if len(part) >= 3] if "-" in word else []
    if any(len(part) >= 4 for part in parts):
        if any(h.startswith(word) and "-" not in h[len(word) :] for h in held):
            return True  # "compress-levels"; not "compress-level-network", another option
        # A hyphenated name is no first part alone: "compress-level" is not "compress" (pgBackRest's
        # options), "link-map" not "link-all", unless every part is held ("crawl-delay" in "crawl_delay").
        return all(part in held or (len(part) >= 4 and prefix_of(part, held)) for part in parts)
    return any(h.startswith(word) or word.startswith(h) for h in held if len(h) >= 4 and h[:4] == word[:4])


# A page's navigation bar, as Sphinx prints it: "« Flow - Family of functions :: Contents :: pgr_KSP »".
_NAVIGATION: Final = re.compile(r"^\s*\u00ab|\u00bb\s*$")


def sentences_of(pages: Sequence[Page]) -> Iterator[tuple[Page, Line, Sentence]]:
    """Each sentence of each page with the outline line it is in; a navigation bar says nothing."""
    for page in pages:
        for line in outline(page.body):
            if _NAVIGATION.search(line.text) is not None:
                continue
            for sentence in split_sentences(page.body[line.start : line.end]):
                yield page, line, sentence


def own_quote(page: Page, line: Line, sentence: Sentence) -> str:
    """The sentence as a quote that points at this place of the page, not an earlier one.

    A note repeated under several terms ("New in version 3.4.") is located, by whoever
    checks the quote, at its first occurrence and read under that one's term; a later one is
    quoted with the lines above it under its own term (white space collapsed), as few as make
    the quote occur once, so that the term it sits under is the one above the quote. So is a
    table row or a label repeated under several headings ("Compatibility: 2.4.58 and later",
    "Default: 1232"), with the lines above it - or, right under its heading, with the lines after
    it ("Default: 6" under gzip_level, which an earlier "Default: 60" holds too).
    """
    at = line.start + sentence.start
    if page.body.find(sentence.text) in (-1, at) or not (line.terms or line.cells or line.headings):
        return sentence.text
    flat = " ".join(page.body.split())
    end = line.start + sentence.end
    for above in reversed(outline(page.body[:at])):
        if above.is_term or above.depth < line.depth or above.text.startswith("#"):
            break  # the term or heading the note sits under: the quote stays below it
        quote = " ".join(page.body[above.start : end].split())
        if flat.count(quote) == 1:
            return quote
    rest, *following = page.body[end : end + _READ_ON].split("\n")
    reach = end + len(rest)
    for after in following[:-1]:  # (the last may be cut)
        if after.lstrip().startswith("#"):
            break  # the next heading: what follows is another section's
        reach += 1 + len(after)
        quote = " ".join(page.body[at:reach].split())
        if flat.count(quote) == 1:
            return quote
    return sentence.text


# How far past a repeated label its quote may read on to be found once, in characters.
_READ_ON: Final = 400


_FRAMING: Final = frozenset({"default", "value", "values", "argument", "parameter", "option"})


def page_subject(page: Page) -> str:
    """What a documentation page is about: the first word of its first top-level heading
    ("socketserver" of "socketserver — A framework ..."), else of its title; for a manual
    page, the command it documents."""
    found = re.search(r"(?m)^# (.+)$", page.body)
    heading = clean(found.group(1)) if found is not None else page.title
    if re.match(r"\d+(?:\.\d+)*\.? ", heading) and page.title.strip():
        heading = page.title  # "1. Overview" is the page's first section, not what the page is about
    first = heading.split(" ", 1)[0]
    # A manual page ("git-describe(1) Manual Page") is about its command, as users write it: "git
    # describe" - or as named, "ssh-keygen".
    manual = re.fullmatch(r"([\w.]+(?:-[\w.]+)*)\(\d\w*\)", first)
    if manual is None:
        return first
    name = manual.group(1)
    return f"{name} {name.replace('-', ' ')}" if "-" in name else name


def param_matches(name: str, q: DocQuestion) -> bool:
    """Whether a parameter name is what the question's words say ("compresslevel": "compression level")."""
    flat = name.casefold().replace("_", "")
    if flat in _FRAMING:
        return False
    # A condition ("when indent is None") names a parameter that is not the one asked about.
    asked = re.split(r"\b(?:when|if|unless)\b", q.text, maxsplit=1)[0]
    if re.search(rf"(?<![\w.]){re.escape(name.casefold())}(?!\w)", asked.casefold()):
        return True  # written as the code writes it ("allow_no_value"), which `words` splits
    raw = [w.casefold() for w in words(asked)]
    for i, word in enumerate(raw):
        if word in _FRAMING:
            continue  # "the default interpolation" does not name a parameter `defaults`
        if flat == word.replace("_", "") or (stem(flat) == stem(word) and _one_word(flat, word)):
            return True
        if i + 1 < len(raw):
            for cut in range(3, len(flat)):
                if word.startswith(flat[:cut]) and flat[cut:] == raw[i + 1]:
                    return True
    return False


def _one_word(first: str, second: str) -> bool:
    """Whether two words of one stem are one word: "level"/"levels", not "timer"/"timing" (a letter
    after the stem that differs makes another word)."""
    cut = len(stem(first))
    return not (len(first) > cut and len(second) > cut and first[cut] != second[cut])


def _pair(part: str) -> Iterator[tuple[str, str]]:
    """`name=value` of one argument, without the closing brackets of optional ones ("z=3]]")."""
    name, sep, value = part.strip().partition("=")
    value = value.strip()
    while value.endswith("]") and value.count("]") > value.count("["):
        value = value[:-1].rstrip()
    if sep and name.strip().isidentifier():
        yield name.strip(), value


def signature_params(text: str) -> Iterator[tuple[str, str]]:
    """The `name=value` pairs of a signature line, split at top-level commas."""
    open_at = text.find("(")
    if open_at < 0:
        return
    depth, quote, start = 0, "", open_at + 1
    for index in range(open_at + 1, len(text)):
        char = text[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "[" and depth == 0 and text[index + 1 :].lstrip().startswith(","):
            # "open(host, port=0[, timeout])": an optional argument's bracket ends the value before it.
            yield from _pair(text[start:index])
            start = index + 1
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char in ",)" and depth == 0:
            yield from _pair(text[start:index])
            start = index + 1
            if char == ")":
                return
