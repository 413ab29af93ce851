"""Answers to "In which version ...?": release notes, availability rows, and versions told in prose.

`version_candidates` reads, in this order: a `Compatibility:` row under the asked heading
(`_doc_rows`), "New in version N" / "Changed in version N" under the term the question names
(or "<product> N" beside it, or under its term the version a sentence says the term itself
became available in, for a product other than Python; the rules are on `_doc_answer`'s
docstring), and versions told in prose. A reference manual that keeps no "New in version N"
notes says when something changed in its sentences: "beginning with SQLite version 3.12.0, the
default page size increased to 4096", "The ability to vacuum attached databases was added in
version 3.15.0", "For SQLite versions before 3.16.0, ...", or by the product's name alone where the
sentence says something arrived or is required ("first introduced with SQLite 3.18.0", "This requires
Postfix 2.11 or later"). Such a sentence answers when it
holds most of what the question says changed (not the words of asking when), names every
capitalised statement the question names ("VACUUM INTO"), says the removal or deprecation
asked about, and gives one version of the product, not "version 1.2.11 of the zlib library".
A section's "This feature is available in Postfix version 2.1 and later." gives the version of
what the section told before it, when that holds most of the question's words and names every
code the question names (quoted from the last sentence that names it; `_version_sections`).
Asked "before which version", the version after "before" or "prior to" answers; otherwise
that one answers only where the sentence denies its own predicate ("will not work with
versions prior to 3.9.0": 3.9.0 is when it began to work). A version in brackets right after the
feature asked about ("The delay parameter (1.15.7) ...") is `_version_brackets`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Final

from citeloop.events import Page

from ._doc_match import (
    DocCandidate,
    about,
    mentions,
    names,
    overlap,
    overlap_words,
    own_quote,
    page_subject,
    sentences_of,
    stems,
    term_name,
)
from ._doc_questions import DocQuestion
from ._doc_rows import available_rows
from ._outline import Line
from ._questions import STOPWORDS
from ._sentences import Sentence, stem
from ._version_brackets import bracketed_version
from ._version_sections import ARRIVAL_WORDS, PROSE_FIT, WHEN_WORDS, section_version

# A release note's own form: "New in version 3.2", "Changed in version 3.9: ...".
_ADDED: Final = re.compile(r"(?:Added|New)\b")
_WAS_ADDED: Final = re.compile(r"\b(?:was|were) added\b")
_REMOVED_IN: Final = re.compile(r"\bremoved in (?:Python |version )?(\d+(?:\.\d+)+)")
NEW_IN: Final = re.compile(r"\b(New|Changed|Deprecated) (?:in|since) version (\d+(?:\.\d+)+)")
# "version 3.12.0", "versions before 3.16.0", "prior to version 3.7.0": groups 1 or 2 say "before".
_PROSE_VERSION: Final = re.compile(
    r"\b(?:(?:versions?|releases?) (before |prior to |earlier than )?|(before |prior to )version )"
    r"(\d+\.\d+(?:\.\d+)?)\b",
    re.IGNORECASE,
)
# A release in three parts after a word of time, "version" unsaid: "since 7.62.0", "until 7.88.0" (a bound).
_BARE_RELEASE: Final = re.compile(
    r"\b(?:since|in|from|as of|starting (?:in|with)|(before|prior to|until)) (\d+\.\d+\.\d+)\b(?!\.\d)",
    re.IGNORECASE,
)
# A release named by its product, "version" unsaid: "first introduced with SQLite 3.18.0", "requires
# Postfix 2.11 or later" (read only for the product the question asks a version of).
_PRODUCT_RELEASE: Final = re.compile(
    r"\b(?:(before|prior to|earlier than|older than) )?([A-Z][A-Za-z]+) (\d+\.\d+(?:\.\d+)?)\b(?!\.\d)"
)
# What makes such a release the one a thing arrived in, not one a sentence dates something else by
# ("From Python 3.2 onwards, you can also construct ..." does not say when the module came).
_ARRIVES: Final = re.compile(
    r"\b(?:introduced|added|available|requires?|required|released|supported)\b"
    r"|\b(?:and|or) (?:later|newer)\b",
    re.IGNORECASE,
)
# The denial governs the version's own predicate: "will not work with versions of X prior to", never a
# negation of a condition before it ("When the database is not in WAL mode, versions prior to ...").
_DENIED_USE: Final = re.compile(
    r"(?:\b(?:not|cannot|never)\b|n't)(?: be)? (?:work|available|supported|run|compile|exist|recogni[sz]e)"
    r"\w*\b[^,;.]*$"
)
# "version 1.2.11 of the zlib library": the version of something else.
_OF_ANOTHER: Final = re.compile(r"(?: \([^)]*\))? of\b")
_DENIAL_REACH: Final = 60  # characters before "prior to version N" where "will not work" may stand
# The opening of a sentence under a term that makes the term what became available: nothing, or
# "This parameter is", "It was", "this feature is".
_ITSELF: Final = re.compile(
    r"(?i)(?:(?:this|the) (?:parameter|setting|option|feature|directive|variable|function)|it)?"
    r"(?: (?:is|was|has been|became))?"
)
# A number the question asks about, and the words that make one in the text a bound of a range.
_NUMBERS: Final = re.compile(r"\b\d+(?:\.\d+)+\b|\b\d+\b")
_RANGE_WORDS: Final = r"(?:older|earlier|newer|later|lower|higher|greater|less|more) than"
_LIST_ITEM: Final = re.compile(r",\s*(?:and\s+)?|;\s*")
_CHANGE_VERBS: Final = frozenset(
    stem(w)
    for w in (
        "add", "added", "adds", "implement", "implemented", "introduce", "introduced", "fix", "fixed",
        "change", "changed", "remove", "removed", "deprecate", "deprecated", "drop", "dropped", "improve",
        "improved", "enhance", "enhanced", "support", "supported", "make", "made", "become", "became",
    )
)  # fmt: skip
_ASKING_WORDS: Final = frozenset(stem(w) for w in (*STOPWORDS, "version", "which", "what", "release"))


def _prose_version(q: DocQuestion, pages: Sequence[Page], feature: Sequence[str]) -> Iterator[DocCandidate]:
    """A sentence that tells the change asked about in prose and gives one version for it: "beginning
    with SQLite version 3.12.0, the default page size increased to 4096", "The ability to vacuum
    attached databases was added in version 3.15.0". Asked "before which version", the version after
    "before" or "prior to". A page of release notes ("New in version N") answers through those."""
    # "Starting with which version ...", "which version is needed", "in which release": words of asking when.
    feature = [w for w in feature if w not in WHEN_WORDS]
    if not feature:
        return
    before = re.search(r"\b(?:before|prior to|until)\b", q.text.casefold()) is not None
    asked = re.search(r"\b(remov|deprecat|drop)", q.text.casefold())
    event = asked.group(1) if asked is not None else None
    described = replace(q, words=tuple(feature))
    glossed = {
        stem(w)
        for gloss in re.findall(r"\(([^()]*)\)", q.text.casefold())
        for w in re.findall(r"[a-z][\w-]*", gloss)
    }
    kept = tuple(w for w in feature if w not in glossed)
    unglossed = replace(q, words=kept) if len(kept) >= 2 else described
    # What changed, without the verb of changing: a summary of a release ("Version 1.3 adds custom
    # bootstrap, ... implements watchdog support") holds most words of many questions across its items;
    # the change asked about must be told by one of them.
    things = replace(q, words=tuple(w for w in feature if w not in _CHANGE_VERBS))
    # Words the question writes in capitals ("VACUUM INTO") name a statement: the sentence names all of
    # it, not only its first word ("vacuum attached databases" is not VACUUM INTO).
    unbracketed = re.sub(r"\([^()]*\)", "", q.text)  # (a gloss in brackets names nothing of its own)
    spelled = [s.casefold() for s in re.findall(r"\b[A-Z]{2,}(?: [A-Z]{2,})+\b", unbracketed)]
    # The product the question names ("Which Postfix release ..."), whose releases it names alone.
    named_product = q.noun if q.noun is not None and q.noun in q.text.casefold() else None
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        products = [
            (m, m.group(3), bool(m.group(1)))
            for m in _PRODUCT_RELEASE.finditer(text)
            if m.group(2).casefold() == named_product
            and _ARRIVES.search(text)
            # (of the code asked itself: "The dane level is available in Teapot 2.11" under brew_tls_level
            # says when a value came, not the parameter)
            and all(mentions(text, i) for i in q.identifiers)
        ]
        if NEW_IN.search(text) is not None or not (
            _PROSE_VERSION.search(text) or _BARE_RELEASE.search(text) or products
        ):
            continue
        # A gloss the question puts in brackets ("UPSERT (INSERT ... ON CONFLICT DO UPDATE)") explains a
        # word; the sentence need not repeat it.
        fit = max(overlap(described, text), overlap(unglossed, text))
        if fit < PROSE_FIT or not about(line, text, q) or not all(s in text.casefold() for s in spelled):
            continue
        items = _LIST_ITEM.split(text)
        if len(items) >= 3 and max(overlap(things, item) for item in items) < PROSE_FIT:
            # "Version 1.3 adds A, B, enhances the synchronous mode support, ...": one item tells one change
            continue
        if _bound_unasked(q.text, text):
            continue  # "dropped support of Python older than 3.6" is not asked "dropped ... Python 3.6"
        if event is not None and event not in text.casefold():
            continue  # asked when it was removed: "was added in version N" is not that
        part = [
            m.group(1)
            for i in q.identifiers
            for m in re.finditer(rf"\b(\w+) of {re.escape(i)}\b", text, re.I)
        ]
        if any(stem(p.casefold()) not in q.words for p in part):
            continue  # "The include_purged argument of segment_count is available since 5.0": a part's
        releases = [(m, m.group(3), bool(m.group(1) or m.group(2))) for m in _PROSE_VERSION.finditer(text)]
        releases += [(m, m.group(2), bool(m.group(1))) for m in _BARE_RELEASE.finditer(text)]
        releases += products
        found = {
            version
            for m, version, said_before in releases
            if _answers_when(m, text, before, said_before)
            and not _OF_ANOTHER.match(text, m.end())
            # "Which Java version is HyperSQL 2.7.1 compatible with?": the question's own version is not it
            and not re.search(rf"(?<![\w.]){re.escape(version)}(?![\w]|\.\d)", q.text)
            # asked when it was removed: "deprecated since version 3.2" is not that
            and not (event == "remov" and re.search(r"\bdeprecated (?:since|in)\s*$", text[: m.start()]))
        }
        if len(found) == 1:
            how = "version the sentence gives for the change"
            yield DocCandidate(page.url, found.pop(), text, 1.0 + fit, how)


def _answers_when(match: re.Match[str], text: str, before: bool, said_before: bool) -> bool:
    """Whether a version of `_PROSE_VERSION` answers: one after "before" for "before which version",
    any other for "which version" - and one after "before" too when the words just before deny
    ("will not work with versions prior to 3.9.0": 3.9.0 is when it began to work)."""
    if said_before == before:
        return True
    window = text[max(0, match.start() - _DENIAL_REACH) : match.start()]
    return not before and _DENIED_USE.search(window) is not None


def version_candidates(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    yield from available_rows(q, pages)
    added = re.search(r"\b(add|added|new|introduced|available|gain|gained)\b", q.text.casefold()) is not None
    # "Since which version does math() recognize ...?": since it came or since it changed, either note.
    since = not added and re.search(r"\bsince\b", q.text.casefold()) is not None
    event = re.search(r"\b(removed|deprecated)\b", q.text.casefold())
    asked_event = event.group(1) if event is not None else None
    # What the question asks about beyond the code it names ("support for weights" of "f").
    feature = [w for w in q.words if w not in stems(" ".join(q.identifiers))]
    yield from _prose_version(q, pages, [w for w in feature if w not in stems(q.noun or "")])
    yield from section_version(q, pages, [w for w in feature if w not in stems(q.noun or "")])
    asked = [w for w in feature if w not in stems(q.noun or "") and w not in WHEN_WORDS | ARRIVAL_WORDS]
    yield from bracketed_version(q, pages, asked)
    itself = all(w in ARRIVAL_WORDS for w in feature)
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if q.noun != "python":
            # Under the term that is the question's code in full ("smtpd_client_auth_rate_limit (default:").
            under = _under_asked_term(line, q) or _titled_asked(line, q)
            yield from _product_version(q, page, line, sentence, under)
            if NEW_IN.search(text) is None:
                continue  # (a Sphinx manual's "New in version 3.13:" note reads as Python's do)
        if asked_event is None and itself and NEW_IN.search(text) is None:
            # A manual without a product name: "Available since version 13." under the term, asked of
            # the term itself (not "support for weights added to f": f's own arrival is not that).
            yield from _came_in(page, line, sentence, r"(?:version|release)", q, _under_asked_term(line, q))
        match = NEW_IN.search(text)
        if match is None:
            continue
        rest = text[match.end() :].strip(" .:")
        if asked_event == "removed":
            # "Deprecated since version 3.11, will be removed in version 3.13": the removal's version.
            removal = _REMOVED_IN.search(text)
            if removal is None and match.group(1) == "Changed" and re.search(r"\bremoved\b", rest):
                removal = match  # "Changed in version 3.9: Old API removed."
            if removal is not None and about(line, text, q) and overlap(q, text, *line.headings) >= 0.5:
                score = 1.0 + overlap(q, text, *line.terms[-1:])  # the note under f need not name f
                yield DocCandidate(page.url, removal.groups()[-1], text, score, "removed in version")
            continue
        if (asked_event == "deprecated") != (match.group(1) == "Deprecated"):
            continue  # a deprecation answers only when a deprecation is asked about
        # "Changed in version 3.2: Added the keyencoding parameter" (or "The keyencoding parameter
        # was added") is when a parameter was added, when what it added is what the question asks
        # about, not for the term it sits under.
        said_added = _ADDED.match(rest) is not None or _WAS_ADDED.search(rest) is not None
        new = match.group(1) == "New" or (match.group(1) == "Changed" and said_added and overlap(q, rest) > 0)
        if (added and not new) or (not added and not since and match.group(1) == "New"):
            continue
        if q.identifiers:
            if not about(line, text, q):
                continue
            # The module's own name ("added to compileall") says where, not what was added.
            asked = [w for w in feature if w not in stems(page_subject(page))]
            flags = [i for i in q.identifiers if i.startswith("-")]
            if (
                added
                and flags
                and not any(re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", rest) for f in flags)
            ):
                continue  # "the --hiss option added": a note that names the option, not its page's others
            if added and asked and not overlap_words(asked, rest):
                continue  # "support for weights added to f": f's own "New in version" is not when
            if match.group(1) == "Changed" and not added and not _tells_change(q, page, rest):
                continue  # asked when f began raising TypeError: "Changed in 3.2: f is more sophisticated"
            # Under the term the question names in full ("Repr.fillvalue"), not one that shares its last part.
            where = (
                1.5 if any(_is_term_of(term, i) for term in line.terms[-1:] for i in q.identifiers) else 1.0
            )
        elif added and not rest:
            # A module: the notes at the top of its page, under no term and no sub-section.
            if line.terms or len(line.headings) > 1 or overlap(q, *line.headings) < 0.5:
                continue
            where = 1.0
        else:
            where = overlap(q, rest, *line.terms, *line.headings)
        # The page's subject counts as said by a note saying something asked ("--bind argument was
        # introduced" on http.server's page), not by one saying nothing asked (a module's other notes).
        said = overlap(q, rest) if rest else 0.5
        score = where + (overlap(q, rest, page_subject(page)) if rest and said > 0 else said)
        quote = own_quote(page, line, sentence)
        yield DocCandidate(page.url, match.group(2), quote, score, f"{match.group(1)} in version")


def _tells_change(q: DocQuestion, page: Page, note: str) -> bool:
    """Whether a "Changed in version N" note tells the change asked about: it names a code the question
    names, or says a word of the question beyond its code and page ("... does random.randrange(10.0)
    start raising TypeError instead of converting the float?": raising, float, ...; "default" and "3"
    count), not only "randrange() is more sophisticated about producing equally distributed values"."""
    if any(re.sub(r"\(.*", "", i) in note for i in q.identifiers):
        return True
    named = stems(" ".join((*q.identifiers, page_subject(page), q.noun or "")))
    asked = sorted(stems(q.text) - named - _CHANGE_VERBS - WHEN_WORDS - _ASKING_WORDS)
    return not asked or overlap_words(asked, note)


def _is_term_of(term: str, identifier: str) -> bool:
    name, wanted = term_name(term).casefold(), names(identifier)[0]
    return "." in wanted and (name == wanted or name.endswith("." + wanted))


def _titled_asked(line: Line, q: DocQuestion) -> bool:
    """Whether the line is on a page titled with the one name the question asks about (a man page's
    "# curl_multi_wait"): the page documents that name alone."""
    return (
        len(q.identifiers) == 1
        and bool(line.headings)
        and names(line.headings[0])[0] == names(q.identifiers[0])[0]
    )


def _under_asked_term(line: Line, q: DocQuestion) -> bool:
    """Whether the line sits under the term that is the question's code in full."""
    return bool(line.terms) and term_name(line.terms[-1]).casefold() in {names(i)[0] for i in q.identifiers}


