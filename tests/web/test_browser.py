"""The run viewer in a real browser (Debian's chromium under Playwright), against the app served on 127.0.0.1.

Screenshots of the three main pages (the run list, a run, a quote in its page) are taken
here; set CITELOOP_SCREENSHOTS=docs to write them to docs/ (the README shows them).
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from citeloop.events import Answered, Locator, open_store
from citeloop.runtime.web import MAX_BODY_CHARS
from helpers.cli import in_ci
from helpers.web import QuotingPolicy, RefusingPolicy, page_of, record, run_async, serving

if not in_ci():  # under CI=true a missing playwright is an import error: these tests must run
    pytest.importorskip("playwright", reason="playwright is not installed (pip install -e '.[dev]')")
from playwright.sync_api import expect

ACME = page_of(
    "https://wiki.example/acme",
    "Acme Robotics",
    "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
    before="Acme Robotics builds warehouse robots.\n\n",
    after="\n\nIts first product, the Picker, shipped in 2016. The company moved to Porto in 2019.",
)

# What a hostile page (or a model reply, or a question) might carry: none of it may run.
PAYLOADS = (
    "<script>window.__pwned = 1; alert(1)</script>",
    '<img src=x onerror="window.__pwned = 2; alert(2)">',
    '<a href="javascript:alert(3)">javascript: link</a>',
    "<svg onload=alert(4)></svg>",
    '</pre><script>alert(5)</script><pre>',
    '"><script>alert(6)</script>',
    '<iframe src="javascript:alert(7)"></iframe>',
    "<style>body { display: none }</style>",
)
HOSTILE = page_of(
    "https://evil.example/?q=%22%3E%3Cscript%3Ealert(8)%3C/script%3E&next=javascript:alert(8)",
    'Acme <img src=x onerror="alert(9)">',
    "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
    before="\n".join(PAYLOADS) + "\n",
    after="\n" + "\n".join(reversed(PAYLOADS)),
)


def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CITELOOP_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def leave(page: Any) -> None:
    """Close the tabs' event streams before the server stops (it would wait for them, then cut them)."""
    for tab in page.context.pages:
        tab.goto("about:blank")


def locators(store_url: str, run_id: str) -> tuple[Locator, ...]:
    async def read() -> tuple[Locator, ...]:
        async with open_store(store_url, readonly=True) as store:
            final = (await store.read(run_id))[-1]
            assert isinstance(final, Answered)
            return final.locators

    return run_async(read)


