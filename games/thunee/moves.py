"""Thunee's moves as constants (contract §1.24): built once, so legal-move lists are cheap.

Transcript actions: ``demand_redeal``, ``decline_redeal``, ``call`` (``value``), ``pass``,
``blind`` (``contract``: ``thunee``/``royals``), ``trump`` (``card``), ``last_card``, ``thunee``,
``royals``, ``play`` (``card``), ``jodhi`` (``suit``), ``double``, ``khanaak``, ``challenge``
(``target``) and ``murial`` (``target``, ``suit``). Automatic steps (dealing, the reveal, a pass
that is a seat's only legal action, annulments, scoring) are never moves.
"""

from __future__ import annotations

from games.base import Move
from games.thunee.deck import DECK, SUIT_ORDER

CALL_AMOUNTS = (10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 104)
PLAY = {c: Move.of("play", card=c) for c in DECK}
TRUMP = {c: Move.of("trump", card=c) for c in DECK}
CALL = {v: Move.of("call", value=v) for v in CALL_AMOUNTS}
PASS = Move.of("pass")
BLIND_THUNEE = Move.of("blind", contract="thunee")
BLIND_ROYALS = Move.of("blind", contract="royals")
LAST_CARD = Move.of("last_card")
THUNEE = Move.of("thunee")
ROYALS = Move.of("royals")
DEMAND = Move.of("demand_redeal")
DECLINE = Move.of("decline_redeal")
DOUBLE = Move.of("double")
KHANAAK = Move.of("khanaak")
JODHI = {s: Move.of("jodhi", suit=s) for s in SUIT_ORDER}
CHALLENGE = {t: Move.of("challenge", target=t) for t in range(6)}
MURIAL = {(t, s): Move.of("murial", target=t, suit=s) for t in range(6) for s in SUIT_ORDER}
KNOWN_ACTIONS = frozenset(
    {
        "demand_redeal",
        "decline_redeal",
        "call",
        "pass",
        "blind",
        "trump",
        "last_card",
        "thunee",
        "royals",
        "play",
        "jodhi",
        "double",
        "khanaak",
        "challenge",
        "murial",
    }
)
CONTRACT_NAMES = {
    "normal": "normal",
    "thunee": "Thunee",
    "royals": "Royals",
    "blind_thunee": "Blind Thunee",
    "blind_royals": "Blind Royals",
}


def _call_moves(high: int, single_step: bool) -> tuple[Move, ...]:
    if high >= 104:
        return ()
    if high == 100:
        return (CALL[104],)
    if single_step:
        return (CALL[high + 10],)
    return tuple(CALL[v] for v in range(high + 10, 101, 10))


CALL_MOVES = {
    (high, single): _call_moves(high, single)
    for high in (0, *CALL_AMOUNTS)
    for single in (False, True)
}
