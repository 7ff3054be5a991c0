"""Hints: the move the normal computer player would make, with one line of why.

:func:`hint` explains the normal policy (``games/players/<family>.py``) by following the same rule
branches as its ``choose`` and naming the branch taken ("lead your long suit", "your partner is
winning the trick: discard low"). Like a player it sees only the seat's :class:`Seen`, so a reason
can name nothing the seat may not know. Should an explanation ever disagree with the player (the
player changed and this module did not follow), the player's move wins and the reason becomes the
plain :data:`GENERIC` line; a test proves they agree over many random positions of every game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from games.base import Move, NotYourTurn
from games.players import Seen, random_player
from games.players import bidcards as bid_player
from games.players import tarneeb as tarneeb_player
from games.players import thunee as thunee_player
from games.tricks import PLAY, trick_winner
from games.tunge.grammar import PHANTOM, count_matches
from games.tunge.scoring import CARD_VALUES
from games.views import BidCardsView, TarneebView, ThuneeView, TungeView

if TYPE_CHECKING:
    from games.base import Game

Hint = tuple[Move, str]
GENERIC = "what the normal computer player would do here"
ONLY = "it is the only move you have"


def hint_for(game: Game, seat: int, rng: random.Random) -> Hint:
    """The hint for ``seat`` (whose turn it is) from that seat's view alone."""
    legal = tuple(game.legal_moves(seat))
    if not legal:
        raise NotYourTurn("It is not your turn.")
    return hint(Seen(seat, game.view(seat), legal), game.player_module, rng)


def hint(seen: Seen, player_module: str, rng: random.Random | None = None) -> Hint:
    """The normal player's move for ``seen`` and one line of why (``rng``: the decision's
    random source, for the families whose player draws from it)."""
    rng = rng if rng is not None else random.Random(0)
    before = rng.getstate()
    explain = EXPLAINERS.get(player_module)
    if explain is None:
        move, reason = rng.choice(seen.legal), "any legal move will do"
    else:
        move, reason = explain(seen, rng)
    rng.setstate(before)
    expected = _player(player_module)(seen, rng)
    if expected != move:  # a player changed and its explanation did not follow
        return expected, GENERIC
    return move, reason


def _player(module: str) -> Callable[[Seen, random.Random], Move]:
    """The family's normal player, as :func:`games.players.player_for` finds it."""
    if not module:
        return random_player
    choose: Callable[[Seen, random.Random], Move] = importlib.import_module(module).choose
    return choose


# --- Thunee ---------------------------------------------------------------------------------------
def _thunee(seen: Seen, rng: random.Random) -> Hint:
    p = thunee_player
    legal = list(seen.legal)
    if len(legal) == 1:
        return legal[0], ONLY
    view = seen.view
    assert isinstance(view, ThuneeView)
    phase = view.phase
    hand: list[str] = list(view.hand or ())
    if phase == "weak-hand redeal":
        return p.DEMAND, "your hand is weak: ask for a redeal"
    if phase == "calling":
        move = p._choose_call(hand, legal, view.call)
        if move.action == "call":
            return move, "your first cards are strong: call the next step"
        return move, "your first cards are not strong enough to call: pass"
    if phase == "setting trump":
        move = p._choose_trump(hand, legal)
        return move, "make your longest suit trump, laying its lowest card"
    if phase == "Thunee window":
        if p.THUNEE in legal and p._thunee_worthy(hand):
            return p.THUNEE, "you hold only top cards: call Thunee"
        return p.PASS, "your hand could lose a trick: do not call Thunee"
    return _thunee_play(seen, hand, legal)


