"""`citeloop fork RUN --at K`: a new run from a stored run's first K steps, decided on by a policy.

It goes through `Runtime.fork`, so the copied steps are not run again and the new steps are
decided where the loop decides them (runtime/_fork.py says what "at step K" means).
"""

from __future__ import annotations

import uuid
from typing import Annotated

import anyio
import typer
from citeloop.events import EventStore, open_store
from citeloop.policies import Policy
from citeloop.runtime import Outcome, Runtime, fold

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

AtOption = Annotated[
    int,
    typer.Option(
        "--at",
        metavar="K",
        help="The step to decide again, as `show` numbers them: the fork keeps the run's steps before it.",
        show_default=False,
    ),
]
ForkPolicyOption = Annotated[
    str | None,
    typer.Option(
        "--policy",
        help=f"Who decides from step K on: {POLICY_NAMES} (default: the run's own policy).",
        show_default=False,
    ),
]


def fork_policy(recorded: str, given: str | None) -> str:
    """The `--policy` a fork goes on with: the one given, else the parent's (if the CLI can build it)."""
    if given is not None:
        return given
    if recorded not in BUILT_IN_POLICIES and not recorded.startswith(SPEC_PREFIXES):
        raise CliError(
            f"the run was decided by policy {recorded!r}, which the command line cannot build: "
            "name the fork's policy with --policy"
        )
    return recorded


def fork(
    run_id: RunArgument,
    at: AtOption,
    store: StoreOption = DEFAULT_STORE,
    corpus: CorpusOption = None,
    policy: ForkPolicyOption = None,
    base_url: BaseUrlOption = None,
    min_confidence: MinConfidenceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Fork a run at step K: a new run that keeps its steps before K as recorded and decides from K on.

    Nothing of the kept steps is run or asked again. Give the corpus the run was asked with,
    and a --policy to try (by default the run's own). K = 0 keeps only the question. The
    new run's log begins with a Forked event naming the run and the step; `show` prints it.
    """
    if not store_exists(store):
        raise CliError(f"no store at {store}: nothing is recorded there (check --store or ${STORE_ENV})")
    if at < 0:
        raise CliError(f"--at takes a step of 0 or more, got {at}")
    pages = load_corpus(corpus)
    new_id = uuid.uuid4().hex  # chosen here, so that an interruption can name the run

    async def read_and_fork() -> tuple[str, Outcome]:
        async with open_store(store) as opened:
            parent = fold(await read_run(opened, run_id))
            chosen = build_policy(
                fork_policy(parent.policy, policy), base_url=base_url, min_confidence=min_confidence
            )
            try:
                return parent.run_id, await drive(opened, parent.run_id, chosen)
            finally:
                aclose = getattr(chosen, "aclose", None)
                if aclose is not None:
                    with anyio.CancelScope(shield=True):
                        await aclose()

    async def drive(opened: EventStore, parent_id: str, chosen: Policy) -> Outcome:
        with run_spinner(wanted(as_json)) as watchers:
            async with Runtime(
                store=opened,
                tools=pages.tools(),
                policy=chosen,
                watchers=watchers,
            ) as runtime:
                work = lambda: runtime.fork(parent_id, at_step=at, run_id=new_id)  # noqa: E731
                return await until_interrupted(work, opened, new_id)

    try:
        parent_id, outcome = anyio.run(read_and_fork)
    finally:
        pages.close()
    files = corpus_files(corpus)
    if as_json:
        print_json(
            {
                **outcome.to_json(),
                "question": outcome.question,
                "forked_from": {"run_id": parent_id, "at_step": at},
                "files": file_map(outcome.citations, files),
            }
        )
    else:
        print_note(f"run {parent_id} forked at step {at} as run {outcome.run_id}")
        print_outcome(outcome, store, files)
    raise typer.Exit(EXIT_BY_STATUS[outcome.status])
