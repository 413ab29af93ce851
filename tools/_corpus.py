"""`Corpus`: a folder of documents (or a JSONL file, or pages in memory) made searchable.

URLs: a page answers to the URL it declares (Markdown front matter `url:`, HTML
`<link rel="canonical">` or `<meta property="og:url">`, the `url` of a JSONL record);
otherwise to `corpus://<folder name>/<relative path>` (percent-encoded), which is stable
across machines and working folders.

Safety: `open` never touches the file system. It looks the URL up in the index, so no URL
(with `..`, `%2e%2e`, an absolute path, a NUL byte) can name a file outside the root. Files
are read only while indexing, and a symlink that resolves outside the root is skipped then.

The index is stored under the user cache folder (`$CITELOOP_CACHE_DIR`, else
`$XDG_CACHE_HOME/citeloop/corpus`, else `~/.cache/citeloop/corpus`; a temp folder if that
cannot be written), keyed by the corpus's absolute path, so a read-only corpus works and
the user's folder is never written. It is reused while every file keeps its size and
modification time, and rebuilt when any file is added, removed or changed.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from urllib.parse import quote

import orjson
from citeloop.events import Hit, Page, UsageError

from ._cache import index_cache_dir
from ._html import html_to_text
from ._index import INDEX_VERSION, Document, SearchIndex
from ._protocol import Tool

SUFFIXES = frozenset({".txt", ".md", ".markdown", ".html", ".htm"})


class CorpusError(UsageError):
    """Raised when a corpus path is missing, cannot be read, or holds no documents."""


class Corpus:
    """Searchable, openable pages. Build with `from_path`, `from_pages` or `demo`."""

    def __init__(self, index: SearchIndex, name: str, *, rebuilt: bool) -> None:
        self._index = index
        self.name = name
        self.rebuilt = rebuilt
        """Whether this instance built its index (False when a stored index was reused)."""

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_path(
        cls, path: str | os.PathLike[str], *, index_path: str | os.PathLike[str] | None = None
    ) -> Corpus:
        """A corpus from a folder of .txt/.md/.html files or a .jsonl file of {url, title, body}."""
        root = Path(path).expanduser()
        try:
            root = root.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            raise CorpusError(f"corpus not found: {os.fspath(path)}") from exc
        if root.is_dir():
            files = _listing(root)
            if not files:
                raise CorpusError(f"corpus {root} holds no {', '.join(sorted(SUFFIXES))} files")
            entries = [(rel, _stat(root / rel)) for rel in files]
            loader: Iterable[Document] = _LazyDocuments(lambda: _read_folder(root, files))
        elif root.is_file() and root.suffix.lower() == ".jsonl":
            entries = [(root.name, _stat(root))]
            loader = _LazyDocuments(lambda: _read_jsonl(root))
        else:
            raise CorpusError(f"corpus must be a folder or a .jsonl file: {root}")
        manifest = hashlib.sha256(
            orjson.dumps([INDEX_VERSION, str(root), *[[rel, *st] for rel, st in entries]])
        ).hexdigest()
        target = Path(index_path) if index_path is not None else _cache_file(root)
        name = root.name if root.is_dir() else root.stem
        reused = SearchIndex.reuse(target, manifest)
        if reused is not None:
            return cls(reused, name, rebuilt=False)
        try:
            index = SearchIndex.build(loader, target, manifest)
        except (OSError, sqlite3.Error):
            if index_path is not None:
                raise
            # A cache folder that cannot be written: fall back to the temp folder.
            index = SearchIndex.build(loader, _cache_file(root, Path(tempfile.gettempdir())), manifest)
        return cls(index, name, rebuilt=True)

    @classmethod
    def from_pages(cls, pages: Iterable[tuple[str, str, str]], *, name: str = "pages") -> Corpus:
        """A corpus held in memory from `(url, title, body)` triples (evaluation, benchmarks, tests)."""
        documents = (Document(url=url, title=title, body=body) for url, title, body in pages)
        return cls(SearchIndex.build(documents, None, ""), name, rebuilt=True)

    @classmethod
    def demo(cls) -> Corpus:
        """The small fictional world shipped with the package (it holds docs/gate.md's seed pages)."""
        return cls.from_path(Path(__file__).with_name("demo"))

    # -- use ------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._index.count

    @property
    def index_path(self) -> Path | None:
        """Where the index is stored (None for an in-memory corpus)."""
        return self._index.path

    def urls(self) -> list[str]:
        """Every URL the corpus holds."""
        return self._index.urls()

    def search(self, query: str, limit: int = 5) -> list[Hit]:
        """The best `limit` pages for the query, best first (BM25; an empty list when nothing matches)."""
        return self._index.search(query, limit)

    def open(self, url: str) -> Page | None:
        """The page held under exactly `url` (surrounding white space ignored), or None."""
        url = url.strip()
        if not url or "\x00" in url:
            return None
        document = self._index.page(url)
        if document is None:
            return None
        digest = hashlib.sha256(document.body.encode("utf-8")).hexdigest()
        return Page(url=document.url, title=document.title, body=document.body, sha256=digest)

    def tools(self, *, limit: int = 5) -> list[Tool]:
        """The read-only `search` and `open` tools over this corpus (`limit` hits per search)."""
        from ._corpus_tools import OpenTool, SearchTool

        return [SearchTool(self, limit=limit), OpenTool(self)]

    def close(self) -> None:
        """Release the index's database connection."""
        self._index.close()


class _LazyDocuments:
    """Read the files only if the index has to be (re)built."""

    def __init__(self, read: Callable[[], Iterator[Document]]) -> None:
        self._read = read

    def __iter__(self) -> Iterator[Document]:
        return self._read()


def _cache_file(root: Path, base: Path | None = None) -> Path:
    if base is None:
        base = index_cache_dir()
    key = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:24]
    return base / f"{quote(root.stem or 'corpus', safe='')}-{key}.sqlite"


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError as exc:
        raise CorpusError(f"cannot read {path}: {exc.strerror}") from exc
    return st.st_mtime_ns, st.st_size


