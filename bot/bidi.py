"""Right-to-left text: keep left-to-right runs (cards, numbers, scores, names, mentions) whole.

In an Arabic sentence, ``A♠ 10♥`` or a score ``31-7`` would be reordered by the Unicode
bidirectional algorithm around the Arabic words (the run flips, a sign jumps to the other end).
Each left-to-right run is wrapped in LEFT-TO-RIGHT ISOLATE (U+2066) ... POP DIRECTIONAL
ISOLATE (U+2069): it is laid out on its own, as written, and the Arabic around it is not
disturbed. Texts in left-to-right languages are left as they are.
"""

from __future__ import annotations

import re

LRI = "\u2066"
PDI = "\u2069"

_EDGE = r"[A-Za-z0-9♠♥♦♣]"
_INNER = r"[A-Za-z0-9♠♥♦♣.,:+\-/'’]"
_WORD = rf"(?:<[@#][!&]?[0-9]+>|{_EDGE}(?:{_INNER}*{_EDGE})?)"
_RUN = re.compile(rf"{_WORD}(?:[ \u00a0]+{_WORD})*")
_ISOLATED = re.compile(f"({LRI}.*?{PDI})", re.DOTALL)


def isolate_ltr(text: str) -> str:
    """``text`` with every left-to-right run isolated (already isolated runs kept as they are)."""
    parts = _ISOLATED.split(text)
    return "".join(
        part if i % 2 else _RUN.sub(lambda match: f"{LRI}{match.group(0)}{PDI}", part)
        for i, part in enumerate(parts)
    )


def for_direction(right_to_left: bool, text: str) -> str:
    """``text`` ready for a reader of a right-to-left language, or unchanged."""
    return isolate_ltr(text) if right_to_left else text