def _came_in(
    page: Page, line: Line, sentence: Sentence, product: str, q: DocQuestion, under: bool
) -> Iterator[DocCandidate]:
    """The version a sentence under a term says the term itself became available in ("Available in
    Postfix 3.1 and later.", "was added in PostgreSQL 12", "Available since version 13."), not any
    version it names ("Sites running Postfix 2.9 had to ...", "The default changed in Postfix 3.2")."""
    text = sentence.text
    # (On the asked name's own page or under its term, the product may go unsaid: "Added in 7.15.4".)
    bare = r"|(\d+\.\d+(?:\.\d+)*)" if under else ""
    governed = (
        rf"\b(?:available|introduced|added|new) (?:in|since|with|as of) (?:{product} (\d+(?:\.\d+)*){bare})\b"
    )
    for match in re.finditer(governed, text, re.IGNORECASE):
        # What became available must be the term itself: the sentence opens with the verb
        # ("Available in Postfix 3.1 and later."), with "This parameter is", or with the asked name
        # ("date_bin is available since version 14") - not "The dane level is available in ...",
        # nor "This parameter is no longer available in ...".
        # (A sentence the splitter kept whole opens after ". " too: "... regexp_split. starts_with is".)
        opening = re.split(r"; |\. ", text[: match.start()])[-1].strip()
        if (under and _ITSELF.fullmatch(opening) is not None) or _names_itself(opening, q):
            quote = own_quote(page, line, sentence)  # "Available since version 13." under many terms
            version = match.group(1) or match.group(2)
            yield DocCandidate(page.url, version, quote, 2.0, "version the term says it came in")


