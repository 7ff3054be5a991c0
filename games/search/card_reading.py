"""Inference from the card play: the hard player's worlds deal hands that would have played what
was played.

A seat that won its partner's trick with the king, or led a low club, said something about what
else it held. Each card another seat played this hand (the last :data:`CHECKED` of them) is read
as evidence under the model that the seat plays like the normal player: a sampled hand is weighted
by whether the normal player, holding that hand then (the sampled cards and those the seat has
played since), would have played the same card: 1 for each card it repeats, :data:`MISMATCH` for
each it does not, so a human's odd card only makes its worlds rarer, never impossible. Where the
normal player would hesitate between equal cards (two plain deuces), the card played wins the tie.

The public part of each position (the trick, the cards played, the trump or the hand's type) does
not depend on the hidden cards, so it is read once per decision from one replay of the history,
and only the seat's hand changes from one sampled world to the next: a check costs one normal card
choice (its light view: :data:`games.search.playout.LIGHT`), no replay. The weights feed the same
seat-by-seat draw as the bidding's (:class:`games.search.inference.Bidding`). Everything comes
from the seat's own :class:`~games.players.Seen`, so two tables that differ only in hidden cards
give the same weights.

Enabled per game where the match runner shows it is not worse (:data:`GAMES`); a game whose
normal card play reads the full view (Thunee) has no light view to ask and is not read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from games.base import IllegalMove, Move
from games.players import Seen
from games.search.playout import LIGHT, PlayFrom, normal_move
from games.search.worlds import Knowledge, game_class
from games.tricks import play_moves

if TYPE_CHECKING:
    from games.base import Game

MISMATCH = 0.1  # a sampled hand's weight for each card the normal player would not have played
CHECKED = 3  # the most recent plays of the other seats read (a cap on the cost of a draw)
SURE = 2  # misses after which a hand's other plays are not checked (its weight is that small)
ENDGAME = 2  # cards in hand at which the normal player may solve the end instead: not read
TEMPLATES = 4  # deals tried for the one replay that reads the public positions (besides those
# refused for a void that the next one respects)

# The games whose card play is read (by name: the families' games differ in how much it helps).
# bench.match, hard against hard-no-play-inference, reading the last three plays (seeds 0-2 in
# Tarneeb, 0-1 in Tuppi, 0 in Egyptian Tarneeb; no significant difference anywhere): Tarneeb
# +0.54 +- 0.46 points a deal over 48 deals (p = 0.24), Tuppi -1.44 +- 1.19 over 48 (p = 0.23),
# Egyptian Tarneeb -0.68 +- 1.45 over 14 (p = 0.64). Only Tarneeb was not worse; Norwegian
# Whist is not measured.
GAMES: frozenset[str] = frozenset({"tarneeb"})


@dataclass(frozen=True, slots=True)
class Play:
    """A card another seat played: the public part of its light view then (its hand left out),
    the trick it played to, the cards it had played before this one this hand, and the move."""

    seat: int
    light: SimpleNamespace
    trick: list[tuple[int, str]]
    before: frozenset[str]
    move: Move

    def repeated(self, choose: PlayFrom, dealt: Sequence[str]) -> bool:
        """Whether the normal player, dealt ``dealt``, plays this card here (ties its way)."""
        card = self.move.get("card")
        before = self.before
        # first: among equal cards, min and max keep the first
        held = [card, *(other for other in dealt if other != card and other not in before)]
        legal = play_moves(held, self.trick)
        if len(legal) == 1:
            return True
        light = self.light
        if hasattr(light, "hand"):
            light.hand = held  # its own namespace: set for this question only
        return choose(self.seat, light, legal) == self.move


@dataclass(frozen=True, slots=True)
class Reading:
    """The evidence of one decision's card play: each other seat's plays read (the most recent
    first), and the normal player's card choice that reads them."""

    choose: PlayFrom
    plays: dict[int, list[Play]]

    def weight(self, seat: int, dealt: Sequence[str]) -> float:
        """How likely the normal player dealt ``dealt`` makes ``seat``'s plays (up to a
        constant): :data:`MISMATCH` to the power of the plays it would make otherwise (at most
        :data:`SURE`: past that the rest cannot matter)."""
        misses = 0
        for play in self.plays.get(seat, ()):
            misses += not play.repeated(self.choose, dealt)
            if misses >= SURE:
                break
        return float(MISMATCH**misses)


