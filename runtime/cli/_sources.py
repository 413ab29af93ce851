"""The file a `corpus://` URL was read from, so that output can name it beside the URL.

A page of a corpus folder that declares no URL of its own answers to
`corpus://<folder name>/<relative path>` (percent-encoded; docs/corpus.md). Given the
folder, that URL names one file under it; a URL that would lead out of it names none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote

SourceFiles = Callable[[str], Path | None]


def no_files(url: str) -> Path | None:
    """The lookup when no corpus folder is known: no URL names a file."""
    return None


def corpus_files(corpus: Path | None) -> SourceFiles:
    """A lookup from a `corpus://NAME/PATH` URL to the file under the folder `corpus` (as given) it names."""
    if corpus is None:
        return no_files
    root = corpus.expanduser()
    try:
        resolved = root.resolve(strict=True)
    except (OSError, RuntimeError):
        return no_files
    if not resolved.is_dir():
        return no_files  # a .jsonl corpus: its records declare their URLs
    prefix = f"corpus://{quote(resolved.name or 'corpus', safe='')}/"

    def lookup(url: str) -> Path | None:
        if not url.startswith(prefix):
            return None
        relative = PurePosixPath(unquote(url[len(prefix) :]))
        if relative.is_absolute() or ".." in relative.parts or not relative.parts:
            return None
        return root / relative

    return lookup


def file_map(urls: Iterable[str], files: SourceFiles) -> dict[str, str]:
    """`{url: file}` for the URLs that name a file (for --json output)."""
    found = {url: files(url) for url in urls}
    return {url: str(path) for url, path in found.items() if path is not None}
