"""Answers to documentation questions: the span that answers, the sentence (or line) as evidence.

Each kind of `DocQuestion` has one extractor over the opened pages' outlines (`_outline`):

- `default`: a `name=value` in the signature line of the function the question names
  (any of several signatures listed over one description), or the value a sentence about
  it states as the default, in one of the forms `_doc_defaults` reads;
- `version`: the number in "New in version N" / "Changed in version N" under the term
  (or, for a module, the top section) the question names, or "<product> N" beside it; a
  term named in full outranks one sharing its last part, and "Changed in version N: Added
  the X parameter" (or "The X parameter was added") answers when X was added; a question
  about a feature of the term ("support for weights added to f") takes only a note that
  names the feature, never the term's own "New in version"; a manual that keeps no such
  notes tells versions in prose (`_doc_versions`);
- `which`: the identifier of the shape asked for that a matching sentence names, or the term it describes;
- `does`: the first sentence describing the term the question names; for "what does f
  return (when ...)", the span after "return(s)" in a sentence under f (holding the
  condition, if one is asked), never the description of what f does (`_doc_returns`);
- `keyword`: for "which <noun>" where no code names the thing ("which lock"), the keyword in
  capitals beside the noun ("a RESERVED lock", `_doc_keywords`);
- `meaning` and `unit`: what one value of a setting does ("What happens when X is set to 0?") and
  the unit a bare value is taken in, from a sentence under the setting (`_doc_meaning`);
- `stated`: the value a sentence gives as "a <noun> of <value>" for "What <noun> ...?";
  what a thing does, is for, or leads to in prose is `_doc_prose`'s;
- `value`: a table cell under the column the question names, in the row it names, or the
  value a sentence gives for it ("45 bytes", "two rings"), never one of an interactive
  example (">>> data = [2.75]").

A question asking for a number (or a port, size, length, width) takes only an answer
holding one, not a name with a digit in it ("POP3_PORT"). A question with a condition other
than the asked value's absence ("when the user is 'anonymous'") is not answered by the
signature. "Removed" is answered with the removal's version, "deprecated" only with a
deprecation's; "return X if C, Y otherwise" asked under the negated condition is not X.
Which candidates can answer at all (a number for "how many", a page the question scopes
to) is `_doc_scope`'s.

A candidate carries a score: how much of the question's description its sentence and
context (terms, headings) hold. None is returned for a kind with no candidate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import chain
from typing import Final

from citeloop.events import Page

from ._acronyms import expansion_candidates
from ._doc_allowed import allowed_values
from ._doc_amounts import asked_amounts
from ._doc_bounds import bound_candidates
from ._doc_codes import code_candidates
from ._doc_controls import controlling_settings
from ._doc_copular import allowed_ranges, copular_values
from ._doc_counts import the_count
from ._doc_defaults import default_candidates
from ._doc_headed import headed_candidates
from ._doc_identifiers import is_identifier
from ._doc_keywords import keyword_candidates
from ._doc_labels import VALUE_NOUNS, labelled_values
from ._doc_match import (
    NUMBER_WORDS,
    mentions,
    names,
    overlap,
    overlap_words,
    sentences_of,
    stems,
    term_name,
)
from ._doc_match import DocCandidate as DocCandidate
from ._doc_meaning import bare_unit, value_meanings
from ._doc_prose import (
    CONDITION_FIT,
    consequence_in_prose,
    does_in_prose,
    noun_of_value,
    object_in_prose,
    passive_object,
    purpose_in_prose,
    range_in_prose,
)
from ._doc_questions import LITERAL_CALL, DocQuestion, doc_question
from ._doc_quoted import quoted_values
from ._doc_returns import returned, trim
from ._doc_rows import labelled_cells
from ._doc_scope import answering, without_product
from ._doc_values import which_or_purpose
from ._doc_versions import version_candidates
from ._lock_modes import acquired_by
from ._outline import Line, described_term, heading_title, outline, term_description
from ._refentry import ENTRY_NOUNS, entry_purposes, named_entries
from ._section_owner import heading_owns, one_name
from ._sentences import Sentence, split_sentences
from ._which_checks import SETTING_NOUNS

_AMOUNT_ONLY: Final = re.compile(rf"(?i)(?![1-5]\d\d$)-?\d[\d.,]*(?: ?[a-z]+)?|{NUMBER_WORDS}")
_POINTS_BACK: Final = re.compile(r"(?:It|Its|This|These|They|Their)\b")
# A release or version the question asks about ("does release 14.2 contain"): the sentence answering
# sits under it (or names it), not under another release's heading.
_RELEASE_ASKED: Final = re.compile(r"\b(?:release|version)s? (\d+(?:\.\d+)*)\b", re.IGNORECASE)


def _names_release(release: str, *texts: str) -> bool:
    said = re.compile(rf"(?<![\d.]){re.escape(release)}(?!\d|\.\d)")
    return any(said.search(text) for text in texts)


def answer_doc(q: DocQuestion, pages: Sequence[Page]) -> list[DocCandidate]:
    """Candidates for `q` over `pages`, best first (ties: page order, then place); when no extractor of
    its kind finds one, the one value a matching sentence quotes (`_doc_quoted`), else the one amount of
    the sentence an amount question describes (`_doc_amounts`; always for a default question)."""
    found = _by_kind(q, pages) or answering(q, pages, quoted_values(q, pages))
    amounts = asked_amounts(without_product(q, pages), pages) if q.kind == "default" or not found else ()
    return answering(q, pages, chain(found, amounts))


def _by_kind(q: DocQuestion, pages: Sequence[Page]) -> list[DocCandidate]:
    extract = {
        "default": default_candidates,
        "version": version_candidates,
        "which": which_or_purpose,
        "does": _does,
        "meaning": value_meanings,
        "unit": bare_unit,
        "value": _value,
        "stated": noun_of_value,
        "keyword": keyword_candidates,
    }
    if q.noun == "unhandled":
        return []  # (only the quoted value `answer_doc` then reads)
    q = without_product(q, pages)
    if q.kind == "code":
        found = answering(q, pages, code_candidates(q, pages))
        named = doc_question(q.text, True, codes=False)
        if found or named is None:
            return found
        # Asked for a code, an amount is no answer ("Default value is zero" of the delay, not the status);
        # a code is (`omitted_default` reads "(HTTP status 302)").
        return [c for c in answer_doc(named, pages) if not _AMOUNT_ONLY.fullmatch(c.answer.strip(" ;.,"))]
    if q.kind == "which" and q.noun in VALUE_NOUNS:  # "Which argument produces a 303 redirect?"
        return answering(q, pages, chain(labelled_values(q, pages), extract[q.kind](q, pages)))
    if q.kind == "which" and q.noun in ENTRY_NOUNS:
        # "Which command generates an ordinary SYNC event?": a reference page's Name line first
        return answering(q, pages, chain(named_entries(q, pages), extract[q.kind](q, pages)))
    if q.kind == "does" and q.noun == "do":
        # "What does VACUUM do?": the Name line of its reference page first
        return answering(q, pages, chain(entry_purposes(q, pages), extract[q.kind](q, pages)))
    if q.noun == "type" and q.identifiers:
        # "What type of value does queue_only_load take?": its row's "Type: fixed-point" cell first
        return answering(q, pages, chain(labelled_cells(q, pages, "Type"), extract[q.kind](q, pages)))
    if q.kind == "which" and q.noun in SETTING_NOUNS:
        # "... This behavior is controlled by X." first; "Which directive sets ...?": a section headed by
        # the name its description does not repeat
        settings = chain(
            controlling_settings(q, pages), extract[q.kind](q, pages), headed_candidates(q, pages)
        )
        return answering(q, pages, settings)
    if q.kind == "which" and q.noun in ("mode", "lock"):
        # "Which lock mode does CREATE INDEX acquire?": a lock-mode list's "Acquired by ..." first
        return answering(q, pages, chain(acquired_by(q, pages), extract[q.kind](q, pages)))
    return answering(q, pages, extract[q.kind](q, pages))


def _does(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    if q.noun == "happen":
        yield from consequence_in_prose(q, pages)  # the condition names no term to read under
        return
    if q.noun not in ("do", "return", "mean"):
        yield from object_in_prose(q, pages)  # "What does SQLite use to ...?": a verb's object
        yield from passive_object(q, pages)  # '"-dirty" is appended': the literal the verb is said of
        return
    subject = q.subject or ""
    head = re.split(r"\s+(?:of|in|on|for)\s+", subject, maxsplit=1)
    # "the aifc getcomptype method": the word before the kind names the term.
    # "the VERBOSE option (of COMPACT)": an option or parameter named by its word, as its term is.
    named = re.sub(
        r"^(?:the|an?) |\s+(?:function|method|attribute|class|option|parameter|keyword|clause)$",
        "",
        head[0].strip(),
    )
    # ... unless another word is code: ".preamble" of "the .preamble backend attribute".
    coded = [w for w in named.split() if is_identifier(w) or re.fullmatch(r"\.[A-Za-z_]\w*", w)]
    target = names(coded[0] if coded else named.rsplit(" ", 1)[-1])[1]
    # The command it is an option of, in capitals ("of COMPACT"): the page documents it.
    command = (
        head[1].strip()
        if len(head) > 1 and re.fullmatch(r"[A-Z]{2,}(?: [A-Z]{2,})*", head[1].strip())
        else None
    )
    # The words beyond what the question asks about: the condition it is asked under, if any.
    condition = replace(q, words=tuple(w for w in q.words if w not in stems(subject)))
    # The term's owner is code the subject names ("Shelf" of "slots of Shelf"), not code a condition names.
    owner = [i for i in q.identifiers if names(i)[1] != target and i in subject]
    for page in pages:
        lines = outline(page.body)
        for index, line in enumerate(lines[:-1]):
            line = described_term(line, lines[index + 1])
            titled = _titled_section(line, lines[index + 1 :], target) if q.noun in ("return", "do") else None
            if titled is not None and q.noun == "return":
                # "###### DATABASE" over "Returns the file name ... of the database." (HSQLDB's function
                # list: a bold title, then paragraphs at its own depth): the section describes it.
                yield from returned(q, page, *titled)
                continue
            if (
                titled is not None
                and one_name(titled[0].text)
                and not condition.words
                and line.text[:2] == "##"
            ):
                # "### async-start" over "If enabled, server doesn't wait ...": a setting's own section
                # says what it does in its first sentence (a page's title opens no setting's section).
                yield from _first_sentence(page, titled[1], "the first sentence under its heading")
                continue
            if not line.is_term or term_name(line.text).casefold().rsplit(".", 1)[-1] != target:
                continue
            if owner and not all(any(mentions(t, i) for t in (*line.terms, line.text)) for i in owner):
                continue
            if command is not None and not any(mentions(h, command) for h in (page.title, *line.headings)):
                continue  # the VERBOSE option of another command's page
            if q.noun == "return":
                yield from returned(q, page, line, lines[index + 1 :])
                continue
            first = term_description(lines, index)
            sentences = split_sentences(page.body[first.start : first.end])
            # Asked under a condition ("What does f do with a numeric value?"), the term's first
            # sentence answers only if it states that condition; what f does in general is not it.
            if sentences and (not condition.words or overlap(condition, sentences[0].text) >= CONDITION_FIT):
                text = sentences[0].text
                yield DocCandidate(page.url, text.rstrip("."), text, 2.0, "the first sentence under the term")
    if q.noun in ("do", "return") and not condition.words:
        yield from _row_description(q, pages, target)
    if q.noun == "do":
        yield from does_in_prose(q, pages)


def _first_sentence(page: Page, section: Sequence[Line], how: str) -> Iterator[DocCandidate]:
    """The first sentence of a section's first line of prose (not a table row)."""
    first = next((line for line in section if not line.cells), None)
    sentences = split_sentences(page.body[first.start : first.end]) if first is not None else []
    if sentences:
        text = sentences[0].text
        yield DocCandidate(page.url, text.rstrip("."), text, 2.0, how)


