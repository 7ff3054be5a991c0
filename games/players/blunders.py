"""Clear mistakes of the card play, recognised by their shape from a seat's view and legal moves.

The shapes, all for the seat that plays last to a trick (where nothing is left to chance in the
trick itself) and has a choice:

- ``overtake``: the partner is winning the trick and the seat beats his card in the suit led,
  when it holds a card that would not;
- ``ruff``: the partner is winning and the seat trumps it, when it could let the trick be
  (in Thunee this is the "ruffing the partner's won trick" of the rules' etiquette);
- ``overwin``: the seat takes the trick with a higher card than needed, when the lowest winner is
  not equivalent to it (equivalent: no card still out in another hand lies between the two);
- ``low_take``: in a hand where the seat wants no tricks (nolo, nullo, the sooli soloist) it
  takes the trick, holding a card that would lose it;
- ``points`` (Thunee): the opponents take the trick whatever the seat plays, and it gives them
  more card points than its cheapest losing card would.

Each shape names the natural card instead (:attr:`Spot.better`): the one a good player plays.
A shape is only a suspicion: :mod:`games.search.confirm` confirms it (or not) by double-dummy
evaluation over sampled worlds. The hard level uses :func:`natural` to make a shaped card prove
itself against the natural one before it plays it (:func:`games.search.budget.preferred`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.base import Move
from games.players import Seen
from games.players.thunee import POINTS as THUNEE_POINTS
from games.players.thunee import strength_for
from games.seats import team_of
from games.tricks import PLAY, strength_table, trick_winner

KINDS = ("overtake", "ruff", "overwin", "low_take", "points", "endgame")
ACE_HIGH = strength_table("23456789TJQKA")
ACE_LOW = strength_table("A23456789TJQK")
HIGH_HANDS = frozenset({"rami", "grand"})
LOW_HANDS = frozenset({"nolo", "nullo"})


@dataclass(frozen=True, slots=True)
class Table:
    """A card-play decision in the rules' terms: what the shapes read."""

    game: str
    seat: int
    hand: tuple[str, ...]
    legal: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]
    trump: str | None
    strength: Mapping[str, int]
    last: bool  # the seat plays the trick's last card
    wants: bool  # the seat wants tricks (False in a hand where tricks count against it)
    points: Mapping[str, int] | None  # Thunee's card points (None elsewhere)
    played: frozenset[str]  # the hand's cards already played (the trick in progress too)

    def winner_with(self, card: str) -> int:
        return trick_winner([*self.trick, (self.seat, card)], self.trump, self.strength)

    def winners(self) -> list[str]:
        return [card for card in self.legal if self.winner_with(card) == self.seat]

    def losers(self) -> list[str]:
        return [card for card in self.legal if self.winner_with(card) != self.seat]

    def partner_winning(self) -> bool:
        if not self.trick:
            return False
        return team_of(trick_winner(self.trick, self.trump, self.strength)) == team_of(self.seat)

    def equivalent(self, one: str, other: str) -> bool:
        """No card still out in another hand lies between ``one`` and ``other`` (same suit)."""
        if one[1] != other[1]:
            return False
        low, high = sorted((self.strength[one], self.strength[other]))
        known = self.played | set(self.hand)
        return all(
            card in known
            for card, value in self.strength.items()
            if card[1] == one[1] and low < value < high
        )


@dataclass(frozen=True, slots=True)
class Spot:
    """A shaped mistake: its kind, the card played and the natural card instead."""

    kind: str
    card: str
    better: str


def _played(seen: Seen) -> set[str]:
    """The hand's cards played so far, from the public history (the hard level's ``Seen``)."""
    cards = {card for _seat, card in seen.view.trick}
    for _seat, move in seen.history:
        if move is not None and move.action == "play":
            card = move.get("card")
            if isinstance(card, str):
                cards.add(card)
    return cards


