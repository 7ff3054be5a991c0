"""Worlds: games dealt from a sample of the unseen cards, consistent with what a seat has seen.

From a :class:`~games.players.Seen` alone (the view, the legal moves, the game's name and
options, the deal's public history):

- the seat's own cards and every card a seat has shown (played, laid as trump, revealed as a
  bid card) are fixed in that seat's hand, the shown-before-play ones first (so that they sit in
  a first packet, where Thunee deals in two);
- a seat that did not follow suit is void in the suit led (learned while replaying, and kept for
  the next samples of the same decision);
- a move the seat could not see (another seat's bid before the reveal, a trump card laid face
  down, a card passed in Tuppi's exchange) is made by the normal player of the world, from that
  world's cards;
- a world whose replay refuses a move, or ends with a hand or legal moves other than the seat's
  own, is dropped.

A deal whose cards change hands (Tunge's pick-ups and draws, Tuppi's sooli exchange) does not
fit these constraints (:class:`NoWorld`): :func:`repaired_world` builds its worlds by repair.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from games.base import Deal, IllegalMove, Move
from games.players import Seen
from games.search.playout import normal_move

if TYPE_CHECKING:
    from games.base import Game


class NoWorld(Exception):
    """No deal consistent with the seat's knowledge was found (or the game is not modelled)."""


def game_class(seen: Seen) -> type[Game]:
    """The rules ``seen`` was handed (the hard level is always handed them)."""
    if seen.game is None:
        raise NoWorld("no rules to deal worlds with")
    return seen.game


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(options.items()))


@cache
def _shape(rules: type[Game], options: tuple[tuple[str, Any], ...], dealer: int) -> tuple[Any, ...]:
    """The deck and each seat's share of a deal (and the stock's) for this table."""
    deal = rules.new(dict(options), seed=7, first_dealer=dealer).deals[0]
    deck = frozenset(card for hand in deal.hands for card in hand) | frozenset(deal.stock)
    return deck, tuple(len(hand) for hand in deal.hands), len(deal.stock)


def named_cards(move: Move) -> tuple[str, ...]:
    cards: list[str] = []
    for key, value in move.fields:
        if key == "card" and isinstance(value, str):
            cards.append(value)
        elif key == "cards" and isinstance(value, tuple):
            cards.extend(value)
    return tuple(cards)


@dataclass(slots=True)
class Knowledge:
    """What a decision's samples share: the fixed cards per seat and the voids learned so far."""

    seat: int
    players: int
    dealer: int
    deck: frozenset[str]
    sizes: tuple[int, ...]
    stock: int
    fixed: list[list[str]]  # per seat, the cards known to have been dealt to it (early first)
    voids: list[set[str]]
    # what the public calls say about the hands (games.search.inference), where enabled
    bidding: Any = None

    @classmethod
    def of(cls, seen: Seen) -> Knowledge:
        view = seen.view
        players = view.players
        dealer = view.dealer
        deck, sizes, stock = _shape(game_class(seen), _options_key(seen.options), dealer)
        fixed: list[list[str]] = [[] for _ in range(players)]
        for mover, move in seen.history:
            if move is None:
                continue
            for card in named_cards(move):
                if card not in fixed[mover]:
                    if move.action == "play":
                        fixed[mover].append(card)
                    else:  # a trump card or a bid card: held from the first packet on
                        fixed[mover].insert(0, card)
        for card in view.hand or ():
            if card not in fixed[seen.seat]:
                fixed[seen.seat].append(card)
        if len({card for cards in fixed for card in cards}) != sum(map(len, fixed)):
            raise NoWorld("a card is known in two hands (cards changed hands)")
        if any(len(cards) > size for cards, size in zip(fixed, sizes, strict=True)):
            raise NoWorld("a seat holds more cards than it was dealt (cards changed hands)")
        voids: list[set[str]] = [set() for _ in range(players)]
        return cls(seen.seat, players, dealer, deck, sizes, stock, fixed, voids)

    def sample(self, rng: random.Random) -> Deal | None:
        """A deal with the fixed cards in place and the unseen ones spread at random, no seat
        getting a suit it is void in (``None`` after a dead end)."""
        if self.bidding is not None:  # drawn against the bidding instead
            deal: Deal | None = self.bidding.sample(self, rng)
            return deal
        known = {card for cards in self.fixed for card in cards}
        unseen = sorted(self.deck - known)
        rng.shuffle(unseen)
        need = [size - len(cards) for size, cards in zip(self.sizes, self.fixed, strict=True)]
        need.append(self.stock)  # the stock's places: last, no void
        voids = self.voids
        # the most constrained cards first, so a void seat's share goes elsewhere in time
        unseen.sort(key=lambda card: -sum(card[-1] in void for void in voids))
        extra: list[list[str]] = [[] for _ in range(self.players + 1)]
        for card in unseen:
            suit = card[-1]
            places = [
                place
                for place, count in enumerate(need)
                if count and (place == self.players or suit not in voids[place])
            ]
            if not places:
                return None
            place = rng.choices(places, [need[place] for place in places])[0]
            need[place] -= 1
            extra[place].append(card)
        hands = tuple(tuple(self.fixed[seat] + extra[seat]) for seat in range(self.players))
        return Deal(hands, tuple(extra[self.players]))