def _thunee_play(seen: Seen, hand: list[str], legal: list[Move]) -> Hint:
    p = thunee_player
    view = seen.view
    assert isinstance(view, ThuneeView)
    seat = seen.seat
    challenge_mode = view.rules.challenge_mode
    values: Mapping[str, int] = view.jodhi_values or {}
    jodhi = [m for m in legal if m.action == "jodhi"]
    if jodhi and not challenge_mode:
        best = max(jodhi, key=lambda m: values.get(m.get("suit"), 0))
        return best, "claim your Jodhi (the most valuable first)"
    if jodhi:
        valid = [m for m in jodhi if m.get("suit") in values]
        if valid:
            return valid[0], "you hold a true Jodhi: claim it"
    if challenge_mode:
        proven = p._proven_revoke(view, seat)
        accuse = Move.of("challenge", target=proven) if proven is not None else None
        if accuse is not None and accuse in legal:
            return accuse, "an opponent played off a suit they had shown void in: challenge"
    plays = [m.get("card") for m in legal if m.action == "play"]
    if not plays:
        return legal[0], "no card to play now: the normal player takes the first choice offered"
    trick = [(s, c) for s, c in view.trick]
    if (
        len(plays) == 1
        and (p.DOUBLE in legal or p.KHANAAK in legal)
        and p._sure_winner(view, seat, hand, trick, plays[0])
    ):
        if p.KHANAAK in legal and p._khanaak_would_hold(view, seat):
            return p.KHANAAK, "your last card surely wins the last trick, and Khanaak holds"
        if p.DOUBLE in legal:
            return p.DOUBLE, "your last card surely wins the last trick: call Double"
    card, reason = _thunee_card(view, seat, hand, trick, plays)
    return Move.of("play", card=card), reason


# Why the normal player plays its card, per reason key of games.players.thunee.card_for.
THUNEE_REASONS: dict[str, str] = {
    "only": "it is the only card you may play",
    "called": "you called it: you must win every trick, so play your strongest card",
    "lead_trump": "you hold the best trump and another: lead it to draw the trumps",
    "lead_top": "lead a card that is the highest left in its suit",
    "lead_low": "no sure winner to lead: lead your cheapest card, keeping trumps",
    "partner_called": "your partner called it: never take a trick from them, play cheap",
    "feed": "the trick is your partner's and you play last: give it your richest card",
    "feed_top": "nothing left beats your partner's card: give it your richest card",
    "partner_winning": "your partner is winning the trick: throw your cheapest card",
    "win_cheap": "win the trick with your cheapest winning card",
    "cannot_win": "you cannot win this trick: throw your cheapest card",
}


def _thunee_card(
    view: ThuneeView,
    seat: int,
    hand: list[str],
    trick: list[tuple[int, str]],
    cards: Sequence[str],
) -> tuple[str, str]:
    """The normal player's own card choice (one function decides for both) and its reason."""
    p = thunee_player
    card, reason = p.card_for(
        seat,
        hand,
        trick,
        cards,
        trump=view.trump,
        contract=view.contract,
        caller=view.caller,
        played=p._played_cards(view),
        players=view.players,
    )
    return card, THUNEE_REASONS[reason]


# --- Tarneeb and Egyptian Tarneeb -----------------------------------------------------------------
def _tarneeb(seen: Seen, rng: random.Random) -> Hint:
    p = tarneeb_player
    view = seen.view
    assert isinstance(view, TarneebView)
    hand: list[str] = list(view.hand or ())
    phase = view.phase
    if phase == "tricks":
        return _tarneeb_play(seen.seat, view, seen.legal)
    if phase == "naming trump":
        _, best = p.estimate(hand)
        return p.TRUMP_MOVES[best], "name your longest suit trump"
    if view.game == "tarneeb_egyptian":
        return _egyptian_call(seen.seat, view, seen.legal)
    return _tarneeb_call(hand, seen.legal)


def _tarneeb_call(hand: Sequence[str], legal: Sequence[Move]) -> Hint:
    p = tarneeb_player
    value, _ = p.estimate(hand)
    bids = [m for m in legal if m.action == "bid"]
    if not bids:
        return p.PASS, "you cannot bid higher: pass"
    cheapest = bids[0]
    worth = f"your hand is worth about {int(value)} tricks"
    if cheapest.get("value") <= int(value):
        return cheapest, f"{worth}: bid the cheapest bid"
    if p.PASS not in legal:
        return cheapest, "you may not pass: bid the cheapest bid"
    return p.PASS, f"{worth}, less than the next bid: pass"


