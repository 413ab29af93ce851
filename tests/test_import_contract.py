"""The import contract, read off the syntax tree of every module of the four packages.

(a) Imports point down only: `events` imports nothing of ours; `tools` and `policies`
    import only `events`; `runtime` may import all three.
(b) No package imports another package's private module or name (a dotted path with a
    component starting with `_`): across packages only the public surface counts.
    `citeloop.events.testing` is public; `citeloop.events._sqlite` is not.

Every import is resolved: `import a.b`, `from a import b`, relative imports (`from . import
x`, `from ..events import y`), imports inside functions and under `if TYPE_CHECKING:`,
and `importlib.import_module("...")` with a literal name.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("events", "tools", "policies", "runtime")
MAY_IMPORT: dict[str, frozenset[str]] = {
    "events": frozenset(),
    "tools": frozenset({"events"}),
    "policies": frozenset({"events"}),
    "runtime": frozenset({"events", "tools", "policies"}),
}

# Known imports of another package's private module, each naming the file that makes it.
# The list may only shrink: an entry that matches no import fails the test, so whoever
# removes the import removes the entry too. Do not add to it; export the name instead.
KNOWN_PRIVATE: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Violation:
    path: str  # relative to the root, with forward slashes
    line: int
    target: str
    problem: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: imports {self.target}: {self.problem}"


def module_name(root: Path, path: Path) -> str:
    """`runtime/cli/_ask.py` -> `citeloop.runtime.cli._ask`; a package's `__init__.py` is the package."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("citeloop", *parts))


def package_modules(root: Path) -> dict[str, Path]:
    """Every module of the four packages under `root`, by dotted name."""
    return {
        module_name(root, path): path
        for layer in LAYERS
        if (root / layer).is_dir()
        for path in sorted((root / layer).rglob("*.py"))
    }


def _is_private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def imported_names(source: str, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, dotted target) for every import in `source`, relative ones resolved against `module`.

    `from a import b` yields `a.b`: b may be a submodule or a name, and either way the
    path says which package it comes from and whether it is private.
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level > len(package):  # beyond the top of citeloop: reported as written
                yield node.lineno, "." * node.level + (node.module or node.names[0].name)
                continue
            if node.level:
                base = package[: len(package) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                yield node.lineno, origin if alias.name == "*" else f"{origin}.{alias.name}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and not node.args[0].value.startswith(".")
        ):
            yield node.lineno, node.args[0].value


def check(
    module: str, imports: Iterator[tuple[int, str]], path: str, modules: set[str]
) -> Iterator[Violation]:
    """The violations among one module's imports."""
    layer = module.split(".")[1]
    for line, target in imports:
        parts = target.split(".")
        if target.startswith("."):
            yield Violation(path, line, target, "a relative import beyond the top of citeloop")
            continue
        if parts[0] in LAYERS:
            yield Violation(path, line, target, "a bare top-level module: import it as citeloop." + target)
            continue
        if parts[0] != "citeloop" or len(parts) < 2:
            continue
        other = parts[1]
        if other not in LAYERS:
            yield Violation(path, line, target, "not one of the four packages")
            continue
        if other == layer:
            continue
        if other not in MAY_IMPORT[layer]:
            yield Violation(path, line, target, f"an upward import ({layer} may import {_allowed(layer)})")
        private = [i for i, part in enumerate(parts[2:], 2) if _is_private(part)]
        if private:
            first = ".".join(parts[: private[0] + 1])
            kind = "module" if first in modules else "name"
            yield Violation(path, line, target, f"the private {kind} {first} of another package")


def _allowed(layer: str) -> str:
    names = sorted(MAY_IMPORT[layer])
    return ", ".join(names) if names else "nothing of ours"


def check_tree(root: Path) -> list[Violation]:
    """Every violation in the four packages under `root`, in file and line order."""
    modules = package_modules(root)
    found: list[Violation] = []
    for module, path in modules.items():
        relative = path.relative_to(root).as_posix()
        source = path.read_text(encoding="utf-8")
        imports = imported_names(source, module, path.name == "__init__.py")
        found.extend(check(module, imports, relative, set(modules)))
    return sorted(found, key=lambda v: (v.path, v.line, v.target))


# -- the repository ----------------------------------------------------------------------