def reads(rules: type[Game]) -> bool:
    """Whether the card play of the game ``rules`` is read (see :data:`GAMES`)."""
    return rules.name in GAMES and rules.player_module in LIGHT


def _frozen(value: Any) -> Any:
    """A copy of a light view's value that the replay going on cannot change."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, set):
        return frozenset(value)
    return value


def reading(seen: Seen, knowledge: Knowledge) -> Reading | None:
    """The card play's evidence in ``seen``'s public history, for a game in :data:`GAMES`
    whose normal card play has a light view (``None`` otherwise, when no other seat has played
    a card worth reading, or when no replay of the history is found). Records in ``knowledge``
    the voids the replay shows (a replay refused for want of one is tried again, on a deal that
    respects it)."""
    rules = game_class(seen)
    if not reads(rules):
        return None
    light_of, choose = LIGHT[rules.player_module]
    if not any(move is not None and move.action == "play" for _, move in seen.history):
        return None
    plays: list[Play] | None = None
    attempt = 0
    while plays is None and attempt < TEMPLATES:
        voids = sum(map(len, knowledge.voids))
        plays = _replayed(seen, knowledge, light_of, random.Random(attempt))
        if sum(map(len, knowledge.voids)) == voids:  # a refusal that taught nothing new
            attempt += 1
    if plays is None:
        return None
    plays = plays[-CHECKED:]
    if not plays:
        return None
    by_seat: dict[int, list[Play]] = {}
    for play in reversed(plays):
        by_seat.setdefault(play.seat, []).append(play)
    return Reading(choose, by_seat)


def _replayed(
    seen: Seen, knowledge: Knowledge, light_of: Any, rng: random.Random
) -> list[Play] | None:
    """The other seats' plays worth reading, from one replay of the history on any deal
    consistent with the seat's knowledge (``None`` when that replay is refused); the voids it
    shows go into ``knowledge``."""
    deal = knowledge.sample(rng)
    if deal is None:
        return None
    rules = game_class(seen)
    replay = rules.new(dict(seen.options), deals=[deal], first_dealer=knowledge.dealer)
    played: list[list[str]] = [[] for _ in range(knowledge.players)]
    plays: list[Play] = []
    for mover, move in seen.history:
        if replay.status != "in_progress":
            return None
        if move is None:  # another seat's hidden move: any, the positions read are public
            move = normal_move(replay, mover, rng)
        card = move.get("card") if move.action == "play" else None
        trick = tuple(getattr(replay, "trick", ()))
        if isinstance(card, str) and trick and card[-1] != trick[0][1][-1]:
            knowledge.voids[mover].add(trick[0][1][-1])  # did not follow: void in the suit led
        if isinstance(card, str) and mover != seen.seat:
            light = light_of(replay, mover)
            left = knowledge.sizes[mover] - len(played[mover])
            if light is not None and left > ENDGAME:
                public = SimpleNamespace(
                    **{key: _frozen(value) for key, value in vars(light).items() if key != "hand"}
                )
                if hasattr(light, "hand"):
                    public.hand = ()
                plays.append(Play(mover, public, list(trick), frozenset(played[mover]), move))
        try:
            replay.apply(mover, move)
        except IllegalMove:
            return None
        if isinstance(card, str):
            played[mover].append(card)
    return plays


def learn_voids(seen: Seen, knowledge: Knowledge) -> None:
    """A seat that did not follow the suit led is void in it (tricks of one card per seat)."""
    trick: list[str] = []
    for mover, move in seen.history:
        if move is None or move.action != "play":
            continue
        card = move.get("card")
        if not isinstance(card, str):
            continue
        if trick and card[-1] != trick[0][-1]:
            knowledge.voids[mover].add(trick[0][-1])
        trick.append(card)
        if len(trick) == knowledge.players:
            trick = []
