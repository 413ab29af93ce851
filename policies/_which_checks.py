"""What a sentence must say to answer a "which" question, beyond its words (split out of `_doc_which`).

A sentence that negates or sets aside a word of the question ("are not enforced", "other than the
autocompact launcher") does not say it; the verb a question asks of its answer ("Which function
closes ...") must be said where the answer is, or be what a table's "Return type" column implies; a
term's subjectless description ("Controls ...", "This overrides X ...") is about the term, not about
the names it mentions, and a name in a condition ("when X is replica") is not what the sentence sets.
An error code answers only where the sentence says it is returned or raised (`reported`); "Which RFC
...?" is answered by the number a matching sentence gives the acronym (`acronym_number`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_identifiers import is_identifier
from ._doc_match import DocCandidate, clause_start, overlap, sentences_of, stems
from ._doc_questions import DocQuestion
from ._doc_shapes import EXCEPTION_NAME
from ._outline import Line
from ._questions import STOPWORDS
from ._sentences import stem

# Negation, in the question and before a word of the sentence ("are not enforced", "is never used").
_NEGATED: Final = re.compile(r"(?i)\b(?:not|no|never|cannot|without)\b|n't\b")
_NEGATED_WORD: Final = re.compile(
    r"(?i)\b(?:not|never|cannot|n't)(?: (?:be|been|being|is|are|was|were|always|usually|yet))* ([a-z][\w-]*)"
)
_EXCLUDED: Final = re.compile(
    r"\b(?:other than|except(?: for)?(?! that)|excluding|not including|not counting|apart from) ([^,;.)]+)",
    re.IGNORECASE,
)


def denies(q: DocQuestion, text: str) -> bool:
    """Whether `text` negates a word the question asks about ("are not enforced", "never used") while
    the question negates nothing: the sentence then says what does not happen."""
    if _NEGATED.search(q.text) is not None:
        return False
    denied = [stem(m.group(1).casefold()) for m in _NEGATED_WORD.finditer(text)]
    # "(other than the autocompact launcher)": the words an exclusion names are set aside too.
    # (Only words the sentence says nowhere else: "autocompact processes (other than the autocompact
    # launcher)" still speaks of autocompact processes.)
    for excluded in _EXCLUDED.finditer(text):
        rest = stems(text[: excluded.start()] + " " + text[excluded.end() :])
        denied += [w for w in stems(excluded.group(1)) if w not in rest]
    # One word in two forms ("enforced" / "enforcement"): one stem begins the other.
    return any(
        len(d) >= 4 and len(w) >= 4 and (w.startswith(d) or d.startswith(w)) for d in denied for w in q.words
    )


# Words after a "which" noun that are not its verb ("which exception is raised", "which function does").
_AUXILIARIES: Final = frozenset({"is", "was", "does", "has", "class", "process", "address", "access"})


def asked_action(q: DocQuestion) -> tuple[str, list[str]] | None:
    """The verb of "which [kind] function|method <verb>s [the] <object> ...", and its object, as stems.

    The object is the run of the question's words right after the verb and its article
    ("sets the user agent used to ...": "user", "agent"); empty when none follows.
    """
    # "Which option does git stash push --patch imply?": the verb after the code it is asked of.
    inverted = re.match(
        rf"^which(?: [\w.-]+){{0,3}}? {q.noun}s? (?:does|do) .*?[-._][\w-]* ([a-z]+)$", q.text.casefold()
    )
    if inverted is not None and inverted.group(1) not in STOPWORDS:
        return stem(inverted.group(1)), []
    if q.noun not in ("function", "method", "decorator", "command", "option", "flag"):
        return None  # "which attribute lists ...": what a value holds, not an action
    found = re.match(rf"^(?:which|what)(?: [a-z][\w-]*)? {q.noun}s? ([a-z]+s)\b(.*)$", q.text.casefold())
    if found is None or found.group(1) in _AUXILIARIES or found.group(1).endswith("ss"):
        return None
    if found.group(1) in _LIGHT_VERBS:
        return None  # "Which option makes zsh interpret ...": the action asked is a later verb, unread
    target = []
    for word in re.findall(r"[a-z0-9][\w-]*", re.sub(r"^ (?:an?|the) ", " ", found.group(2))):
        if stem(word) not in q.words:
            break
        target.append(stem(word))
    return stem(found.group(1)), target


# Verbs that ask for no action of their own: what the answer makes or lets something do.
_LIGHT_VERBS: Final = frozenset({"makes", "lets", "causes", "allows", "forces", "tells"})
# What a term's description may be asked as: the setting it describes.
SETTING_NOUNS: Final = frozenset({"parameter", "setting", "option", "variable", "directive"})
# "Which parameter sets/controls/lists ...?": the verb asking what a setting does, which its
# description says in its own words ("specifies").
SETTING_VERBS: Final = frozenset(
    stem(w)
    for w in ("set", "sets", "control", "controls", "specify", "specifies", "determine", "list", "lists")
)
# The opening of a description with no subject of its own: "Controls ...", "Specifies ...", "This is ...".
_SUBJECTLESS_OPENING: Final = re.compile(
    r"(?:(?!This\b|Thus\b|Its\b)[A-Z][a-z]+[^s\W]s"
    r"|(?:This|It)(?: parameter| setting)? (?!(?:was|is|has been) \w+ed\b)[a-z]+s)\b"
)


def describes_its_term(line: Line, start: int, text: str) -> bool:
    """Whether the sentence describes the term it sits under with no subject of its own ("Controls ...",
    "This overrides retention_period ..."): the names it mentions are what the term does something
    with, not the setting it describes. ("This ..." may come later in the description.)"""
    opening = _SUBJECTLESS_OPENING.match(text)
    return (
        bool(line.terms)
        and line.depth > 0
        and opening is not None
        and (start == 0 or text[:4] in ("This", "It "))
    )


def in_condition(text: str, at: int) -> bool:
    """Whether offset `at` is inside a condition of its clause: "... when sync_commit is replica"."""
    return (
        re.search(r"\b(?:when|if|unless|while|whenever)\b[^,;]*$", text[clause_start(text, at) : at])
        is not None
    )


def returns_row(action: str, line: Line) -> bool:
    """Whether `line` is a row of a table of functions with a "Return type" (or "Result") column: its
    description, a noun phrase ("Number of characters in string"), says what the function returns;
    one opening with a verb ("Removes the longest string ...") says what it does."""
    return (
        action.startswith("return")
        and bool(line.cells)
        and line.cells != line.header
        and any(re.search(r"\b(?:return|result)", cell, re.IGNORECASE) for cell in line.header[1:])
        and not any(re.match(r"[A-Z][a-z]*[^s\W]s\b", cell) for cell in line.cells[1:])
    )


def says(action: str, *texts: str) -> bool:
    """Whether `texts` hold the verb `action` in some form ("use" / "used", "remov" / "remove")."""
    held = stems(" ".join(texts))
    # A verb's own endings, not a longer word built on it ("convert" / "convertible").
    return any(
        (w.startswith(action) and len(w) - len(action) <= 2) or action.startswith(w)
        for w in held
        if len(w) >= 3
    )


# What a "which class" question is not answered by: a file ("server.properties") or a member reached
# through a class ("System.err.println").
_NO_CLASS: Final = re.compile(
    r"[\w.-]+\.(?:properties|conf|cfg|ini|xml|json|ya?ml|txt|html?|log|sql|jar|sh)|[A-Z]\w*(?:\.[a-z]\w*)+"
)


def names_no_class(token: str) -> bool:
    """Whether `token` cannot answer "which class": a file name or a member of a class."""
    return _NO_CLASS.fullmatch(token) is not None


# An error code is what a sentence says is returned, raised or reported ("returns SQLITE_BUSY", "an
# SQLITE_CONSTRAINT error is raised"), not any macro it names ("compiled with SQLITE_ENABLE_X").
_REPORTED_BEFORE: Final = re.compile(
    r"(?i)\b(?:returns?|returned|raises?|raised|reports?|fails? with|results? in|gets?|throws?)"
    r"(?: \w+){0,2} $"
)
_REPORTED_AFTER: Final = re.compile(r"(?i)^ (?:error|exception|is (?:raised|returned|reported))\b")


def reported(text: str, match: re.Match[str]) -> bool:
    """Whether the error-shaped token at `match` is one the sentence says is returned or raised (an
    exception's own name, "ValueError", says so itself)."""
    token = match.group(0).rstrip(".,;:")
    if EXCEPTION_NAME.search(token) is not None:
        return True
    before, after = text[: match.start()], text[match.start() + len(token) :]
    return _REPORTED_BEFORE.search(before) is not None or _REPORTED_AFTER.match(after) is not None


def option_term(q: DocQuestion, name: str, line: Line) -> bool:
    """Whether a term named like code ("GLOB_DOTS", "html_theme") answers "which option" as the option it
    documents: under a heading about options, where a manual lists its options by name, not as flags."""
    return (
        q.noun == "option"
        and is_identifier(name)
        and any(re.search(r"(?i)\boptions?\b", heading) is not None for heading in line.headings)
    )


def release_unsaid(question: str, *texts: str) -> bool:
    """Whether the question names a release ("for libcurl 7.9.8") that none of `texts` writes: a
    sentence about another release (or none) does not answer it."""
    releases = re.findall(r"(?<![\w.])\d+(?:\.\d+){1,3}(?![\w.]*\d)", question)
    return any(not any(re.search(rf"(?<![\w.]){re.escape(r)}(?![\d])", t) for t in texts) for r in releases)


def phrase_term(term: str, name: str) -> bool:
    """Whether a definition term is a phrase, not a name: 'Rewrite "site!user" to "user@site"' or
    "See the documentation in LDAP_README ..." names no parameter or command, nor anything else (a
    name alone, or with its type in brackets, "max_senders (integer)", is a term of at most three
    words)."""
    return not is_identifier(name) and len(term.split()) > 3


def acronym_number(q: DocQuestion, pages: Sequence[Page], acronym: str) -> Iterator[DocCandidate]:
    """ "RFC 7396" for "Which RFC ...?": the acronym's number in a sentence holding most of the question."""
    for page, line, sentence in sentences_of(pages):
        fit = overlap(q, sentence.text, *line.terms[-1:])
        match = re.search(rf"\b{acronym} (\d+)\b", sentence.text)
        if match is not None and fit >= 0.6:
            yield DocCandidate(page.url, match.group(0), sentence.text, 1.0 + fit, f"{acronym} number")


# The case a question states ("... raise when it is given ill-formed XML?"): its clause up to the end.
_CASE: Final = re.compile(r"\b(?:when|if|whenever|once)\b(?P<case>[^?;]+)", re.IGNORECASE)
# Words any case may say without saying which one.
_CASE_FRAME: Final = frozenset(
    stem(w) for w in ("it", "is", "are", "was", "given", "used", "called", "passed", "set", "you", "i", "one")
)


def case_words(q: DocQuestion) -> frozenset[str]:
    """The stems of the case the question states after "when" or "if" ("... raise when it is given
    ill-formed XML?" -> ill-formed, xml), without the words any case may say; empty when it states none."""
    case = _CASE.search(q.text)
    if case is None:
        return frozenset()
    return frozenset(stems(case.group("case")) - _CASE_FRAME - {stem(w) for w in STOPWORDS})


def case_unsaid(wanted: frozenset[str], text: str, *context: str) -> bool:
    """Whether the sentence (with its term or heading) says none of the case's words (`case_words`):
    "The parser for the binary format raises InvalidFileException ..." answers no "What exception does
    plistlib.load() raise when it is given ill-formed XML?"."""
    return bool(wanted) and not wanted & stems(" ".join((text, *context)))
