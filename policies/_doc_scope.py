"""Which extracted candidates answer the question asked: its shape and its scope (for `_doc_answer`).

An extractor finds every span of the asked kind; these rules keep the ones that can be
the answer. A value the question itself states is not its answer ("before it was raised
to sys.getrecursionlimit()"). A question for a number takes only an answer holding one
(a port, size, length or width is a number: "port=POP3_PORT" names the value, it does
not give it), and "how old" takes only an age or a time span ("2 weeks", not "6700"). A
word of the question that is an opened page's subject ("in shutil", "git describe")
scopes the answer to that page, or to a sentence that says the word; "the time module"
takes its answer from that module's page once it is opened. Best first; ties keep the
extractors' order (page order, then place in the page).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import NUMBER, UNIT, DocCandidate, names, on_every_page, page_subject, prefix_of, stems
from ._doc_questions import DocQuestion
from ._doc_states import ASKS_STATE, STATE
from ._sentences import stem

# Articles, pronouns, conjunctions and question words: never an answer ("on", "one", "ANY" may be).
_FUNCTION_WORDS: Final = frozenset(
    (
        "the", "a", "an", "and", "or", "but", "nor", "of", "to", "in", "by", "for", "with", "from", "as",
        "at", "if", "so", "than", "then", "there", "is", "are", "was", "were", "be", "it", "its", "this",
        "that", "these", "those", "they", "he", "she", "we", "you", "i", "which", "what", "who", "whom",
        "whose", "when", "where", "how", "why",
    )
)  # fmt: skip
_ASKS_NUMBER: Final = re.compile(
    r"\bnumber\b|\bhow many\b|\b(?:port|size|length|width)\b|\bcompression level\b"
)
# A kind of thing asked for by name ("the default shutdown mode"): an amount ("90 seconds") is none.
_ASKS_KIND: Final = re.compile(r"\b(?:mode|method|format|encoding|style|policy|strategy|behaviou?r|action)\b")
_AMOUNT: Final = re.compile(rf"^\s*{NUMBER}\s?{UNIT}\s*$", re.IGNORECASE)
# "Is streaming replication synchronous by default?" asks yes or no: only a state answers it, not
# "7 seconds" nor "because".
_STATES: Final = frozenset({"yes", "no", "on", "off", "true", "false", "enabled", "disabled"})
_ASKS_YES_NO: Final = re.compile(r"^(?:is|are|does|do|will|can|should)\b")
# A number standing alone: not the digit of a name ("POP3_PORT").
_NUMERAL: Final = re.compile(rf"(?<![A-Za-z_])\d|\b{NUMBER}\b|\b(?:once|twice|thrice)\b", re.IGNORECASE)
_ASKS_AGE: Final = re.compile(r"\bhow old\b")
_NUMBER_NOUNS: Final = frozenset({"level", "port", "size", "length", "width"})
_ASKS_STRING: Final = re.compile(r"\b(?:what|which) (?:[a-z]+ )?string\b")
_NOT_A_STRING: Final = re.compile(r"None|True|False|null|-?\d[\d.,]*", re.IGNORECASE)
_HOW_MANY: Final = re.compile(r"\bhow many ([a-z]+)")
# An amount written with a unit: "30s", "10 minutes", "1 GB" (no bare count: "1000").
_AMOUNT_IN_UNIT: Final = re.compile(rf"^\s*{NUMBER}\s?{UNIT}(?![\w])", re.IGNORECASE)
_TIME_SPAN: Final = re.compile(r"\b(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b", re.IGNORECASE)
_ASKS_FLAG: Final = re.compile(r"\bcommand[- ]line (?:argument|option|flag|switch)s?\b")
_ASKS_FACTOR: Final = re.compile(r"\brelative to\b|\bhow many times\b|\bwhat (?:multiple|factor|ratio)\b")
_FACTOR: Final = re.compile(r"\btimes\b|%|\bpercent\b|\b(?:twice|thrice|half|double|triple)\b|\d\s?x\b")
# "how many bytes long is the header of each frame": the thing measured, named after the measure in a
# word or two (not "each string limited to when ...", a clause).
_MEASURED: Final = re.compile(
    r"how (?:many|much) [a-z]+(?: (?:long|large|big|wide|high|deep))? (?:is|are) (?:the |an? |each )?"
    r"(?P<thing>[a-z][a-z-]*(?: [a-z][a-z-]*)?)(?: of | in | for | on |$)"
)
_MODULE_NAMED: Final = re.compile(r"\bthe ([a-z_][\w.]*) module\b|\bmodule ([a-z_][\w.]*)\b")


def answering(q: DocQuestion, pages: Sequence[Page], extracted: Iterable[DocCandidate]) -> list[DocCandidate]:
    """The candidates that can answer `q`, best first."""
    # A function word is no answer, whatever an extractor read it as ("The" for the term of a
    # definition that is a whole sentence).
    found = [c for c in extracted if c.answer.strip().casefold() not in _FUNCTION_WORDS]
    asked = q.text.casefold()
    if q.kind in ("default", "value", "stated", "version"):
        # ("What NSIS version does it require as of CMake 3.22?": not 3.22)
        found = [c for c in found if not _stated_by(q.text, c.answer)]
        if _ASKS_NUMBER.search(asked):
            found = [c for c in found if _NUMERAL.search(c.answer)]
        counted = _HOW_MANY.search(asked)
        if counted is not None and not re.fullmatch(UNIT, counted.group(1), re.IGNORECASE):
            # "How many recipients ...?": a count of them, not "30s" (an amount in another unit)
            found = [c for c in found if not _AMOUNT_IN_UNIT.match(c.answer)]
        if _ASKS_STRING.search(asked):
            # "What string does textwrap append ...?": None, a boolean or a number is no string
            found = [c for c in found if not _NOT_A_STRING.fullmatch(c.answer.rsplit("=", 1)[-1].strip())]
        measured = _MEASURED.match(asked)
        if measured is not None:
            # "How many bytes long is the header of each frame ...?": the header's length, not the size
            # the WAL file is truncated to.
            head = stem(measured.group("thing").split()[-1])
            found = [c for c in found if head in (held := stems(c.evidence)) or prefix_of(head, held)]
        if _ASKS_AGE.search(asked):
            found = [c for c in found if _TIME_SPAN.search(c.answer)]
        if _ASKS_KIND.search(asked) and not _ASKS_NUMBER.search(asked):
            found = [c for c in found if not _AMOUNT.match(c.answer)]
        if _ASKS_FACTOR.search(asked):
            # "How big ... relative to the number of handles?": a factor ("4 times"), not an amount ("5")
            found = [c for c in found if _FACTOR.search(c.answer)]
        if _ASKS_YES_NO.match(asked):
            # (a signature's "sort_keys=False" states one too)
            found = [c for c in found if c.answer.casefold().rsplit("=", 1)[-1] in _STATES]
    if q.kind == "which" and q.noun in _NUMBER_NOUNS:
        # "What compression level does bz2.BZ2File use ...?": a level is a number, not "io.BufferedIOBase"
        found = [c for c in found if _NUMERAL.search(c.answer)]
    if q.kind == "does" and q.noun == "return" and re.match(r"what values? does", asked):
        # "What value does pi() return?": a value ("0", "NULL", "'x'"), not "an approximation for pi"
        found = [c for c in found if re.fullmatch(r"\S+|'[^']*'|\"[^\"]*\"", c.answer.strip())]
    if q.kind == "which" and _ASKS_FLAG.search(asked):
        # "Which command-line argument starts Vim in restricted mode?": a flag ("-Z"), not "gQ"
        found = [c for c in found if c.answer.startswith(("-", "+"))]
    if q.kind == "which" and q.noun in _RUN_NOUNS:
        # "Which command should I run after editing ...?": "the virtual_transport parameter" is a setting
        found = [c for c in found if not _called_setting(c)]
    tops = {page.url: page_subject(page) for page in pages}
    # Not a word from the name of a module's member ("base64" of "binascii.b2a_base64").
    member = {w for i in q.identifiers if "." in i for w in stems(names(i)[1])} - {
        w for i in q.identifiers for w in stems(names(i)[0].split(".", 1)[0])
    }
    scoped = [
        w for w in q.words if w not in member and any(w in _written(top, q.text) for top in tops.values())
    ]
    found = [c for c in found if all(w in stems(tops[c.url]) or w in stems(c.evidence) for w in scoped)]
    # "... used by the time module": once that module's page is opened, another page's passing
    # mention ("a time tuple such as returned by ... the time module") does not answer.
    subjects = {top.casefold() for top in tops.values()}
    named = {m.group(1) or m.group(2) for m in _MODULE_NAMED.finditer(asked)}
    modules = named & subjects
    if modules:
        # (Another page's sentence about the module itself still answers: "The CMakePackageConfigHelpers
        # module provides the write_basic_package_version_file() command for ...".)
        found = [c for c in found if {tops[c.url].casefold(), _module_first(c.evidence)} & modules]
    order = {id(c): i for i, c in enumerate(found)}
    return sorted(found, key=lambda c: (-c.score, order[id(c)]))


# Nouns asking for something one runs, which a setting is not.
_RUN_NOUNS: Final = frozenset({"command", "program", "utility", "tool"})


def _called_setting(candidate: DocCandidate) -> bool:
    """Whether the candidate's quote calls it a setting: "the virtual_transport parameter"."""
    name = re.escape(candidate.answer)
    called = rf"(?<![\w.-]){name}(?![\w.-])\s+(?:parameter|setting|variable|directive)s?\b"
    return re.search(called, candidate.evidence) is not None


