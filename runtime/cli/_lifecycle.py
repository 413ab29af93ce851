"""`resume` and `cancel`: carry a stopped run on, or record that it will not be.

Both go through the runtime (`Runtime.resume`, `Runtime.continue_run`, `Runtime.cancel`),
so what is appended is decided where the loop decides it, under the run's lock.
"""

from __future__ import annotations

import uuid
from typing import Annotated

import anyio
import typer
from citeloop.events import EventStore, open_store
from citeloop.policies import Policy
from citeloop.runtime import Outcome, RunState, Runtime, fold

from ._ask import BaseUrlOption, CorpusOption, MinConfidenceOption
from ._errors import EXIT_BY_STATUS, CliError
from ._feedback import run_spinner, wanted
from ._interrupt import until_interrupted
from ._options import (
    BUILT_IN_POLICIES,
    DEFAULT_STORE,
    POLICY_NAMES,
    SPEC_PREFIXES,
    STORE_ENV,
    JsonOption,
    RunArgument,
    StoreOption,
    build_policy,
    load_corpus,
    read_run,
    store_exists,
)
from ._render import print_json, print_note, print_outcome
from ._sources import corpus_files, file_map


def _require_store(url: str) -> None:
    if not store_exists(url):
        raise CliError(f"no store at {url}: nothing has been recorded there (check --store or ${STORE_ENV})")


# A run's outcome, and (its old id, its old status) when it was continued as a new run.
_Driven = tuple[Outcome, tuple[str, str] | None]
ResumePolicyOption = Annotated[
    str | None,
    typer.Option(
        "--policy",
        help=f"Who decides: {POLICY_NAMES} (default: the policy the run was started with).",
        show_default=False,
    ),
]
ForcePolicyOption = Annotated[
    bool,
    typer.Option(
        "--force-policy", help="Drive the run on with a --policy other than the one it started with."
    ),
]


def resume_policy(recorded: str, given: str | None, *, force: bool) -> str:
    """The `--policy` value a run is resumed with: the recorded one, or `given` if it names the same.

    A different policy decides differently from the one the log was written with, so it
    is refused unless forced; a recorded policy the command line cannot build (one of
    your own, from Python) must be given explicitly.
    """
    if given is None:
        if recorded not in BUILT_IN_POLICIES and not recorded.startswith(SPEC_PREFIXES):
            raise CliError(
                f"the run was started with policy {recorded!r}, which the command line cannot build: "
                "name one with --policy and add --force-policy"
            )
        return recorded
    if given != recorded and not force:
        raise CliError(
            f"the run was started with policy {recorded!r}, not {given!r}: resume it with "
            f"--policy {recorded} (or leave --policy out), or add --force-policy to let {given!r} go on"
        )
    return given


def resume(
    run_id: RunArgument,
    store: StoreOption = DEFAULT_STORE,
    corpus: CorpusOption = None,
    policy: ResumePolicyOption = None,
    force_policy: ForcePolicyOption = False,
    base_url: BaseUrlOption = None,
    min_confidence: MinConfidenceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Drive a stopped run on from its log: queued or running, in place; cancelled or failed, as a new run.

    Give the corpus the run was asked with. The policy is the one it was started with
    (recorded in its log); another one is refused unless --force-policy. A finished run is
    only printed.
    """
    _require_store(store)
    pages = load_corpus(corpus)

    async def drive(opened: EventStore, state: RunState, chosen: Policy) -> _Driven:
        tools = pages.tools()
        with run_spinner(wanted(as_json)) as watchers:
            async with Runtime(store=opened, tools=tools, policy=chosen, watchers=watchers) as runtime:
                if state.status in ("cancelled", "failed"):
                    new_id = uuid.uuid4().hex
                    work = lambda: runtime.continue_run(state.run_id, new_run_id=new_id)  # noqa: E731
                    return await until_interrupted(work, opened, new_id), (state.run_id, state.status)
                resumed = lambda: runtime.resume(state.run_id)  # noqa: E731
                return await until_interrupted(resumed, opened, state.run_id), None

    async def read_and_drive() -> _Driven:
        async with open_store(store) as opened:
            state = fold(await read_run(opened, run_id))
            if state.finished and state.status not in ("cancelled", "failed"):
                return Outcome.from_state(state), None  # nothing to drive: no policy needed
            name = resume_policy(state.policy, policy, force=force_policy)
            chosen = build_policy(name, base_url=base_url, min_confidence=min_confidence)
            try:
                return await drive(opened, state, chosen)
            finally:
                aclose = getattr(chosen, "aclose", None)
                if aclose is not None:
                    with anyio.CancelScope(shield=True):
                        await aclose()

    try:
        outcome, continued = anyio.run(read_and_drive)
    finally:
        pages.close()
    files = corpus_files(corpus)
    if as_json:
        continues = continued and continued[0]
        print_json(
            {
                **outcome.to_json(),
                "question": outcome.question,
                "continues": continues,
                "files": file_map(outcome.citations, files),
            }
        )
    else:
        if continued is not None:
            print_note(f"run {continued[0]} was {continued[1]}; continued as run {outcome.run_id}")
        print_outcome(outcome, store, files)
    raise typer.Exit(EXIT_BY_STATUS[outcome.status])


def cancel(run_id: RunArgument, store: StoreOption = DEFAULT_STORE, as_json: JsonOption = False) -> None:
    """Record a stopped run as cancelled (Abstained, reason cancelled); a run being driven is refused."""
    _require_store(store)
    from citeloop.policies import ScriptedPolicy

    async def record() -> tuple[str, str, Outcome]:
        # The runtime needs a policy and tools to be built; cancelling asks neither.
        idle = ScriptedPolicy({})
        async with open_store(store) as opened, Runtime(store=opened, tools=(), policy=idle) as rt:
            before = fold(await read_run(opened, run_id))
            if before.finished:
                return before.run_id, before.status, Outcome.from_state(before)
            return before.run_id, before.status, await rt.cancel(before.run_id)

    full_id, before, outcome = anyio.run(record)
    if before in ("answered", "abstained", "failed"):
        raise CliError(f"run {full_id} has already finished ({before}): there is nothing to cancel")
    if as_json:
        print_json({"run_id": full_id, "status": outcome.status, "was": before})
    elif before == "cancelled":
        print_note(f"run {full_id} was already cancelled")
    else:
        print_note(f"run {full_id} cancelled (it was {before}); continue it with `citeloop resume {full_id}`")
