"""Corpus: building from txt/md/html/jsonl, the stored index (reuse, rebuild), search and open."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from citeloop.events import Page, SearchHits, ToolError, UsageError
from citeloop.tools import Corpus, CorpusError, Tool
from citeloop.tools._html import html_to_text

HTML = """<!doctype html>
<html><head><title>Fish &amp; Chips</title>
<link rel="canonical" href="https://food.example/fish">
<style>body { color: red } .founded { }</style>
<script>var secret = "founded by nobody";</script>
</head>
<body><h1>Fish</h1><p>Caf&eacute; on the pier, est.&nbsp;1921 &#8212; by Jo&#x00e3;o.</p>
<noscript>enable javascript</noscript><p>Second<br>line</p></body></html>
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "acme.md").write_text(
        "---\nurl: https://wiki.example/acme\ntitle: Acme Robotics\n---\n"
        "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.\n",
        encoding="utf-8",
    )
    (root / "sub" / "notes.txt").write_text("Kenji Ito is the current CEO.\n", encoding="utf-8")
    (root / "heading.md").write_text("# Porto\n\nPorto lies on the Douro.\n", encoding="utf-8")
    (root / "fish.html").write_text(HTML, encoding="utf-8")
    (root / "ignored.pdf").write_bytes(b"%PDF founded")
    (root / ".hidden.md").write_text("hidden founded", encoding="utf-8")
    return root


def test_folder_of_txt_md_html(tmp_path: Path) -> None:
    corpus = Corpus.from_path(_folder(tmp_path))
    assert sorted(corpus.urls()) == [
        "corpus://docs/heading.md",
        "corpus://docs/sub/notes.txt",
        "https://food.example/fish",
        "https://wiki.example/acme",
    ]
    acme = corpus.open("https://wiki.example/acme")
    assert acme is not None
    assert acme.title == "Acme Robotics"
    assert acme.body == "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
    assert acme.sha256 == hashlib.sha256(acme.body.encode()).hexdigest()
    heading = corpus.open("corpus://docs/heading.md")
    assert heading is not None and heading.title == "Porto"
    notes = corpus.open("corpus://docs/sub/notes.txt")
    assert notes is not None and notes.title == "notes" and notes.body == "Kenji Ito is the current CEO."


def test_html_is_parsed_not_scraped() -> None:
    page = html_to_text(HTML)
    assert page.title == "Fish & Chips"
    assert page.url == "https://food.example/fish"
    assert "Café on the pier, est. 1921 — by João." in page.text
    assert "Second\nline" in page.text
    for dropped in ("secret", "color", "javascript", "founded"):
        assert dropped not in page.text
    meta = html_to_text('<meta property="og:url" content="https://x.example/p"><h1>Only &lt;h1&gt;</h1>')
    assert meta.url == "https://x.example/p"
    assert meta.title == "Only <h1>"


def test_html_page_in_corpus_has_no_script_text(tmp_path: Path) -> None:
    corpus = Corpus.from_path(_folder(tmp_path))
    assert [h.url for h in corpus.search("founded")] == ["https://wiki.example/acme"]
    fish = corpus.open("https://food.example/fish")
    assert fish is not None and fish.title == "Fish & Chips" and "var secret" not in fish.body


def test_jsonl_corpus(tmp_path: Path) -> None:
    path = tmp_path / "pages.jsonl"
    path.write_text(
        '{"url": "https://a.example/1", "title": "One", "body": "The first page about otters."}\n'
        "\n"
        '{"url": "https://a.example/2", "title": "Two", "body": "The second page about beavers."}\n',
        encoding="utf-8",
    )
    corpus = Corpus.from_path(path)
    assert len(corpus) == 2
    assert [h.url for h in corpus.search("beavers")] == ["https://a.example/2"]
    path.write_text('{"url": "https://a.example/1"}\n', encoding="utf-8")
    with pytest.raises(CorpusError, match=r"pages\.jsonl:1"):
        Corpus.from_path(path)


@pytest.mark.parametrize("make", ["missing", "empty", "pdf"])
def test_unusable_corpus_is_a_usage_error(tmp_path: Path, make: str) -> None:
    target = tmp_path / "x"
    if make == "empty":
        target.mkdir()
    elif make == "pdf":
        target = tmp_path / "x.pdf"
        target.write_bytes(b"%PDF")
    with pytest.raises(UsageError) as info:
        Corpus.from_path(target)
    assert "\n" not in str(info.value)


def test_index_is_reused_then_rebuilt_on_change(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    first = Corpus.from_path(root)
    assert first.rebuilt and first.index_path is not None and first.index_path.is_file()
    again = Corpus.from_path(root)
    assert not again.rebuilt and again.index_path == first.index_path
    notes = root / "sub" / "notes.txt"
    notes.write_text("Marta Silva is the current CEO.\n", encoding="utf-8")
    os.utime(notes, ns=(1, 1))  # a changed mtime even on a coarse clock
    changed = Corpus.from_path(root)
    assert changed.rebuilt
    page = changed.open("corpus://docs/sub/notes.txt")
    assert page is not None and "Marta Silva" in page.body
    (root / "new.txt").write_text("A page about lighthouses.", encoding="utf-8")
    added = Corpus.from_path(root)
    assert added.rebuilt and [h.url for h in added.search("lighthouses")] == ["corpus://docs/new.txt"]
    (root / "new.txt").unlink()
    removed = Corpus.from_path(root)
    assert removed.rebuilt and removed.search("lighthouses") == []
    assert not Corpus.from_path(root).rebuilt


def test_unwritable_cache_falls_back_to_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(blocker / "cache"))
    corpus = Corpus.from_path(_folder(tmp_path))
    assert corpus.index_path is not None and not corpus.index_path.is_relative_to(blocker)
    assert corpus.search("Douro")


def test_search_hits_have_snippet_and_descending_score() -> None:
    corpus = Corpus.from_pages(
        [
            ("u:1", "Otters", "Otters eat fish. Otters live in rivers. " * 3),
            ("u:2", "Rivers", "Rivers flow to the sea."),
            ("u:3", "Deserts", "Deserts are dry."),
        ]
    )
    hits = corpus.search("Where do otters live?")
    assert [h.url for h in hits] == ["u:1"]
    assert "Otters" in hits[0].snippet and hits[0].score > 0
    hits = corpus.search("otters rivers", limit=5)
    assert [h.url for h in hits][:1] == ["u:1"] and {h.url for h in hits} == {"u:1", "u:2"}
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert corpus.search("rivers", limit=0) == []
    assert corpus.search("?!") == []


@pytest.mark.parametrize("query", ['"', "title:otters", "otters AND", "NEAR(a b)", "*", "-otters", "a'b\"c"])
def test_query_syntax_is_never_interpreted(query: str) -> None:
    corpus = Corpus.from_pages([("u:1", "Otters", "otters near a river")])
    corpus.search(query)  # FTS5 operators in user text must not raise


@pytest.mark.anyio
async def test_tools_search_and_open(tmp_path: Path) -> None:
    corpus = Corpus.from_path(_folder(tmp_path))
    search, open_ = corpus.tools()
    assert isinstance(search, Tool) and isinstance(open_, Tool)
    assert (search.name, search.read_only, open_.name, open_.read_only) == ("search", True, "open", True)
    found = await search("Who founded Acme Robotics?")
    assert isinstance(found, SearchHits) and found.query == "Who founded Acme Robotics?"
    assert found.hits[0].url == "https://wiki.example/acme"
    page = await open_(" https://wiki.example/acme ")
    assert isinstance(page, Page) and page.url == "https://wiki.example/acme"
    missing = await open_("https://wiki.example/nope")
    assert isinstance(missing, ToolError)
    assert (missing.code, missing.url) == ("not_found", "https://wiki.example/nope")


def test_demo_corpus_holds_spec_pages() -> None:
    corpus = Corpus.demo()
    assert len(corpus) >= 25
    wiki = corpus.open("https://wiki.example/acme")
    news = corpus.open("https://news.example/ada")
    assert wiki is not None and wiki.title == "Acme Robotics"
    assert wiki.body.startswith("Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.")
    assert news is not None and news.title == "Interview"
    assert news.body == "Ortiz left in 2021. Current CEO is Kenji Ito."
    for url in corpus.urls():
        page = corpus.open(url)
        assert page is not None
        for sentence in page.body.split("."):
            if "favorite food" in sentence.lower() or "favourite food" in sentence.lower():
                assert "Ada" not in sentence and "Ortiz" not in sentence and "She" not in sentence
    assert any("evil.example" in (corpus.open(u) or news).body for u in corpus.urls())


def test_query_words_sharing_a_stem() -> None:
    corpus = Corpus.from_pages([("u:1", "Founders", "The founder founded it."), ("u:2", "Other", "Nothing.")])
    assert [h.url for h in corpus.search("founder founded founding")] == ["u:1"]