def without_product(q: DocQuestion, pages: Sequence[Page]) -> DocQuestion:
    """`q` without the names that every one of three or more opened pages carries ("SQLite" in "the
    default isolation level in SQLite"): the product the manual documents, which a sentence about one of
    its settings need not repeat. Only a plain word is such a name; code shaped `work_mem` or `f()` is not.
    """
    if q.noun == "expansion":
        return q  # "What does DQL stand for?": the abbreviation asked, however many pages carry it
    product = {i for i in q.identifiers if i.isalpha() and on_every_page(i, pages)}
    if not product:
        return q
    return replace(q, identifiers=tuple(i for i in q.identifiers if i not in product))


def _module_first(sentence: str) -> str:
    """The module a sentence opens with as its subject ("The time module provides ..."), or ""."""
    opening = re.match(r"(?:The )?([A-Za-z_][\w.]*) module\b", sentence)
    return opening.group(1).casefold() if opening is not None else ""


def _written(subject: str, question: str) -> set[str]:
    """The stems of the words of a page's subject that can name that page in the question: a
    lower-case name as code is ("shutil", "wave" of `Wave_read`, "git describe"), a capitalised
    one only as the subject writes it ("JSON") - not "transaction" of a page titled "Transaction",
    which is the question's own word, not the page named."""
    return {
        stem(word.casefold())
        for word in re.findall(r"[A-Za-z0-9][\w'-]*", subject)
        if word.islower() or re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![a-z0-9])", question)
    }


def _stated_by(question: str, answer: str) -> bool:
    """Whether the question itself writes the answer's value (of "name=value", the value)."""
    value = answer.partition("=")[2] if re.match(r"\w+=", answer) else answer
    value = value.strip().casefold()
    folded, said = question.casefold(), rf"(?<![\w.-]){re.escape(value)}(?![\w])"
    if re.search(rf"{said} or \S|\S or {said}", folded):
        return False  # one of the choices the question offers ("on or off by default?") is an answer
    if ASKS_STATE.search(question) and re.fullmatch(STATE, value):
        return False  # "Is X enabled by default?" - "enabled" is its answer, a yes
    return bool(value) and re.search(said, folded) is not None
