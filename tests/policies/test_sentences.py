"""Sentence splitting is linear (issue 14, item 16) and splits exactly as the quadratic splitter did."""

from __future__ import annotations

import re
from typing import Any

from citeloop.policies._sentences import _ABBREVIATIONS, Sentence, _add, split_sentences, stem
from citeloop.tools import Corpus
from hypothesis import given, settings
from hypothesis import strategies as st

# The splitter as it was before the fix (quadratic: it sliced from the sentence start at every period).
_OLD_END = re.compile(r"[.!?]+[\"'\u201d\u2019)\]]*\s+|\n\s*")


_PLACES = {"U.S", "U.K", "U.N", "E.U", "U.S.S.R", "D.C"}


def old_split_sentences(body: str) -> list[Sentence]:
    sentences: list[Sentence] = []
    start = 0
    for match in _OLD_END.finditer(body):
        cut = match.end()
        if "\n" not in match.group(0):
            before = body[start : match.start()].rsplit(None, 1)
            # (since: an abbreviation opening a bracket, "(b. 1952)", is still one)
            last = before[-1].lower().rstrip(".").lstrip("([{\"'\u201c") if before else ""
            following = body[cut : cut + 1]
            if (
                last in _ABBREVIATIONS
                or (len(last) == 1 and last.isalpha())
                or (following and following.islower())
            ):
                continue
            # (since: a name's closed-up initials, "D.W. Griffith", end no sentence; "the U.S." may)
            word = before[-1] if before else ""
            if re.fullmatch(r"[(\[]?(?:[A-Z]\.)+[A-Z]", word) and word.lstrip("([") not in _PLACES:
                continue
            # (since: an ellipsis between capitalised keywords, "DROP ... IF", ends no sentence)
            elided = match.group(0).startswith("...") and before and before[-1].isupper()
            if elided and re.match(r"[A-Z]{2,}\b", body[cut:]):
                continue
        _add(body, start, match.start() + len(match.group(0).rstrip()), sentences)
        start = cut
    _add(body, start, len(body), sentences)
    return sentences


ORDINARY = [
    "Dr. Smith met J. R. R. Tolkien in 1937. They spoke of e.g. dragons! Was it 3.5 hours? Yes.",
    'He said "stop." Then he left.\nA new line starts here.  And  another one...  ok',
    "Acme Inc. was founded by Ada Ortiz (the C.E.O.) in Lisbon. It grew fast.\n\n\nThe end",
    "the cat sat. the dog ran. The bird flew away! what now? Nothing.",
    "  \n . ! ? .. A. B. Cc. dd. Ee.\u2019 Ff.) Gg.] hh.\u201d ii.\u00a0Jj.\u2003kk",
]


def test_an_ellipsis_between_keywords_ends_no_sentence() -> None:
    # pg_dump's "--if-exists": "Use DROP ... IF EXISTS commands to drop objects" was cut at "...".
    body = "Use DROP ... IF EXISTS commands to drop objects. Wait... Then go."
    assert [s.text for s in split_sentences(body)] == [
        "Use DROP ... IF EXISTS commands to drop objects.",
        "Wait...",
        "Then go.",
    ]


def test_an_abbreviation_opening_a_bracket_ends_no_sentence() -> None:
    # "Andrew Jaspan, (b. 20 April 1952) British-Australian journalist, ..." was cut at "(b.".
    body = "Orla Vane, (b. 3 May 1961) Irish editor, founded a journal. Ezra Pike (d. 1560) wrote it."
    assert [s.text for s in split_sentences(body)] == [
        "Orla Vane, (b. 3 May 1961) Irish editor, founded a journal.",
        "Ezra Pike (d. 1560) wrote it.",
    ]


def test_closed_up_initials_end_no_sentence_but_a_country_may() -> None:
    # "directed by D.W. Griffith" was cut at "D.W.": the film's director read as no one.
    body = "Tide is a 1916 film directed by D.W. Griffith. Lou (J.R.R. Vane) moved to the U.S. He stayed."
    assert [s.text for s in split_sentences(body)] == [
        "Tide is a 1916 film directed by D.W. Griffith.",
        "Lou (J.R.R. Vane) moved to the U.S.",
        "He stayed.",
    ]


def test_identical_to_the_old_splitter_on_ordinary_text() -> None:
    for body in ORDINARY:
        assert split_sentences(body) == old_split_sentences(body), body


def test_identical_to_the_old_splitter_on_the_demo_corpus() -> None:
    corpus = Corpus.demo()
    try:
        for url in corpus.urls():
            page = corpus.open(url)
            assert page is not None
            assert split_sentences(page.body) == old_split_sentences(page.body), url
    finally:
        corpus.close()


_PIECES = st.sampled_from(
    ["Dr", "e.g", "word", "Word", "x", "X", "3", "5", ".", "!", "?", "...", '"', "\u2019", ")", "]",
     " ", "  ", "\n", "\t", "\u00a0", "\u2028", "mr", "Ab", "élan", "Élan", "(", "(b", "D.W", "U.S", "(J.R"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=60).map("".join))
def test_identical_to_the_old_splitter_on_generated_text(body: str) -> None:
    assert split_sentences(body) == old_split_sentences(body)


class CountingStr(str):
    """A body that counts the characters its slices copy: the splitter's work, without a clock."""

    copied = 0

    def __getitem__(self, key: Any) -> str:
        piece = super().__getitem__(key)
        CountingStr.copied += len(piece)
        return piece


def _work(body: str) -> int:
    CountingStr.copied = 0
    split_sentences(CountingStr(body))
    return CountingStr.copied


def test_work_grows_linearly_with_lower_case_sentences() -> None:
    """A page where no period ends a sentence (lower case follows): 4x the text is ~4x the work."""
    unit = "the cat sat on the mat. "
    small, large = _work(unit * 2_000), _work(unit * 8_000)
    assert large <= 5 * small, (small, large)
    # The old splitter copied the text before each period: 8,000 periods, ~96,000 chars each.
    CountingStr.copied = 0
    old_split_sentences(CountingStr(unit * 8_000))
    assert CountingStr.copied > 100 * large


def test_the_forms_of_a_verb_ending_in_y_share_one_stem() -> None:
    # Must fail before the "y" went with the suffix: "copying" was "copy", "copied" "cop" - no match.
    assert stem("copying") == stem("copied") == stem("copies") == stem("copy")
    assert stem("displays") == stem("displaying") == stem("display")
    assert stem("says") == stem("say")  # a short word keeps its "y"
