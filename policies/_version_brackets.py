"""A version in brackets right after the feature it introduced: "The delay parameter (1.15.7) ...".

nginx's reference (and others written the same way) marks when each parameter or value came
with the version in brackets after its name, in the sentence that describes it. Asked "Since
which version does limit_req support the delay parameter?", the clause before such a bracket
must name every word of the feature the question asks about (or, asked about the code itself,
the code), in a sentence about the code the question names; a clause holding a version of its
own ("when using OpenSSL 1.1.1 or higher (1.15.4)") is another product's requirement, and a
question asking for another product's version ("Which OpenSSL version ...") takes none.
`feature` comes from `_doc_versions.version_candidates`, without the words that ask when.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from citeloop.events import Page

from ._doc_match import DocCandidate, about, mentions, overlap_words, own_quote, sentences_of, stems
from ._doc_questions import DocQuestion
from ._sentences import stem

# "The http2 parameter (1.9.5) configures ...", "With the "always" value (1.3.6), ...": a version in
# brackets right after what it introduced (nginx's reference marks each feature so).
_VERSION_IN: Final = re.compile(r"(?<![\w.])\d+\.\d+")
_BRACKETED: Final = re.compile(r"(?<=\s)\((\d+\.\d+(?:\.\d+)*)\)")
# Words that ask when, or name the kind of thing that arrived, not which one.
_NOT_FEATURE: Final = frozenset(
    stem(w)
    for w in (
        "version", "support", "supports", "accept", "accepts", "take", "get", "parameter", "value",
        "directive", "option", "since", "which", "use", "used", "can", "given",
    )
)  # fmt: skip


def bracketed_version(
    q: DocQuestion, pages: Sequence[Page], feature: Sequence[str]
) -> Iterator[DocCandidate]:
    """The version in brackets after the feature the question asks about, in a sentence about the code
    it names: "The delay parameter (1.15.7) specifies ..." for "Since which version does limit_req
    support the delay parameter?". The clause before the bracket names every word of the feature (or,
    asked about the code itself, the code)."""
    feature = [w for w in feature if w not in _NOT_FEATURE]
    if q.noun != "python" and not all(mentions(page.body, q.noun or "") for page in pages):
        return  # "Which OpenSSL version ...": another product's version, which no bracket here gives
    for page, line, sentence in sentences_of(pages):
        text = sentence.text
        if "(" not in text or not about(line, text, q):
            continue
        found = set()
        for match in _BRACKETED.finditer(text):
            # (the clause's start: a version's own dots end none)
            marks = [(text.rfind(mark, 0, match.start()), mark) for mark in (",", ";", "(", ". ")]
            start = max((at + len(mark) for at, mark in marks if at >= 0), default=0)
            clause = text[start : match.start()]
            if _VERSION_IN.search(clause):
                continue  # "using OpenSSL 1.1.1 or higher (1.15.4)": the clause's own version is another's
            said = stems(" ".join((clause, *line.headings[-1:], *line.terms[-1:])))
            named = bool(feature) and all(w in said for w in feature) and overlap_words(feature, clause)
            itself = not feature and any(mentions(clause, i) for i in q.identifiers)
            if named or itself:
                found.add(match.group(1))
        if len(found) == 1:
            quote = own_quote(page, line, sentence)
            yield DocCandidate(page.url, found.pop(), quote, 2.0, "the version bracketed after the feature")
