"""Thunee's fast path: the card play of an ordinary hand on bitmasks, with no checks.

The hard player plays the rest of a hand thousands of times per decision; the engine checks
every move, builds events, views and records. Here a position is a few integers and lists:

- a card is ``suit * 6 + rank`` (suits ``S H D C``; ranks ``Q K T A 9 J``, low to high in an
  ordinary hand, so Royals simply reverse the comparison), a hand a 24-bit mask;
- ``trick`` lists ``(seat, card)`` of the trick in progress, ``points`` the card points per team;
- the rules it keeps: follow suit, no undercutting of a trump already in the trick unless holding
  only trumps (``undercut_restriction``), the trick's winner leads, the two-player second half.

It models ordinary contracts once the trump card is turned up (after the first card); a Thunee,
Royals or blind hand, challenge mode and the first card stay with the engine. :func:`from_world`
reads a position from an engine, and ``tests/games/test_search_thunee_fast.py`` plays many
random games move by move on both to prove they agree (the same legal cards, hands, trick, turn,
trick winners and card points after every card).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

SUITS = "SHDC"
RANKS = "QKTA9J"  # low to high in an ordinary hand
RANK_POINTS = {"Q": 2, "K": 3, "T": 10, "A": 11, "9": 20, "J": 30}
NAMES: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
INDEX: dict[str, int] = {name: index for index, name in enumerate(NAMES)}
POINTS: tuple[int, ...] = tuple(RANK_POINTS[name[0]] for name in NAMES)
SUIT_MASKS: tuple[int, ...] = tuple(0b111111 << (6 * suit) for suit in range(4))
FULL = (1 << 24) - 1


def mask_of(cards: Sequence[str]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << INDEX[card]
    return mask


def names_of(mask: int) -> list[str]:
    """The cards of ``mask`` by name, lowest index first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(NAMES[low.bit_length() - 1])
        mask ^= low
    return cards


def mask_points(mask: int) -> int:
    return sum(POINTS[index] for index in range(24) if mask >> index & 1)


class ThuneePlay:
    """A position of an ordinary hand's card play (see the module docstring)."""

    __slots__ = (
        "hands",
        "players",
        "points",
        "royal",
        "second",
        "total",
        "trick",
        "tricks_done",
        "trump",
        "turn",
        "undercut",
        "winners",
    )

    def __init__(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        trump: int,
        *,
        royal: bool = False,
        undercut: bool = True,
        points: list[int] | None = None,
        tricks_done: int = 0,
        total: int = 6,
        second: list[int] | None = None,
    ) -> None:
        self.hands = hands
        self.trick = trick
        self.turn = turn
        self.trump = trump  # a suit index, or -1 for none
        self.royal = royal
        self.undercut = undercut
        self.points = points if points is not None else [0, 0]
        self.tricks_done = tricks_done
        self.total = total
        self.second = second  # two players: the second half's cards per seat, still to come
        self.players = len(hands)
        self.winners: list[int] = []

    def copy(self) -> ThuneePlay:
        other = ThuneePlay.__new__(ThuneePlay)
        other.hands = self.hands.copy()
        other.trick = self.trick.copy()
        other.turn = self.turn
        other.trump = self.trump
        other.royal = self.royal
        other.undercut = self.undercut
        other.points = self.points.copy()
        other.tricks_done = self.tricks_done
        other.total = self.total
        other.second = self.second
        other.players = self.players
        other.winners = self.winners.copy()
        return other

    @property
    def over(self) -> bool:
        return self.tricks_done >= self.total

    def legal(self) -> int:
        """The mask of the cards the seat to play may play."""
        hand = self.hands[self.turn]
        trick = self.trick
        if not trick:
            return hand
        led = trick[0][1] // 6
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow
        trump = self.trump
        if trump < 0 or led == trump or not self.undercut:
            return hand
        trumps = hand & SUIT_MASKS[trump]
        if not trumps or trumps == hand:
            return hand
        best = -1
        for _, card in trick:
            if card // 6 == trump:
                rank = card % 6
                if best < 0 or (rank < best if self.royal else rank > best):
                    best = rank
        if best < 0:
            return hand
        base = 6 * trump
        # the trumps that beat ``best``: the ranks below it in Royals, above it otherwise
        higher = (
            ((1 << best) - 1) << base
            if self.royal
            else (0b111111 >> (best + 1)) << (base + best + 1)
        )
        return (hand & ~SUIT_MASKS[trump]) | (trumps & higher)

    def winner(self) -> int:
        """The seat winning the trick in progress so far."""
        trick = self.trick
        best_seat, best = trick[0]
        trump = self.trump
        royal = self.royal
        for seat, card in trick[1:]:
            if card // 6 == best // 6:
                if (card < best) if royal else (card > best):
                    best_seat, best = seat, card
            elif card // 6 == trump:
                best_seat, best = seat, card
        return best_seat

    def play(self, card: int) -> int | None:
        """Play ``card`` for the seat to play (unchecked); the trick's winner when it completes."""
        seat = self.turn
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append((seat, card))
        if len(trick) < self.players:
            self.turn = (seat + 1) % self.players
            return None
        winner = self.winner()
        self.points[winner % 2] += sum(POINTS[played] for _, played in trick)
        self.winners.append(winner)
        self.tricks_done += 1
        self.trick = []
        self.turn = winner
        if self.second is not None and self.tricks_done == 6:
            self.hands = [hand | extra for hand, extra in zip(self.hands, self.second, strict=True)]
            self.second = None
        return winner


def random_playout(state: ThuneePlay, rng: random.Random) -> int:
    """Play random legal cards to the end of the hand; the number of cards played."""
    plays = 0
    getrandbits = rng.getrandbits
    while state.tricks_done < state.total:
        legal = state.legal()
        count = legal.bit_count()
        pick = getrandbits(8) % count if count > 1 else 0
        while pick:  # drop the lowest ``pick`` cards
            legal &= legal - 1
            pick -= 1
        state.play((legal & -legal).bit_length() - 1)
        plays += 1
    return plays


def fast_world(world: Any) -> bool:
    """Whether :func:`from_world` models ``world`` now: Thunee's card play of an ordinary
    contract after its first card (the trump turned up), outside challenge mode."""
    return bool(
        world.name == "thunee"
        and world.phase == "play"
        and world.contract == "normal"
        and not world.trump_down
        and world.trump is not None
        and not world._challenge
        and (world.trick or world.tricks_done)
    )


def from_world(world: Any) -> ThuneePlay | None:
    """The card play of an engine's position (see :func:`fast_world`), else ``None``."""
    if not fast_world(world):
        return None
    second = None
    if world.players == 2 and world.tricks_done < 6:
        second = [mask_of(world.cur.hands[seat][6:12]) for seat in range(2)]
    state = ThuneePlay(
        [mask_of(hand) for hand in world.hands],
        [(seat, INDEX[card]) for seat, card in world.trick],
        world.turn,
        SUITS.index(world.trump),
        royal=False,
        undercut=bool(world._undercut),
        points=list(world.points),
        tricks_done=world.tricks_done,
        total=world.total_tricks,
        second=second,
    )
    state.winners = list(world.winners)
    return state


def as_cards(state: ThuneePlay) -> Mapping[str, Any]:
    """The position in the engine's terms (for comparisons)."""
    return {
        "hands": [sorted(names_of(hand)) for hand in state.hands],
        "trick": [(seat, NAMES[card]) for seat, card in state.trick],
        "turn": state.turn,
        "points": list(state.points),
        "winners": list(state.winners),
        "tricks_done": state.tricks_done,
    }
