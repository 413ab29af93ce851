"""What `pip install citeloop` (no extras) must bring: every library the main job imports.

The README's first command installs the package without extras and runs `citeloop ask`.
A library the package imports on that path but does not declare works on a developer's
machine as long as some other package happens to pull it in, and fails on a user's fresh
one: `sniffio` did, once anyio stopped installing it. So the main job runs here in a
child process, and each of its imports that one of our modules makes (read off the syntax
tree) must come from a distribution named in `[project] dependencies`.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("events", "tools", "policies", "runtime")

# The main job, in process: `citeloop ask` on the embedded defaults, then the modules it loaded.
ASK_AND_LIST_MODULES = """
import json, sys
from citeloop.runtime.cli import main
try:
    main(["ask", "Who founded Acme Robotics?"])
except SystemExit as done:
    if done.code not in (0, None):
        raise
print("\\n" + json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def declared_distributions() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {normalize(re.split(r"[\s<>=!~;\[]", spec, maxsplit=1)[0]) for spec in project["dependencies"]}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_top_level_names() -> set[str]:
    """Every top-level module name an import statement of ours names (absolute imports only)."""
    names: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split(".")[0])
    return names


def modules_loaded_by_ask(tmp_path: Path) -> set[str]:
    env = {**os.environ, "CITELOOP_STORE": f"sqlite:///{tmp_path / 'runs.db'}", "NO_COLOR": "1"}
    env["CITELOOP_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-c", ASK_AND_LIST_MODULES],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_main_job_imports_only_declared_libraries(tmp_path: Path) -> None:
    ours = imported_top_level_names()
    loaded = modules_loaded_by_ask(tmp_path)
    assert "citeloop" in loaded and "anyio" in loaded  # the run happened and was listed
    third_party = sorted(
        name for name in ours & loaded if name not in sys.stdlib_module_names and name != "citeloop"
    )
    owners = packages_distributions()
    declared = declared_distributions()
    undeclared = {
        name: owners.get(name, ["?"])
        for name in third_party
        if not {normalize(dist) for dist in owners.get(name, [])} & declared
    }
    assert third_party, "the main job imported no library of ours: the listing is broken"
    assert undeclared == {}, f"imported by `citeloop ask` but not in [project] dependencies: {undeclared}"
