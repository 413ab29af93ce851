"""`search` on the web: a SearxNG instance's JSON API (`GET {base}/search?q=...&format=json`).

SearxNG is a self-hostable metasearch engine; its JSON output must be enabled in its
settings (`search.formats`), or it answers 403 (README, "Searching the web with SearxNG").
Every failure is a `ToolError` observation with a code of its own, never an exception:

| code | when |
| --- | --- |
| `empty_query` | the query is blank |
| `search_unreachable` | the connection failed (refused, no route, DNS) |
| `search_timeout` | the instance did not answer within `timeout` seconds |
| `search_json_disabled` | 403: the instance does not serve `format=json` |
| `search_http_error` | any other status but 200 |
| `search_bad_response` | the body is not JSON of SearxNG's shape, or is over `max_bytes` |

httpx (the `web` extra) is imported when a search runs, so that `citeloop.tools` imports
without it.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncGenerator, Mapping
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any, Final, cast
from urllib.parse import urlsplit

from citeloop.events import Hit, Observation, SearchHits, ToolError

_SNIPPET_CHARS: Final = 500


@dataclass(frozen=True, slots=True)
class WebSearch:
    """`search(query)`: at most `limit` web pages a SearxNG instance at `base_url` finds for the query.

    Hits keep SearxNG's order; a URL listed twice (two engines found it) is kept once. Only
    http(s) URLs are hits: what `open` could fetch.
    """

    base_url: str
    limit: int = 5
    timeout: float = 15.0
    max_bytes: int = 2 * 1024 * 1024
    name: str = "search"
    read_only: bool = True

    async def __call__(self, argument: str) -> Observation:
        query = argument.strip()
        if not query:
            return ToolError(code="empty_query", message="the search query is empty")
        try:
            status, body = await self._get(query)
        except _Failed as failure:
            return ToolError(code=failure.code, message=failure.message)
        if status == 403:
            return ToolError(
                code="search_json_disabled",
                message="the SearxNG instance refused format=json (403): add json to search.formats",
            )
        if status != 200:
            return ToolError(code="search_http_error", message=f"the SearxNG instance answered {status}")
        try:
            hits = parse_results(json.loads(body), self.limit)
        # RecursionError: JSON nested deeper than the parser goes; OverflowError: a number too big.
        except (ValueError, TypeError, RecursionError, OverflowError) as exc:
            return ToolError(code="search_bad_response", message=f"not a SearxNG JSON answer: {exc}")
        return SearchHits(query=argument, hits=hits)

    async def _get(self, query: str) -> tuple[int, bytes]:
        import httpx

        url = self.base_url.rstrip("/") + "/search"
        # trust_env=False: the instance is named explicitly; a proxy from the environment is not asked.
        try:
            async with (
                httpx.AsyncClient(timeout=self.timeout, trust_env=False, follow_redirects=False) as client,
                client.stream("GET", url, params={"q": query, "format": "json"}) as response,
            ):
                if response.status_code != 200:
                    return response.status_code, b""
                chunks: list[bytes] = []
                size = 0
                async with aclosing(cast(AsyncGenerator[bytes], response.aiter_bytes())) as chunks_read:
                    async for chunk in chunks_read:
                        size += len(chunk)
                        if size > self.max_bytes:
                            raise _Failed("search_bad_response", f"the answer is over {self.max_bytes} bytes")
                        chunks.append(chunk)
                return 200, b"".join(chunks)
        except httpx.TimeoutException as exc:
            raise _Failed("search_timeout", f"no answer from {url} within {self.timeout} s") from exc
        except (httpx.TransportError, httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
            raise _Failed("search_unreachable", f"cannot reach {url}: {exc or type(exc).__name__}") from exc
        except httpx.HTTPError as exc:  # e.g. a body that does not decode as its Content-Encoding says
            raise _Failed("search_bad_response", f"unreadable answer: {exc or type(exc).__name__}") from exc


class _Failed(Exception):
    """Raised inside `WebSearch._get` for a failure that becomes a `ToolError` with `code`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_results(data: Any, limit: int) -> tuple[Hit, ...]:
    """The hits of a SearxNG JSON answer; raises `ValueError` when it is not of SearxNG's shape."""
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        raise ValueError("no 'results' list")
    hits: list[Hit] = []
    seen: set[str] = set()
    for rank, result in enumerate(data["results"]):
        if len(hits) >= limit:
            break
        if not isinstance(result, Mapping):
            continue
        url = result.get("url")
        if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https") or url in seen:
            continue
        seen.add(url)
        score = _number(result.get("score"))
        hits.append(
            Hit(
                url=url,
                title=_plain(result.get("title")) or url,
                snippet=_plain(result.get("content"))[:_SNIPPET_CHARS],
                # SearxNG's score when it gives one; its order otherwise.
                score=1.0 / (rank + 1) if score is None else score,
            )
        )
    return tuple(hits)


def _number(value: object) -> float | None:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        number = float(value)  # an int of 400 digits does not fit a float
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _plain(value: object) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""
