"""Search on a small corpus: words found in half the pages or more still count (Lucene's idf).

FTS5 weighs a word by log((N - n + 0.5) / (n + 0.5)), clamped to 1e-6 once the word is in
half the pages: on a corpus of eight pages nearly every word of a question is, and the
ranking is then noise. Up to `SMALL_CORPUS` pages the index reweighs each word as Lucene
does, log(1 + (N - n + 0.5) / (n + 0.5)), from FTS5's own per-word scores.
"""

from __future__ import annotations

import pytest
from citeloop.tools import Corpus, _index
from hypothesis import given, settings
from hypothesis import strategies as st

# The page that answers is indexed last, so that a tie (every score clamped) would not favour it.
PAGES = [
    (
        "u:strict",
        "Strict tables",
        "A strict table checks each column type. Generated values are checked too.",
    ),
    ("u:locking", "Locking", "Locking was introduced to keep readers and writers of one file apart."),
    ("u:attach", "Attach", "Attached databases have their own version, generated names and column list."),
    ("u:other", "Other", "Nothing here is about databases."),
    (
        "u:generated",
        "Generated columns",
        "Generated columns were added in version 3.31. Generated columns are computed from other columns. "
        "A generated column is virtual or stored; a table may have many generated columns.",
    ),
]
QUERY = "In which version were generated columns introduced?"


def test_words_in_half_the_pages_still_rank_the_page_that_holds_them_most() -> None:
    corpus = Corpus.from_pages(PAGES)
    assert [hit.url for hit in corpus.search(QUERY, limit=3)][:1] == ["u:generated"]


def test_fts5_alone_does_not_rank_it_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # Why the reweighing exists: with FTS5's clamped weights the same query puts another page first.
    monkeypatch.setattr(_index, "SMALL_CORPUS", 0)
    corpus = Corpus.from_pages(PAGES)
    assert [hit.url for hit in corpus.search(QUERY, limit=3)][:1] != ["u:generated"]


VOCABULARY = ["otter", "river", "sea", "fish", "stone", "bridge"]
pages_strategy = st.lists(
    st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=12).map(" ".join), min_size=1, max_size=8
)


@settings(max_examples=150, deadline=None)
@given(bodies=pages_strategy, query=st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=3))
def test_the_same_pages_match_and_one_word_ranks_as_fts5_does(bodies: list[str], query: list[str]) -> None:
    pages = [(f"u:{k}", f"Page {k}", body) for k, body in enumerate(bodies)]
    corpus = Corpus.from_pages(pages)
    hits = corpus.search(" ".join(query), limit=len(pages))
    holding = {url for url, _, body in pages if set(body.split()) & set(query)}
    assert {hit.url for hit in hits} == holding  # every page holding a word, and no other
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
    assert all(hit.score > 0 for hit in hits)
    # One word: Lucene's idf is a constant factor of FTS5's, so the order is FTS5's own.
    word = query[0]
    small = [hit.url for hit in corpus.search(word, limit=len(pages))]
    original = _index.SMALL_CORPUS
    _index.SMALL_CORPUS = 0
    try:
        assert [hit.url for hit in corpus.search(word, limit=len(pages))] == small
    finally:
        _index.SMALL_CORPUS = original


def test_a_page_titled_as_the_query_comes_first() -> None:
    pages = [
        ("u:prize", "Otter Prize", "The Otter Prize honours otter research. Otter otter."),
        ("u:museum", "Otter Museum (Vienna)", "The Otter Museum shows otters."),
        (
            "u:otter",
            "Otter",
            "The otter is a carnivorous mammal of the subfamily Lutrinae; it lives near water.",
        ),
        ("u:battle", "Battle of Guam (1944)", "The battle lasted three weeks."),
    ]
    corpus = Corpus.from_pages(pages)
    hits = corpus.search("Otter", limit=3)
    assert [hit.url for hit in hits][:1] == ["u:otter"]
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)
    # A trailing note in brackets is no part of the title's name; case and punctuation do not count.
    assert [hit.url for hit in corpus.search("battle of GUAM", limit=2)][:1] == ["u:battle"]
    # Must fail: a question is no title, and a title holding more words is another page's.
    assert [hit.url for hit in corpus.search("Otter Prize", limit=1)] == ["u:prize"]
    assert "u:otter" not in [hit.url for hit in corpus.search("Which otter prize honours research?", limit=1)]


def test_bm25_alone_would_not_put_the_titled_page_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # Why the title rule exists: pages about the otter outscore the otter's own page on BM25.
    monkeypatch.setattr(_index, "_TITLE_WORDS", 0)
    pages = [
        ("u:prize", "Otter Prize", "The Otter Prize honours otter research. Otter otter."),
        (
            "u:otter",
            "Otter",
            "The otter is a carnivorous mammal of the subfamily Lutrinae; it lives near water.",
        ),
    ]
    assert [hit.url for hit in Corpus.from_pages(pages).search("Otter", limit=2)] == ["u:prize", "u:otter"]
