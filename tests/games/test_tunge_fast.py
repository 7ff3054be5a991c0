"""The Tunge fast path (games/search/tunge_fast.py) against the engine's public interface: over
many random games, with every option that changes the deal, the same legal plays (as cards), the
same position after every move (every hand, the pile, the stock's size, the seat to act, the
reference) and the same end (winner and points)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.base import Move
from games.registry import all_games
from games.search import tunge_fast
from games.search.tunge_fast import Deal, Rules, normal_plays
from games.tunge.grammar import PHANTOM

TUNGE = all_games()["tunge"]
OPTIONS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 3, "pickup_count": "distinct_ranks"},
    {"players": 4, "forced_pickup_ends_turn": True},
    {"players": 2, "endgame_repeat_rule": "contains"},
    {"players": 4, "variant": "face_up_start"},
    {"players": 3, "variant": "face_up_start", "endgame_repeat_rule": "contains"},
    {"players": 2, "turn_limit": 60, "scoring": False},
]


def fast_deal(game: Any) -> Deal:
    """The fast path's deal of a freshly dealt engine game (read from its first deal)."""
    deal = game.deals[0]
    rules = Rules.of(game.options)
    first = (game.first_dealer + 1) % game.players
    if game.options["variant"] == "face_up_start":
        return Deal.start(rules, deal.hands, (), deal.stock, turn=first)
    return Deal.start(rules, deal.hands, tuple(reversed(deal.stock)), turn=first)


def assert_same_position(game: Any, deal: Deal) -> None:
    public = game.view(None)
    assert list(public.pile) == [tunge_fast.CARD_NAMES[card] for card in deal.pile]
    assert public.stock_size == len(deal.stock)
    assert tuple(public.hand_sizes) == tuple(deal.sizes)
    for seat in range(game.players):
        assert sorted(game.view(seat).hand) == sorted(deal.cards(seat))
    if public.reference is None:
        assert deal.reference()[0] == ""
    else:
        shown = "".join("A" if r == PHANTOM else r for r in public.reference.ranks)
        assert deal.reference() == (shown, public.reference.end_game)


def legal_of(deal: Deal) -> set[Move]:
    moves = {Move.of("play", cards=deal.play_cards(play)) for play in deal.plays()}
    if deal.can_draw():
        moves.add(Move("draw"))
    elif not moves:
        moves.add(Move("pass"))
    return moves


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
@pytest.mark.parametrize("seed", range(6))
def test_random_games_match_the_engine(options: dict[str, Any], seed: int) -> None:
    game = TUNGE.new(options, seed=seed)
    deal = fast_deal(game)
    rng = random.Random(seed)
    moves = 0
    while game.status == "in_progress":
        seat = game.to_act()[0]
        assert deal.turn == seat
        legal = game.legal_moves(seat)
        assert set(legal) == legal_of(deal), moves
        # mostly plays (the deal moves on), sometimes a draw
        plays = [move for move in legal if move.action == "play"]
        move = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
        events = game.apply(seat, move)
        if move.action == "play":
            letters = "".join(card[0] for card in move.get("cards"))
            deal.play(tunge_fast.play_of(letters))
        elif move.action == "draw":
            deal.draw()
        else:
            deal.pass_turn()
        moves += 1
        scored = [event for event in events if event.kind == "hand_scored"]
        if scored:
            assert deal.over
            assert tuple(scored[0].data["points"]) == deal.points
            assert scored[0].data["winner"] == deal.winner
            assert scored[0].data["blocked"] is None or deal.winner is None
            break
        assert not deal.over
        assert_same_position(game, deal)
    assert deal.over