def _egyptian_call(seat: int, view: TarneebView, legal: Sequence[Move]) -> Hint:
    p = tarneeb_player
    hand: list[str] = list(view.hand or ())
    value, best = p.estimate(hand)
    level = int(value)
    bids = [call for call in view.bids if call.action == "bid"]
    high_level = (bids[-1].value or 0) if bids else 0
    high_bidder = bids[-1].seat if bids else -1
    if p.DOUBLE in legal and high_level >= 9 and level <= 6:
        quick = sum(1 for c in hand if c[0] in "AK")
        if quick >= 4:
            return p.DOUBLE, "their bid is high and you hold four quick tricks: double"
    own_side = high_bidder >= 0 and high_bidder % 2 == seat % 2
    if not own_side:
        for move in legal:
            if move.action == "bid" and move.get("suit") == best and move.get("value") <= level:
                return move, f"your hand is worth about {level} tricks: bid your longest suit"
    if p.PASS in legal:
        if own_side:
            return p.PASS, "your side holds the bid: pass"
        return p.PASS, f"your hand is worth about {level} tricks, less than the next bid: pass"
    return next(m for m in legal if m.action == "bid"), "you may not pass: bid"


def _tarneeb_play(seat: int, view: TarneebView, moves: Sequence[Move]) -> Hint:
    p = tarneeb_player
    rank = p.RANK_VALUE
    hand: list[str] = list(view.hand or ())
    played = set(view.played)
    legal: list[str] = [m.get("card") for m in moves if m.action == "play"]
    trick = [(s, c) for s, c in view.trick]
    declared = view.trump
    trump = declared if declared not in (None, "NT") else ""

    def is_master(card: str) -> bool:
        for value in range(rank[card] + 1, 13):
            higher = p.RANKS[value] + card[1]
            if higher not in played and higher not in hand:
                return False
        return True

    if not trick:
        if declared is None:
            _, best = p.estimate(hand)
            cards = [c for c in legal if c[1] == best] or legal
            top = max(cards, key=rank.__getitem__)
            return PLAY[top], "your first lead names trump: lead high from your long suit"
        masters = [c for c in legal if is_master(c)]
        if masters:
            top = max(masters, key=lambda c: (c[1] != trump, rank[c]))
            return PLAY[top], "lead a master: no higher card of its suit is still out"
        plain = [c for c in legal if c[1] != trump] or legal
        lead = min(plain, key=rank.__getitem__)
        return PLAY[lead], "no master to lead: lead low, keeping your trumps"
    current = trick_winner(trick, declared, rank)
    partner_winning = current % 2 == seat % 2
    winners = [c for c in legal if trick_winner([*trick, (seat, c)], declared, rank) == seat]
    low = PLAY[min(legal, key=lambda c: (c[1] == trump, rank[c]))]
    if partner_winning:
        return low, "your partner is winning the trick: discard low"
    if winners:
        best = min(winners, key=lambda c: (c[1] == trump, rank[c]))
        return PLAY[best], "win the trick as cheaply as you can"
    return low, "you cannot win this trick: discard low, keeping your trumps"


# --- Tuppi and Norwegian Whist --------------------------------------------------------------------
def _bidcards(seen: Seen, rng: random.Random) -> Hint:
    p = bid_player
    view = seen.view
    assert isinstance(view, BidCardsView)
    legal = seen.legal
    phase = view.phase
    if phase == "tricks":
        return _bidcards_play(seen.seat, view, legal)
    if phase == "bids":
        if p.EXPOSE in legal:
            return p.EXPOSE, "a one-colour hand: expose it for a redeal"
        if not view.committed[seen.seat]:
            move = p.choose_bid(view, legal)
            high = move.get("value") == p.HIGH_WORDS[view.game]
            if high:
                return move, "enough high cards to take tricks: bid high"
            return move, "too few high cards to take tricks: bid low"
    if phase == "sooli":
        hand: list[str] = list(view.hand or ())
        high = sum(1 for card in hand if card[0] != "A" and p.NORMAL_STRENGTH[card] >= 7)
        if high <= 1:
            return p.SOOLI, "at most one high card: declare sooli"
        return p.PASS, "too many high cards for sooli: pass"
    if phase == "exchange":
        move = p.choose_exchange(legal)
        if legal[0].action == "give":
            return move, "give your partner your lowest card"
        return move, "give back your highest card"
    return rng.choice(legal), "any legal move will do"


