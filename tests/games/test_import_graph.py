"""The modules of ``games/`` import one another without a cycle.

Every import counts: top-level, inside a function, and under ``TYPE_CHECKING`` (an annotation
that needs a module above is a layering mistake too). A cycle held together by a function-level
import works until someone moves the import; this test names the cycle instead.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules(package: Path) -> dict[str, Path]:
    """Dotted name → file, for every module of the package folder (``__init__`` is the package)."""
    found: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The modules of ``known`` that ``path`` imports, anywhere in the file (relative imports
    resolved): ``from package import submodule`` imports the submodule, ``from module import
    name`` the module."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    yield f"{base}.{alias.name}"
                elif base in known:
                    yield base


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module → the package's modules it imports (the rest of the world is left out)."""
    known = modules(package)
    return {name: set(imported(name, path, set(known))) - {name} for name, path in known.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order), or ``None``."""
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as error:
        found: list[str] = error.args[1]
        return found
    return None


def test_the_games_package_imports_without_a_cycle() -> None:
    graph = import_graph(ROOT / "games")
    assert "games.base" in graph and graph["games.tarneeb"], "the graph was read"
    assert cycle(graph) is None


def test_the_check_sees_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("from pkg.sub import b\n", encoding="utf-8")
    (package / "sub" / "b.py").write_text(
        "def f():\n    from ..a import x\n    return x\n", encoding="utf-8"
    )
    assert sorted(set(cycle(import_graph(package)) or ())) == ["pkg.a", "pkg.sub.b"]


def test_the_check_sees_a_cycle_through_an_annotation(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("import pkg.b\n", encoding="utf-8")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n",
        encoding="utf-8",
    )
    assert sorted(set(cycle(import_graph(package)) or ())) == ["pkg.a", "pkg.b"]