def _listing(root: Path) -> list[str]:
    """Relative paths of the corpus's files, sorted; hidden entries and escaping symlinks skipped."""
    found: list[str] = []
    try:
        walk = list(os.walk(root, followlinks=False, onerror=_raise))
    except OSError as exc:
        raise CorpusError(f"cannot read corpus {root}: {exc.strerror or exc}") from exc
    for folder, dirs, names in walk:
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            path = Path(folder, name)
            if name.startswith(".") or path.suffix.lower() not in SUFFIXES:
                continue
            if path.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(root) or not target.is_file():
                    continue  # a link out of the root is never read
            found.append(path.relative_to(root).as_posix())
    return sorted(found)


def _raise(error: OSError) -> None:
    raise error


def _read_folder(root: Path, files: list[str]) -> Iterator[Document]:
    prefix = f"corpus://{quote(root.name or 'corpus', safe='')}/"
    for rel in files:
        path = (root / rel).resolve()
        if not path.is_relative_to(root):  # the tree changed under us since the listing
            continue
        try:
            text = path.read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            raise CorpusError(f"cannot read {root / rel}: {exc.strerror}") from exc
        url, title, body = _parse(path.suffix.lower(), text)
        yield Document(
            url=url or prefix + quote(rel), title=title or Path(rel).stem.replace("_", " "), body=body
        )


def _parse(suffix: str, text: str) -> tuple[str | None, str, str]:
    """(declared URL or None, title or '', body) of one file's text."""
    text = text.removeprefix("\ufeff")
    if suffix in (".html", ".htm"):
        page = html_to_text(text)
        return page.url, page.title, page.text
    if suffix in (".md", ".markdown"):
        meta, body = _front_matter(text)
        title = meta.get("title", "")
        if not title:
            for line in body.splitlines():
                if line.startswith("# "):
                    title = line[2:].strip()
                    break
        return meta.get("url") or None, title, body.strip()
    return None, "", text.strip()


def _front_matter(text: str) -> tuple[dict[str, str], str]:
    """Simple `key: value` lines between `---` fences at the very top (not full YAML)."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].strip() != "---":
        return {}, text
    for end in range(1, len(lines)):
        if lines[end].strip() == "---":
            meta: dict[str, str] = {}
            for line in lines[1:end]:
                key, sep, value = line.partition(":")
                if sep:
                    meta[key.strip().lower()] = value.strip().strip("\"'")
            return meta, "".join(lines[end + 1 :])
    return {}, text


def _read_jsonl(path: Path) -> Iterator[Document]:
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise CorpusError(f"cannot read {path}: {exc.strerror}") from exc
    with handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise CorpusError(f"{path}:{number}: not a JSON object ({exc})") from exc
            if (
                not isinstance(record, dict)
                or not all(isinstance(record.get(key), str) for key in ("url", "body"))
                or not isinstance(record.get("title", ""), str)
            ):
                raise CorpusError(f"{path}:{number}: expected {{url, title, body}} with string values")
            yield Document(url=record["url"].strip(), title=record.get("title", ""), body=record["body"])
