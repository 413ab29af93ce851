"""The public surface is what `__all__` claims, and nothing leaks into the top-level namespace."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest

PACKAGES = (
    "citeloop.events",
    "citeloop.tools",
    "citeloop.policies",
    "citeloop.runtime",
    "citeloop.runtime.eval",
)


@pytest.mark.parametrize("name", PACKAGES)
def test_all_names_exist_and_are_sorted_tuples(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert isinstance(exported, tuple)
    assert len(set(exported)) == len(exported)
    for attribute in exported:
        assert hasattr(module, attribute), f"{name}.{attribute} is in __all__ but missing"
    public = {a for a in vars(module) if not a.startswith("_")}
    submodules = {a for a in public if type(getattr(module, a)).__name__ == "module"}
    assert public - submodules <= set(exported), f"{name} exposes names not in __all__"


def test_documented_runtime_names_are_exported() -> None:
    """Every name the README imports from a package is in that package's `__all__`."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    imports = re.findall(r"^from (citeloop\.[\w.]+) import ([\w, ]+)$", readme, re.MULTILINE)
    assert imports
    for package, names in imports:
        exported = importlib.import_module(package).__all__
        for name in (n.strip() for n in names.split(",")):
            assert name in exported, f"the README imports {package}.{name}, which is not exported"


def test_evaluation_lives_in_its_own_package() -> None:
    """Evaluation is not part of what an embedding application imports from citeloop.runtime."""
    runtime = importlib.import_module("citeloop.runtime")
    evaluation = importlib.import_module("citeloop.runtime.eval")
    moved = ("DatasetError", "EvalReport", "evaluate", "load_dataset", "run_evaluation", "stderr_progress")
    for name in moved:
        assert name in evaluation.__all__
        assert name not in runtime.__all__


@pytest.mark.parametrize("bare", ["events", "tools", "policies", "runtime"])
def test_no_bare_top_level_module(bare: str, tmp_path: object) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-c", f"import {bare}"],
        cwd=str(tmp_path),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "ModuleNotFoundError" in result.stderr

