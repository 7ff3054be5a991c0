"""The hard level's inference from the card play (games/search/card_reading.py).

- a card the normal player would not have played down-weights the hands it would not have
  played it from (the king under the partner's ace, when a low card of the suit was held);
- the other seats' true hands, played by the normal player, repeat every card read, where the
  plain sampler's hands often do not; the worlds drawn against the reading favour such hands;
- the same seed draws the same worlds;
- the reading depends only on the seat's own Seen (two tables differing in hidden cards alone
  give the same plays read and the same weights), and only the enabled games are read.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from games.base import Deal, Game, IllegalMove
from games.levels import choose_move
from games.players import tarneeb as tarneeb_player
from games.registry import all_games
from games.search import card_reading, hard
from games.search.card_reading import MISMATCH, Play, Reading, reading
from games.search.inference import bidding
from games.search.worlds import Knowledge, world
from games.tricks import PLAY
from tests.games.test_search import seen_of, twin_of

GAMES = all_games()
ENABLED = card_reading.GAMES  # as shipped
READ = ["tarneeb", "tuppi"]  # a game of each family with a light card play, read in these tests


@pytest.fixture(autouse=True)
def read_both(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both families read, whichever games the match runner has enabled."""
    monkeypatch.setattr(card_reading, "GAMES", frozenset(READ))


def king_under_ace() -> Reading:
    """Seat 2 followed its partner's master ace of spades (seat 0's lead, seat 1 followed low)
    with the king: the normal player would have played its lowest spade."""
    light = SimpleNamespace(hand=(), played=frozenset({"AS", "3S"}), trick=(), trump="H")
    trick = [(0, "AS"), (1, "3S")]
    light.trick = trick
    play = Play(2, light, trick, frozenset(), PLAY["KS"])
    return Reading(tarneeb_player.choose_play, {2: [play]})


def test_the_king_under_the_partners_ace_down_weights_a_held_low_spade() -> None:
    read = king_under_ace()
    rest = ["2H", "3H", "4H", "5D", "6D", "7D", "8C", "9C", "TC", "JC", "QC"]
    assert read.weight(2, ["KS", "5S", *rest]) == MISMATCH  # it would have played the five
    assert read.weight(2, ["KS", "QS", *rest]) == MISMATCH  # or the queen
    assert read.weight(2, ["KS", "AH", *rest]) == 1.0  # the king was its only spade
    assert read.weight(1, ["KS", "5S", *rest]) == 1.0  # nothing read of another seat


def test_a_tie_between_equal_cards_goes_the_way_of_the_card_played() -> None:
    """Seat 1 discarded on a club lead it could not follow: the normal player throws a lowest
    plain card (it holds no trump to win with), and the deuce of diamonds is as low as the deuce
    of spades."""
    trick = [(0, "AC")]
    light = SimpleNamespace(hand=(), played=frozenset({"AC"}), trick=trick, trump="H")
    read = Reading(
        tarneeb_player.choose_play, {1: [Play(1, light, trick, frozenset(), PLAY["2D"])]}
    )
    rest = ["3S", "4S", "5S", "6D", "7D", "8D", "9S", "TS", "JS", "QS", "KS"]  # no trump
    assert read.weight(1, ["2S", "2D", *rest]) == 1.0
    assert read.weight(1, ["2D", "2S", *rest]) == 1.0
    assert read.weight(1, ["AS", "2D", *rest]) == 1.0
    assert read.weight(1, ["2S", "4D", *rest[:-1], "2D"]) == 1.0


def normal_positions(name: str, seeds: range) -> list[tuple[Game, int]]:
    """Games played by the normal player a few tricks into the card play."""
    found: list[tuple[Game, int]] = []
    for seed in seeds:
        game = GAMES[name].new(seed=seed)
        rng = random.Random(seed)
        plays, stop = 0, 6 + seed % 24
        while game.status == "in_progress":
            seat = game.to_act()[0]
            if game.view(seat).phase in ("tricks", "play"):
                plays += 1
                if plays >= stop:
                    found.append((game, seat))
                    break
            game.apply(seat, choose_move(game, seat, rng))
    return found


@pytest.mark.parametrize("name", READ)
def test_the_normal_players_true_hands_repeat_every_card_read(name: str) -> None:
    true = plain = plain_total = 0
    for game, seat in normal_positions(name, range(20)):
        seen = seen_of(game, seat)
        knowledge = Knowledge.of(seen)
        read = reading(seen, knowledge)
        assert read is not None
        for other in read.plays:
            true += 1
            assert read.weight(other, game.deals[-1].hands[other]) == 1.0
            for draw in range(4):
                deal = knowledge.sample(random.Random(draw))
                if deal is not None:
                    plain_total += 1
                    plain += read.weight(other, deal.hands[other]) == 1.0
    assert true >= 40
    assert plain <= 0.8 * plain_total  # the reading tells the plain sampler's hands apart


