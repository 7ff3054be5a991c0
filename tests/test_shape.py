"""The code's shape: no class in bot/ over 400 lines, no module over 800 anywhere, tests and
benchmarks included (the search's hot paths in games/search/ excepted), and no comment in bot/
naming an issue or who wrote it."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_CLASS = 400
MAX_MODULE = 800
MODULE_FOLDERS = ("bot", "cogs", "games", "tests", "bench")
HISTORY = re.compile(r"issue [0-9]|\(issue|helper", re.IGNORECASE)
ISSUE = re.compile(r"\bissues? [0-9]", re.IGNORECASE)


def class_sizes(text: str) -> list[tuple[str, int]]:
    """Each class's (name, lines) in a module's text."""
    return [
        (node.name, (node.end_lineno or node.lineno) - node.lineno + 1)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.ClassDef)
    ]


def too_big(path: Path, *, classes: bool) -> list[str]:
    """The module's size if it is over the limit, and (with ``classes``: the module is parsed
    only then) each class's over its own."""
    text = path.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    out = [f"{name}: {lines} lines"] if lines > MAX_MODULE else []
    if classes:
        out += [f"{name}: class {cls} {n} lines" for cls, n in class_sizes(text) if n > MAX_CLASS]
    return out


def test_no_big_class_or_module_in_bot() -> None:
    files = sorted((ROOT / "bot").rglob("*.py"))
    assert files, "bot/ was found"
    assert [line for path in files for line in too_big(path, classes=True)] == []


def test_no_big_module_outside_the_search() -> None:
    files = [
        path
        for folder in MODULE_FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not path.relative_to(ROOT).as_posix().startswith("games/search/")
    ]
    assert {path.relative_to(ROOT).parts[0] for path in files} == set(MODULE_FOLDERS)
    assert [line for path in files for line in too_big(path, classes=False)] == []


def test_the_check_sees_a_big_class_and_module(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_MODULE))
    big.write_text(f"class Big:\n{body}\n", encoding="utf-8")
    assert too_big(big, classes=True) == [
        f"big.py: {MAX_MODULE + 1} lines",
        f"big.py: class Big {MAX_MODULE + 1} lines",
    ]


def test_no_comment_in_bot_names_an_issue_or_a_helper() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if HISTORY.search(line)
    ]
    assert found == []


def test_mypy_checks_every_source_folder() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert sorted(config["tool"]["mypy"]["files"]) == ["bench", "bot", "cogs", "games"]


def test_no_migration_or_setting_names_an_issue() -> None:
    paths = [*sorted((ROOT / "data" / "migrations").glob("*.sql")), ROOT / "pyproject.toml"]
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ISSUE.search(line)
    ]
    assert found == []
