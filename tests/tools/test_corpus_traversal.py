"""`open` accepts only URLs the corpus holds: nothing it is given can read outside the root."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page, ToolError
from citeloop.tools import Corpus

SECRET = "TOPSECRET-7f3a"


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Corpus:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "secret.txt").write_text(f"{SECRET} the founder's password", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.md").write_text(f"{SECRET} founder", encoding="utf-8")
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("Acme was founded by Ada.", encoding="utf-8")
    (root / "sub" / "b.txt").write_text("Kenji is the founder's successor.", encoding="utf-8")
    (root / "link-out.txt").symlink_to(tmp_path / "secret.txt")
    (root / "dir-out").symlink_to(outside, target_is_directory=True)
    (root / "link-in.txt").symlink_to(root / "sub" / "b.txt")
    return Corpus.from_path(root)


def test_escaping_symlinks_are_never_indexed(corpus: Corpus) -> None:
    assert sorted(corpus.urls()) == [
        "corpus://root/a.md",
        "corpus://root/link-in.txt",
        "corpus://root/sub/b.txt",
    ]
    for hit in corpus.search("founder password TOPSECRET", limit=10):
        assert SECRET not in hit.snippet
    for url in corpus.urls():
        page = corpus.open(url)
        assert page is not None and SECRET not in page.body


@pytest.mark.anyio
@pytest.mark.parametrize(
    "url",
    [
        "corpus://root/../secret.txt",  # dot-dot
        "corpus://root/sub/../../secret.txt",
        "corpus://root/sub/../a.md",  # even one that stays inside: only held URLs open
        "../secret.txt",
        "corpus://root/%2e%2e/secret.txt",  # URL-encoded traversal
        "corpus://root/%2E%2E%2Fsecret.txt",
        "corpus://root/..%2fsecret.txt",
        "SECRET_ABS",  # an absolute path, replaced below
        "file://SECRET_ABS",
        "/etc/passwd",
        "corpus://root/link-out.txt",  # a symlink out of the root
        "corpus://root/dir-out/leak.md",  # a symlinked folder out of the root
        "corpus://root/a.md\x00",  # NUL bytes
        "corpus://root/a.md\x00../../secret.txt",
        "\x00",
        "",
    ],
)
async def test_traversal_ends_as_not_found(corpus: Corpus, tmp_path: Path, url: str) -> None:
    url = url.replace("SECRET_ABS", str(tmp_path / "secret.txt"))
    _, open_ = corpus.tools()
    result = await open_(url)
    assert isinstance(result, ToolError), result
    assert result.code == "not_found" and result.url == url


@pytest.mark.anyio
async def test_held_urls_still_open(corpus: Corpus) -> None:
    _, open_ = corpus.tools()
    for url in ("corpus://root/a.md", "corpus://root/sub/b.txt", "corpus://root/link-in.txt"):
        page = await open_(url)
        assert isinstance(page, Page) and page.url == url
