"""What a corpus may hold (issue 14, item 17): binary files and undecodable bytes are skipped and
listed, other encodings are detected, an empty corpus is one error, a .jsonl line is held to a cap
and a URL to one line.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import orjson
import pytest
from citeloop.tools import Corpus, CorpusError

LATIN1 = "Le café de la gare sert une crème brûlée; le garçon est très aimable."


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.md").write_text("Acme was founded by Ada Ortiz.", encoding="utf-8")
    return root


def test_binary_files_are_skipped_and_listed(tmp_path: Path) -> None:
    root = _root(tmp_path)
    ls = shutil.which("ls")
    assert ls is not None
    shutil.copyfile(ls, root / "x.html")
    (root / "noise.txt").write_bytes(random.Random(7).randbytes(4096))
    (root / "controls.txt").write_bytes(bytes(range(1, 9)) * 100)
    corpus = Corpus.from_path(root)
    assert corpus.urls() == ["corpus://docs/a.md"]
    reasons = {s.path: s.reason for s in corpus.skipped}
    assert reasons == {"controls.txt": "binary", "noise.txt": "binary", "x.html": "binary"}


def test_random_bytes_without_nul_are_refused_not_decoded_with_replacements(tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / "noise.txt").write_bytes(bytes(b for b in random.Random(1).randbytes(4096) if b))
    corpus = Corpus.from_path(root)
    assert corpus.urls() == ["corpus://docs/a.md"]
    assert [(s.path, s.reason) for s in corpus.skipped] == [("noise.txt", "undecodable")]


def test_other_encodings_are_detected_and_reported(tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / "latin1.txt").write_bytes(LATIN1.encode("latin-1"))
    (root / "sjis.txt").write_bytes("東京は日本の首都です。大阪は商業の町です。".encode("shift_jis"))
    (root / "utf16.txt").write_bytes("Zürich lies on a lake.".encode("utf-16"))
    corpus = Corpus.from_path(root)
    assert corpus.skipped == ()
    bodies = {url: page.body for url in corpus.urls() if (page := corpus.open(url)) is not None}
    assert bodies["corpus://docs/latin1.txt"] == LATIN1
    assert bodies["corpus://docs/sjis.txt"] == "東京は日本の首都です。大阪は商業の町です。"
    assert bodies["corpus://docs/utf16.txt"] == "Zürich lies on a lake."
    assert all("\ufffd" not in body for body in bodies.values())
    assert dict(corpus.decoded) == {"latin1.txt": "cp1252", "sjis.txt": "cp932", "utf16.txt": "utf-16"}


def test_a_reused_index_reports_the_same_files(tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / "x.html").write_bytes(b"\x7fELF\x00\x00binary")
    (root / "latin1.txt").write_bytes(LATIN1.encode("latin-1"))
    first = Corpus.from_path(root)
    again = Corpus.from_path(root)
    assert first.rebuilt and not again.rebuilt
    assert again.skipped == first.skipped and [s.path for s in again.skipped] == ["x.html"]
    assert again.decoded == first.decoded == (("latin1.txt", "cp1252"),)


@pytest.mark.parametrize("make", ["folder", "jsonl", "blank_jsonl", "only_binary"])
def test_an_empty_folder_and_an_empty_jsonl_are_the_same_error(tmp_path: Path, make: str) -> None:
    if make == "folder":
        target = tmp_path / "empty"
        target.mkdir()
    elif make == "only_binary":
        target = tmp_path / "bin"
        target.mkdir()
        (target / "x.txt").write_bytes(b"\x00\x01\x02")
    else:
        target = tmp_path / "pages.jsonl"
        target.write_text("" if make == "jsonl" else "\n  \n", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"^corpus .* holds no ") as info:
        Corpus.from_path(target)
    assert "\n" not in str(info.value)
    if make == "only_binary":
        assert "x.txt: binary" in str(info.value)


def test_a_duplicated_url_in_a_jsonl_names_both_lines(tmp_path: Path) -> None:
    path = tmp_path / "pages.jsonl"
    lines = [
        {"url": "https://a.example/1", "title": "One", "body": "Otters."},
        {"url": "https://a.example/2", "title": "Two", "body": "Beavers."},
        {"url": " https://a.example/1 ", "title": "Again", "body": "Otters again."},
    ]
    path.write_bytes(b"\n".join(orjson.dumps(line) for line in lines) + b"\n")
    with pytest.raises(
        CorpusError, match=r"pages\.jsonl:3: URL 'https://a\.example/1' already used on line 1"
    ):
        Corpus.from_path(path)


def test_a_duplicated_url_in_a_folder_is_listed(tmp_path: Path) -> None:
    root = _root(tmp_path)
    for name in ("one.md", "two.md"):
        (root / name).write_text(f"---\nurl: https://a.example/same\n---\n{name} body", encoding="utf-8")
    corpus = Corpus.from_path(root)
    page = corpus.open("https://a.example/same")
    assert page is not None and page.body == "one.md body"
    assert [(s.path, s.reason) for s in corpus.skipped] == [("two.md", "duplicate_url")]
    assert "one.md" in corpus.skipped[0].detail


def test_an_import_line_over_the_cap_is_refused_by_line(tmp_path: Path) -> None:
    path = tmp_path / "pages.jsonl"
    small = orjson.dumps({"url": "https://a.example/1", "title": "One", "body": "Otters."})
    big = orjson.dumps({"url": "https://a.example/2", "title": "Two", "body": "x" * 5000})
    path.write_bytes(small + b"\n" + big + b"\n")
    with pytest.raises(CorpusError, match=r"pages\.jsonl:2: line longer than max_line_bytes \(1000 bytes\)"):
        Corpus.from_path(path, max_line_bytes=1000)
    # A line of exactly the cap (its newline aside) is accepted; the default cap is 10 MB.
    assert len(Corpus.from_path(path, max_line_bytes=len(big))) == 2
    with pytest.raises(CorpusError, match=r"pages\.jsonl:2: line longer"):
        Corpus.from_path(path, max_line_bytes=len(big) - 1)
    huge = orjson.dumps({"url": "https://a.example/3", "title": "", "body": "y" * (10 * 1024 * 1024)})
    path.write_bytes(small + b"\n" + huge)
    with pytest.raises(CorpusError, match=r"pages\.jsonl:2: line longer than max_line_bytes \(10485760"):
        Corpus.from_path(path)