def _titled_section(line: Line, following: Sequence[Line], target: str) -> tuple[Line, list[Line]] | None:
    """A heading titled with the function asked about and no deeper lines under it, as a term with
    the lines of its section (up to the next heading) described under it; None for anything else."""
    title = heading_title(line)
    if title is None or line.is_term or term_name(title).casefold().rsplit(".", 1)[-1] != target:
        return None
    section = []
    for below in following:
        if below.text.startswith("#"):
            break
        section.append(replace(below, terms=(*below.terms, title)))
    return replace(line, text=title, is_term=True), section


def _row_description(q: DocQuestion, pages: Sequence[Page], target: str) -> Iterator[DocCandidate]:
    """What a function's row in a table of functions says it does (its "Description" cell), or what it
    returns: the rest of a description opening "Returns", or a description that is a noun phrase
    ("Number of characters in string") under a "Return type" column. A description opening with
    another verb ("Removes ...") says what the function does, not what it returns."""
    for page in pages:
        for line in outline(page.body):
            if not line.cells or line.cells == line.header or len(line.header) != len(line.cells):
                continue
            column = next(
                (k for k, h in enumerate(line.header) if h.strip().casefold() == "description"), None
            )
            if column is None or column == 0 or term_name(line.cells[0]).casefold() != target:
                continue
            described = line.cells[column].strip().rstrip(".")
            if q.noun == "return":
                typed = any(re.search(r"(?i)\breturn", h) for h in line.header)
                if described.startswith("Returns "):
                    described = described.removeprefix("Returns ")
                elif not typed or re.match(r"[A-Z][a-z]*[^s\W]s\b", described):
                    continue
            if described:
                yield DocCandidate(
                    page.url, described, line.text, 2.0, "the description in its function's row"
                )


