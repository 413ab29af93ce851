"""The documents of a corpus source: a folder's files or a .jsonl file's records.

Read only when the index has to be (re)built; every file is read relative to the root's
descriptor (tools/_files.py). What is skipped, and why: docs/corpus.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import orjson
from citeloop.events import UsageError

from ._decode import Undecodable, decode_text
from ._files import Member, Skip, SkippedFile, SkipReason, read_member
from ._html import html_to_text
from ._index import Document

Checkpoint = Callable[[], None]
Progress = Callable[[int, int], None]
"""Told `(done, total)` as an index is built: files of a folder, bytes of a .jsonl file."""


def no_progress(done: int, total: int) -> None:
    pass


class CorpusError(UsageError):
    """Raised when a corpus path is missing, cannot be read, holds no documents, or a .jsonl line is bad."""


def os_reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__


class FolderDocuments:
    """The documents of a folder's files, read only if the index has to be (re)built."""

    def __init__(
        self,
        root: Path,
        root_fd: int,
        members: list[Member],
        check: Checkpoint,
        progress: Progress = no_progress,
    ) -> None:
        self._root = root
        self._root_fd = root_fd
        self._members = members
        self._check = check
        self._progress = progress
        self.skipped: list[SkippedFile] = []
        self.decoded: list[tuple[str, str]] = []

    def notes(self) -> str:
        skipped = [[s.path, s.reason, s.detail] for s in self.skipped]
        return orjson.dumps({"skipped": skipped, "decoded": self.decoded}).decode()

    def __iter__(self) -> Iterator[Document]:
        self.skipped, self.decoded = [], []
        prefix = f"corpus://{quote(self._root.name or 'corpus', safe='')}/"
        held: dict[str, str] = {}
        for done, member in enumerate(self._members):
            self._check()
            self._progress(done, len(self._members))
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
        self._progress(len(self._members), len(self._members))


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


class JsonlDocuments:
    """The records of a .jsonl corpus, read only if the index has to be (re)built.

    Each line is read with at most `max_line_bytes + 1` bytes in memory, so an oversized
    line is refused before it is held whole. A URL on two lines is an error naming both.
    """

    def __init__(
        self, path: Path, max_line_bytes: int, check: Checkpoint, progress: Progress = no_progress
    ) -> None:
        self._path = path
        self._cap = max_line_bytes
        self._check = check
        self._progress = progress

    def __iter__(self) -> Iterator[Document]:
        path = self._path
        try:
            handle = path.open("rb")
        except OSError as exc:
            raise CorpusError(f"cannot read {path}: {os_reason(exc)}") from exc
        held: dict[str, int] = {}
        with handle:
            number = 0
            size = os.fstat(handle.fileno()).st_size
            while True:
                self._check()
                self._progress(handle.tell(), size)
                try:
                    line = handle.readline(self._cap + 1)
                except OSError as exc:
                    raise CorpusError(f"{path}:{number + 1}: cannot read: {os_reason(exc)}") from exc
                if not line:
                    self._progress(size, size)
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
