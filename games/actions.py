"""Every game's move actions as constants: the one vocabulary of ``Move.action``.

A member equals its string (``Action.PLAY == "play"``), so moves, transcripts and stored codes keep
their plain action names; code that reads a move compares with these instead of spelling them.
"""

from __future__ import annotations

from enum import StrEnum


class Action(StrEnum):
    """The action of a move, in every game that has it."""

    # every trick game
    PLAY = "play"
    PASS = "pass"
    # Thunee
    CALL = "call"
    BLIND = "blind"
    TRUMP = "trump"
    LAST_CARD = "last_card"
    THUNEE = "thunee"
    ROYALS = "royals"
    JODHI = "jodhi"
    DOUBLE = "double"
    KHANAAK = "khanaak"
    DEMAND_REDEAL = "demand_redeal"
    DECLINE_REDEAL = "decline_redeal"
    CHALLENGE = "challenge"
    MURIAL = "murial"
    # Tarneeb and Egyptian Tarneeb (besides play, pass, trump, double)
    BID = "bid"
    # Tuppi and Norwegian Whist (besides play, pass, bid)
    EXPOSE = "expose"
    SOOLI = "sooli"
    GIVE = "give"
    RETURN = "return"
    # Tunge (besides play, pass)
    DRAW = "draw"
