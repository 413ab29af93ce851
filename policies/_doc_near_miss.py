"""Quotes that come close to a documentation question without answering it (`_doc_finish` drops them).

Each was a wrong answer to a question written to be *nearly* answerable (review Q):

- **another release's state**: "Which function did timeit use as its default timer before Python
  3.3?" is not answered by "Changed in version 3.3: time.perf_counter() is now the default timer." -
  a quote marking the release the question asks *before* says what held from it on;
- **another of its kind** (a version asked): "Since which SQLite version is shared-cache mode
  supported?" is not answered by 'Since version 3.7.0, SQLite also supports "WAL mode".' - the quote
  names the kind asked about ("mode") after another name, in capitals, and the question's word nowhere;
- **another release of a product the question names**: "What is hashlib.scrypt's default maxmem
  limit when Python is linked against OpenSSL 3.0?" is not answered by "(OpenSSL 1.1.0 defaults to 32
  MiB)" (review AA);
- **a name for a number**: "What numeric memLevel does zlib.compressobj() use by default?" is not
  answered by `memLevel=DEF_MEM_LEVEL` (review AA);
- **one part of a compound value**: "What is the default MinRate for the handshake stage?" is not
  answered by the whole default "handshake=0 header=20-40,MinRate=500 body=20,MinRate=500", whose
  parts the question names.
"""

from __future__ import annotations

import itertools
import re
from typing import Final

from ._questions import STOPWORDS
from ._sentences import stem, words

_BEFORE_RELEASE: Final = re.compile(
    r"\b(?:before|prior to|until|up to)\s+(?:[A-Za-z][\w-]*\s+)?(?:version\s+)?v?(\d+(?:\.\d+)+)\b",
    re.IGNORECASE,
)


def other_release_state(question: str, evidence: str) -> bool:
    """Whether the question asks what held before a release and the quote names that release without
    saying "before" it: the quote then says what changed at it, the state after."""
    asked = _BEFORE_RELEASE.search(question)
    if asked is None:
        return False
    release = re.escape(asked.group(1))
    if re.search(rf"(?<![\d.]){release}(?![\d.]*\d)", evidence) is None:
        return False
    return _BEFORE_RELEASE.search(evidence) is None


_SETTING_PAIR: Final = re.compile(r"\b([A-Za-z][\w-]*)=")


def part_of_compound(question: str, answer: str) -> bool:
    """Whether the answer sets several keys (`key=value` twice or more) and the question names one of
    them: it asks for that part, which the whole value does not give."""
    keys = {key.casefold() for key in _SETTING_PAIR.findall(answer)}
    if len(_SETTING_PAIR.findall(answer)) < 2:
        return False
    return any(word.casefold() in keys for word in words(question))


_TOKEN: Final = re.compile(r"[A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9]")


def another_named_kind(question: str, evidence: str) -> bool:
    """Whether the quote names another thing of the kind the question asks about: the question's
    "<word> <kind>" ("shared-cache mode") stands in the quote as "<Name> <kind>" ("WAL mode"), the
    name written in capitals, the question's word nowhere in the quote."""
    asked = [t.casefold() for t in _TOKEN.findall(question)]
    told = _TOKEN.findall(evidence)
    told_stems = {stem(t) for t in told}
    named = {stem(h) for w, h in itertools.pairwise(told) if w.isupper() and w.casefold() not in asked}
    return any(
        stem(kind) in named and word not in STOPWORDS and stem(word) not in told_stems
        for word, kind in itertools.pairwise(asked)
    )


# "OpenSSL 3.0", "SQLite 3.35.0": a product named with a release of it.
_PRODUCT_RELEASE: Final = re.compile(r"\b([A-Z][A-Za-z]+) v?(\d+(?:\.\d+)+)\b")


def another_release(question: str, evidence: str) -> bool:
    """Whether the quote names the product of a release the question names ("OpenSSL 3.0") only with
    other releases of it ("OpenSSL 1.1.0"): it says what holds for those."""
    told = _PRODUCT_RELEASE.findall(evidence)
    for product, release in _PRODUCT_RELEASE.findall(question):
        releases = [r for p, r in told if p == product]
        if releases and release not in releases:
            return True
    return False


_NUMBER_ASKED: Final = re.compile(r"\b(?:what|which) (?:numeric|number)\b", re.IGNORECASE)


def name_for_number(question: str, answer: str) -> bool:
    """Whether the question asks for a number ("What numeric memLevel ...?") and the answer holds no
    digit: a constant's name ("DEF_MEM_LEVEL") is not the number it stands for."""
    return _NUMBER_ASKED.search(question) is not None and not any(c.isdigit() for c in answer)
