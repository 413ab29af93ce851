"""Options shared by the commands, and the builders they feed: store, corpus, policy."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final
from urllib.parse import unquote, urlsplit

import platformdirs
import typer
from citeloop.events import Event, EventStore, UnknownRunError, open_store
from citeloop.policies import Policy, ScriptedPolicy, anthropic_policy_from_spec, policy_from_spec
from citeloop.tools import Corpus

from ._errors import CliError

# The store a command uses when neither --store nor $CITELOOP_STORE names one: an empty
# marker that the option's callback turns into the per-user store (`default_store_url`).
DEFAULT_STORE: Final = ""
STORE_ENV: Final = "CITELOOP_STORE"
POLICY_NAMES: Final = (
    "extractive (default), scripted, openai:MODEL, openai-tools:MODEL, anthropic:MODEL, anthropic-tools:MODEL"
)
# The policies `build_policy` makes: these names, and a model after one of these prefixes.
BUILT_IN_POLICIES: Final = ("extractive", "scripted")
SPEC_PREFIXES: Final = ("openai:", "openai-tools:", "anthropic:", "anthropic-tools:")


def default_store_path() -> Path:
    """The per-user run store: `runs.db` in the platform's data folder (`~/.local/share/citeloop`)."""
    return Path(platformdirs.user_data_dir("citeloop", appauthor=False)) / "runs.db"


def default_store_url() -> str:
    """`sqlite:////absolute/path/runs.db` for `default_store_path()` (four slashes: an absolute path)."""
    return f"sqlite:///{default_store_path()}"


def _resolve_store(url: str) -> str:
    """The URL a command uses: the one given, else the per-user store (its folder made on demand).

    Making the folder is not making the store: a reading command still finds no store there.
    """
    if url:
        return url
    default_store_path().parent.mkdir(parents=True, exist_ok=True)
    return default_store_url()


StoreOption = Annotated[
    str,
    typer.Option(
        "--store",
        envvar=STORE_ENV,
        show_envvar=True,
        callback=_resolve_store,
        show_default="the per-user store, see `citeloop where`",
        help="Event store URL: memory://, jsonl:///runs.jsonl, sqlite:///runs.db, postgresql://...",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of text.")]
RunArgument = Annotated[
    str,
    typer.Argument(
        help="The run: its id, a unique prefix of it, or `last` (see `citeloop runs`).", show_default=False
    ),
]


def file_store_path(url: str) -> Path | None:
    """The file a `sqlite://` or `jsonl://` URL names (None for other schemes or a malformed URL)."""
    parts = urlsplit(url)
    if parts.scheme not in ("sqlite", "jsonl") or parts.netloc:
        return None
    raw = unquote(parts.path)
    if not raw.startswith("/") or raw == "/":
        return None
    return Path(raw[1:])


def store_exists(url: str) -> bool:
    """False only when the URL names a store file that is not there (reading must not create it)."""
    path = file_store_path(url)
    return path is None or path.exists()


def open_existing_store(url: str) -> EventStore:
    """Open a store read-only; a missing store file is a user's mistake, not an empty store to create.

    Read-only (`open_store(url, readonly=True)`): the commands that only read never create,
    repair or otherwise modify a store.
    """
    if not store_exists(url):
        raise CliError(f"no store at {url}: nothing has been recorded there (check --store or ${STORE_ENV})")
    return open_store(url, readonly=True)


async def resolve_run(store: EventStore, ref: str) -> str:
    """The run id `ref` names: a whole id, `last` (the run recorded last), or a prefix of exactly one id."""
    runs = await store.runs()
    if ref == "last":
        if not runs:
            raise UnknownRunError(f"no runs in {store.url}")
        return runs[-1].run_id  # the store lists runs in the order they were recorded
    matches = [run.run_id for run in runs if run.run_id.startswith(ref)] if ref else []
    if ref in matches:
        return ref
    if len(matches) == 1:
        return matches[0]
    if matches:
        shown = ", ".join(sorted(matches)[:5]) + (", ..." if len(matches) > 5 else "")
        raise CliError(f"run id prefix {ref!r} is ambiguous in {store.url}: {len(matches)} runs ({shown})")
    raise UnknownRunError(f"no run {ref!r} in {store.url} (see `citeloop runs`)")


async def read_run(store: EventStore, ref: str) -> list[Event]:
    """A stored run's events, by id, `last` or a unique prefix; unknown or ambiguous is one clear error."""
    events = await store.read(ref)
    if events:
        return events
    return await store.read(await resolve_run(store, ref))


def load_corpus(path: Path | None) -> Corpus:
    """The corpus at `path` (a folder or a .jsonl file), or the bundled demo corpus."""
    return Corpus.demo() if path is None else Corpus.from_path(path)


def build_policy(name: str, *, base_url: str | None, min_confidence: float | None) -> Policy:
    """The policy a `--policy` value names."""
    if name == "extractive":
        from citeloop.policies import ExtractivePolicy

        if min_confidence is None:
            return ExtractivePolicy()
        return ExtractivePolicy(min_confidence=min_confidence)
    if min_confidence is not None:
        raise CliError("--min-confidence applies to the extractive policy only")
    if name == "scripted":
        return ScriptedPolicy.demo()
    if name.startswith(SPEC_PREFIXES[:2]):
        return policy_from_spec(name, base_url)
    if name.startswith(SPEC_PREFIXES[2:]):
        return anthropic_policy_from_spec(name, base_url)
    raise CliError(f"unknown policy {name!r}: use {POLICY_NAMES}")
