"""The store contract as a test suite: a new store is done when every check here passes.

Pytest-agnostic. A check is an async function taking a `StoreHarness`, which says how to
open the store under test. Wire a store in with a few lines::

    harness = StoreHarness(lambda: open_store(url))          # persistent=False for memory
    for check in conformance_checks(harness):
        await check(harness)                                   # or parametrize over them

The checks never assume the store is empty: each uses fresh run ids and looks only at its
own runs, so a shared server (PostgreSQL) can be tested as it is. Checks that reopen a
store after `aclose()` run only when `harness.persistent` is true.

A store that has a run queue (`open_queue(store)`) also passes the queue tier: each of
`queue_checks()` takes a `QueueHarness` on an empty database::

    for check in queue_checks():
        await check(QueueHarness(lambda: open_store(fresh_url())))

The checks live in `_log_checks`, `_subscription_checks` and `_queue_checks`; this
module is their public face.
"""

from __future__ import annotations

from typing import Final

from ._conformance_kit import EPOCH, TRICKY_TEXT, Check, StoreHarness, make_run_started, make_step
from ._log_checks import (
    check_append_then_read_in_order,
    check_cancelled_appends_land_whole_or_not_at_all,
    check_closed_store_refuses_work,
    check_concurrent_runs,
    check_ended_run_refuses_appends,
    check_forked_run_is_listed_with_its_question,
    check_large_page_round_trips,
    check_malformed_batches_are_usage_errors,
    check_one_writer_wins_each_seq,
    check_reopen_after_close,
    check_runs_lists_status,
    check_stale_append_writes_nothing,
    check_unicode_round_trips,
)
from ._page_checks import (
    check_marker_text_outside_a_page_is_never_spliced,
    check_page_digests_are_never_trusted,
    check_shared_page_reads_back_exact,
)
from ._queue_checks import (
    QueueCheck,
    QueueHarness,
    check_claims_go_oldest_first_to_one_owner,
    check_enqueue_appends_and_queues,
    check_finished_runs_are_never_claimed,
    check_lease_runs_out_and_renewal_then_fails,
    check_release_frees_or_drops_the_run,
    check_requeue_appends_and_queues_again,
    queue_checks,
    run_queue_conformance,
)
from ._subscription_checks import (
    check_head_position_follows_only_newer_events,
    check_subscribe_all_loses_and_duplicates_nothing,
    check_subscribe_stored_then_live,
)

__all__ = (
    "EPOCH",
    "TRICKY_TEXT",
    "Check",
    "QueueCheck",
    "QueueHarness",
    "StoreHarness",
    "check_append_then_read_in_order",
    "check_cancelled_appends_land_whole_or_not_at_all",
    "check_claims_go_oldest_first_to_one_owner",
    "check_closed_store_refuses_work",
    "check_concurrent_runs",
    "check_ended_run_refuses_appends",
    "check_enqueue_appends_and_queues",
    "check_finished_runs_are_never_claimed",
    "check_forked_run_is_listed_with_its_question",
    "check_head_position_follows_only_newer_events",
    "check_large_page_round_trips",
    "check_lease_runs_out_and_renewal_then_fails",
    "check_malformed_batches_are_usage_errors",
    "check_one_writer_wins_each_seq",
    "check_marker_text_outside_a_page_is_never_spliced",
    "check_page_digests_are_never_trusted",
    "check_release_frees_or_drops_the_run",
    "check_reopen_after_close",
    "check_requeue_appends_and_queues_again",
    "check_runs_lists_status",
    "check_shared_page_reads_back_exact",
    "check_stale_append_writes_nothing",
    "check_subscribe_all_loses_and_duplicates_nothing",
    "check_subscribe_stored_then_live",
    "check_unicode_round_trips",
    "conformance_checks",
    "make_run_started",
    "make_step",
    "queue_checks",
    "run_conformance",
    "run_queue_conformance",
)


_ALWAYS: Final[tuple[Check, ...]] = (
    check_append_then_read_in_order,
    check_stale_append_writes_nothing,
    check_malformed_batches_are_usage_errors,
    check_one_writer_wins_each_seq,
    check_concurrent_runs,
    check_subscribe_stored_then_live,
    check_subscribe_all_loses_and_duplicates_nothing,
    check_head_position_follows_only_newer_events,
    check_unicode_round_trips,
    check_large_page_round_trips,
    check_shared_page_reads_back_exact,
    check_page_digests_are_never_trusted,
    check_marker_text_outside_a_page_is_never_spliced,
    check_runs_lists_status,
    check_forked_run_is_listed_with_its_question,
    check_ended_run_refuses_appends,
    check_cancelled_appends_land_whole_or_not_at_all,
    check_closed_store_refuses_work,
)
_PERSISTENT: Final[tuple[Check, ...]] = (check_reopen_after_close,)


def conformance_checks(harness: StoreHarness | None = None) -> tuple[Check, ...]:
    """Every check that applies to `harness` (all of them when it is None or persistent)."""
    if harness is not None and not harness.persistent:
        return _ALWAYS
    return _ALWAYS + _PERSISTENT


async def run_conformance(harness: StoreHarness) -> None:
    """Run every applicable check in turn; the first failure propagates."""
    for check in conformance_checks(harness):
        await check(harness)