def _bare(call: str) -> str:
    """A call without its white space: "gcd(12, 8)" as "gcd(12,8)"."""
    return "".join(call.split())


def _value(q: DocQuestion, pages: Sequence[Page]) -> Iterator[DocCandidate]:
    """A table cell under the column asked for; else the value a sentence gives for the attribute."""
    # "factorial(7)": only the row whose example is that very call gives its result ("factorial(5)" does not).
    calls = [_bare(call.group(0)) for call in LITERAL_CALL.finditer(q.text)]
    for page in pages:
        for line in outline(page.body):
            if not line.cells or line.cells == line.header or len(line.header) != len(line.cells):
                continue
            row = line.cells[0]
            # "#### RcvBufSize" over "type | default | mandatory" and one row: the heading names the row.
            headed = not calls and heading_owns(line, q, q.words, page.body, page.title)
            columns = zip(line.header, line.cells, strict=True)
            if headed:
                row = line.headings[-1]
            elif not row or (not any(mentions(row, i) for i in q.identifiers) and not overlap(q, row) > 0):
                continue
            else:
                next(columns)  # the row's name is no value of it
            if calls and not any(_bare(cell) in calls for cell in line.cells):
                continue
            for column, cell in columns:
                if calls and _bare(cell) in calls:
                    continue  # the example call itself is no result
                # The column the question names: by its words, or as the noun asked ("the return type of f").
                named = q.noun is not None and q.noun.casefold() == column.strip().rstrip(":").casefold()
                # (a row whose example is the asked call is the row asked about, whatever its words)
                if (
                    cell
                    and (overlap(q, column) > 0 or named)
                    and (calls or headed or overlap(q, row, column) >= 0.5)
                ):
                    score = 2.5 if calls else 1.5 + overlap(q, row, column)
                    yield DocCandidate(
                        page.url, cell, line.text, score, f"the {column!r} cell of row {row!r}"
                    )
    if q.noun is None or calls:
        return
    if q.noun == "expansion":
        yield from expansion_candidates(q, pages)
        return
    if q.noun == "purpose":
        yield from purpose_in_prose(q, pages)
        return
    if q.noun == "range":
        yield from range_in_prose(q, pages)
        return
    if q.noun == "allowed values":
        yield from allowed_values(q, pages)
        return
    if q.noun in ("maximum", "minimum"):
        yield from bound_candidates(q, pages)  # "What is the maximum X that Y accepts?"
        return
    if q.noun.endswith("range"):
        # "What is the allowed range for process-max?": a range, not a count of "allowed" things
        yield from allowed_ranges(q, pages)
        yield from copular_values(q, pages)
        return
    noun = re.escape(q.noun)
    unit = re.escape((q.noun[:-1] if q.noun.endswith("s") else q.noun)[:4])  # "bits": "16-bit"
    # "45 bytes", "45 (binary) bytes", "a 16-bit CRC", "two wax rings" (a count in words too)
    counted = re.compile(
        # (not "any one lock partition": "any one" counts nothing; nor "more than one column": several)
        rf"(?<![\w.])(?<!any )(?!(?<=more than )one\b)(\d[\d,.]*(?:\*\*\d+)?|(?i:{NUMBER_WORDS})\b)"
        rf"(?: \([a-z ]+\))?[ -]?(?i:{unit})\w*"
        # "How many times ...?": "twice" is a count of times.
        + (r"|\b(?i:once|twice|thrice)\b" if q.noun == "times" else "")
    )
    measured = re.compile(rf"\b(?i:{noun}) (?:of|is|was|=|:) ([^\s,;]*\d[^\s,;]*)")
    releases = _RELEASE_ASKED.findall(q.text)
    # The words besides the counted noun: in a short question, each says what is counted ("a schema").
    besides = (
        [w for w in q.words if w not in stems(q.noun)] if q.text.casefold().startswith("how many") else []
    )
    previous: Sentence | None = None
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        # The sentence before, in the same line, may name what this one calls "it": then it is quoted too.
        before = (
            previous if previous is not None and sentence.start > 0 and _POINTS_BACK.match(text) else None
        )
        previous = sentence
        if ">>>" in sentence.text:
            continue  # an interactive example: "data = [2.75, ...]" is the example's, not a documented value
        if before is not None:
            text = page.body[line.start + before.start : line.start + sentence.end]
        fit = overlap(q, text, *line.terms[-1:], *line.headings[-1:])
        if fit < 0.5 or not all(_names_release(r, text, *line.terms, *line.headings) for r in releases):
            continue  # "How many fixes does release 14.2 contain?": not a sentence under Release 14.1
        if (
            besides
            and len(besides) <= 2
            and not all(overlap_words([w], text, *line.terms, *line.headings) for w in besides)
        ):
            continue  # "How many widgets can a schema have?": not "A table can have at most 32 widgets"
        for pattern in (counted, measured):
            match = the_count(q, text, counted) if pattern is counted else pattern.search(text)
            if match is not None:
                yield DocCandidate(
                    page.url,
                    trim(match.group(0) if pattern is counted else match.group(1)),
                    text,
                    1.0 + fit,
                    f"the {q.noun} the sentence gives",
                )
                break
    yield from copular_values(q, pages)
