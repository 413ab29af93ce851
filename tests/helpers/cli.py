"""The `citeloop` command under test: the script installed beside this interpreter.

Not whatever `citeloop` comes first on PATH, which may belong to another environment or
an older install. When the script is missing, a test that needs it skips with the reason
on a laptop and fails under `CI=true`, where every test must run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / ("citeloop.exe" if sys.platform == "win32" else "citeloop")


def in_ci() -> bool:
    """Whether this is a CI run (`CI=true`), where a test that cannot run is a failure."""
    return os.environ.get("CI", "").lower() == "true"


def require_citeloop(script: Path | None = None) -> Path:
    """The `citeloop` script's path; skips the test when it is missing, or fails it under CI=true."""
    script = SCRIPT if script is None else script
    if script.is_file() and os.access(script, os.X_OK):
        return script
    reason = f"the citeloop command is not installed at {script} (pip install -e . in this environment)"
    if in_ci():
        pytest.fail(f"{reason} (CI=true: the command-line tests must run)")
    pytest.skip(reason)


def run_citeloop(
    *args: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run `citeloop ARGS...` in `cwd` and capture its output; a non-zero exit is the caller's to check."""
    return subprocess.run(
        [str(require_citeloop()), *args],
        cwd=cwd,
        env=None if env is None else dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
