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
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from urllib.parse import quote

import anyio
import anyio.from_thread
import anyio.to_thread
import orjson
from citeloop.events import Hit, Page, UsageError

from ._cache import index_cache_dir
from ._decode import Undecodable, decode_text
from ._files import SUFFIXES, Member, Skip, SkippedFile, SkipReason, listing, open_root, read_member
from ._html import html_to_text
from ._index import INDEX_VERSION, Document, SearchIndex
from ._protocol import Tool

MAX_LINE_BYTES = 10 * 1024 * 1024
"""The default cap on one line of a `.jsonl` corpus, in bytes (`max_line_bytes`)."""

Checkpoint = Callable[[], None]


class CorpusError(UsageError):
    """Raised when a corpus path is missing, cannot be read, holds no documents, or a .jsonl line is bad."""


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
    ) -> Corpus:
        """A corpus from a folder of .txt/.md/.html files or a .jsonl file of {url, title, body}.

        Files that cannot be used (binary, undecodable, a symlink out of the root, gone or
        changed while read, a URL already held) are skipped and listed in `skipped`. A corpus
        with no document at all - an empty folder or an empty .jsonl alike - is a
        `CorpusError`, as is a bad .jsonl line (not an object, a URL seen on an earlier line,
        more than `max_line_bytes`). `checkpoint` is called between files and while SQLite
        indexes: whatever it raises (a cancellation) stops the build. See `load`.
        """
        check = checkpoint or _no_checkpoint
        root = Path(path).expanduser()
        try:
            root = root.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            raise CorpusError(f"corpus not found: {os.fspath(path)}") from exc
        target = Path(index_path) if index_path is not None else None
        if root.is_dir():
            return cls._from_folder(root, target, check)
        if root.is_file() and root.suffix.lower() == ".jsonl":
            if max_line_bytes < 1:
                raise CorpusError(f"max_line_bytes must be at least 1, got {max_line_bytes}")
            stamp = _stat(root)
            manifest = _manifest(root, [[root.name, *stamp, max_line_bytes]])
            loader = _JsonlDocuments(root, max_line_bytes, check)
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
        )
        return await anyio.to_thread.run_sync(build)

    @classmethod
    def _from_folder(cls, root: Path, target: Path | None, check: Checkpoint) -> Corpus:
        try:
            root_fd = open_root(root)
        except OSError as exc:
            raise CorpusError(f"cannot read corpus {root}: {exc.strerror or exc}") from exc
        try:
            members, listed = listing(root_fd, root, check)
            if not members:
                raise CorpusError(_empty(root, listed, f"no {', '.join(sorted(SUFFIXES))} files"))
            manifest = _manifest(root, [[m.path, *m.stamp] for m in members])
            loader = _FolderDocuments(root, root_fd, members, check)
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
            raise CorpusError(f"cannot write the corpus index {where}: {_reason(exc)}") from exc
    # A cache folder that cannot be written: fall back to the temp folder.
    fallback = _cache_file(root, Path(tempfile.gettempdir()))
    try:
        return SearchIndex.build(loader, fallback, manifest, notes=notes, checkpoint=check), True
    except (OSError, sqlite3.Error) as exc:
        raise CorpusError(f"cannot write the corpus index {where} or {fallback}: {_reason(exc)}") from exc


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


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


class _FolderDocuments:
    """The documents of a folder's files, read only if the index has to be (re)built."""

    def __init__(self, root: Path, root_fd: int, members: list[Member], check: Checkpoint) -> None:
        self._root = root
        self._root_fd = root_fd
        self._members = members
        self._check = check
        self.skipped: list[SkippedFile] = []
        self.decoded: list[tuple[str, str]] = []

    def notes(self) -> str:
        skipped = [[s.path, s.reason, s.detail] for s in self.skipped]
        return orjson.dumps({"skipped": skipped, "decoded": self.decoded}).decode()

    def __iter__(self) -> Iterator[Document]:
        self.skipped, self.decoded = [], []
        prefix = f"corpus://{quote(self._root.name or 'corpus', safe='')}/"
        held: dict[str, str] = {}
        for member in self._members:
            self._check()
            try:
                text, encoding = decode_text(read_member(self._root_fd, member))
            except Skip as skip:
                self.skipped.append(skip.skipped)
                continue
            except Undecodable as refused:
                reason: SkipReason = "binary" if refused.reason == "binary" else "undecodable"
                self.skipped.append(SkippedFile(member.path, reason, refused.detail))
                continue
            if encoding not in ("utf-8", "utf-8-sig"):
                self.decoded.append((member.path, encoding))
            url, title, body = _parse(os.path.splitext(member.path)[1].lower(), text, self._check)
            url = url or prefix + quote(member.path)
            if url in held:
                detail = f"{url} is already held by {held[url]}"
                self.skipped.append(SkippedFile(member.path, "duplicate_url", detail))
                continue
            held[url] = member.path
            yield Document(url=url, title=title or Path(member.path).stem.replace("_", " "), body=body)


def _parse(suffix: str, text: str, check: Checkpoint) -> tuple[str | None, str, str]:
    """(declared URL or None, title or '', body) of one file's text."""
    text = text.removeprefix("\ufeff")
    if suffix in (".html", ".htm"):
        page = html_to_text(text, check)
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


class _JsonlDocuments:
    """The records of a .jsonl corpus, read only if the index has to be (re)built.

    Each line is read with at most `max_line_bytes + 1` bytes in memory, so an oversized
    line is refused before it is held whole. A URL on two lines is an error naming both.
    """

    def __init__(self, path: Path, max_line_bytes: int, check: Checkpoint) -> None:
        self._path = path
        self._cap = max_line_bytes
        self._check = check

    def __iter__(self) -> Iterator[Document]:
        path = self._path
        try:
            handle = path.open("rb")
        except OSError as exc:
            raise CorpusError(f"cannot read {path}: {_reason(exc)}") from exc
        held: dict[str, int] = {}
        with handle:
            number = 0
            while True:
                self._check()
                try:
                    line = handle.readline(self._cap + 1)
                except OSError as exc:
                    raise CorpusError(f"{path}:{number + 1}: cannot read: {_reason(exc)}") from exc
                if not line:
                    return
                number += 1
                if len(line.removesuffix(b"\n")) > self._cap:
                    raise CorpusError(f"{path}:{number}: line longer than max_line_bytes ({self._cap} bytes)")
                if not line.strip():
                    continue
                document = _record(path, number, line)
                if document.url in held:
                    raise CorpusError(
                        f"{path}:{number}: URL {document.url!r} already used on line {held[document.url]}"
                    )
                held[document.url] = number
                yield document


def _record(path: Path, number: int, line: bytes) -> Document:
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
    url = record["url"].strip()
    if not url:
        raise CorpusError(f"{path}:{number}: empty url")
    return Document(url=url, title=record.get("title", ""), body=record["body"])


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
