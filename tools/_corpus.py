"""`Corpus`: a folder of documents (or a JSONL file, or pages in memory) made searchable.

URLs: a page answers to the URL it declares (Markdown front matter `url:`, HTML
`<link rel="canonical">` or `<meta property="og:url">`, the `url` of a JSONL record);
otherwise to `corpus://<folder name>/<relative path>` (percent-encoded), which is stable
across machines and working folders.

Safety: `open` never touches the file system. It looks the URL up in the index, so no URL
(with `..`, `%2e%2e`, an absolute path, a NUL byte) can name a file outside the root. Files
are read only while indexing, relative to a descriptor of the root with `O_NOFOLLOW` at
every step (tools/_files.py), so a folder swapped for a symlink meanwhile is skipped, not
followed. What a folder may hold and what is skipped: docs/corpus.md.

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
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from urllib.parse import quote

import anyio
import anyio.from_thread
import anyio.to_thread
import orjson
from citeloop.events import Hit, Page

from ._cache import index_cache_dir
from ._documents import (
    Checkpoint,
    CorpusError,
    FolderDocuments,
    JsonlDocuments,
    Progress,
    no_progress,
    os_reason,
)
from ._files import SUFFIXES, SkippedFile, listing, open_root
from ._index import INDEX_VERSION, Document, SearchIndex
from ._protocol import Tool

MAX_LINE_BYTES = 10 * 1024 * 1024
"""The default cap on one line of a `.jsonl` corpus, in bytes (`max_line_bytes`)."""



class Corpus:
    """Searchable, openable pages. Build with `from_path` (or `load`), `from_pages` or `demo`."""

    def __init__(
        self,
        index: SearchIndex,
        name: str,
        *,
        rebuilt: bool,
        skipped: Iterable[SkippedFile] = (),
        decoded: Iterable[tuple[str, str]] = (),
    ) -> None:
        self._index = index
        self.name = name
        self.rebuilt = rebuilt
        """Whether this instance built its index (False when a stored index was reused)."""
        self.skipped: tuple[SkippedFile, ...] = tuple(skipped)
        """The files of the folder that were not indexed, and why (docs/corpus.md)."""
        self.decoded: tuple[tuple[str, str], ...] = tuple(decoded)
        """`(path, encoding)` of the files that were not UTF-8 and were decoded from a detected encoding."""

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_path(
        cls,
        path: str | os.PathLike[str],
        *,
        index_path: str | os.PathLike[str] | None = None,
        max_line_bytes: int = MAX_LINE_BYTES,
        checkpoint: Checkpoint | None = None,
        progress: Progress | None = None,
    ) -> Corpus:
        """A corpus from a folder of .txt/.md/.html files or a .jsonl file of {url, title, body}.

        Files that cannot be used (binary, undecodable, a symlink out of the root, gone or
        changed while read, a URL already held) are skipped and listed in `skipped`. A corpus
        with no document at all - an empty folder or an empty .jsonl alike - is a
        `CorpusError`, as is a bad .jsonl line (not an object, a URL seen on an earlier line,
        more than `max_line_bytes`). `checkpoint` is called between files and while SQLite
        indexes: whatever it raises (a cancellation) stops the build. See `load`.
        `progress(done, total)` is told how a build advances (files of a folder, bytes of a
        .jsonl file); a reused index is not built, so it is not called then.
        """
        check = checkpoint or _no_checkpoint
        told = progress or no_progress
        root = Path(path).expanduser()
        try:
            root = root.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            raise CorpusError(f"corpus not found: {os.fspath(path)}") from exc
        target = Path(index_path) if index_path is not None else None
        if root.is_dir():
            return cls._from_folder(root, target, check, told)
        if root.is_file() and root.suffix.lower() == ".jsonl":
            if max_line_bytes < 1:
                raise CorpusError(f"max_line_bytes must be at least 1, got {max_line_bytes}")
            stamp = _stat(root)
            manifest = _manifest(root, [[root.name, *stamp, max_line_bytes]])
            loader = JsonlDocuments(root, max_line_bytes, check, told)
            index, rebuilt = _open_index(root, loader, manifest, target, check, lambda: "")
            return _checked(cls(index, root.stem, rebuilt=rebuilt), root)
        raise CorpusError(f"corpus must be a folder or a .jsonl file: {root}")

    @classmethod
    async def load(
        cls,
        path: str | os.PathLike[str],
        *,
        index_path: str | os.PathLike[str] | None = None,
        max_line_bytes: int = MAX_LINE_BYTES,
        progress: Progress | None = None,
    ) -> Corpus:
        """`from_path` in a worker thread, off the event loop, and cancellable.

        Cancelling the calling task stops the build at its next checkpoint - the next file,
        or within a thousand SQLite steps - and leaves no half-built index behind.
        """
        build = partial(
            cls.from_path,
            path,
            index_path=index_path,
            max_line_bytes=max_line_bytes,
            checkpoint=anyio.from_thread.check_cancelled,
            progress=progress,
        )
        return await anyio.to_thread.run_sync(build)

    @classmethod
    def _from_folder(cls, root: Path, target: Path | None, check: Checkpoint, progress: Progress) -> Corpus:
        try:
            root_fd = open_root(root)
        except OSError as exc:
            raise CorpusError(f"cannot read corpus {root}: {exc.strerror or exc}") from exc
        try:
            members, listed = listing(root_fd, root, check)
            if not members:
                raise CorpusError(_empty(root, listed, f"no {', '.join(sorted(SUFFIXES))} files"))
            manifest = _manifest(root, [[m.path, *m.stamp] for m in members])
            loader = FolderDocuments(root, root_fd, members, check, progress)
            index, rebuilt = _open_index(root, loader, manifest, target, check, loader.notes)
        finally:
            os.close(root_fd)
        skipped, decoded = _read_notes(index.notes)
        corpus = cls(index, root.name, rebuilt=rebuilt, skipped=sorted(listed + skipped, key=_by_path))
        corpus.decoded = tuple(decoded)
        return _checked(corpus, root)

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


def _no_checkpoint() -> None:
    pass


def _by_path(skipped: SkippedFile) -> str:
    return skipped.path


def _manifest(root: Path, entries: list[list[object]]) -> str:
    return hashlib.sha256(orjson.dumps([INDEX_VERSION, str(root), *entries])).hexdigest()


def _open_index(
    root: Path,
    loader: Iterable[Document],
    manifest: str,
    target: Path | None,
    check: Checkpoint,
    notes: Callable[[], str],
) -> tuple[SearchIndex, bool]:
    """The stored index if it was built from these files, else a new one; `(index, rebuilt)`."""
    where = target if target is not None else _cache_file(root)
    reused = SearchIndex.reuse(where, manifest)
    if reused is not None:
        return reused, False
    try:
        return SearchIndex.build(loader, where, manifest, notes=notes, checkpoint=check), True
    except (OSError, sqlite3.Error) as exc:
        if target is not None:
            raise CorpusError(f"cannot write the corpus index {where}: {os_reason(exc)}") from exc
    # A cache folder that cannot be written: fall back to the temp folder.
    fallback = _cache_file(root, Path(tempfile.gettempdir()))
    try:
        return SearchIndex.build(loader, fallback, manifest, notes=notes, checkpoint=check), True
    except (OSError, sqlite3.Error) as exc:
        raise CorpusError(f"cannot write the corpus index {where} or {fallback}: {os_reason(exc)}") from exc


def _checked(corpus: Corpus, root: Path) -> Corpus:
    """The corpus, unless it holds no document: an empty corpus is a mistake to report, not to search."""
    if len(corpus) == 0:
        corpus.close()
        raise CorpusError(_empty(root, list(corpus.skipped), "no documents"))
    return corpus


def _empty(root: Path, skipped: list[SkippedFile], what: str) -> str:
    if not skipped:
        return f"corpus {root} holds {what}"
    shown = "; ".join(str(s) for s in skipped[:3]) + ("; ..." if len(skipped) > 3 else "")
    return f"corpus {root} holds {what}: {len(skipped)} skipped ({shown})"


def _read_notes(text: str) -> tuple[list[SkippedFile], list[tuple[str, str]]]:
    """The build report kept with a folder's index: skipped files and decoded ones."""
    if not text:
        return [], []
    notes = orjson.loads(text)
    skipped = [SkippedFile(path, reason, detail) for path, reason, detail in notes["skipped"]]
    return skipped, [(path, encoding) for path, encoding in notes["decoded"]]


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
