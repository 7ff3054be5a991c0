"""Tunge's remembered references are exactly the ones computed afresh.

The engine remembers references by the last play or by the cards of the pile's longest viable
sequence (games.tunge.grammar); these tests compare them with fresh computations over piles built
to share their top cards and differ below.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from games.base import Move
from games.tunge import grammar
from games.tunge.engine import Tunge, play_move
from games.tunge.grammar import PHANTOM, Reference, longest_viable

RUN_RANKS = "23456789TJQK"


def played_with_clones(options: dict[str, object], seed: int) -> Iterator[Tunge]:
    """A random Tunge game after each of its moves; about one move in ten goes on in a clone."""
    game = Tunge.new(options, seed=seed)
    rng = random.Random(seed)
    while game.status == "in_progress":
        seat = rng.choice(game.to_act())
        game.apply(seat, rng.choice(game.legal_moves(seat)))
        if rng.random() < 0.1:
            game = game.clone()
        yield game


def fresh_reference(pile: list[str], contains: bool) -> Reference:
    """The pile's reference computed without any remembering."""
    shown = longest_viable(pile)
    real = len(shown) - (1 if shown and shown[0] == PHANTOM else 0)
    return Reference(shown, tuple(pile[len(pile) - real :]) if real else (), True, contains)


def sequence_pile(rng: random.Random) -> list[str]:
    """A pile of runs, groups and aces, so that long viable sequences sit on top."""
    pile: list[str] = []
    used: set[str] = set()
    for _ in range(rng.randint(1, 6)):
        kind = rng.random()
        if kind < 0.4:
            low = rng.randint(0, 10)
            letters = list(RUN_RANKS[low : rng.randint(low + 1, min(12, low + 9))])
            if rng.random() < 0.5:
                letters.reverse()
        elif kind < 0.7:
            letters = [rng.choice(RUN_RANKS)] * rng.randint(1, 4)
        else:
            letters = ["A"] * rng.randint(1, 3)
        for letter in letters:
            free = [letter + suit for suit in "SHDC" if letter + suit not in used]
            if free:
                card = rng.choice(free)
                used.add(card)
                pile.append(card)
    return pile


def test_remembered_pile_reference_equals_a_fresh_one() -> None:
    """Piles that share their top cards but differ below get their own reference."""
    rng = random.Random(11)
    for _ in range(4000):
        pile = sequence_pile(rng)
        contains = rng.random() < 0.5
        for depth in (len(pile), *range(1, len(pile))):  # the pile, then its tops
            top = pile[-depth:]
            got = Reference.of_pile(top, contains)
            want = fresh_reference(top, contains)
            assert (got.shown, got.cards, got.ranks, got.restriction) == (
                want.shown,
                want.cards,
                want.ranks,
                want.restriction,
            ), top


def test_a_long_run_on_top_is_not_confused_with_its_top_cards() -> None:
    """A run longer than the remembered top still reads the whole run."""
    run = ["2S", "3H", "4D", "5C", "6S", "7H", "8D"]
    for start in range(len(run) - 1):
        pile = ["KD", *run[start:]]
        assert Reference.of_pile(pile, False).cards == tuple(run[start:])
    assert Reference.of_pile(["9C", *run], False).cards == tuple(run)


def test_remembered_normal_reference_equals_a_fresh_one() -> None:
    for last_play in [(), ("7C", "8H", "9S"), ("AS", "AH"), ("AS", "5D")]:
        for contains in (False, True):
            got = Reference.normal(last_play, contains)
            assert got is Reference.normal(last_play, contains)
            assert (got.shown, got.cards, got.ranks, got.restriction) == (
                tuple(card[0] for card in last_play),
                last_play,
                "".join(card[0] for card in last_play),
                grammar.NO_RESTRICTION,
            )


def test_interned_play_moves_are_ordinary_moves() -> None:
    """play_move builds its Move through the slots; it is still an equal, hashable, frozen Move."""
    cards = ("7S", "8H", "9D")
    move = play_move(cards)
    assert move is play_move(cards)
    assert move == Move.of("play", cards=cards)
    assert hash(move) == hash(Move.of("play", cards=cards))
    assert move.code == "play;cards=[7S,8H,9D]"
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.action = "draw"  # type: ignore[misc]


# ------------------------------------------------------------------ the listing of plays
_SUIT = {card: grammar.SUIT_INDEX[card[1]] for card in grammar.DECK}.__getitem__


