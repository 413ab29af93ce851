"""The command-line tests run the `citeloop` beside this interpreter, and cannot skip silently in CI."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers.cli import SCRIPT, require_citeloop


def test_the_script_is_the_one_beside_this_interpreter_not_the_first_on_path() -> None:
    assert SCRIPT.parent == Path(sys.executable).parent


def test_a_missing_script_skips_with_its_path_on_a_laptop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"not installed at .*nowhere"):
        require_citeloop(tmp_path / "nowhere" / "citeloop")


def test_a_missing_script_fails_under_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        require_citeloop(tmp_path / "nowhere" / "citeloop")


def test_a_file_that_cannot_be_executed_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    script = tmp_path / "citeloop"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o644)
    with pytest.raises(pytest.fail.Exception):
        require_citeloop(script)