def test_a_copy_is_independent() -> None:
    game = TUNGE.new({"players": 3}, seed=4)
    deal = fast_deal(game)
    copy = deal.copy()
    tunge_fast.random_playout(copy, random.Random(1))
    assert copy.over and not deal.over
    assert deal.sizes == [12, 12, 12] and len(deal.stock) == 16


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fast_normal_player_is_the_normal_player(players: int) -> None:
    """normal_plays names the move the normal player makes (ties: one of the tied plays)."""
    from games.players import Seen
    from games.players.tunge import choose

    for seed in range(4):
        game = TUNGE.new({"players": players}, seed=seed)
        deal = fast_deal(game)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = game.to_act()[0]
            seen = Seen(seat, game.view(seat), tuple(game.legal_moves(seat)))
            move = choose(seen, rng)
            out, best = normal_plays(deal)
            if move.action != "play":
                assert out is None and not best
            else:
                letters = "".join(card[0] for card in move.get("cards"))
                if out is not None:
                    assert len(letters) == out.size
                else:
                    assert letters in {play.letters for play in best}
            game.apply(seat, move)
            if move.action == "play":
                deal.play(tunge_fast.play_of("".join(card[0] for card in move.get("cards"))))
            elif move.action == "draw":
                deal.draw()
            else:
                deal.pass_turn()
        assert deal.over


def listed_plays(packed: int) -> list[str]:
    """A hand's plays in the fast path's order, listed the plain way (D.1.4): groups (by rank,
    then size), runs (by streak, start, length; up then down), then behind 1, 2, ... aces the
    groups, the runs, the single number ranks and (from two aces on) the aces alone."""
    counts = tunge_fast.rank_counts(packed)
    letters = tunge_fast.LETTERS
    groups = [letters[r] * n for r in range(12) for n in range(2, counts[r] + 1)]
    runs: list[str] = []
    r = 0
    while r < 12:
        low = r
        while r < 12 and counts[r]:
            r += 1
        streak = letters[low:r]
        for i in range(len(streak) - 1):
            for j in range(i + 2, len(streak) + 1):
                runs += [streak[i:j], streak[i:j][::-1]]
        r += r == low
    singles = [letters[r] for r in range(12) if counts[r]]
    plays = groups + runs
    for k in range(1, counts[tunge_fast.ACE] + 1):
        plays += ["A" * k + text for text in groups + runs + singles]
        plays += ["A" * k] if k >= 2 else []
    return plays


def test_a_hands_plays_are_listed_in_a_fixed_order() -> None:
    """The order matters beyond the set (the engine test compares sets): a random playout picks
    by index and the normal player takes the first of its ties, so the hard level's decisions
    depend on it."""
    rng = random.Random(15)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.randint(0, 26))
        packed = sum(1 << 3 * (card >> 2) for card in cards)
        assert [play.letters for play in tunge_fast.tails_of(packed)] == listed_plays(packed)


def stepped_playout(deal: Deal, rng: random.Random) -> int:
    """random_playout's moves made one by one through Deal's own methods (its rejection
    sampling in the end game, the same random numbers)."""
    moves = 0
    while not deal.over:
        tails = tunge_fast.tails_of(deal.counts[deal.turn])
        if deal.stock or not tails or not deal.pile:
            count = len(tails) + deal.can_draw()
            index = int(rng.random() * count) if count else -1
            if index < 0:
                deal.pass_turn()
            elif index < len(tails):
                deal.play(tails[index])
            else:
                deal.draw()
        else:
            ranks = deal.reference()[0]
            while True:
                index = int(rng.random() * (len(tails) + 1))
                if index == len(tails):
                    deal.draw()
                    break
                if tunge_fast.allowed(
                    tails[index], tunge_fast.restriction(ranks, deal.rules.contains)
                ):
                    deal.play(tails[index])
                    break
        moves += 1
    return moves