def table_of(seen: Seen) -> Table | None:
    """The decision as a :class:`Table`, or ``None`` outside the card play of a trick game or
    in a hand the shapes do not model (Thunee's called hands, a sooli defender, no trump yet)."""
    view = seen.view
    legal = tuple(move.get("card") for move in seen.legal if move.action == "play")
    if len(legal) != len(seen.legal) or not legal:
        return None
    game = view.game
    hand = tuple(view.hand or ())
    trick = tuple(view.trick)
    seats = view.players
    wants = True
    points: Mapping[str, int] | None = None
    played = _played(seen)
    if game in ("tarneeb", "tarneeb_egyptian"):
        if view.trump is None:
            return None  # the first lead names the trump
        trump = view.trump if view.trump in ("S", "H", "D", "C") else None
        strength: Mapping[str, int] = ACE_HIGH
        played |= set(getattr(view, "played", ()))
    elif game in ("tuppi", "norwegian_whist"):
        hand_type = getattr(view, "hand_type", None)
        trump = None
        strength = ACE_HIGH
        if hand_type == "sooli":
            if getattr(view, "soloist", None) != seen.seat:
                return None  # a defender of a sooli wants the soloist to take a trick
            strength, wants, seats = ACE_LOW, False, 3
        elif hand_type in LOW_HANDS:
            wants = False
        elif hand_type not in HIGH_HANDS:
            return None
    elif game == "thunee":
        contract = getattr(view, "contract", "")
        if contract != "normal" or view.trump is None:
            return None
        trump = view.trump
        strength = strength_for(contract)
        points = THUNEE_POINTS
        played |= {card for done in getattr(view, "tricks", ()) for card in done.cards}
    else:
        return None
    last = len(trick) == seats - 1
    return Table(
        game, seen.seat, hand, legal, trick, trump, strength, last, wants, points, frozenset(played)
    )


def _lowest(table: Table, cards: Sequence[str]) -> str:
    """The card a seat gives up most easily: a plain card before a trump, then the lowest."""
    return min(cards, key=lambda card: (card[1] == table.trump, table.strength[card]))


def _cheapest(table: Table, cards: Sequence[str]) -> str:
    points = table.points or {}
    return min(
        cards, key=lambda card: (points.get(card, 0), card[1] == table.trump, table.strength[card])
    )


def _let_go(table: Table, losers: Sequence[str]) -> str:
    """The card to let the partner's trick be: Thunee feeds it its richest plain card."""
    points = table.points
    if points is not None:
        plain = [card for card in losers if card[1] != table.trump]
        if plain:
            return max(plain, key=lambda card: (points[card], -table.strength[card]))
    return _lowest(table, losers)


def chances(table: Table) -> list[str]:
    """The kinds of shaped mistake this decision makes possible (the rates' denominators)."""
    if not table.last or len(table.legal) < 2:
        return []
    winners, losers = table.winners(), table.losers()
    if not winners:
        points = table.points
        if points is None or table.partner_winning():
            return []
        return ["points"] if len({points[card] for card in losers}) > 1 else []
    if not table.wants:
        return ["low_take"] if losers else []
    led = table.trick[0][1][1]
    if table.partner_winning():
        if not losers:
            return []
        kinds = []
        if any(card[1] == led for card in winners):
            kinds.append("overtake")
        if any(card[1] != led for card in winners):
            kinds.append("ruff")
        return kinds
    low = min(winners, key=table.strength.__getitem__)
    if any(not table.equivalent(card, low) for card in winners):
        return ["overwin"]
    return []


def spot(table: Table, card: str) -> Spot | None:
    """The shaped mistake ``card`` would be here, or ``None``."""
    if card not in table.legal or not chances(table):
        return None
    winners, losers = table.winners(), table.losers()
    if card in losers:  # a loser given to the opponents: only points can be a shape
        if table.points is None or table.partner_winning() or winners:
            return None
        better = _cheapest(table, losers)
        if table.points[card] > table.points[better]:
            return Spot("points", card, better)
        return None
    if not table.wants:
        if not losers:
            return None
        return Spot("low_take", card, max(losers, key=table.strength.__getitem__))
    if table.partner_winning():
        if not losers:
            return None
        kind = "overtake" if card[1] == table.trick[0][1][1] else "ruff"
        return Spot(kind, card, _let_go(table, losers))
    low = min(winners, key=table.strength.__getitem__)
    if not table.equivalent(card, low):
        return Spot("overwin", card, low)
    return None


def natural(seen: Seen) -> dict[Move, Move]:
    """For each legal move of a shaped mistake, the natural move instead (empty when none)."""
    table = table_of(seen)
    if table is None or not chances(table):
        return {}
    found: dict[Move, Move] = {}
    for card in table.legal:
        shaped = spot(table, card)
        if shaped is not None:
            found[PLAY[card]] = PLAY[shaped.better]
    return found
