"""`Runtime.report` and `Runtime.review`: report runs (docs/reports.md).

A mixin, so that the runtime's module stays about running questions; it uses the
runtime's own admission, locks and driver like `run` and `resume` do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from citeloop.events import OnCap, ReportRules, ReviewMode, ReviewVerdict, UsageError
from citeloop.tools import Attachable

from ._driver import Driver
from ._report_decide import decide_human_review
from ._report_driver import default_reviewer, default_writer
from ._report_outcome import ReportOutcome
from ._start import research_plan

if TYPE_CHECKING:
    import contextlib
    from collections.abc import Callable, Coroutine
    from typing import Any

    from anyio.abc import TaskGroup
    from citeloop.events import AdmittedSource, Event

    from ._admission import Slot
    from ._loop_config import LoopConfig
    from ._state import RunState

REVIEW_MODES: tuple[ReviewMode, ...] = ("policy", "human")
CAP_RULES: tuple[OnCap, ...] = ("refuse", "accept-validated")


class ReportMethods:
    """The report half of `Runtime`: what it uses of the runtime is declared here, defined there."""

    if TYPE_CHECKING:
        _config: LoopConfig
        _max_steps: int
        _allowlist: tuple[str, ...]
        _new_id: Callable[[], str]

        def _require_started(self) -> TaskGroup: ...
        async def _admit(self, attachments: Iterable[Attachable]) -> tuple[AdmittedSource, ...]: ...
        def _admitted(self) -> contextlib.AbstractAsyncContextManager[Slot]: ...
        def _policy_name(self) -> str: ...
        async def _read(self, run_id: str) -> list[Event]: ...
        async def reopen(self, run_id: str) -> RunState: ...
        async def _drive_state(
            self, driver: Driver, run_id: str, driving: Coroutine[Any, Any, object]
        ) -> RunState: ...

    async def report(
        self,
        question: str,
        *,
        run_id: str | None = None,
        review: ReviewMode = "policy",
        max_revisions: int = 3,
        on_cap: OnCap = "refuse",
        attachments: Iterable[Attachable] = (),
        plan: Iterable[str] = (),
    ) -> ReportOutcome:
        """Research `question`, then draft, validate, review and revise a report with footnotes.

        `review="human"` pauses the run after each validated draft (`ReviewRequested`, status
        `waiting`) until `review(run_id, ...)` is called from any process. Revisions are capped
        at `max_revisions`; at the cap the run ends by `on_cap` (`refuse`: INSUFFICIENT
        GROUNDING; `accept-validated`: the last draft that passed validation, saying so).
        """
        self._require_started()
        if review not in REVIEW_MODES:
            raise UsageError(f"review must be one of {', '.join(REVIEW_MODES)}, got {review!r}")
        if on_cap not in CAP_RULES:
            raise UsageError(f"on_cap must be one of {', '.join(CAP_RULES)}, got {on_cap!r}")
        if max_revisions < 0:
            raise UsageError(f"max_revisions must be at least 0, got {max_revisions}")
        config = self._config
        rules = ReportRules(
            writer=(config.writer or default_writer()).name,
            reviewer=(config.reviewer or default_reviewer()).name,
            review=review,
            max_revisions=max_revisions,
            on_cap=on_cap,
        )
        items = research_plan(plan)
        sources = await self._admit(attachments)
        run_id = run_id or self._new_id()
        async with self._admitted() as slot:
            driver = Driver(config, slot=slot)
            driving = driver.start_and_drive(
                run_id,
                question,
                max_steps=self._max_steps,
                allowlist=self._allowlist,
                policy=self._policy_name(),
                sources=sources,
                plan=items,
                report=rules,
            )
            await self._drive_state(driver, run_id, driving)
            return ReportOutcome.from_state(driver.state)

    async def review(
        self, run_id: str, verdict: ReviewVerdict, *, notes: str = "", by: str = "human"
    ) -> ReportOutcome:
        """Append a human's verdict on the draft a waiting report run awaits, and drive the run on.

        `ReviewNotAwaitedError` when the run waits for no review. A `REVISE` given at the
        revision cap lifts the cap by one revision (docs/reports.md: a human may lift the cap).
        """
        self._require_started()
        if verdict not in ("ACCEPT", "REVISE"):
            raise UsageError(f"verdict must be ACCEPT or REVISE, got {verdict!r}")
        async with self._admitted() as slot:
            driver = Driver(self._config, await self._read(run_id), slot=slot)
            decided = decide_human_review(driver.state, verdict, notes, by, self._config.clock())

            async def append_and_drive() -> None:
                await driver.append(decided)
                await driver.drive()

            await self._drive_state(driver, run_id, append_and_drive())
            return ReportOutcome.from_state(driver.state)

    async def report_outcome(self, run_id: str) -> ReportOutcome:
        """A stored report run's outcome (or that it waits), read off its log."""
        return ReportOutcome.from_state(await self.reopen(run_id))
