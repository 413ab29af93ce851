"""A real browser for the web viewer's tests: Debian's chromium, driven by Playwright for Python.

The system browser is used (`CITELOOP_TEST_CHROMIUM`, default /usr/bin/chromium), never one
that `playwright install` would download. When it or Playwright is missing, a test skips with
the reason on a laptop and fails under CI=true, where .ci/run installs both.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .cli import in_ci

DEFAULT_CHROMIUM = "/usr/bin/chromium"


def chromium_path() -> str | None:
    """The chromium binary to drive, if there is one."""
    given = os.environ.get("CITELOOP_TEST_CHROMIUM")
    if given is not None:  # named: that one or none
        return given if Path(given).is_file() and os.access(given, os.X_OK) else None
    if Path(DEFAULT_CHROMIUM).is_file() and os.access(DEFAULT_CHROMIUM, os.X_OK):
        return DEFAULT_CHROMIUM
    return shutil.which("chromium")


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return "no chromium to drive (apt-get install chromium, or set CITELOOP_TEST_CHROMIUM)"
    return None


def require_chromium() -> str:
    """The chromium binary's path; skips the test when it or Playwright is missing, fails under CI=true."""
    reason = _missing()
    if reason is not None:
        if in_ci():
            pytest.fail(f"{reason} (CI=true: the browser tests must run)")
        pytest.skip(reason)
    path = chromium_path()
    assert path is not None
    return path