_SUBJECT_FRAME: Final = re.compile(
    r"(?i)^(?:the )?(?:(?:function|parameter|setting|option|directive|command) )?"
    r"|(?: (?:function|parameter|setting|option|directive|command))?(?: is| was| has been)$"
)


def _names_itself(opening: str, q: DocQuestion) -> bool:
    """Whether a sentence's opening is the asked code as its subject: "date_bin is", "The X function was"."""
    bare = re.sub(_SUBJECT_FRAME, "", opening)
    return any(names(bare)[0] == names(i)[0] for i in q.identifiers)


def _product_version(
    q: DocQuestion, page: Page, line: Line, sentence: Sentence, under: bool
) -> Iterator[DocCandidate]:
    """ "<product> N" after the question's identifier in the sentence (the nearest one after it), or
    anywhere in a sentence `under` the term naming it ("Available in Postfix 3.1 and later.")."""
    if q.noun is None:
        return
    text = sentence.text
    folded = text.casefold()
    # A name as a whole word: "sin()" is not in "since SQLite 3.32.0".
    found_at = (re.search(rf"(?<![\w.]){re.escape(names(i)[1])}(?!\w)", folded) for i in q.identifiers)
    starts = [m.start() if m else -1 for m in found_at]
    at = 0 if under else min((s for s in starts if s >= 0), default=-1)
    if at < 0:
        return
    if under:
        # Under the term, only the version a sentence says it became available in ("Available in Postfix
        # 3.1 and later.", "was added in PostgreSQL 12", "available since PostgreSQL 13"), not any
        # version it names ("Sites running Postfix 2.9 had to ...", "The default changed in Postfix 3.2").
        yield from _came_in(page, line, sentence, re.escape(q.noun), q, under)
        return
    found = [
        m for m in re.finditer(rf"\b{re.escape(q.noun)} (?:version )?(\d+(?:\.\d+)+)", text, re.IGNORECASE)
    ]
    after = [m for m in found if m.start() > at]
    for match in found:
        near = 1.0 if after and match is after[0] else 0.3
        yield DocCandidate(page.url, match.group(1), text, 1.0 + near, "version beside the focus")


def _bound_unasked(question: str, text: str) -> bool:
    """Whether `text` writes a number of the question as the bound of a range ("older than 3.6") that
    the question does not: it then tells of the versions beyond that number, not of that number."""
    for number in _NUMBERS.findall(question):
        bound = re.compile(rf"\b{_RANGE_WORDS} {re.escape(number)}\b", re.IGNORECASE)
        if bound.search(text) and not bound.search(question):
            return True
    return False
