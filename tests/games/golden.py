"""Golden transcripts: each ``transcripts/<game>/<example>.json`` holds a contract example.

A file is ``{"description": ..., "transcript": {...}, "expected": {...}}``. ``expected`` is
compared with the replay output as a subset: every key it names must match (recursively; lists
must have the same length and match item by item), keys it leaves out are not checked. That lets
an example pin exactly the figures its contract states.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TRANSCRIPTS = Path(__file__).parent / "transcripts"


def golden_files() -> list[Path]:
    return sorted(TRANSCRIPTS.glob("*/*.json"))


def load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def mismatches(expected: Any, actual: Any, where: str = "$") -> list[str]:
    """Every place where ``actual`` differs from the subset ``expected``."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        found: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                found.append(f"{where}.{key}: missing")
            else:
                found.extend(mismatches(value, actual[key], f"{where}.{key}"))
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {expected!r}, got {actual!r}"]
        return [
            m
            for i, (e, a) in enumerate(zip(expected, actual, strict=True))
            for m in mismatches(e, a, f"{where}[{i}]")
        ]
    if expected != actual:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []
