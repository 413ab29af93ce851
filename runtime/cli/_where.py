"""`citeloop where`: the run store and the index cache this command line uses."""

from __future__ import annotations

import typer
from citeloop.tools import index_cache_dir

from ._escape import escape_controls
from ._options import DEFAULT_STORE, JsonOption, StoreOption, file_store_path, store_exists
from ._render import print_json


def where(store: StoreOption = DEFAULT_STORE, as_json: JsonOption = False) -> None:
    """Print where runs are stored (--store, $CITELOOP_STORE, else per user) and where indexes are cached."""
    path = file_store_path(store)
    cache = index_cache_dir()
    if as_json:
        print_json(
            {
                "store": store,
                "store_path": None if path is None else str(path.absolute()),
                "store_exists": store_exists(store),
                "index_cache": str(cache),
            }
        )
        return
    state = "" if store_exists(store) else " (nothing stored yet)"
    typer.echo(escape_controls(f"store:       {store}{state}"))
    typer.echo(escape_controls(f"index cache: {cache}"))
