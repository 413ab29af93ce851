"""A name written as code in a query ("compare_files", "--log-level") is also matched whole, as the
phrase of its words: the page that writes it moves up past pages that only share its words (review 28:
CMake's long cmake(1) page holds `compare_files` once among hundreds of other commands)."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.tools import Corpus
from citeloop.tools._query import code_phrases


def test_code_names_become_phrases_of_their_words() -> None:
    assert code_phrases("cmake compare files compare_files --log-level CURL::libcurl os.path.join") == [
        '"compare files"',
        '"log level"',
        '"curl libcurl"',
        '"os path join"',
    ]
    # A plain word, a hyphenated word of prose and a single-word flag add nothing.
    assert code_phrases("compare well-known -v files") == []


def _filler(n: int) -> str:
    return " ".join(f"command{i} does something else entirely with its input." for i in range(n))


def _corpus(folder: Path, unrelated: int) -> Corpus:
    pages = {
        # The manual: every command on one long page, compare_files among them.
        "manual.md": f"# cmake\n\n{_filler(150)} compare_files <a> <b>: exit 1 if the files differ. "
        + _filler(150),
        # Short pages that share the words, never the name.
        "diff.md": "# Diff\n\nTwo files are compared and their differences printed: files differ by line.",
        "sync.md": "# Sync\n\nFiles are copied when the files compare unequal; compare them first.",
        "hash.md": "# Hash\n\nFiles compare equal when their hashes do: two files that differ hash apart.",
    }
    pages |= {
        f"other{i}.md": f"# Other {i}\n\nA page about topic number {i} alone." for i in range(unrelated)
    }
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    return Corpus.from_path(folder, index_path=folder.parent / "code-phrases.sqlite")


# With no other pages its words are in most pages (Lucene-weighted search); with eight unrelated pages
# they are in few (FTS5's own BM25): the name counts on both paths, for the page that writes it only.
@pytest.mark.parametrize("unrelated", [0, 8])
def test_the_name_scores_the_page_that_writes_it(tmp_path: Path, unrelated: int) -> None:
    corpus = _corpus(tmp_path, unrelated)
    words_only = {hit.url.rsplit("/", 1)[-1]: hit.score for hit in corpus.search("compare files differ")}
    with_name = {
        hit.url.rsplit("/", 1)[-1]: hit.score for hit in corpus.search("compare files differ compare_files")
    }
    assert with_name["manual.md"] > words_only["manual.md"]
    assert all(with_name[page] == words_only[page] for page in ("diff.md", "sync.md", "hash.md"))


def test_the_page_writing_the_name_moves_into_the_opened_three(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path, 0)
    words_only = [hit.url for hit in corpus.search("compare files differ", limit=4)]
    with_name = [hit.url for hit in corpus.search("compare files differ compare_files", limit=4)]
    # The policy opens three hits: the long page is not among them on its words alone.
    assert not any(url.endswith("manual.md") for url in words_only[:3])
    assert any(url.endswith("manual.md") for url in with_name[:3])