def listing_afresh(hand: list[str], rule: grammar.Restriction) -> list[tuple[str, ...]]:
    """The legal plays of a hand written plainly from its cards, without the rank masks and
    tables of the engine's listing (the same order: a faster listing must keep it)."""
    by: dict[int, list[str]] = {}
    for card in sorted(hand, key=_SUIT):
        by.setdefault(grammar.CARD_RANK[card], []).append(card)
    tails: list[tuple[tuple[str, ...], str]] = []
    for r in sorted(r for r in by if r < grammar.ACE and len(by[r]) > 1):
        for n in range(2, len(by[r]) + 1):
            tails.append((tuple(by[r][:n]), grammar.RANK_LETTERS[r] * n))
    r = 0
    while r < 12:
        if r in by:
            low = r
            while r < 12 and r in by:
                r += 1
            firsts = tuple(by[x][0] for x in range(low, r))
            letters = grammar.RANK_LETTERS[low:r]
            for i in range(len(firsts) - 1):
                for j in range(i + 2, len(firsts) + 1):
                    tails.append((firsts[i:j], letters[i:j]))
                    tails.append((firsts[i:j][::-1], letters[i:j][::-1]))
        else:
            r += 1
    aces = by.get(grammar.ACE, [])
    bad = rule.pairs
    tails = [(c, t) for c, t in tails if not any(t[i : i + 2] in bad for i in range(len(t) - 1))]
    plays = list(tails)
    singles = [((by[r][0],), grammar.RANK_LETTERS[r]) for r in sorted(by) if r < grammar.ACE]
    for k in range(1, len(aces) + 1):
        if k >= 2 and "AA" in bad:
            break
        prefix, pre = tuple(aces[:k]), "A" * k
        plays += [(prefix + c, pre + t) for c, t in tails + singles if "A" + t[0] not in bad]
        if k >= 2:
            plays.append((prefix, pre))
    return [cards for cards, ranks in plays if ranks not in rule.plays]


def test_the_listing_equals_one_made_plainly() -> None:
    """Random hands (with aces, groups and runs) under random end-game restrictions: the
    engine's listing is the plainly written one, in the same order (the oracle for work on the
    listing's speed)."""
    rng = random.Random(5)
    for _ in range(3000):
        hand = rng.sample(grammar.DECK, rng.randint(1, 14))
        pile = sequence_pile(rng)
        contains = rng.random() < 0.5
        ref = (
            Reference.of_pile(pile, contains)
            if rng.random() < 0.8
            else Reference.normal((), contains)
        )
        want = listing_afresh(hand, ref.restriction)
        assert grammar.enumerate_plays(hand, lambda ref=ref: ref) == want, (hand, ref.shown)


def test_the_hands_by_rank_follow_every_move_and_clone() -> None:
    """The per-seat rank index the listing reads is the index of the hand itself after every
    move of random games (plays, draws, pick-ups from stock and pile), in clones too."""

    for options in ({"players": 2}, {"players": 4, "pickup_count": "distinct_ranks"}):
        for seed in range(12):
            for game in played_with_clones(options, seed):
                for hand, index in zip(game.state.deal.hands, game.state.deal.ranked, strict=True):
                    fresh = grammar.RankIndex(hand)
                    assert (index.by, index.mask, index.multi) == (
                        fresh.by,
                        fresh.mask,
                        fresh.multi,
                    ), hand
                    assert index == fresh


