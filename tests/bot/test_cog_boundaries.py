"""Cogs are Discord faces only: they reach tables through the session manager's methods."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[2] / "cogs"


def offences(path: Path) -> list[str]:
    """Imports of the store, and any use of ``.store`` or of the session manager's ``.tables``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.store"):
            found.append(f"{path.name}:{node.lineno} imports {node.module}")
        elif isinstance(node, ast.Import):
            found += [
                f"{path.name}:{node.lineno} imports {alias.name}"
                for alias in node.names
                if alias.name.startswith("bot.store")
            ]
        elif isinstance(node, ast.Attribute) and node.attr in ("store", "tables"):
            found.append(f"{path.name}:{node.lineno} touches .{node.attr}")
    return found


def test_cogs_never_touch_the_store_or_the_table_cache() -> None:
    files = sorted(COGS.glob("*.py"))
    assert files, "the cogs folder was found"
    assert [line for path in files for line in offences(path)] == []


def test_the_check_sees_an_offence(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from bot.store import Store\nx = bot.sessions.tables.get(1)\ny = bot.store\n",
        encoding="utf-8",
    )
    assert len(offences(bad)) == 3


BOT = COGS.parent / "bot"


def cog_imports(path: Path) -> list[str]:
    """Imports of ``cogs`` (top-level or inside a function): the shell sits below its faces."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and not node.level
            else []
        )
        found += [
            f"{path.name}:{node.lineno} imports {name}"
            for name in names
            if name == "cogs" or name.startswith("cogs.")
        ]
    return found


def test_the_bot_never_imports_the_cogs() -> None:
    """The cogs import the bot's session manager; the bot loads the cogs by name only."""
    files = sorted(BOT.glob("*.py"))
    assert files, "the bot folder was found"
    assert [line for path in files for line in cog_imports(path)] == []


def test_the_bot_check_sees_a_cog_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import cogs.play\nfrom cogs.render import x\ndef f():\n    from cogs import help\n",
        encoding="utf-8",
    )
    assert len(cog_imports(bad)) == 3
