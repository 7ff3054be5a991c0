"""The fast path of a Tarneeb hand's card play: the normal player's cards, without the engine.

Once the trump is known, the rest of a Tarneeb (or Egyptian Tarneeb) hand is only cards: the
playouts finish it here, on plain lists (each hand in the engine's own order, so the normal
player breaks its ties alike), with no checks, events or records, and score it with the engine's
own :func:`games.tarneeb.hand_points`. ``tests/games/test_search_finish.py`` plays many hands
out both ways and finds the same points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.players.tarneeb import RANK_VALUE, choose_play
from games.tarneeb import hand_points
from games.tricks import play_moves, trick_winner


def can_finish(world: Any) -> bool:
    """Whether :func:`finish` takes over: a Tarneeb hand in its card play, trump known."""
    return (
        world.name in ("tarneeb", "tarneeb_egyptian")
        and world.phase == "play"
        and world.trump is not None
    )


def finish(world: Any) -> tuple[Mapping[str, Any], int]:
    """Play the hand out with the normal player at every seat: the ``hand_scored`` result's
    ``points`` (per team) and the number of cards played. ``world`` is left as it was."""
    hands = [list(hand) for hand in world.hands]
    trick = list(world.trick)
    played = set(world.played)
    trump = world.trump
    won = list(world.team_tricks)
    turn = world.turn
    plays = 0
    tricks = len(world.tricks)
    while tricks < 13:
        hand = hands[turn]
        legal = play_moves(hand, trick)
        if len(legal) == 1:
            card = legal[0].fields[0][1]
        else:
            light = {"hand": hand, "played": played, "trick": trick, "trump": trump}
            card = choose_play(turn, light, legal).fields[0][1]
        assert isinstance(card, str)
        hand.remove(card)
        played.add(card)
        trick.append((turn, card))
        plays += 1
        if len(trick) < 4:
            turn = (turn + 1) % 4
            continue
        turn = trick_winner(trick, trump, RANK_VALUE)
        won[turn % 2] += 1
        tricks += 1
        trick = []
    return {"points": points(world, won)}, plays


def points(world: Any, won: list[int]) -> list[int]:
    """The hand's points per team, as the engine scores them (``_score_hand``)."""
    declaring = world.declarer % 2
    if world.egyptian:
        kaboot = bool(world.options["kaboot_scoring"])
        always = False
    else:
        kaboot = world.options["scoring"] == "kaboot"
        always = bool(world.options["defenders_always_score"])
    mine, theirs, _made = hand_points(
        world.contract,
        won[declaring],
        kaboot=kaboot,
        defenders_always=always,
        multiplier=2 if world.doubled else 1,
    )
    result = [0, 0]
    result[declaring] = mine
    result[1 - declaring] = theirs
    return result
