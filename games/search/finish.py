"""The fast path of a hand's card play: the normal player's cards, without the engine.

Once the trump is known, the rest of a Tarneeb (or Egyptian Tarneeb) hand is only cards, and so
is the rest of a Tuppi or Norwegian Whist hand once its bid cards are revealed (a sooli hand
excepted): the playouts finish it here, on plain lists (each hand in the engine's own order, so
the normal player breaks its ties alike), with no checks, events or records, and score it as the
engine does (Tarneeb with the engine's own :func:`games.tarneeb.scoring.hand_points`).
``tests/games/test_search_finish.py`` plays many hands out both ways and finds the same points.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from games.players import bidcards as bidcards_player
from games.players.tarneeb import RANK_VALUE, choose_play
from games.search import thunee_finish
from games.tarneeb.scoring import hand_points
from games.tricks import play_moves, trick_winner

if TYPE_CHECKING:
    from games.views import BidCardsView, TarneebView


def can_finish(world: Any) -> bool:
    """Whether :func:`finish` takes over: a Tarneeb hand in its card play with the trump known,
    or a Tuppi or Norwegian Whist hand in its card play that is not a sooli."""
    name = world.name
    if name in ("tarneeb", "tarneeb_egyptian"):
        return bool(world.phase == "play" and world.trump is not None)
    if name in ("tuppi", "norwegian_whist"):
        return bool(world.phase == "tricks" and getattr(world, "soloist", None) is None)
    if name == "thunee":  # an ordinary contract after its first card: its own fast finish
        return thunee_finish.can_finish(world)
    return False


def finish(world: Any) -> tuple[Mapping[str, Any], int]:
    """The rest of the hand played by the normal player at every seat: the ``hand_scored``
    result's scoring keys and the number of cards played. ``world`` is left as it was."""
    if world.name in ("tuppi", "norwegian_whist"):
        return finish_bidcards(world)
    if world.name == "thunee":
        return thunee_finish.finish(world)
    return finish_tarneeb(world)


def result_of(world: Any, won: list[int]) -> Mapping[str, Any]:
    """The ``hand_scored`` result's scoring keys of ``world``'s hand (its card play, a sooli
    hand excepted) ended with ``won`` tricks per team: how an exact solver's trick count is
    turned into the hand's score (Tuppi's ``stop_when_decided`` aside: it counts the tricks
    when the hand stops, the solver all 13)."""
    if world.name == "tuppi":
        return _tuppi_result(world, won)
    if world.name == "norwegian_whist":
        return _whist_result(world, won)
    return {"points": points(world, won)}


def finish_tarneeb(world: Any) -> tuple[Mapping[str, Any], int]:
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
            light = SimpleNamespace(hand=hand, played=played, trick=trick, trump=trump)
            card = choose_play(turn, cast("TarneebView", light), legal).fields[0][1]
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


def finish_bidcards(world: Any) -> tuple[Mapping[str, Any], int]:
    """Tuppi (not sooli) and Norwegian Whist: no trump, four seats, the normal player's cards."""
    name = world.name
    hands = [list(hand) for hand in world.hands]
    trick = list(world.trick)
    order = list(world.order)
    won = list(world.won)
    strength = world.strength
    light = SimpleNamespace(game=name, hand_type=world.hand_type, sitting_out=None, trick=trick)
    stop = name == "tuppi" and bool(world.options["stop_when_decided"])
    tricks = len(world.records[-1].tricks)
    plays = 0
    while tricks < 13:
        turn = order[len(trick)]
        legal = play_moves(hands[turn], trick)
        if len(legal) == 1:
            card = legal[0].fields[0][1]
        else:
            light.trick = trick
            card = bidcards_player.choose_play(turn, cast("BidCardsView", light), legal).fields[0][
                1
            ]
        assert isinstance(card, str)
        hands[turn].remove(card)
        trick.append((turn, card))
        plays += 1
        if len(trick) < 4:
            continue
        winner = trick_winner(trick, None, strength)
        won[winner % 2] += 1
        tricks += 1
        trick = []
        order = [winner, (winner + 1) % 4, (winner + 2) % 4, (winner + 3) % 4]
        if stop and max(won) >= 7:
            scorer = _tuppi_scorer(world, won)
            if world.score[scorer] == 0 and world.score[1 - scorer] > 0:
                break
    if name == "tuppi":
        return _tuppi_result(world, won), plays
    return _whist_result(world, won), plays


def _tuppi_scorer(world: Any, won: list[int]) -> int:
    if world.hand_type == "rami":
        side = int(world.declarer) % 2
        return side if won[side] >= 7 else (side + 1) % 2
    return 0 if won[0] < won[1] else 1


def _tuppi_result(world: Any, won: list[int]) -> Mapping[str, Any]:
    team = _tuppi_scorer(world, won)
    if world.hand_type == "rami":
        factor = (
            4 if team == int(world.declarer) % 2 else int(world.options["rami_defender_points"])
        )
        points = factor * (won[team] - 6)
    else:
        points = int(world.options["nolo_points"]) * (7 - won[team])
    return {"scoring_team": team, "points": points}


def _whist_result(world: Any, won: list[int]) -> Mapping[str, Any]:
    major = 0 if won[0] > won[1] else 1
    over = won[major] - 6
    grand_team = None if world.declarer is None else world.declarer % 2
    if world.options["scoring"] == "pagat":
        team, change = major, over if world.hand_type == "grand" else -over
    elif world.hand_type == "grand":
        team, change = major, over if major == grand_team else 2 * over
    else:
        team = (major + 1) % 2
        change = 7 - won[team]
    changes = [0, 0]
    changes[team] = change
    return {"changes": changes}
