"""Indexing never reads outside the root, even while the tree changes under it (issue 14, item 10).

Every `OSError` of a build is a named outcome: a skipped file listed in `Corpus.skipped`,
or a one-line `CorpusError`.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest
from citeloop.tools import Corpus, CorpusError, SkippedFile
from citeloop.tools._index import Document, SearchIndex

SECRET = "TOPSECRET-91c2"


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))


def test_a_folder_swapped_for_a_symlink_while_indexing_never_leaks(tmp_path: Path) -> None:
    """A thread swaps `sub` for a symlink to an outside folder in a loop while builds run."""
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    sub = root / "sub"
    sub.mkdir(parents=True)
    (root / "a.txt").write_text("Acme was founded by Ada.", encoding="utf-8")
    for i in range(20):
        (sub / f"page{i:02}.txt").write_text(f"Inside page {i} about otters.", encoding="utf-8")
        (outside / f"page{i:02}.txt").write_text(f"{SECRET} outside page {i}", encoding="utf-8")
    parked = tmp_path / "parked"
    stop = threading.Event()
    swaps = 0

    def swapper() -> None:
        nonlocal swaps
        while not stop.is_set():
            os.rename(sub, parked)
            os.symlink(outside, sub, target_is_directory=True)
            os.unlink(sub)
            os.rename(parked, sub)
            swaps += 1

    thread = threading.Thread(target=swapper)
    thread.start()
    outcomes: list[str] = []
    build = 0

    def raced() -> bool:
        return "skipped" in outcomes or "error" in outcomes

    try:
        # 300 builds, and on until one has met the swap (a loaded machine may starve the
        # swapper thread for a while): the assertion below is about leaks, not scheduling.
        while build < 300 or (not raced() and build < 5_000):
            build += 1
            # A fresh index each time: a reused one would read no file.
            try:
                corpus = Corpus.from_path(root, index_path=tmp_path / "index" / f"{build}.sqlite")
            except CorpusError as exc:  # the tree changed between listing and stat: one line
                assert "\n" not in str(exc)
                outcomes.append("error")
                continue
            try:
                for url in corpus.urls():
                    page = corpus.open(url)
                    assert page is not None and SECRET not in page.body, url
                assert corpus.search(SECRET) == []
                assert all(isinstance(s, SkippedFile) for s in corpus.skipped)
                outcomes.append("skipped" if corpus.skipped else "clean")
            finally:
                corpus.close()
    finally:
        stop.set()
        thread.join()
    assert swaps > 0
    # The race was hit (some builds saw the swap) and no build escaped with a raw OSError.
    assert raced(), outcomes.count("clean")


def test_a_folder_swapped_between_listing_and_reading_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same race, made certain: the swap lands after the listing, before any file is read."""
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("Acme was founded by Ada.", encoding="utf-8")
    for name in ("b.txt", "c.txt"):
        (root / "sub" / name).write_text("Inside.", encoding="utf-8")
        (outside / name).write_text(SECRET, encoding="utf-8")
    build = SearchIndex.build

    def swap_then_build(*args: object, **kwargs: object) -> SearchIndex:
        (root / "sub").rename(tmp_path / "parked")
        (root / "sub").symlink_to(outside, target_is_directory=True)
        return build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchIndex, "build", swap_then_build)
    corpus = Corpus.from_path(root)
    assert corpus.urls() == ["corpus://root/a.txt"]
    assert [(s.path, s.reason) for s in corpus.skipped] == [
        ("sub/b.txt", "changed"),
        ("sub/c.txt", "changed"),
    ]
    assert "the folder changed while it was read" in corpus.skipped[0].detail


def test_a_symlinked_folder_is_listed_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.md").write_text(f"{SECRET} here", encoding="utf-8")
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.md").write_text("Acme was founded by Ada.", encoding="utf-8")
    (root / "dir-out").symlink_to(outside, target_is_directory=True)
    (root / "link-out.txt").symlink_to(tmp_path / "secret.txt")
    corpus = Corpus.from_path(root)
    assert corpus.urls() == ["corpus://root/a.md"]
    assert [(s.path, s.reason) for s in corpus.skipped] == [
        ("dir-out", "symlink"),
        ("link-out.txt", "symlink"),
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_file_or_folder_is_listed(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "locked").mkdir(parents=True)
    (root / "a.md").write_text("Acme was founded by Ada.", encoding="utf-8")
    (root / "locked" / "b.md").write_text("hidden by its folder", encoding="utf-8")
    (root / "c.txt").write_text("no read permission", encoding="utf-8")
    (root / "c.txt").chmod(0)
    (root / "locked").chmod(0)
    try:
        corpus = Corpus.from_path(root)
    finally:
        (root / "locked").chmod(0o700)
        (root / "c.txt").chmod(0o600)
    assert corpus.urls() == ["corpus://root/a.md"]
    assert [(s.path, s.reason) for s in corpus.skipped] == [("c.txt", "unreadable"), ("locked", "unreadable")]


def test_a_fifo_is_listed_and_never_waited_on(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.md").write_text("Acme was founded by Ada.", encoding="utf-8")
    os.mkfifo(root / "pipe.txt")
    corpus = Corpus.from_path(root)
    assert corpus.urls() == ["corpus://root/a.md"]
    assert [(s.path, s.reason) for s in corpus.skipped] == [("pipe.txt", "not_a_file")]


def test_an_unwritable_index_path_is_a_corpus_error(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.md").write_text("Acme was founded by Ada.", encoding="utf-8")
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(CorpusError, match="cannot write the corpus index") as info:
        Corpus.from_path(root, index_path=blocker / "index.sqlite")
    assert "\n" not in str(info.value)


class Stop(Exception):
    pass


def test_a_checkpoint_stops_sqlite_mid_statement_and_leaves_no_scratch(tmp_path: Path) -> None:
    """What the checkpoint raises inside SQLite's progress handler comes out, not 'interrupted'."""
    calls = 0

    def checkpoint() -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise Stop

    documents = (Document(f"u{i}", "t", f"page {i} about otters and beavers " * 50) for i in range(500))
    with pytest.raises(Stop):
        SearchIndex.build(documents, tmp_path / "index.sqlite", "m", checkpoint=checkpoint)
    assert list(tmp_path.iterdir()) == []
    index = SearchIndex.build([Document("u", "t", "otters")], tmp_path / "index.sqlite", "m")
    assert index.count == 1 and not isinstance(index, sqlite3.Connection)
    index.close()
