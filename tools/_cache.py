"""Where corpus indexes are cached: one rule, read by the corpus and shown by `citeloop where`."""

from __future__ import annotations

import os
from pathlib import Path


def index_cache_dir() -> Path:
    """The folder of cached corpus indexes: `$CITELOOP_CACHE_DIR`, else `$XDG_CACHE_HOME/citeloop/corpus`,
    else `~/.cache/citeloop/corpus`.
    """
    env = os.environ.get("CITELOOP_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "citeloop" / "corpus"
