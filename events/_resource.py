"""`AsyncResource`: the async-context-manager shell, written once over an abstract `aclose`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Protocol, Self


class Closeable(Protocol):
    """The lifecycle every store and queue offers: `async with` it, or call `aclose`."""

    async def aclose(self) -> None:
        """Release the resource's own resources. Idempotent."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class AsyncResource(ABC):
    """Something to close: `async with resource:` closes it on the way out, error or not.

    Stores and queues inherit this shell and implement only `aclose` (as in anyio's
    `AsyncResource`), so their lifecycle is written in one place.
    """

    __slots__ = ()

    @abstractmethod
    async def aclose(self) -> None:
        """Release the resource. Idempotent."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
