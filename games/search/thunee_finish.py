"""The rest of an ordinary Thunee hand played by the normal player, without the engine.

Once the first card of an ordinary contract has turned the trump card up, a Thunee hand is only
cards, Jodhi claims and the last trick's Double or Khanaak: the playouts of the hard player
finish it here, on :class:`~games.search.thunee_fast.ThuneePlay` (its rules: follow suit, no
undercut, trick winners and points) and on plain lists in the engine's hand order (so the normal
player, :func:`games.players.thunee.card_for`, breaks its ties alike), with no checks, events,
views or records, and score it as the engine's ``_score_normal`` does.

One simplification: Jodhi claims. In the engine a window opens for the team that won the trick
and its seats may claim until a few cards of the next trick are down, in whatever order the
table acts; the normal player claims every valid Jodhi it is offered. Here each seat of the team
claims all its valid Jodhi at once when the window opens. Without Jodhi the finish plays and
scores exactly as the engine with the normal player at every seat
(``tests/games/test_search_thunee_finish.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.players.thunee import DECK, card_for, strength_for, winner_of
from games.search.thunee_fast import INDEX, NAMES, fast_world, from_world

SUITS = "SHDC"


def can_finish(world: Any) -> bool:
    """Whether :func:`finish` takes over (see :func:`games.search.thunee_fast.fast_world`)."""
    return fast_world(world)


class _Finish:
    """One playout's working state beside the fast position: claims and declarations."""

    def __init__(self, world: Any, points: list[int]) -> None:
        self.world = world
        self.points = points  # the fast position's, updated as it plays
        self.options = world.options
        self.trump: str = world.trump
        self.hands: list[list[str]] = [list(hand) for hand in world.hands]
        self.played: set[str] = {
            card for record in world.records[-1].tricks for card in record.cards
        }
        self.played.update(card for _, card in world.trick)
        self.jodhi = list(world.jodhi_tot)
        self.claimed: set[tuple[int, str]] = set(world.claimed)
        self.claimers = [
            any(claim.seat % 2 == team and not claim.cancelled for claim in world.claims)
            for team in (0, 1)
        ]
        self.team_won = list(world.team_won)
        self.received: int = world.received
        self.declaration: str | None = world.declaration
        self.declarer: int | None = world.declarer

    def claim(self, team: int) -> None:
        """Every seat of ``team`` claims each valid Jodhi it has not claimed yet."""
        world = self.world
        dealt = self.options["jodhi_cards"] == "dealt"
        for seat in range(team, world.players, 2):
            cards = world.cur.hands[seat][: self.received] if dealt else self.hands[seat]
            for suit in SUITS:
                if (seat, suit) in self.claimed or "K" + suit not in cards:
                    continue
                if "Q" + suit not in cards:
                    continue
                value = 40 if suit == self.trump else 20
                if "J" + suit in cards:
                    value += 10
                self.claimed.add((seat, suit))
                self.jodhi[team] += value
                self.claimers[team] = True

    def sure_winner(self, seat: int, trick: list[tuple[int, str]], card: str) -> bool:
        """``games.players.thunee._sure_winner`` from the seat's knowledge (played and own)."""
        strength = strength_for("normal")
        if trick and winner_of([*trick, (seat, card)], self.trump, "normal") != seat:
            return False
        led = trick[0][1][1] if trick else card[1]
        if card[1] != led and card[1] != self.trump:
            return False
        known = self.played | set(self.hands[seat])
        for other in DECK:
            if other in known:
                continue
            if other[1] == card[1] and strength[other] > strength[card]:
                return False
            if card[1] != self.trump and other[1] == self.trump:
                return False
        return True

    def declare(self, seat: int, trick: list[tuple[int, str]], winners: list[int]) -> None:
        """The normal player's Double or Khanaak before its last card, where the rules allow."""
        world = self.world
        options = self.options
        team = seat % 2
        double = (
            bool(options["double"])
            and all(winner % 2 == team for winner in winners)
            and not world._corner_blocks_double(team)
        )
        khanaak = (
            bool(options["khanaak"])
            and self.claimers[team]
            and not (
                options["khanaak_requires_lost_trick"]
                and all(winner % 2 == team for winner in winners)
            )
        )
        if not (double or khanaak) or not self.sure_winner(seat, trick, self.hands[seat][0]):
            return
        if khanaak:
            other = (team + 1) % 2
            against = self.points[other]
            if options["khanaak_formula"] == "strict":
                against += self.jodhi[other]
            if self.jodhi[team] + 10 > against:
                self.declaration, self.declarer = "khanaak", seat
                return
        if double:
            self.declaration, self.declarer = "double", seat


def finish(world: Any) -> tuple[Mapping[str, Any], int]:
    """Play the hand out with the normal player at every seat: the ``hand_scored`` result's
    ``balls`` and ``points`` (plus its kind) and the number of cards played. ``world`` is left
    as it was."""
    state = from_world(world)
    assert state is not None, "finish() outside an ordinary contract's card play"
    work = _Finish(world, state.points)
    options = work.options
    players = world.players
    total = world.total_tricks
    hands = work.hands
    trump = work.trump
    plays = 0
    if world.jodhi_team is not None:
        work.claim(world.jodhi_team)
    while state.tricks_done < total:
        seat = state.turn
        legal = state.legal()
        hand = hands[seat]
        cards = [card for card in hand if legal >> INDEX[card] & 1]
        trick = [(who, NAMES[card]) for who, card in state.trick]
        if (
            state.tricks_done == total - 1
            and players != 2
            and work.declaration is None
            and len(cards) == 1
        ):
            work.declare(seat, trick, state.winners)
        if len(cards) == 1:
            card = cards[0]
        else:
            card, _ = card_for(
                seat,
                hand,
                trick,
                cards,
                trump=trump,
                contract="normal",
                caller=None,
                played=work.played,
                players=players,
            )
        hand.remove(card)
        work.played.add(card)
        plays += 1
        winner = state.play(INDEX[card])
        if winner is None:
            continue
        done = state.tricks_done
        team = winner % 2
        work.team_won[team] += 1
        if done == total:
            break
        if players == 2 and done == 6:
            for other in (0, 1):
                hands[other].extend(world.cur.hands[other][6:12])
            work.received = 12
            work.team_won = [0, 0]
            counting = (world.trumper + 1) % 2
            if options["no_trump_annul"] and not any(
                card[1] == trump for card in world.cur.hands[counting]
            ):
                return {"kind": "annulled", "balls": [0, 0], "points": list(state.points)}, plays
            continue
        half = done if done <= 6 or players != 2 else done - 6
        if options["jodhi"] and half < world.half_tricks:
            timing = options["jodhi_timing"]
            if timing == "team_first_or_third":
                opens = work.team_won[team] in (1, 3)
            elif timing == "hand_tricks_1_and_3":
                opens = half in (1, 3)
            else:
                opens = True
            if opens:
                work.claim(team)
    return score(world, work, state.winners, state.points), plays


def score(world: Any, work: _Finish, winners: list[int], points: list[int]) -> dict[str, Any]:
    """The engine's ``_score_normal``: the balls per team (and the card points) of the hand."""
    options = work.options
    counting = (world.trumper + 1) % 2
    trumping = world.trumper % 2
    last = winners[-1]
    transfer = options["last_trick"] == "transfer"
    bonus = 10 if last % 2 == counting else (-10 if transfer else 0)
    jodhi = work.jodhi
    total = points[counting] + bonus + world.call + jodhi[counting] - jodhi[trumping]
    balls = [0, 0]
    result: dict[str, Any] = {"kind": work.declaration or "normal", "points": list(points)}
    declarer = work.declarer
    if work.declaration is not None and declarer is not None:
        team = declarer % 2
        other = (team + 1) % 2
        backside = team == counting and (world.call > 0 or not options["backside_requires_call"])
        if work.declaration == "double":
            won = last == declarer if options["double_winner"] == "declarer" else last % 2 == team
            if won:
                balls[team] = 4 if backside else 2
            else:
                balls[other] = 4
        else:
            won = last % 2 == team if options["khanaak_winner"] == "team" else last == declarer
            against = points[other] + (
                jodhi[other] if options["khanaak_formula"] == "strict" else 0
            )
            if won and jodhi[team] + 10 > against:
                balls[team] = 6 if backside else 3
            else:
                balls[other] = 4
    elif total >= world.count_target:
        balls[counting] = 2 if world.call else 1
    else:
        balls[trumping] = 1
    result["balls"] = balls
    result["total"] = total
    return result