def test_the_list_shows_a_fresh_run_and_a_citation_scrolls_to_its_quote(
    store_url: str, page: Any, dialogs: list[str], tmp_path: Path
) -> None:
    refused = record(store_url, "What did Acme Robotics earn in 2031?", RefusingPolicy(), ACME)
    outcome = record(store_url, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    assert outcome.status == "answered"
    folder = screenshots(tmp_path)
    with serving(store_url) as base:
        page.goto(base + "/")
        rows = page.locator("tr.run")
        expect(rows).to_have_count(2)
        newest = rows.first  # newest first
        expect(newest).to_contain_text("Who founded Acme Robotics?")
        expect(newest).to_contain_text("answered")
        expect(newest).to_contain_text(outcome.answer)
        expect(rows.nth(1)).to_contain_text("abstained")
        page.screenshot(path=str(folder / "web-runs.png"))

        page.fill("input[name=q]", "earn")
        page.click("button[type=submit]")
        expect(page.locator("tr.run")).to_have_count(1)
        expect(page.locator("tr.run")).to_contain_text(refused.question)
        page.goto(base + "/")

        newest.locator("a").click()
        expect(page.locator("#run-status")).to_have_text("answered")
        expect(page.locator(".steps tr.step")).to_have_count(3)
        expect(page.locator("#check")).to_contain_text("agree with the log: 9 events, hash chain intact")
        page.screenshot(path=str(folder / "web-run.png"))

        (locator,) = locators(store_url, outcome.run_id)
        page.locator("a.cite").first.click()
        assert page.url.endswith("#q0")
        mark = page.locator("mark#q0")
        expect(mark).to_be_in_viewport()
        assert mark.text_content() == locator.quote
        body = page.locator("#page0 pre.body").text_content()
        assert body is not None and body[locator.start : locator.end] == locator.quote
        expect(page.locator("#page0")).to_contain_text(locator.sha256)
        page.screenshot(path=str(folder / "web-quote.png"))
        leave(page)
    assert dialogs == []


def test_a_hostile_page_renders_as_text(store_url: str, page: Any, dialogs: list[str]) -> None:
    record(store_url, "Who founded Acme Robotics?", QuotingPolicy(HOSTILE, thought=PAYLOADS[1]), HOSTILE)
    record(store_url, PAYLOADS[0] + " " + PAYLOADS[1], RefusingPolicy(), HOSTILE)
    with serving(store_url) as base:
        listed = page.goto(base + "/")
        assert listed is not None
        csp = listed.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe-inline" not in csp
        expect(page.locator("tr.run").nth(0)).to_contain_text(PAYLOADS[0])  # the question, as text
        page.locator("tr.run").nth(1).locator("a").click()
        expect(page.locator("#run-status")).to_have_text("answered")
        shown = page.locator("#page0 pre.body").text_content()
        assert shown == HOSTILE.body  # every payload is there, as the characters it is made of
        expect(page.locator("#page0 h3")).to_have_text(HOSTILE.title)
        expect(page.locator("#page0 .url")).to_have_text(HOSTILE.url)
        # Nothing from the log became an element: only the app's own script, no image, frame or link out.
        assert page.locator("script").count() == 1
        assert page.locator("script").get_attribute("src") == "/static/live.js"
        planted = ("img", "iframe", "svg", "main style", "a[href^='javascript']", "[onerror]", "[onload]")
        for selector in planted:
            assert page.locator(selector).count() == 0, selector
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert page.locator("body").is_visible()
        leave(page)
    assert dialogs == []


def test_a_token_link_lets_the_browser_in_and_out_of_the_address_bar(
    store_url: str, page: Any, dialogs: list[str]
) -> None:
    token = "k3y-for-tests-0123456789"
    outcome = record(store_url, "Who founded Acme Robotics?", QuotingPolicy(ACME), ACME)
    with serving(store_url, token=token) as base:
        refused = page.goto(base + "/")
        assert refused is not None and refused.status == 401
        page.goto(f"{base}/?token={token}")
        assert page.url == base + "/"
        page.locator("tr.run a").first.click()
        expect(page.locator("#run-status")).to_have_text("answered")
        assert page.url == f"{base}/runs/{outcome.run_id}"
        leave(page)
    assert dialogs == []


def test_a_live_run_appears_and_completes_without_reload(
    store_url: str, page: Any, browser: Any, dialogs: list[str]
) -> None:
    record(store_url, "What did Acme Robotics earn in 2031?", RefusingPolicy(), ACME)  # the store exists
    gate = threading.Event()
    finished: list[object] = []
    question = "Who founded Acme Robotics, asked live?"

    def run() -> None:
        finished.append(record(store_url, question, QuotingPolicy(ACME, gate=gate), ACME))

    with serving(store_url) as base:
        page.goto(base + "/")
        expect(page.locator("tr.run")).to_have_count(1)
        page.evaluate("window.__loaded_once = true")
        worker = threading.Thread(target=run)
        worker.start()
        try:
            row = page.locator("tr.run", has_text=question)
            expect(row).to_contain_text(re.compile("queued|running"))  # appeared while its policy waits

            watcher = page.context.new_page()  # the run's own page, opened while it runs
            watcher.goto(base + row.locator("a").get_attribute("href"))
            expect(watcher.locator("#run-status")).to_have_text(re.compile("queued|running"))
            watcher.evaluate("window.__loaded_once = true")
        finally:
            gate.set()
            worker.join()
        expect(row).to_contain_text("answered")
        expect(watcher.locator("#run-status")).to_have_text("answered")
        expect(watcher.locator("mark#q0")).to_have_text(ACME.sentence)
        # Neither page was reloaded: what the test set on each window is still there.
        assert page.evaluate("window.__loaded_once") is True
        assert watcher.evaluate("window.__loaded_once") is True
        leave(page)
    assert len(finished) == 1
    assert dialogs == []


def test_a_2mb_page_renders_within_the_cap(store_url: str, page: Any, dialogs: list[str]) -> None:
    filler = "Warehouse robots move shelves. " * 70_000  # about 2.1 MB of text
    big = page_of(
        "https://wiki.example/big", "A long page", ACME.sentence, before=filler[:1_500_000] + "\n",
        after="\n" + filler[: 2_000_000 - 1_500_000],
    )
    assert len(big.body) > 2_000_000
    outcome = record(store_url, "Who founded Acme Robotics?", QuotingPolicy(big), big)
    assert outcome.status == "answered"
    (locator,) = locators(store_url, outcome.run_id)
    assert locator.start > MAX_BODY_CHARS  # the quote lies beyond the shown head
    with serving(store_url) as base:
        page.goto(f"{base}/runs/{outcome.run_id}")
        expect(page.locator("#run-status")).to_have_text("answered")
        shown = page.locator("#page0 pre.body").text_content()
        assert shown is not None
        assert len(shown) < MAX_BODY_CHARS + 10_000  # the head, one window, the gaps' notes
        expect(page.locator("#page0")).to_contain_text("Shown in part")
        page.locator("a.cite").first.click()
        expect(page.locator("mark#q0")).to_be_in_viewport()
        assert page.locator("mark#q0").text_content() == locator.quote
        leave(page)
    assert dialogs == []