def _bidcards_play(seat: int, view: BidCardsView, moves: Sequence[Move]) -> Hint:
    p = bid_player
    strength = p.ACE_LOW_STRENGTH if view.hand_type == "sooli" else p.NORMAL_STRENGTH
    legal: list[str] = [m.get("card") for m in moves]
    want = view.hand_type == p.HIGH_WORDS[view.game]
    trick = [(s, c) for s, c in view.trick]
    lowest = PLAY[min(legal, key=strength.__getitem__)]
    highest = PLAY[max(legal, key=strength.__getitem__)]
    if not trick:
        if want:
            best = max(legal, key=strength.__getitem__)
            if strength[best] >= strength["K" + best[1]]:
                return PLAY[best], "your side wants tricks: lead your highest card"
            return lowest, "no king or ace to lead: lead your lowest card"
        return lowest, "you want no tricks: lead your lowest card"
    best_seat = trick_winner(trick, None, strength)
    best = dict(trick)[best_seat]
    led = trick[0][1][1]
    following = legal[0][1] == led
    seats_in_trick = 3 if getattr(view, "sitting_out", None) is not None else 4
    last = len(trick) == seats_in_trick - 1
    if want:
        if best_seat % 2 == seat % 2:
            return lowest, "your partner is winning the trick: play low"
        if following:
            beating = [c for c in legal if strength[c] > strength[best]]
            if beating:
                if last:
                    pick = min(beating, key=strength.__getitem__)
                    return PLAY[pick], "you play last: win with your cheapest winning card"
                pick = max(beating, key=strength.__getitem__)
                return PLAY[pick], "win the trick with your highest card"
        return lowest, "you cannot win this trick: play low"
    if following:
        under = [c for c in legal if strength[c] < strength[best]]
        if under:
            pick = max(under, key=strength.__getitem__)
            return PLAY[pick], "you want no tricks: play just under the winning card"
        if last:
            return highest, "the trick is yours anyway: get rid of your highest card"
        return lowest, "you cannot stay under: play your lowest card"
    return highest, "you cannot follow suit: throw your highest card"


# --- Tunge ---------------------------------------------------------------------------------------
def _tunge(seen: Seen, rng: random.Random) -> Hint:
    plays = [move for move in seen.legal if move.action == "play"]
    if not plays:
        move = seen.legal[0]
        if move.action == "pass":
            return move, "you have no play and nothing is left to draw: pass"
        return move, "you have no play: draw"
    view = seen.view
    assert isinstance(view, TungeView)
    size = len(view.hand or ())
    reference = view.reference
    ref = "".join("A" if r == PHANTOM else r for r in reference.ranks) if reference else ""
    distinct = view.pickup_count == "distinct_ranks"
    best = plays[0]
    best_score = -1e9
    best_matches = 0
    for move in plays:
        cards: tuple[str, ...] = move.get("cards")
        if len(cards) == size:
            return move, "play out your whole hand"
        ranks = "".join(card[0] for card in cards)
        matches = count_matches(ranks, ref, distinct)
        score = (
            sum(CARD_VALUES[card] for card in cards) + 3 * len(cards) - 12 * matches + rng.random()
        )
        if score > best_score:
            best, best_score, best_matches = move, score, matches
    if best_matches:
        return best, "shed the most points, even at the cost of a match"
    return best, "shed the most points (aces and courts first) without a match"


EXPLAINERS: dict[str, Callable[[Seen, random.Random], Hint]] = {
    "games.players.thunee": _thunee,
    "games.players.tarneeb": _tarneeb,
    "games.players.bidcards": _bidcards,
    "games.players.tunge": _tunge,
}
