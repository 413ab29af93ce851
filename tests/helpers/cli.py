"""The `citeloop` command under test: the script installed beside this interpreter.

Not whatever `citeloop` comes first on PATH, which may belong to another environment or
an older install. When the script is missing, a test that needs it skips with the reason
on a laptop and fails under `CI=true`, where every test must run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
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


def _never(_: str) -> bool:
    return False


def run_in_pty(
    args: list[str], cwd: Path, env: Mapping[str, str], *, interrupt_when: Callable[[str], bool] = _never
) -> tuple[int, str]:
    """Run `citeloop ARGS` on a pseudo-terminal; press Ctrl-C once `interrupt_when(output so far)`.

    The output is what the terminal received: stdout and stderr together, lines ending in CR LF.
    """
    import pty
    import select
    import time

    script = str(require_citeloop())
    pid, leader = pty.fork()  # the child's controlling terminal is the pty: Ctrl-C there is SIGINT
    if pid == 0:  # pragma: no cover - the child
        os.chdir(cwd)
        os.execve(script, [script, *args], env)
    seen, pressed, deadline = b"", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        if not pressed and interrupt_when(seen.decode("utf-8", "replace")):
            time.sleep(0.3)
            os.write(leader, b"\x03")  # Ctrl-C, as a terminal sends it: SIGINT to the foreground group
            pressed = True
    _, status = os.waitpid(pid, 0)
    os.close(leader)
    code = os.waitstatus_to_exitcode(status)
    return code, seen.decode("utf-8", "replace")
