"""Bounded retries with exponential backoff for calls to a model endpoint.

The bound is on both the number of attempts and the total time (attempts plus waits), so
a policy that keeps failing gives up in a known time and raises `PolicyUnavailableError`;
the runtime records that as an abstention (`policy_error`), never an unhandled exception.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import structlog
from citeloop.events import RunFailure

T = TypeVar("T")


class PolicyUnavailableError(RunFailure):
    """Raised when a model endpoint kept failing past the retry bound, or refused a request outright.

    The message names the attempts and the last failure; it never contains the API key.
    """

    def __init__(self, message: str, *, attempts: int, last_error: str) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.last_error = last_error


@dataclass(frozen=True, slots=True)
class Verdict:
    """How to treat one failed attempt. `description` is safe to log (no secrets)."""

    retry: bool
    description: str
    retry_after: float | None = None


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """The bound: at most `max_attempts` calls and `max_elapsed` seconds in all.

    Each attempt gets at most `attempt_timeout` seconds (less when the total bound is
    closer). Waits grow as `base_delay * 2**n` with full jitter, capped at `max_delay`;
    a server's `Retry-After` is honoured up to that cap.
    """

    max_attempts: int = 4
    max_elapsed: float = 120.0
    attempt_timeout: float = 60.0
    base_delay: float = 0.5
    max_delay: float = 8.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.max_elapsed <= 0 or self.attempt_timeout <= 0:
            raise ValueError("max_attempts must be >= 1, max_elapsed and attempt_timeout > 0")
        if self.base_delay < 0 or self.max_delay < 0:
            raise ValueError("delays must be >= 0")

    def delay(self, failures: int, retry_after: float | None) -> float:
        """The wait after the `failures`-th failed attempt (1-based)."""
        ceiling = min(self.max_delay, self.base_delay * 2 ** (failures - 1))
        wait = self.rng.uniform(0, ceiling)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_delay))
        return wait


def _logger() -> Any:
    return structlog.get_logger("citeloop.policies")


async def call_with_retry(
    attempt: Callable[[float], Awaitable[T]],  # called with this attempt's time limit
    classify: Callable[[Exception], Verdict],
    retry: RetryPolicy,
    *,
    what: str,
) -> T:
    """Run `attempt(timeout)` until it returns, retrying transient failures within the bound.

    `classify` decides which exceptions are transient and describes them without secrets.
    Cancellation is never caught. Raises `PolicyUnavailableError` when the bound is spent
    or a failure is permanent; the original exception is not chained, since it may carry
    request headers.
    """
    deadline = anyio.current_time() + retry.max_elapsed
    failures = 0
    last = "no attempt made"
    while failures < retry.max_attempts:
        remaining = deadline - anyio.current_time()
        if remaining <= 0:
            break
        budget = min(retry.attempt_timeout, remaining)
        try:
            with anyio.move_on_after(budget):
                return await attempt(budget)
            # The scope expired: the endpoint hung past this attempt's limit.
            verdict = Verdict(retry=True, description=f"timeout: no response within {budget:.3g}s")
        except Exception as exc:
            verdict = classify(exc)
        failures += 1
        last = verdict.description
        if not verdict.retry:
            raise PolicyUnavailableError(
                f"{what}: request refused ({last})", attempts=failures, last_error=last
            ) from None
        if failures >= retry.max_attempts:
            break
        wait = min(retry.delay(failures, verdict.retry_after), max(0.0, deadline - anyio.current_time()))
        _logger().warning("policy_retry", what=what, attempt=failures, error=last, wait_s=round(wait, 3))
        await anyio.sleep(wait)
    raise PolicyUnavailableError(
        f"{what}: unavailable after {failures} attempt(s) within {retry.max_elapsed:g}s (last: {last})",
        attempts=failures,
        last_error=last,
    ) from None