def test_the_kept_status_follows_the_deals_in_games_and_clones() -> None:
    """``status`` is kept beside the state, not derived on each read: after every move of random
    matches (deals ending, the next one dealt, the game over), in clones too, and in an unseeded
    game waiting for ``add_deal``, it says what the state says."""
    from games.base import Deal

    def derived(game: Tunge) -> str:
        state = game.state
        if state.finished:
            return "finished"
        return "in_progress" if state.in_deal else "awaiting_deal"

    seen: set[str] = set()
    for seed in range(6):
        options = {"players": 2 + seed % 3, "match_target": 60, "turn_limit": 60}
        game = Tunge.new(options, seed=seed)
        rng = random.Random(seed)
        while game.status != "finished":
            seat = rng.choice(game.to_act())
            game.apply(seat, rng.choice(game.legal_moves(seat)))
            if rng.random() < 0.1:
                copy = game.clone()
                assert copy.status == game.status
                game = copy
            assert game.status == derived(game)
            seen.add(game.status)
    assert seen == {"in_progress", "finished"}

    dealt = Tunge.new({"players": 2, "match_target": 60, "turn_limit": 30}, seed=1)
    waiting = Tunge.new({"players": 2, "match_target": 60, "turn_limit": 30})
    assert waiting.status == derived(waiting) == "awaiting_deal"
    rng = random.Random(1)
    deal = dealt.deals[0]
    waiting.add_deal(Deal(deal.hands, deal.stock))
    assert waiting.status == derived(waiting) == "in_progress"
    while waiting.status == "in_progress":
        seat = rng.choice(waiting.to_act())
        waiting.apply(seat, rng.choice(waiting.legal_moves(seat)))
    assert waiting.clone().status == waiting.status == derived(waiting)
    assert waiting.status in ("awaiting_deal", "finished")


def test_the_end_games_reference_stack_follows_the_pile() -> None:
    """In the end game the deal keeps, per height of the pile, the reference the rules read (an
    Lvs found card by card): after every move of random games (plays, pile draws, pick-ups), in
    clones too, each agrees with the reference found afresh from the pile below that height."""

    def same(lvs: grammar.Lvs, pile: list[str], contains: bool) -> bool:
        fresh = Reference.of_pile(pile, contains)
        return (lvs.shown, lvs.ranks, lvs.restriction) == (
            fresh.shown,
            fresh.ranks,
            fresh.restriction,
        )

    checked = 0
    for options in (
        {"players": 4},
        {"players": 3, "pickup_count": "distinct_ranks", "endgame_repeat_rule": "contains"},
        {"players": 2, "variant": "face_up_start"},
    ):
        contains = options.get("endgame_repeat_rule") == "contains"
        for seed in range(8):
            for game in played_with_clones(options, seed):
                deal = game.state.deal
                if deal.stock or game.status != "in_progress":
                    assert not deal.stock or not deal.refs
                    continue
                assert len(deal.refs) == len(deal.pile) + 1
                assert deal.ref is deal.refs[-1]
                assert deal.refs[0] is grammar.Lvs.of((), contains)
                for height, lvs in enumerate(deal.refs):
                    assert same(lvs, deal.pile[:height], contains), deal.pile[:height]
                assert game.reference().shown == deal.ref.shown  # the view's, with the cards
                checked += 1
    assert checked > 1000


def test_the_normal_phases_reference_is_the_last_plays_ranks() -> None:
    """While the stock has cards the deal keeps the reference by rank letters alone (one per rank
    string); the view's reference, with the cards, says the same."""
    checked = 0
    for seed in range(6):
        for game in played_with_clones({"players": 2 + seed % 3}, seed):
            deal = game.state.deal
            if not deal.stock or game.status != "in_progress":
                continue
            ranks = "".join(card[0] for card in deal.last_play)
            assert deal.ref is Reference.of_ranks(ranks)
            fresh = game.reference()
            assert fresh.cards == deal.last_play
            assert (deal.ref.shown, deal.ref.ranks) == (fresh.shown, fresh.ranks)
            assert deal.ref.restriction == fresh.restriction == grammar.NO_RESTRICTION
            checked += 1
    assert checked > 100


def test_the_shared_events_stay_as_built() -> None:
    """The engine hands out prebuilt events (draws, passes, the end game's start) to every game:
    random games, their views, summaries and clones leave them exactly as they were built."""
    import copy

    from games.tunge import engine

    shared = (
        engine.STOCK_DRAWN,
        engine.YOU_DRAW,
        engine.PILE_DRAWN,
        engine.PASSED,
        engine.END_GAME,
    )
    built = copy.deepcopy(shared)
    kinds: set[str] = set()
    for options in ({"players": 2}, {"players": 4, "variant": "face_up_start"}):
        for seed in range(6):
            game = engine.Tunge.new(options, seed=seed)
            rng = random.Random(seed)
            while game.status == "in_progress":
                seat = rng.choice(game.to_act())
                kinds.update(
                    event.kind for event in game.apply(seat, rng.choice(game.legal_moves(seat)))
                )
                game.view(seat)
                if rng.random() < 0.05:
                    game = game.clone()
            game.summary()
    assert {"card_drawn", "end_game"} <= kinds
    assert shared == built, "an event shared between games was changed"