def state_of(deal: Deal) -> tuple[Any, ...]:
    fields = ("hands", "counts", "sizes", "stock", "pile", "turn", "last", "passes", "turns")
    return (
        *(getattr(deal, name) for name in fields),
        deal.zobrist,
        deal.positions,
        deal.points,
        deal.winner,
    )


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_random_playout_is_the_deals_own_moves(options: dict[str, Any]) -> None:
    """random_playout (written out on local variables) makes the moves Deal's methods make,
    from the deal's start and from positions part-way through, drawing the same numbers."""
    for seed in range(12):
        deal = fast_deal(TUNGE.new(options, seed=seed))
        walk = random.Random(seed)
        for step in range(400):
            if deal.over:
                break
            if step % 20 == 0:
                fast, slow = deal.copy(), deal.copy()
                fast_rng, slow_rng = random.Random(step), random.Random(step)
                assert tunge_fast.random_playout(fast, fast_rng) == stepped_playout(slow, slow_rng)
                assert state_of(fast) == state_of(slow)
                assert fast_rng.random() == slow_rng.random()
            tunge_fast.normal_step(deal, walk)


def test_a_window_of_four_ranks_gives_the_whole_piles_reference() -> None:
    """random_playout reads the end game's reference from a table by the pile's top four ranks
    when they decide it; that is the reference walked over the whole pile, and an LVS the window
    cannot decide reaches at least its bottom card."""
    rng = random.Random(15)
    tables = tunge_fast._tables(False, False)
    decided = deeper = 0
    for _ in range(5000):
        ranks = [rng.randrange(13)]
        for _ in range(rng.randint(3, 12)):  # runs, groups and aces much more than by chance
            step = rng.choice([-1, 0, 1, 1, 5, tunge_fast.ACE])
            ranks.append(step if step == tunge_fast.ACE else (ranks[-1] + step) % 12)
        pile = [4 * r + rng.randrange(4) for r in ranks]
        bottom, third, second, top = window = pile[-4:]
        verdicts = tables.windows[top][second][third][bottom]
        if verdicts is None:
            verdicts = tunge_fast._window(tables, window)
        if verdicts is tunge_fast.DEEPER:
            deeper += 1
            assert tunge_fast.lvs_start(pile) <= len(pile) - 4
        else:
            decided += 1
            assert verdicts.ranks == tunge_fast._lvs_ranks(pile)
            assert verdicts.rule == tunge_fast.restriction(verdicts.ranks, False)
        for suit in range(4):  # a rank's cards share the entry
            other = 4 * (bottom >> 2) + suit
            assert tables.windows[top][second][third][other] is verdicts
    assert decided > 1000 and deeper > 100


EDGES = {
    # nobody holds a play and there is nothing to draw: everyone passes
    "passes": (["2S", "4S", "6S"], ["3H", "5H", "7H"], [], [], 0),
    # the last card of the stock is drawn by the move that reaches the turn limit
    "stock out at the limit": (["2S", "4S", "6S"], ["3H", "5H", "7H"], ["9C"], ["KD"], 59),
    # the last card of the stock is drawn well before the limit
    "stock out": (["2S", "4S", "6S"], ["3H", "5H", "7H"], ["9C"], ["KD"], 0),
    # the end game's last move before the limit
    "end game at the limit": (["2S", "3S", "AS"], ["5H", "6H", "AH"], [], ["KD", "QD"], 59),
    # a pile shorter than the end game's window of four cards
    "short pile": (["2S", "3S", "4S", "AS"], ["5H", "6H", "7H", "AH"], [], ["KD", "KC"], 0),
}


@pytest.mark.parametrize("edge", EDGES, ids=str)
def test_random_playout_at_the_edges(edge: str) -> None:
    """The ends a random game rarely reaches: every seat passing, the stock running out on the
    move that reaches the turn limit (that position is not counted), a short pile."""
    first, second, stock, pile, turns = EDGES[edge]
    rules = Rules(2, False, False, False, True, 60)
    for seed in range(20):
        deal = Deal.start(rules, [first, second], stock, pile, turns=turns)
        fast, slow = deal.copy(), deal.copy()
        fast_rng, slow_rng = random.Random(seed), random.Random(seed)
        assert tunge_fast.random_playout(fast, fast_rng) == stepped_playout(slow, slow_rng)
        assert state_of(fast) == state_of(slow)
        assert fast_rng.random() == slow_rng.random()
