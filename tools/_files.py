"""The files of a corpus folder, walked and read without ever leaving it.

Everything is opened relative to a directory descriptor, one path component at a time,
with `O_NOFOLLOW`: a folder swapped for a symlink while the corpus is being indexed makes
that open fail (the file is then skipped and listed) instead of reading what the link
points at. A symlinked file is followed only when it resolves inside the root, and it is
then opened along its resolved path, component by component, the same way. Every
`OSError` becomes a `SkippedFile` naming the file and the reason.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

SUFFIXES: Final = frozenset({".txt", ".md", ".markdown", ".html", ".htm"})

SkipReason = Literal[
    "symlink", "not_a_file", "unreadable", "changed", "binary", "undecodable", "duplicate_url"
]
# getattr: the flags are POSIX; where they are missing (Windows) `open_root` refuses the folder.
# (No O_CLOEXEC: descriptors from os.open are not inherited anyway, PEP 446.)
_DIR_FLAGS: Final = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
# O_NONBLOCK: opening a FIFO named `x.txt` must not wait for a writer.
_FILE_FLAGS: Final = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
# The tree changed under us: a name vanished, or a folder became a symlink or a file.
_CHANGED: Final = frozenset({errno.ENOENT, errno.ELOOP, errno.ENOTDIR, errno.EXDEV})


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file of a corpus folder that was not indexed: its path under the root, why, and a detail."""

    path: str
    reason: SkipReason
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True, slots=True)
class Member:
    """A file to index: its path under the root, the components to open, its (mtime_ns, size)."""

    path: str
    parts: tuple[str, ...]
    stamp: tuple[int, int]


class Skip(Exception):
    """Raised when one file cannot be used; carries the `SkippedFile` to list."""

    def __init__(self, skipped: SkippedFile) -> None:
        super().__init__(str(skipped))
        self.skipped = skipped


def open_root(root: Path) -> int:
    """A descriptor of the corpus folder (already resolved, so its last component is no link)."""
    if os.open not in os.supports_dir_fd or not hasattr(os, "O_NOFOLLOW"):
        raise OSError(errno.ENOTSUP, "reading a corpus folder safely needs openat and O_NOFOLLOW (POSIX)")
    return os.open(root, _DIR_FLAGS)


def listing(
    root_fd: int, root: Path, checkpoint: Callable[[], None]
) -> tuple[list[Member], list[SkippedFile]]:
    """The folder's files with a corpus suffix, sorted by path; hidden entries are left out."""
    members: list[Member] = []
    skipped: list[SkippedFile] = []
    stack: list[tuple[int, str]] = [(os.dup(root_fd), "")]
    try:
        while stack:
            folder_fd, prefix = stack.pop()
            try:
                _list_folder(root_fd, root, folder_fd, prefix, stack, members, skipped, checkpoint)
            finally:
                os.close(folder_fd)
    finally:
        for folder_fd, _ in stack:
            os.close(folder_fd)
    members.sort(key=lambda m: m.path)
    skipped.sort(key=lambda s: s.path)
    return members, skipped


def _list_folder(
    root_fd: int,
    root: Path,
    folder_fd: int,
    prefix: str,
    stack: list[tuple[int, str]],
    members: list[Member],
    skipped: list[SkippedFile],
    checkpoint: Callable[[], None],
) -> None:
    try:
        with os.scandir(folder_fd) as entries:
            found = sorted(entries, key=lambda e: e.name)
    except OSError as exc:
        skipped.append(_skipped(prefix.rstrip("/") or ".", exc))
        return
    for entry in found:
        checkpoint()
        name = entry.name
        rel = prefix + name
        if name.startswith("."):
            continue
        suffix = os.path.splitext(name)[1].lower()
        try:
            if entry.is_symlink():
                if suffix in SUFFIXES:
                    members.append(_linked(root_fd, root, rel))
                elif os.path.isdir(root / rel):
                    skipped.append(SkippedFile(rel, "symlink", "a symlinked folder is not followed"))
            elif entry.is_dir(follow_symlinks=False):
                stack.append((os.open(name, _DIR_FLAGS, dir_fd=folder_fd), rel + "/"))
            elif suffix not in SUFFIXES:
                continue
            elif entry.is_file(follow_symlinks=False):
                st = entry.stat(follow_symlinks=False)
                members.append(Member(rel, tuple(rel.split("/")), (st.st_mtime_ns, st.st_size)))
            else:
                skipped.append(SkippedFile(rel, "not_a_file", "a FIFO, socket or device"))
        except Skip as skip:
            skipped.append(skip.skipped)
        except OSError as exc:
            skipped.append(_skipped(rel, exc))


def _linked(root_fd: int, root: Path, rel: str) -> Member:
    """The member a symlinked file stands for, if it resolves to a file inside the root."""
    target = Path(os.path.realpath(root / rel))
    if not target.is_relative_to(root) or target == root:
        raise Skip(SkippedFile(rel, "symlink", "it points outside the corpus"))
    parts = target.relative_to(root).parts
    fd = open_beneath(root_fd, parts)
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(st.st_mode):
        raise Skip(SkippedFile(rel, "not_a_file", "the symlink does not point at a file"))
    return Member(rel, parts, (st.st_mtime_ns, st.st_size))


def open_beneath(root_fd: int, parts: tuple[str, ...]) -> int:
    """Open the file at `parts` under the root, refusing a symlink at every component."""
    if not parts or any(part in ("", ".", "..") or "/" in part for part in parts):
        raise OSError(errno.EINVAL, "not a path under the corpus root")
    folder = root_fd
    try:
        for part in parts[:-1]:
            inner = os.open(part, _DIR_FLAGS, dir_fd=folder)
            if folder != root_fd:
                os.close(folder)
            folder = inner
        return os.open(parts[-1], _FILE_FLAGS, dir_fd=folder)
    finally:
        if folder != root_fd:
            os.close(folder)


def read_member(root_fd: int, member: Member) -> bytes:
    """The bytes of one member, read through `open_beneath`; raises `Skip` when it cannot be."""
    try:
        fd = open_beneath(root_fd, member.parts)
    except OSError as exc:
        raise Skip(_skipped(member.path, exc)) from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Skip(SkippedFile(member.path, "not_a_file", "it is no longer a regular file"))
        chunks: list[bytes] = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise Skip(_skipped(member.path, exc)) from exc
    finally:
        os.close(fd)


def _skipped(rel: str, exc: OSError) -> SkippedFile:
    reason: SkipReason = "changed" if exc.errno in _CHANGED else "unreadable"
    detail = exc.strerror or type(exc).__name__
    if reason == "changed":
        detail = f"the folder changed while it was read: {detail}"
    return SkippedFile(rel, reason, detail)
