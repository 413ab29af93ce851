"""Fixtures for the web viewer's tests: a store path, a served app, and the system chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.browser import require_chromium
from helpers.cli import in_ci

if not in_ci():  # under CI=true a missing extra is an import error: the viewer's tests must run
    pytest.importorskip("starlette", reason="the web-ui extra is not installed (pip install -e '.[dev]')")


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'runs.db'}"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium under Playwright (headless), for the whole session."""
    executable = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def dialogs() -> list[str]:
    """The messages of every dialog (alert, confirm, prompt) the test's tab opened."""
    return []


@pytest.fixture
def page(browser: Any, dialogs: list[str]) -> Iterator[Any]:
    """A fresh browser context and tab; every dialog it opens is recorded in `dialogs` and dismissed."""
    context = browser.new_context(viewport={"width": 1100, "height": 720})
    tab = context.new_page()

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    try:
        yield tab
    finally:
        context.close()