def deviating_position() -> tuple[Game, int, int, str] | None:
    """A Tarneeb game in which a seat followed its partner's winning master card with its
    highest card of the suit while holding a lower one (the normal player plays the lowest),
    the next seat to act deciding: (game, the deciding seat, the deviating seat, the suit)."""
    for seed in range(60):
        game = GAMES["tarneeb"].new(seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = game.to_act()[0]
            view = game.view(seat)
            if view.phase == "tricks" and len(view.trick) == 2 and len(view.hand or ()) > 4:
                led = view.trick[0][1][1]
                suit = sorted(
                    (c for c in view.hand or () if c[1] == led),
                    key=tarneeb_player.RANK_VALUE.__getitem__,
                )
                normal = choose_move(game, seat, rng, "normal")
                if len(suit) >= 2 and normal == PLAY[suit[0]]:
                    game.apply(seat, PLAY[suit[-1]])
                    return game, game.to_act()[0], seat, led
            game.apply(seat, choose_move(game, seat, rng))
    return None


def test_a_real_deviation_weighs_the_true_hand_down() -> None:
    found = deviating_position()
    assert found is not None
    game, seat, deviated, _ = found
    seen = seen_of(game, seat)
    read = reading(seen, Knowledge.of(seen))
    assert read is not None
    last = read.plays[deviated][0]  # its most recent play: the high card
    assert not last.repeated(read.choose, game.deals[-1].hands[deviated])
    assert read.weight(deviated, game.deals[-1].hands[deviated]) == MISMATCH


@pytest.mark.parametrize("name", READ)
def test_worlds_drawn_against_the_reading_favour_hands_that_play_like_that(name: str) -> None:
    """Over positions played by the normal player, the worlds drawn against the reading give
    every read seat a hand that plays its cards far more often than those drawn without it."""
    inferred = plain = 0
    for game, seat in normal_positions(name, range(12)):
        seen = seen_of(game, seat)
        knowledge = Knowledge.of(seen)
        model = bidding(seen, knowledge)
        assert model is not None and model.plays is not None
        read = model.plays
        alone = bidding(seen, Knowledge.of(seen))
        assert alone is not None
        alone.plays = None  # the bidding alone, where the game has a model of it
        for draw in range(6):
            knowledge.bidding = model
            after = world(seen, knowledge, random.Random(draw))
            knowledge.bidding = alone if alone.calls else None
            before = world(seen, knowledge, random.Random(draw))
            for sample, count in ((after, 1), (before, 0)):
                if sample is None:
                    continue
                hands = sample.deals[-1].hands
                if all(read.weight(other, hands[other]) == 1.0 for other in read.plays):
                    inferred += count
                    plain += 1 - count
    assert inferred >= 1.5 * plain


@pytest.mark.parametrize("name", READ)
def test_the_same_seed_draws_the_same_read_worlds(name: str) -> None:
    for game, seat in normal_positions(name, range(4)):
        seen = seen_of(game, seat)
        decks: list[list[Deal | None]] = []
        for _ in range(2):
            knowledge = Knowledge.of(seen)
            knowledge.bidding = bidding(seen, knowledge)
            assert knowledge.bidding is not None and knowledge.bidding.plays is not None
            rng = random.Random(5)
            decks.append([knowledge.sample(rng) for _ in range(6)])
        assert decks[0] == decks[1]


def safe_twin(game: Game, seat: int) -> Game | None:
    """:func:`twin_of` for a game of one deal, ``None`` where the swap does not replay (a
    swapped card that was committed as a Tuppi bid card, say)."""
    if len(game.deals) != 1:
        return None
    try:
        return twin_of(game, seat)
    except IllegalMove:
        return None


@pytest.mark.parametrize("name", READ)
def test_the_reading_depends_only_on_the_seats_seen(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables with the same view and history for the seat, but other cards elsewhere, read
    the same plays and weigh every hand alike; the hard decision is the same."""
    monkeypatch.setattr(hard, "DEFAULT_BUDGET", hard.Budget(worlds=3, steps=0, min_worlds=3))
    checked = 0
    for game, seat in normal_positions(name, range(12)):
        twin = safe_twin(game, seat)
        if twin is None:
            continue
        assert twin.view(seat) == game.view(seat)
        assert twin.public_history(seat) == game.public_history(seat)
        assert any(twin.view(other) != game.view(other) for other in range(4))
        first, second = seen_of(game, seat), seen_of(twin, seat)
        read, twin_read = (reading(seen, Knowledge.of(seen)) for seen in (first, second))
        assert read is not None and twin_read is not None
        assert read.plays == twin_read.plays
        knowledge = Knowledge.of(first)
        for draw in range(10):
            deal = knowledge.sample(random.Random(draw))
            assert deal is not None
            for other in read.plays:
                hand = deal.hands[other]
                assert read.weight(other, hand) == twin_read.weight(other, hand)
        move = choose_move(game, seat, random.Random(99), "hard")
        assert choose_move(twin, seat, random.Random(99), "hard") == move
        checked += 1
    assert checked >= 4


def test_only_the_enabled_games_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    assert set(ENABLED) <= set(READ) | {"tarneeb_egyptian", "norwegian_whist"}  # light play
    game, seat = normal_positions("norwegian_whist", range(1))[0]
    seen = seen_of(game, seat)
    assert reading(seen, Knowledge.of(seen)) is None
    game, seat = normal_positions("tuppi", range(1))[0]
    seen = seen_of(game, seat)
    assert reading(seen, Knowledge.of(seen)) is not None
    monkeypatch.setattr(card_reading, "GAMES", frozenset())
    assert reading(seen, Knowledge.of(seen)) is None
    assert bidding(seen, Knowledge.of(seen)) is None  # nor is anything else, in Tuppi


def test_no_play_read_before_the_card_play() -> None:
    game = GAMES["tuppi"].new(seed=1)
    seen = seen_of(game, game.to_act()[0])
    assert reading(seen, Knowledge.of(seen)) is None
