"""`resume` and `cancel`: carry a stopped run on, or record that it will not be.

Both go through the runtime (`Runtime.resume`, `Runtime.continue_run`, `Runtime.cancel`),
so what is appended is decided where the loop decides it, under the run's lock.
"""

from __future__ import annotations

import uuid

import anyio
import typer
from citeloop.events import open_store
from citeloop.runtime import Outcome, Runtime, fold

from ._ask import BaseUrlOption, CorpusOption, MinConfidenceOption, PolicyOption
from ._errors import EXIT_BY_STATUS, CliError
from ._interrupt import until_interrupted
from ._options import (
    DEFAULT_STORE,
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


def _require_store(url: str) -> None:
    if not store_exists(url):
        raise CliError(f"no store at {url}: nothing has been recorded there (check --store or ${STORE_ENV})")


def resume(
    run_id: RunArgument,
    store: StoreOption = DEFAULT_STORE,
    corpus: CorpusOption = None,
    policy: PolicyOption = "extractive",
    base_url: BaseUrlOption = None,
    min_confidence: MinConfidenceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Drive a stopped run on from its log: queued or running, in place; cancelled or failed, as a new run.

    Give the corpus and policy the run was asked with. A finished run is only printed.
    """
    _require_store(store)
    pages = load_corpus(corpus)
    chosen = build_policy(policy, base_url=base_url, min_confidence=min_confidence)

    async def drive() -> tuple[Outcome, tuple[str, str] | None]:
        async with (
            open_store(store) as opened,
            Runtime(store=opened, tools=pages.tools(), policy=chosen) as runtime,
        ):
            state = fold(await read_run(opened, run_id))
            if state.status in ("cancelled", "failed"):
                new_id = uuid.uuid4().hex
                work = lambda: runtime.continue_run(state.run_id, new_run_id=new_id)  # noqa: E731
                return await until_interrupted(work, opened, new_id), (state.run_id, state.status)
            resumed = lambda: runtime.resume(state.run_id)  # noqa: E731
            return await until_interrupted(resumed, opened, state.run_id), None

    try:
        outcome, continued = anyio.run(drive)
    finally:
        aclose = getattr(chosen, "aclose", None)
        if aclose is not None:
            anyio.run(aclose)
        pages.close()
    if as_json:
        print_json(
            {**outcome.to_json(), "question": outcome.question, "continues": continued and continued[0]}
        )
    else:
        if continued is not None:
            print_note(f"run {continued[0]} was {continued[1]}; continued as run {outcome.run_id}")
        print_outcome(outcome, store)
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
