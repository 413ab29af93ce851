"""The corpus a command names, and what it left out on stderr (docs/corpus.md): nothing skipped silently."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Final

import typer
from citeloop.tools import Corpus

from ._escape import escape_controls
from ._feedback import progress_bar

_SHOWN: Final = 20  # lines listed before a count of the rest


async def open_corpus(path: Path | None, *, feedback: bool = False) -> Corpus:
    """The corpus at `path` (built in a worker thread: Ctrl-C stops it), or the demo corpus.

    With `feedback`, a build shows a progress bar on stderr (`_feedback`).
    """
    if path is None:
        corpus = Corpus.demo()
    else:
        with index_progress(path, feedback) as progress:
            corpus = await Corpus.load(path, progress=progress)
    report_corpus(corpus)
    return corpus


def index_progress(path: Path, shown: bool) -> AbstractContextManager[Callable[[int, int], None] | None]:
    """A progress bar for building the index of `path`: files of a folder, bytes of a .jsonl file."""
    unit = "files" if path.is_dir() else "bytes"
    return progress_bar(shown, f"indexing {path}", unit)


def report_corpus(corpus: Corpus) -> None:
    """One stderr line per file the corpus skipped or decoded from another encoding (20, then a count)."""
    lines = [f"skipped {skipped}" for skipped in corpus.skipped]
    lines += [f"decoded {path} as {encoding}" for path, encoding in corpus.decoded]
    if not lines:
        return
    if corpus.skipped:
        typer.echo(f"citeloop: corpus {corpus.name}: {len(corpus.skipped)} file(s) not indexed", err=True)
    for line in lines[:_SHOWN]:
        typer.echo(escape_controls(f"citeloop: corpus {corpus.name}: {line}"), err=True)
    if len(lines) > _SHOWN:
        typer.echo(f"citeloop: corpus {corpus.name}: ... and {len(lines) - _SHOWN} more", err=True)