def test_the_paths_the_checker_assumes_are_the_installed_packages() -> None:
    """Module names are derived from paths; that holds only while each directory is its package."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    for package in setuptools["packages"]:
        assert setuptools["package-dir"][package] == package.removeprefix("citeloop.").replace(".", "/")
    found = {
        name if path.name == "__init__.py" else name.rpartition(".")[0]
        for name, path in package_modules(ROOT).items()
    }
    assert found <= set(setuptools["packages"]), "a folder of modules that is not an installed package"


def test_no_upward_import_and_no_private_module_across_packages() -> None:
    found = check_tree(ROOT)
    known = [v for v in found if (v.path, v.target) in KNOWN_PRIVATE and "private" in v.problem]
    unknown = [v for v in found if v not in known]
    assert not unknown, "import contract broken:\n" + "\n".join(map(str, unknown))
    stale = set(KNOWN_PRIVATE) - {(v.path, v.target) for v in known}
    assert not stale, f"fixed, so remove from KNOWN_PRIVATE: {sorted(stale)}"


# -- the checker itself, on planted violations -------------------------------------------


def _plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


PLANTED = {
    "events/__init__.py": "from ._store import EventStore as EventStore\n",
    "events/_store.py": (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from citeloop.runtime import Runtime\n"  # 3: upward, type-only
    ),
    "events/_sqlite.py": "",
    "events/testing.py": "",
    "tools/__init__.py": (
        "from citeloop.events import EventStore\n"  # fine
        "from citeloop.events.testing import run\n"  # fine: testing is public
        "def f():\n"
        "    import citeloop.policies\n"  # 4: sideways, inside a function
    ),
    "policies/_p.py": "from ..events import _sqlite\n",  # 1: private module, relative
    "runtime/__init__.py": (
        "from citeloop.events._sqlite import SQLiteStore\n"  # 1: private module
        "from citeloop.events import _redact\n"  # 2: private name
        "from . import _fold\n"  # fine: own package
        "import importlib\n"
        "importlib.import_module('citeloop.tools._corpus')\n"  # 5: private, dynamic
    ),
    "runtime/_fold.py": "",
    "runtime/cli/__init__.py": (
        "from ...events import _sqlite\n"  # 1: private, relative from a subpackage
        "from .. import _fold\n"  # fine
        "import events\n"  # 3: bare top-level module
        "from .... import x\n"  # 4: beyond the top
    ),
}


def test_the_checker_reports_every_planted_violation_with_file_and_line(tmp_path: Path) -> None:
    _plant(tmp_path, PLANTED)
    found = [str(v) for v in check_tree(tmp_path)]
    assert found == [
        "events/_store.py:3: imports citeloop.runtime.Runtime: an upward import (events may import "
        "nothing of ours)",
        "policies/_p.py:1: imports citeloop.events._sqlite: the private module citeloop.events._sqlite "
        "of another package",
        "runtime/__init__.py:1: imports citeloop.events._sqlite.SQLiteStore: the private module "
        "citeloop.events._sqlite of another package",
        "runtime/__init__.py:2: imports citeloop.events._redact: the private name citeloop.events._redact "
        "of another package",
        "runtime/__init__.py:5: imports citeloop.tools._corpus: the private name citeloop.tools._corpus "
        "of another package",
        "runtime/cli/__init__.py:1: imports citeloop.events._sqlite: the private module "
        "citeloop.events._sqlite of another package",
        "runtime/cli/__init__.py:3: imports events: a bare top-level module: import it as citeloop.events",
        "runtime/cli/__init__.py:4: imports ....x: a relative import beyond the top of citeloop",
        "tools/__init__.py:4: imports citeloop.policies: an upward import (tools may import events)",
    ]


def test_the_checker_passes_a_clean_tree(tmp_path: Path) -> None:
    clean = {k: v for k, v in PLANTED.items() if k in ("events/__init__.py", "events/testing.py")}
    clean["runtime/_x.py"] = (
        "from citeloop.events import EventStore\nfrom citeloop.events.testing import run\n"
    )
    _plant(tmp_path, clean)
    assert check_tree(tmp_path) == []


@pytest.mark.parametrize(
    ("module", "is_package", "statement", "target"),
    [
        ("citeloop.runtime._driver", False, "from . import _fold", "citeloop.runtime._fold"),
        ("citeloop.runtime._driver", False, "from ._fold import fold", "citeloop.runtime._fold.fold"),
        ("citeloop.runtime", True, "from ._fold import fold", "citeloop.runtime._fold.fold"),
        ("citeloop.runtime.cli._ask", False, "from .. import Runtime", "citeloop.runtime.Runtime"),
        ("citeloop.runtime.cli", True, "from ...events import Answered", "citeloop.events.Answered"),
        ("citeloop.tools._corpus", False, "import citeloop.events as ev", "citeloop.events"),
        ("citeloop.tools._corpus", False, "from citeloop.events import *", "citeloop.events"),
    ],
)
def test_relative_imports_resolve_like_python(
    module: str, is_package: bool, statement: str, target: str
) -> None:
    assert [t for _, t in imported_names(statement, module, is_package)] == [target]
