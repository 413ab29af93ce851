"""The web `open` tool: a page admitted with its identity, every refusal a `ToolError` with its code,
and a recorded web run that reopens and checks with the server gone (the log is the cache).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from citeloop.events import Page, ToolError, ToolObserved, open_store
from citeloop.policies import finish_reply, react
from citeloop.runtime import Runtime, check_events, fold
from citeloop.tools import Tool, WebOpen
from citeloop.tools._web_fetch import FetchLimits
from helpers.fakes import ReplyQueue
from helpers.web_pages import PAGE, page_server

pytestmark = pytest.mark.anyio

FIXED = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)


async def _names(host: str, port: int) -> Sequence[str]:
    return {"pages.test": ["127.0.0.1"], "private.test": ["10.0.0.1"]}[host]


def tool(**changes: object) -> WebOpen:
    options: dict[str, object] = {
        "allow_hosts": frozenset({"127.0.0.1", "pages.test"}),
        "allow_http": True,
        "limits": FetchLimits(timeout=2.0, max_bytes=1_000_000, max_decoded=100_000),
        "resolver": _names,
        "clock": lambda: FIXED,
    }
    options.update(changes)
    return WebOpen(**options)  # type: ignore[arg-type]


def test_web_open_is_a_read_only_tool_named_open() -> None:
    opener = WebOpen()
    assert isinstance(opener, Tool)
    assert (opener.name, opener.read_only) == ("open", True)


async def test_a_page_is_admitted_with_its_identity() -> None:
    with page_server() as server:
        page = await tool()(f"http://pages.test:{server.port}/to-page")
    assert isinstance(page, Page)
    assert page.url == f"http://pages.test:{server.port}/page"  # the final URL, after the redirect
    assert page.title == "Mushrooms of the Alps"
    assert "The chanterelle grows under spruce." in page.body
    assert page.sha256 == hashlib.sha256(page.body.encode()).hexdigest()
    assert page.source is not None
    assert page.source.retrieved_at == FIXED
    assert (page.source.status, page.source.media_type) == (200, "text/html")
    assert page.source.bytes_sha256 == hashlib.sha256(PAGE.encode()).hexdigest()
    assert page.source.extractor and page.source.extractor_version


async def test_a_wrong_declared_charset_still_reads_right() -> None:
    with page_server() as server:
        page = await tool()(f"{server.base}/wrong-charset")
    assert isinstance(page, Page)
    assert "A naïve café, open daily." in page.body


async def test_a_plain_text_page_is_admitted() -> None:
    with page_server() as server:
        page = await tool()(f"{server.base}/plain")
    assert isinstance(page, Page)
    assert "line one" in page.body


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/to-metadata", "blocked: private_address"),
        ("/to-file", "blocked: scheme"),
        ("/loop", "too_many_redirects"),
        ("/pdf", "content_type: pdf"),
        ("/json", "content_type"),
        ("/slow", "timeout"),
    ],
)
async def test_a_refusal_is_a_tool_error_with_its_code(path: str, code: str) -> None:
    with page_server() as server:
        observed = await tool(limits=FetchLimits(timeout=1.0))(f"{server.base}{path}")
    assert isinstance(observed, ToolError)
    assert observed.code == code
    assert observed.url == f"{server.base}{path}"


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("https://private.test/", "blocked: private_address"),
        ("http://169.254.169.254/", "blocked: private_address"),
        ("file:///etc/passwd", "blocked: scheme"),
        ("https://user:pw@example.com/", "blocked: credentials"),
        ("", "blocked: scheme"),
    ],
)
async def test_urls_are_refused_before_any_connection(url: str, code: str) -> None:
    observed = await tool()(url)
    assert isinstance(observed, ToolError)
    assert observed.code == code


async def test_plain_http_is_refused_by_default() -> None:
    observed = await WebOpen()("http://example.com/")
    assert isinstance(observed, ToolError)
    assert observed.code == "blocked: scheme"


async def test_a_web_run_reopens_and_checks_with_the_server_stopped(tmp_path: Path) -> None:
    url_of_store = f"sqlite:///{tmp_path / 'runs.db'}"
    store = open_store(url_of_store)
    with page_server() as server:
        url = f"{server.base}/page"
        policy = ReplyQueue(
            react("read the page", "open", url),
            finish_reply("quoted", "Under spruce.", [url], "The chanterelle grows under spruce."),
        )
        async with Runtime(store=store, tools=[tool()], policy=policy) as runtime:
            outcome = await runtime.run("Where does the chanterelle grow?")
        fetched = len(server.seen_hosts)
    await store.aclose()
    assert outcome.status == "answered"
    assert fetched == 1
    # The server is gone: reopening the store, folding and checking the log must not need it.
    reopened = open_store(url_of_store, readonly=True)
    try:
        decoded = await reopened.read(outcome.run_id)
    finally:
        await reopened.aclose()
    state = fold(decoded)
    assert state.status == "answered"
    (observed,) = [e for e in decoded if isinstance(e, ToolObserved)]
    assert isinstance(observed.observation, Page)
    assert observed.observation.source is not None
    report = check_events(decoded)
    assert report.ok, report.divergences


def test_a_corpus_page_encodes_as_before() -> None:
    # `source` is left out when absent, so logs written before it keep their bytes and digests.
    page = Page(url="corpus://a", title="A", body="b", sha256="0" * 64)
    assert "source" not in page.model_dump_json()
