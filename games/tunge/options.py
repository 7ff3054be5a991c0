"""Tunge's options, the rules summary shown at a table, and :class:`Rules`: the options as the
engine reads them (decided once per game, so the turn loop never looks a string up)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import Option, OptionError

OPTIONS: tuple[Option, ...] = (
    Option("players", 4, "Number of players (2-4).", minimum=2, maximum=4),
    Option(
        "variant",
        "standard",
        "standard, or face_up_start: the undealt cards start face up as the discard pile.",
        choices=("standard", "face_up_start"),
    ),
    Option(
        "pickup_count",
        "pairs",
        "Forced pick-up: matched pairs, or shared ranks.",
        choices=("pairs", "distinct_ranks"),
    ),
    Option("forced_pickup_ends_turn", False, "A forced pick-up ends the taker's turn."),
    Option(
        "endgame_repeat_rule",
        "exact",
        "End game: refuse plays made of exactly a part "
        "of the last sequence (exact), or containing one (contains).",
        choices=("exact", "contains"),
    ),
    Option("scoring", True, "Score the cards left in hand (lower is better)."),
    Option(
        "match_target",
        0,
        "Play deals until a total reaches this (0: one deal).",
        minimum=0,
        maximum=10_000,
    ),
    Option("turn_limit", 500, "Turns after which a deal is blocked.", minimum=1, maximum=10_000),
)

SUMMARY_TEXT = (
    "Shed all your cards. On your turn play a sequence, or draw one card.\n"
    "A sequence is a run (any suits, 2-K, no wrap) or a group of one rank; aces go in front, "
    "and after an ace a single card is allowed.\n"
    "Every rank your play shares with the last sequence makes the next player pick up a card.\n"
    "When the stock is empty you draw from the discard pile, and may not replay the last "
    "sequence.\n"
    "Out first wins; the others score their cards (courts 10, aces 11); lower is better."
)


def checked_options(values: dict[str, Any]) -> dict[str, Any]:
    """Options valid one by one, checked together: a match target needs scoring."""
    if values["match_target"] and not values["scoring"]:
        raise OptionError("option match_target needs scoring to be on")
    return values


@dataclass(frozen=True, slots=True)
class Rules:
    """The options as the engine reads them, decided once per game."""

    players: int
    face_up: bool
    distinct: bool
    ends_turn: bool
    contains: bool
    scoring: bool
    match_target: int
    turn_limit: int

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Rules:
        return cls(
            players=int(options["players"]),
            face_up=options["variant"] == "face_up_start",
            distinct=options["pickup_count"] == "distinct_ranks",
            ends_turn=bool(options["forced_pickup_ends_turn"]),
            contains=options["endgame_repeat_rule"] == "contains",
            scoring=bool(options["scoring"]),
            match_target=int(options["match_target"]),
            turn_limit=int(options["turn_limit"]),
        )
