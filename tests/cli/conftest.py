"""Every command-line test runs with a home of its own: no test reads or writes the real one.

Session-scoped and autouse, so that it is in place before the module-scoped fixtures that
copy `os.environ` into a subprocess's environment. The per-user run store
(`$XDG_DATA_HOME/citeloop/runs.db`) and the index cache (`$XDG_CACHE_HOME/citeloop/corpus`)
then land under a temporary folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        patch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
        patch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        patch.delenv("CITELOOP_STORE", raising=False)
        yield home
