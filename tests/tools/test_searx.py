"""`search` on the web against a fake SearxNG: a real HTTP server on 127.0.0.1 in a thread (issue 18).

Each way the instance can fail is an observation with a code of its own, never an exception.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from citeloop.events import SearchHits, ToolError
from citeloop.tools import Tool, WebSearch
from helpers.fake_searx import FakeSearx, serve_searx

pytestmark = pytest.mark.anyio

RESULTS = [
    {
        "url": "https://docs.example.org/settings",
        "title": "Server settings",
        "content": "work_mem  sets\nthe memory",
        "score": 3.5,
    },
    {
        "url": "https://blog.example.org/log",
        "title": "Why the log is the cache",
        "content": "Replay without the network.",
    },
    {
        "url": "https://docs.example.org/settings",
        "title": "Server settings (again)",
        "content": "duplicate",
        "score": 1.0,
    },
    {"url": "ftp://files.example.org/x", "title": "Not a web page", "content": ""},
    {"url": "https://third.example.org/", "title": "", "content": None},
    {"title": "no url at all"},
]


@pytest.fixture
def searx() -> Iterator[FakeSearx]:
    with serve_searx(FakeSearx(results=RESULTS)) as fake:
        yield fake


async def test_hits_have_url_title_and_snippet_in_searx_order(searx: FakeSearx) -> None:
    result = await WebSearch(searx.url)("work_mem default")
    assert isinstance(result, SearchHits)
    assert result.query == "work_mem default"
    assert [(h.url, h.title, h.snippet) for h in result.hits] == [
        ("https://docs.example.org/settings", "Server settings", "work_mem sets the memory"),
        ("https://blog.example.org/log", "Why the log is the cache", "Replay without the network."),
        ("https://third.example.org/", "https://third.example.org/", ""),
    ]
    assert result.hits[0].score == 3.5
    assert searx.queries == [{"q": ["work_mem default"], "format": ["json"]}]


async def test_at_most_limit_hits(searx: FakeSearx) -> None:
    result = await WebSearch(searx.url.rstrip("/"), limit=1)("work_mem")
    assert isinstance(result, SearchHits)
    assert [h.url for h in result.hits] == ["https://docs.example.org/settings"]


async def test_no_results_is_an_empty_list_of_hits(searx: FakeSearx) -> None:
    searx.body = b'{"query": "x", "results": [], "unresponsive_engines": [["google", "timeout"]]}'
    result = await WebSearch(searx.url)("nothing at all")
    assert result == SearchHits(query="nothing at all", hits=())


async def test_json_output_disabled_is_named(searx: FakeSearx) -> None:
    searx.status, searx.body = 403, b"<html>403 Forbidden</html>"
    result = await WebSearch(searx.url)("q")
    assert isinstance(result, ToolError) and result.code == "search_json_disabled"
    assert "search.formats" in result.message


@pytest.mark.parametrize("status", [404, 429, 500, 502])
async def test_another_status_is_an_http_error(searx: FakeSearx, status: int) -> None:
    searx.status, searx.body = status, b"no"
    result = await WebSearch(searx.url)("q")
    assert isinstance(result, ToolError) and result.code == "search_http_error"
    assert str(status) in result.message


@pytest.mark.parametrize(
    "body",
    [
        b"<html>not json</html>",
        b"[1, 2]",
        b'{"results": "none"}',
        b"",
        b'{"results": [1, "x"]',
        b"[" * 100_000,  # nested deeper than the JSON parser goes (RecursionError)
    ],
    ids=lambda body: repr(body[:24]),
)
async def test_a_body_that_is_not_searx_json_is_a_bad_response(searx: FakeSearx, body: bytes) -> None:
    searx.body = body
    result = await WebSearch(searx.url)("q")
    assert isinstance(result, ToolError) and result.code == "search_bad_response"


# Stopping mid-body leaves httpx's own nested stream generators to the garbage collector, which
# trio's finalizer hook reports (asyncio's does not); WebSearch closes the one it iterates.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
async def test_an_answer_over_the_byte_cap_is_a_bad_response(searx: FakeSearx) -> None:
    result = await WebSearch(searx.url, max_bytes=100)("q")
    assert isinstance(result, ToolError) and result.code == "search_bad_response"


async def test_a_refused_connection_is_unreachable() -> None:
    # A bound socket that does not listen: connecting to its port is refused.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        result = await WebSearch(f"http://127.0.0.1:{port}")("q")
    assert isinstance(result, ToolError) and result.code == "search_unreachable"


async def test_a_silent_instance_times_out(searx: FakeSearx) -> None:
    searx.hang = True
    result = await WebSearch(searx.url, timeout=0.2)("q")
    assert isinstance(result, ToolError) and result.code == "search_timeout"


@pytest.mark.parametrize("base", ["not a url", "gopher://127.0.0.1/"])
async def test_a_base_url_that_cannot_be_used_is_unreachable(base: str) -> None:
    result = await WebSearch(base)("q")
    assert isinstance(result, ToolError) and result.code == "search_unreachable"


async def test_a_blank_query_is_refused_without_asking(searx: FakeSearx) -> None:
    result = await WebSearch(searx.url)("   ")
    assert isinstance(result, ToolError) and result.code == "empty_query"
    assert searx.queries == []


def test_it_is_a_read_only_tool_named_search() -> None:
    tool = WebSearch("http://127.0.0.1:1")
    assert isinstance(tool, Tool)
    assert (tool.name, tool.read_only) == ("search", True)


async def test_a_score_too_big_for_a_float_is_ignored_not_raised(searx: FakeSearx) -> None:
    searx.results = [{"url": "https://a.example/", "title": "A", "content": "x", "score": 10**400}]
    result = await WebSearch(searx.url)("q")
    assert isinstance(result, SearchHits) and result.hits[0].score == 1.0  # its rank instead
