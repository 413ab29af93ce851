"""The question's focus, and whether a quote is about it: the rules behind `focus-entity`.

A cheap rule, no parser (docs/gate.md, "Support", states it and its limits):

- **The focus** is what the question names: quoted text; code-like tokens (`snake_case`,
  `CamelCase`, `dotted.names`, `call()`, `--flags`); runs of capitalized words joined by
  "&" or a particle such as "de" or "von" ("Müller & Söhne", "Acme Robotics"), upper-case runs ("VACUUM FULL")
  and acronyms ("CEO"); question words and other function words are not names. When the
  question names none of these, the content words of the phrase after its last "of"
  (up to a preposition), or between "does/do/did" and its last word, stand in for it.
- **About it, not in passing**: one focus occurs, as whole words, in the sentence of the
  quote that holds the answer, or in an earlier sentence that the answer's sentence
  continues (every sentence in between opens with "it", "its", "he", "she", "they",
  "this", "the" ...), and not inside brackets or right after "such as", "like", "unlike",
  "than", "including", "e.g." and the like. An acronym also counts when the quote spells
  it out ("chief executive officer" for "CEO"), and a two-word name also counts with initials
  between its words ("Eugene B. Habecker" for "Eugene Habecker").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final, Literal, NamedTuple

from ._quantities import fold_text, singular


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FocusKind = Literal["quoted", "identifier", "name", "acronym", "phrase"]


class Focus(NamedTuple):
    """One thing the question is about: as written, folded for matching, and how it was found."""

    text: str
    folded: str
    kind: FocusKind


_QUOTED: Final = re.compile(
    r"[\"\u201c\u00ab`]([^\"\u201c\u201d\u00ab\u00bb`]{1,80})[\"\u201d\u00bb`]"
    r"|(?<!\w)['\u2018]([^'\u2018\u2019]{1,80})['\u2019](?!\w)"
)
_QUOTE_MARKS: Final = frozenset("\"'`\u201c\u00ab\u2018")
_TOKEN: Final = re.compile(
    r"(?<![\w-])--?[^\W\d_][\w-]*|[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}|\w[\w.]*(?:\(\))?|&"
)
# "udp-max-payload", "tcp-idle-timeout": three words or more joined by hyphens name a setting, unless
# one of them is a word that joins prose ("up-to-date", "copy-on-write", "state-of-the-art").
_HYPHENATED: Final = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}")
_PROSE_JOINERS: Final = _words("a an and at by for in of on or out over per the to up with")
_DOTTED: Final = re.compile(r"[^\W\d_]\.[^\W\d_]")
_CAMEL: Final = re.compile(r"[a-z][A-Z]")
# What may join two capitalized words into one name ("of" may not: "CEO of Acme" is two foci).
_PARTICLES: Final = _words("& de da do dos das del della di von van der den du la le y")
# Capitalized words that open or shape a question rather than name something.
_NOT_NAMES: Final = _words(
    "who whom whose what when where which why how is are was were am be been being do does "
    "did can could should would will shall may might must has have had in on at by for from "
    "to of with according as after before during about into over under between name list give "
    "tell describe explain define show find please the a an this that these those i if and or "
    "but not no yes there here it its they their them he she his her we you your my our also "
    "then than so such some any each every other another all both either neither first last "
    "next current new old one two three four five six seven eight nine ten since until"
)
# "the secrets module", "the level argument": the word before names the thing asked about.
_CODE_NOUN: Final = re.compile(
    r"\b(?:[Tt]he|[Aa]n?|[Ww]hich|[Ww]hat) ([a-z_][\w.]*) (?:module|package|function|method|class|attribute"
    r"|argument|parameter|option|constant|exception|command)\b"
)
# The kind of thing a two-word name ends with: "Fécamp Abbey" is also called "Fécamp".
_GENERIC: Final = _words(
    "abbey river university college cathedral church city county province state kingdom empire "
    "republic island islands mountain mountains lake valley bay castle palace bridge"
)
_STOP: Final = _NOT_NAMES | _words("thing things kind type way part use used using")
_PHRASE_END: Final = _words("in on at for to from with by during after before since into over under when if")


def _identifier(token: str) -> bool:
    if token.isalpha() and (token.islower() or token.isupper() or token.istitle()):
        return False  # the common case, decided without a regex
    if token.casefold() in _ABBREVIATIONS:
        return False  # "e.g." is dotted, but no code
    if _HYPHENATED.fullmatch(token):
        return _PROSE_JOINERS.isdisjoint(token.split("-"))
    return (
        ("_" in token and any(char.isalpha() for char in token))
        or ("." in token and _DOTTED.search(token) is not None)
        or token.endswith("()")
        or (token.startswith("-") and len(token) > 2)
        or _CAMEL.search(token) is not None
    )


def _capital(token: str) -> bool:
    return len(token) >= 2 and token[0].isupper() and token.casefold() not in _NOT_NAMES


@functools.lru_cache(maxsize=1024)
def question_focus(question: str) -> tuple[Focus, ...]:
    """What `question` is about, in the order found (docs/gate.md, "Support"); () when it names nothing.

    Cached: a run asks one question, and every finish of it (and `check`'s replay) reads its focus.
    """
    found: list[Focus] = []
    for match in () if _QUOTE_MARKS.isdisjoint(question) else _QUOTED.finditer(question):
        text = (match.group(1) or match.group(2)).strip(" ?!.,;:")
        if any(char.isalnum() for char in text):
            found.append(Focus(text, fold_text(text), "quoted"))
    run: list[tuple[int, str]] = []  # the capitalized words (and particles) of the name being read

    def close() -> None:
        while run and run[-1][1].casefold() in _PARTICLES:
            run.pop()  # a particle never ends a name
        opening = len(run) == 1 and not question[: run[0][0]].strip() and not run[0][1].isupper()
        if run and not opening:  # one capitalized word opening the question is just its first word
            text = question[run[0][0] : run[-1][0] + len(run[-1][1])]
            single = len(run) == 1 and text.isupper()
            found.append(Focus(text, fold_text(text), "acronym" if single else "name"))
        run.clear()

    for match in _TOKEN.finditer(question):
        token, start = match.group(0), match.start()
        if token[-1] == ".":
            token = token.rstrip(".")
        joined = bool(run) and question[run[-1][0] + len(run[-1][1]) : start].strip() in ("", "-")
        if token.islower() and token.isalpha():  # the common case: a plain word
            if joined and token in _PARTICLES:
                run.append((start, token))
            elif run:
                close()
        elif _identifier(token):
            if run:
                close()
            found.append(Focus(token, fold_text(token.removesuffix("()")), "identifier"))
        elif _capital(token):
            if run and not joined:
                close()
            run.append((start, token))
        elif joined and token == "&":
            run.append((start, token))
        elif run:
            close()
    close()
    # "Which Python version ...": the product a version is of is not what the question is about.
    found = [
        f for f in found if not re.match(r"\s*versions?\b", question[question.find(f.text) + len(f.text) :])
    ]
    for match in _CODE_NOUN.finditer(question):
        found.append(Focus(match.group(1), fold_text(match.group(1)), "identifier"))
    if not found:
        found = _phrase_focus(question)
    unique: dict[str, Focus] = {}
    for focus in found:
        unique.setdefault(focus.folded, focus)
    return tuple(unique.values())


def _phrase_focus(question: str) -> list[Focus]:
    """The fallback: content words after the last "of", or between "does/do/did" and the last word."""
    words = re.findall(r"[^\W\d_]+", fold_text(question))
    phrase: list[str] = []
    if "of" in words:
        after = words[len(words) - words[::-1].index("of") :]
        for word in after:
            if word in _PHRASE_END:
                break
            phrase.append(word)
    else:
        for aux in ("does", "do", "did"):
            if aux in words[:-1]:
                phrase = words[words.index(aux) + 1 : -1]
                break
    return [Focus(word, word, "phrase") for word in phrase if len(word) >= 3 and word not in _STOP]


# A sentence ends at . ! ? before a space, unless the word before is short or a known abbreviation.
_END: Final = re.compile(r"[.!?](?= |$)")
_ABBREVIATIONS: Final = _words("mrs mme inc ltd corp etc approx fig vol e.g i.e vs cf")
_CONTINUES: Final = _words(
    "it its he his him she her they their them this these those that the there such both each"
)
_PASSING: Final = re.compile(
    r"(?:\b(?:such as|e\.g\.,?|i\.e\.,?|for example,?|for instance,?|like|unlike|including|see(?: also)?"
    r"|cf\.|compared (?:with|to)|other than|except|besides|than|instead of|rather than|as opposed to))"
    r" (?:(?:the|a|an) )?$"
)


def sentences(text: str) -> list[tuple[int, int]]:
    """The sentence spans of folded `text`."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        # "(b. 1952)": an abbreviation opening a bracket is still one.
        word = text[text.rfind(" ", start, match.start()) + 1 : match.start()].lstrip("([{\"'")
        if (len(word) <= 2 and word.isalpha()) or word in _ABBREVIATIONS:
            continue
        if word.endswith(".."):
            continue  # "Based on a True Story... is an album": an ellipsis in a title ends nothing
        spans.append((start, match.end()))
        start = match.end() + 1
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def quote_sentences(evidence: str, folded: str) -> tuple[list[tuple[int, int]], frozenset[int]]:
    """The sentence spans of `folded` (the folded `evidence`), a line break also ending a sentence,
    and the indices of the sentences that open a later line.

    A multi-quote finish reaches the support methods as its quotes joined by line breaks: a
    quote from one page never continues a sentence of a quote from another ("The ..." opening
    the second quote points back to nothing in the first).
    """
    if "\n" not in evidence:
        return sentences(folded), frozenset()
    lines = [fold_text(line) for line in evidence.split("\n") if line.strip()]
    if len(lines) < 2 or " ".join(lines) != folded:
        return sentences(folded), frozenset()
    spans: list[tuple[int, int]] = []
    openings: set[int] = set()
    offset = 0
    for line in lines:
        if spans:
            openings.add(len(spans))
        spans.extend((offset + start, offset + end) for start, end in sentences(line))
        offset += len(line) + 1
    return spans, frozenset(openings)


def within(text: str, needle: str) -> bool:
    """Whether `needle` occurs in `text` with no letter or digit running on at either end."""
    at = text.find(needle)
    while at >= 0:
        end = at + len(needle)
        if (at == 0 or not text[at - 1].isalnum()) and (end == len(text) or not text[end].isalnum()):
            return True
        at = text.find(needle, at + 1)
    return False


def occurrences(text: str, focus: Focus) -> list[int]:
    """Where `focus` occurs in folded `text` as whole words (start offsets)."""
    if focus.kind == "phrase":
        stem = singular(focus.folded)
        return [m.start() for m in re.finditer(r"[^\W\d_]+", text) if singular(m.group(0)) == stem]
    needle, found, at = focus.folded, [], text.find(focus.folded)
    while at >= 0:
        end = at + len(needle)
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        if "-" in needle:  # "udp-max-payload" is not in "udp-max-payload-ipv4": a hyphen joins on
            if before == "-" and at >= 2 and text[at - 2].isalnum():
                before = "_"
            if after == "-" and end + 1 < len(text) and text[end + 1].isalnum():
                after = "_"
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            found.append(at)
        at = text.find(needle, at + 1)
    if not found and focus.kind == "acronym":
        found = _spelled_out(text, needle)
    elif focus.kind == "acronym":
        # 'a new "Write-Ahead Log" option (hereafter referred to as "WAL")': the words the acronym
        # stands for, spelled out just before it, are the name; the bracket only defines it.
        found += [
            at for at in _spelled_out(text, needle) if any(0 < f - at <= _DEFINED_WITHIN for f in found)
        ]
    if not found and focus.kind == "identifier" and "_" in needle:
        found = _in_words(text, needle)
    if not found and focus.kind == "name" and len(needle) > 4 and " " not in needle:
        # "the Huguenots" asked, "the Huguenot rebellions" quoted (or the other way): the same name.
        other = needle[:-1] if needle[-1] == "s" else needle + "s"
        found = occurrences(text, Focus(focus.text, other, "quoted"))
    parts = needle.split(" ")
    if not found and focus.kind == "name" and len(parts) == 2:
        # "Eugene Habecker" asked, "Eugene B. Habecker" quoted: the same person under initials. Only
        # initials: the text is case-folded, so a full middle name could not be told from any word
        # ("ralph met hefferline").
        found = [m.start() for m in _middle_names(parts[0], parts[1]).finditer(text)]
    if not found and focus.kind == "name" and len(parts) == 2 and parts[1] in _GENERIC and len(parts[0]) >= 4:
        # "Fécamp Abbey" asked, "Fécamp" quoted: a name and the kind of place it names.
        found = occurrences(text, Focus(parts[0], parts[0], "name"))
    return found


_DEFINED_WITHIN: Final = 80


def _in_words(text: str, identifier: str) -> list[int]:
    """Starts of `identifier` ("analysis_limit") written as its words after an article ("the analysis
    limit", "the default analysis limit"): prose names a setting so. Not the end of a longer name
    ("the temp cache size" is not `cache_size`), nor words under three letters ("x max")."""
    words = identifier.split("_")
    if len(words) < 2 or not all(w.isalpha() and len(w) >= 3 for w in words):
        return []
    spaced = re.compile(rf"\b(?:the|a|an|this|its|their|that) (?:default )?({' '.join(words)})(?![\w])")
    return [m.start(1) for m in spaced.finditer(text)]


# What may stand between a first and a last name: one to three initials ("b.", "j. r.").
_MIDDLE: Final = r"(?:[^\W\d_]\.? ){1,3}"


def _middle_names(first: str, last: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(first)} {_MIDDLE}{re.escape(last)}(?![\w-])")


def middle_named(foci: Sequence[Focus], evidence: str, titles: Sequence[str]) -> tuple[Focus, ...]:
    """The two-word names of `foci` as `evidence` (not folded) writes them with full middle names:
    "Alfred Gell" asked, "Alfred Antony Francis Gell" quoted on the page titled "Alfred Gell". Only
    on the page of that name: "John Quincy Adams" is not John Adams. And only in the original case
    can a middle name be told from any word ("Ralph met Hefferline"): capitalized words only."""
    named = {fold_text(re.sub(r"\s*\([^)]*\)$", "", title)) for title in titles}
    found: list[Focus] = []
    for focus in foci:
        parts = focus.text.split()
        if focus.kind != "name" or len(parts) != 2 or focus.folded not in named:
            continue
        first, last = (re.escape(part) for part in parts)
        pattern = rf"(?<![\w-])(?i:{first})(?:\s+[A-Z][\w'\u2019.-]*){{1,3}}\s+(?i:{last})(?![\w-])"
        for match in re.finditer(pattern, evidence):
            found.append(Focus(focus.text, fold_text(match.group(0)), "quoted"))
    return tuple(found)


def _spelled_out(text: str, acronym: str) -> list[int]:
    """Starts of word runs whose initials spell `acronym` ("chief executive officer" for "ceo")."""
    words = list(re.finditer(r"[^\W\d_]+", text))
    initials = "".join(word.group(0)[0] for word in words)
    found, at = [], initials.find(acronym)
    while at >= 0:
        found.append(words[at].start())
        at = initials.find(acronym, at + 1)
    return found


def in_passing(text: str, at: int, sentence_start: int, answer: str = "") -> bool:
    """Whether the mention at `at` is an aside: in brackets, or after "such as", "like", "than" ...

    Brackets that also hold the answer are not an aside: "(OpenSSL 1.1.0 defaults to 32 MiB)"
    is about OpenSSL.
    """
    before = text[sentence_start:at]
    if answer and answer in text[at : at + 80] and len(answer) < 60:
        return False  # "geographers such as Friedrich Ratzel of Germany": the answer is said of it
    opened = max(before.rfind("("), before.rfind("["))
    if opened >= 0:
        close = text.find(")" if before[opened] == "(" else "]", at)
        inside = text[sentence_start + opened + 1 : close if close >= 0 else len(text)]
        # "(OpenSSL 1.1.0 defaults to 32 MiB)" holds the answer; "Network (NSFNET) was" names it again.
        if (answer and answer in inside) or (
            close >= 0 and not before[opened + 1 :].strip() and " " not in inside
        ):
            before = before[:opened]
    if before[:1] in "([" and before:
        before = before[1:]  # a sentence in brackets as a whole is not an aside to itself
    if before.count("(") > before.count(")") or before.count("[") > before.count("]"):
        return True
    return _PASSING.search(before) is not None


def continues(text: str, span: tuple[int, int]) -> bool:
    """Whether the sentence at `span` opens with a word that points back ("it", "its", "the" ...)."""
    first = re.match(r"[^\W\d_]+", text[span[0] : span[1]])
    return first is not None and first.group(0) in _CONTINUES
