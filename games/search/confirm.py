"""Double-dummy verdicts on a card: does it lose tricks or points against another, on average?

A shape of :mod:`games.players.blunders` is a suspicion; this module settles it from the seat's
knowledge alone. It samples worlds consistent with what the seat has seen
(:mod:`games.search.worlds`), plays each card in each world, and values the rest of the hand:

- the normal player at every seat until at most :data:`EXACT_CARDS` cards are left on the
  table's hands (the same random source for both cards, so the pair differs only by the card),
  then the exact value with every hand open: the tricks of the seat's side
  (:func:`games.search.tricks.best_tricks`; where tricks count against the seat, the fewest
  it can be held to, negated), or in
  Thunee the side's card points with 10 for the last trick (:func:`best_points`);
- where no exact solver models the hand (a sooli hand), the hand's score by a normal playout.

The card is a mistake when the other card gains more than :data:`SIGNIFICANCE` standard errors
of the paired differences on average (:class:`Verdict`). Near the end (the next-to-last trick)
every card is left to the solver at once, so the verdict is double-dummy throughout.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.base import Move
from games.players import Seen
from games.search import thunee_fast, tricks
from games.search.inference import bidding
from games.search.playout import normal_move, playout
from games.search.worlds import Knowledge, NoWorld, repaired_world, world

if TYPE_CHECKING:
    from games.base import Game

EXACT_CARDS = 16  # cards left on all hands when the exact solver takes over
SIGNIFICANCE = 2.0  # standard errors a loss must exceed to count as a mistake
WORLDS = 24


@dataclass(frozen=True, slots=True)
class Verdict:
    """The mean gain of the other card over the one played (tricks or points, per world), its
    standard error, and the worlds it is measured on."""

    gain: float
    error: float
    worlds: int

    @property
    def mistake(self) -> bool:
        return self.worlds >= 2 and self.gain > SIGNIFICANCE * self.error and self.gain > 0


def best_points(state: thunee_fast.ThuneePlay, team: int) -> int:
    """Thunee: the most card points ``team`` ends the hand with (10 more for the last trick),
    every hand open and both sides playing perfectly (alpha-beta over the remaining cards)."""

    def search(state: thunee_fast.ThuneePlay, alpha: int, beta: int) -> int:
        if state.over:
            return state.points[team] + (10 if state.winners[-1] % 2 == team else 0)
        maximise = state.turn % 2 == team
        legal = state.legal()
        best = -1 if maximise else 1 << 20
        while legal:
            low = legal & -legal
            legal ^= low
            child = state.copy()
            child.play(low.bit_length() - 1)
            value = search(child, alpha, beta)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    return search(state.copy(), -1, 1 << 20)


def _cards_left(game: Game) -> int:
    hands = getattr(game, "hands", None)
    return sum(len(hand) for hand in hands) if hands is not None else 1 << 10


def _solved(game: Any) -> bool:
    """Whether the exact solver models this hand's card play (Thunee's ordinary contracts
    outside challenge mode; the trick games but a sooli hand)."""
    if game.name == "thunee":
        return bool(game.contract == "normal" and not game._challenge)
    return tricks.from_world(game) is not None


def exact(game: Game, seat: int, wants: bool) -> float | None:
    """The double-dummy value of ``game``'s card play for ``seat``'s side, or ``None`` where no
    solver models it."""
    if game.name == "thunee":
        play = thunee_fast.from_world(game)
        return None if play is None else float(best_points(play, seat % 2))
    state = tricks.from_world(game)
    if state is None:
        return None
    taken = tricks.best_tricks(state, seat % 2, fewest=not wants)
    return float(taken if wants else -taken)


def value(game: Game, seat: int, move: Move, wants: bool, rng: random.Random) -> float:
    """``move`` played in the world ``game`` (changed in place), then the hand valued (see the
    module docstring)."""
    if not _solved(game):
        return playout(game, seat, move, rng)[0]
    game.apply(seat, move)
    while _cards_left(game) > EXACT_CARDS and game.status == "in_progress":
        acting = game.to_act()
        mover = acting[0] if len(acting) == 1 else rng.choice(acting)
        game.apply(mover, normal_move(game, mover, rng))
    found = exact(game, seat, wants) if game.status == "in_progress" else None
    return 0.0 if found is None else found


def worlds_for(seen: Seen, count: int, rng: random.Random) -> list[Game]:
    """Up to ``count`` worlds consistent with ``seen`` (fewer when the sampler fails often)."""
    try:
        knowledge: Knowledge | None = Knowledge.of(seen)
    except NoWorld:
        knowledge = None
    if knowledge is not None:
        # the bidding's worlds, not the card play's: the judge stays the one it was, whatever
        # the hard level reads (games.search.card_reading)
        knowledge.bidding = bidding(seen, knowledge, read=False)
    found: list[Game] = []
    for _ in range(4 * count):
        if len(found) >= count:
            break
        sample = world(seen, knowledge, rng) if knowledge is not None else repaired_world(seen, rng)
        if sample is not None:
            found.append(sample)
    return found


def verdict(
    seen: Seen,
    played: Move,
    other: Move,
    wants: bool,
    rng: random.Random,
    worlds: int = WORLDS,
    samples: list[Game] | None = None,
) -> Verdict:
    """How much ``other`` gains over ``played`` for the seat (see :class:`Verdict`)."""
    samples = worlds_for(seen, worlds, rng) if samples is None else samples
    gains: list[float] = []
    for sample in samples:
        seed = rng.getrandbits(64)
        mine = value(sample.clone(), seen.seat, played, wants, random.Random(seed))
        theirs = value(sample.clone(), seen.seat, other, wants, random.Random(seed))
        gains.append(theirs - mine)
    if not gains:
        return Verdict(0.0, 0.0, 0)
    mean = sum(gains) / len(gains)
    if len(gains) < 2:
        return Verdict(mean, 0.0, len(gains))
    spread = sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1)
    return Verdict(mean, math.sqrt(spread / len(gains)), len(gains))


def best_other(
    seen: Seen, played: Move, wants: bool, rng: random.Random, worlds: int = WORLDS
) -> tuple[Move, Verdict] | None:
    """The other legal card that gains most over ``played`` on the same worlds, with its
    verdict (``None`` when there is no other card or no world)."""
    samples = worlds_for(seen, worlds, rng)
    if not samples:
        return None
    best: tuple[Move, Verdict] | None = None
    seed = rng.getrandbits(64)
    for other in seen.legal:
        if other == played:
            continue
        found = verdict(seen, played, other, wants, random.Random(seed), samples=samples)
        if best is None or found.gain > best[1].gain:
            best = (other, found)
    return best
