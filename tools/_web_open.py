"""`open(url)` on the web: the guarded fetch, the page's text, and its identity as evidence.

Every refusal is a `ToolError` whose code names the rule (`blocked: private_address`,
`blocked: scheme`, `too_large`, `timeout`, ...; README, "The SSRF guard"). A page is
admitted as a `Page` whose `url` is the final URL after redirects and whose `source` holds
the rest of its identity (retrieval time, status, media type, digest of the bytes,
extractor and version; docs/events.md). The log is the cache: a stored run is reopened,
replayed and checked from its observations, never fetched again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from citeloop.events import Observation, Page, PageSource, ToolError

from ._extract import Extracted, ExtractError, extract
from ._web_fetch import Fetched, FetchLimits, Resolver, fetch, system_resolver
from ._web_guard import Blocked, GuardOptions


def _now() -> datetime:
    return datetime.now(UTC)


def page_text(fetched: Fetched) -> Extracted:
    """The title and text of a fetched body (the one place the extractor is named)."""
    content_type = fetched.media_type + (f"; charset={fetched.charset}" if fetched.charset else "")
    return extract(fetched.body, content_type, fetched.url)


@dataclass(frozen=True, slots=True)
class WebOpen:
    """`open(url)`: a web page through the SSRF guard, or a `ToolError` naming why it was refused.

    `allow_hosts` names private hosts the deployment trusts; `allow_http` admits plain http.
    `resolver` and `clock` are replaceable for tests (a table of names, a fixed time).
    """

    allow_hosts: frozenset[str] = frozenset()
    allow_http: bool = False
    limits: FetchLimits = field(default_factory=FetchLimits)
    resolver: Resolver = system_resolver
    clock: Callable[[], datetime] = _now
    name: str = "open"
    read_only: bool = True

    @property
    def guard(self) -> GuardOptions:
        """The guard's options this tool fetches under."""
        return GuardOptions(allow_http=self.allow_http, allow_hosts=self.allow_hosts)

    async def __call__(self, argument: str) -> Observation:
        url = argument.strip()
        try:
            fetched = await fetch(url, self.guard, self.limits, self.resolver)
            retrieved_at = self.clock()
            extracted = page_text(fetched)
        except Blocked as refused:
            return ToolError(code=refused.code, message=refused.message, url=url)
        except ExtractError as failed:
            return ToolError(code=failed.code, message=failed.message, url=url)
        return admitted_page(fetched, extracted, retrieved_at)


def admitted_page(fetched: Fetched, extracted: Extracted, retrieved_at: datetime) -> Page:
    """The `Page` observation of a fetch: the extracted text as body, its digest, and where it came from."""
    source = PageSource(
        retrieved_at=retrieved_at,
        status=fetched.status,
        media_type=fetched.media_type,
        size=len(fetched.body),
        bytes_sha256=fetched.sha256,
        extractor=extracted.extractor,
        extractor_version=extracted.extractor_version,
    )
    body = extracted.text
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return Page(url=fetched.url, title=extracted.title, body=body, sha256=digest, source=source)
