"""Parsing of file-backed store URLs, shared by the JSONL and SQLite stores."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from ._errors import StoreURLError


def file_url_parts(url: str, scheme: str) -> tuple[Path, dict[str, str]]:
    """Split `scheme:///relative/path?k=v` or `scheme:////absolute/path` into a path and options.

    As in SQLAlchemy, three slashes start a path relative to the working folder and a
    fourth makes it absolute, so `sqlite:///runs.db` is `./runs.db`.
    """
    parts = urlsplit(url)
    if parts.scheme != scheme:
        raise StoreURLError(f"expected a {scheme}:// URL, got {url!r}")
    if parts.netloc:
        raise StoreURLError(
            f"bad {scheme} URL {url!r}: write {scheme}:///relative/path or "
            f"{scheme}:////absolute/path (three or four slashes)"
        )
    raw = unquote(parts.path)
    if not raw.startswith("/") or raw == "/":
        raise StoreURLError(f"bad {scheme} URL {url!r}: it names no file")
    path = Path(raw[1:])
    options = {key.lower(): value.lower() for key, value in parse_qsl(parts.query)}
    return path, options