def _led_suit(world: Game) -> str | None:
    trick = getattr(world, "trick", None)
    if isinstance(trick, list) and trick:
        first = trick[0][1]
        return first[-1] if isinstance(first, str) else None
    return None


@dataclass(slots=True)
class Meter:
    """The moves replayed while building worlds (they count against a decision's budget)."""

    moves: int = 0


def world(
    seen: Seen, knowledge: Knowledge, rng: random.Random, meter: Meter | None = None
) -> Game | None:
    """A game dealt with a sample consistent with ``seen`` and its history replayed (``None``
    when this sample turned out inconsistent)."""
    deal = knowledge.sample(rng)
    if deal is None:
        return None
    world = game_class(seen).new(dict(seen.options), deals=[deal], first_dealer=knowledge.dealer)
    for mover, move in seen.history:
        if meter is not None:
            meter.moves += 1
        if world.status != "in_progress":
            return None
        if move is None:
            move = normal_move(world, mover, rng)
        elif move.action == "play" and mover != knowledge.seat:
            led = _led_suit(world)
            cards = named_cards(move)
            if led is not None and len(cards) == 1 and cards[0][-1] != led:
                knowledge.voids[mover].add(led)  # a later sample avoids it
        try:
            world.apply(mover, move)
        except IllegalMove:
            move = _completed(world, mover, move, rng)
            if move is None:
                return None
            world.apply(mover, move)
    if world.status != "in_progress":
        return None
    view = world.view(knowledge.seat)
    if sorted(view.hand or ()) != sorted(seen.view.hand or ()):
        return None
    if set(world.legal_moves(knowledge.seat)) != set(seen.legal):
        return None
    return world


def _completed(world: Game, mover: int, move: Move, rng: random.Random) -> Move | None:
    """A legal move of this world that ``move`` (seen without its secret fields, e.g. a Jodhi
    claim without its suit) may have been: one at random, or ``None`` if none fits."""
    seen = set(move.fields)
    fits = [
        legal
        for legal in world.legal_moves(mover)
        if legal.action == move.action and seen <= set(legal.fields) and legal != move
    ]
    return rng.choice(fits) if fits else None


def _hand_of(sample: Any, seat: int) -> list[str]:
    """The cards ``seat`` holds in a world (the search's own game, so its state may be read)."""
    state = getattr(sample, "state", None)
    if state is not None:  # Tunge keeps the deal in progress in its state
        return list(state.deal.hands[seat])
    return list(sample.hands[seat])


REPAIRS = 40  # swaps tried before a repaired world is given up


def repaired_world(seen: Seen, rng: random.Random, meter: Meter | None = None) -> Game | None:
    """A world for a deal whose cards change hands (Tunge's draws and pick-ups, Tuppi's sooli
    exchange), found by repair instead of by constraint: deal at random (the seat's own cards in
    its own places), replay, and when a seat plays a card it does not hold in the world, swap that
    card's place in the deal with the place of a card the seat holds that no shown move has tied
    down; at the end swap the seat's own cards into place the same way. ``None`` when the swaps
    run out."""
    view = seen.view
    players = len(view.hand_sizes)
    dealer = view.dealer
    deck, sizes, _stock = _shape(game_class(seen), _options_key(seen.options), dealer)
    mine = list(view.hand or ())
    rest = sorted(deck - set(mine))
    rng.shuffle(rest)
    own = mine[: sizes[seen.seat]]
    rest = mine[sizes[seen.seat] :] + rest  # more cards than dealt: the rest start elsewhere
    places: list[str] = []
    for seat in range(players):
        if seat == seen.seat:
            places.extend(own + rest[: sizes[seat] - len(own)])
            rest = rest[sizes[seat] - len(own) :]
        else:
            places.extend(rest[: sizes[seat]])
            rest = rest[sizes[seat] :]
    places.extend(rest)
    tied: set[str] = set()  # cards whose place a replayed move has shown to be right

    def swap(card: str, holders: list[str]) -> bool:
        free = [other for other in holders if other not in tied and other != card]
        if not free or card in tied:
            return False
        other = rng.choice(free)
        first, second = places.index(card), places.index(other)
        places[first], places[second] = other, card
        return True

    for _ in range(REPAIRS):
        hands, start = [], 0
        for size in sizes:
            hands.append(tuple(places[start : start + size]))
            start += size
        deal = Deal(tuple(hands), tuple(places[start:]))
        sample = game_class(seen).new(dict(seen.options), deals=[deal], first_dealer=dealer)
        repaired = False
        for mover, move in seen.history:
            if meter is not None:
                meter.moves += 1
            if sample.status != "in_progress":
                return None
            if move is None:
                move = normal_move(sample, mover, rng)
            shown = named_cards(move)
            if shown:
                held = _hand_of(sample, mover)
                missing = [card for card in shown if card not in held]
                if missing:
                    if not swap(missing[0], held):
                        return None
                    repaired = True
                    break
            try:
                sample.apply(mover, move)
            except IllegalMove:
                return None
            tied.update(shown)
        if repaired:
            continue
        if sample.status != "in_progress":
            return None
        held = _hand_of(sample, seen.seat)
        missing = [card for card in mine if card not in held]
        if missing:
            extra = [card for card in held if card not in mine]
            if not swap(missing[0], extra):
                return None
            continue
        if set(sample.legal_moves(seen.seat)) != set(seen.legal):
            return None
        return sample
    return None
