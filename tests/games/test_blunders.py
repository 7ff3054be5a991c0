"""The blunder suite: the shapes of clear mistakes, their double-dummy verdicts, and the hard
level's natural play where its search cannot tell the cards apart."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from bench import blunders as bench
from bench import hard_today
from games.levels import choose_move
from games.players import Seen, bidcards, seen_for, tarneeb, thunee
from games.players.blunders import Spot, chances, natural, spot, table_of
from games.search.budget import preferred
from games.search.confirm import verdict
from games.tricks import PLAY


def seen(game: str, seat: int, hand: str, trick: str, **view: Any) -> Seen:
    """A decision from a hand-built view: ``trick`` lists the cards in order from seat
    ``seat - len(trick)``; every card of ``hand`` that follows the suit led is legal."""
    cards = trick.split()
    first = (seat - len(cards)) % view.pop("players", 4)
    played = tuple(((first + index) % 4, card) for index, card in enumerate(cards))
    mine = hand.split()
    follow = [card for card in mine if cards and card[1] == cards[0][1]]
    legal = tuple(PLAY[card] for card in (follow or mine))
    fields: dict[str, Any] = {"players": 4, "trump": None, "played": (), **view}
    namespace = SimpleNamespace(game=game, hand=tuple(mine), trick=played, **fields)
    return Seen(seat, namespace, legal)  # type: ignore[arg-type]


def shape(decision: Seen, card: str) -> Spot | None:
    table = table_of(decision)
    assert table is not None
    return spot(table, card)


def test_overtaking_the_partners_winning_trick_is_shaped_and_the_low_card_is_not() -> None:
    decision = seen("tarneeb", 3, "AS 3S 7D", "5S KS 9S", trump="H")
    assert shape(decision, "AS") == Spot("overtake", "AS", "3S")
    assert shape(decision, "3S") is None


def test_ruffing_the_partners_winning_trick_is_shaped() -> None:
    decision = seen("tarneeb", 3, "4H 7D", "5S KS 9S", trump="H")
    assert shape(decision, "4H") == Spot("ruff", "4H", "7D")
    assert shape(decision, "7D") is None


def test_winning_higher_than_needed_is_shaped_unless_the_cards_are_equivalent() -> None:
    decision = seen("tarneeb", 3, "AS JS 3S", "9S 5S 4S", trump="H")
    assert shape(decision, "AS") == Spot("overwin", "AS", "JS")  # KS, QS still out
    assert shape(decision, "JS") is None
    played = seen("tarneeb", 3, "AS JS 3S", "9S 5S 4S", trump="H", played=("KS",))
    assert shape(played, "AS") == Spot("overwin", "AS", "JS")  # QS still out
    equal = seen("tarneeb", 3, "AS QS JS", "9S 5S 4S", trump="H", played=("KS",))
    assert shape(equal, "AS") is None  # nothing out between the ace and the jack


def test_taking_a_trick_in_a_low_hand_is_shaped_when_a_card_would_lose_it() -> None:
    decision = seen("tuppi", 3, "KS 8S 2D", "5S 9S 4S", hand_type="nolo", soloist=None)
    assert shape(decision, "KS") == Spot("low_take", "KS", "8S")
    assert shape(decision, "8S") is None
    high = seen("tuppi", 3, "KS 8S 2D", "9S 5S 4S", hand_type="rami", soloist=None)
    assert shape(high, "KS") is None  # a high hand: winning the trick cheaply is right


def test_thunee_ruffing_the_partner_and_giving_points_are_shaped() -> None:
    view = {"contract": "normal", "trump": "H", "tricks": ()}
    ruff = seen("thunee", 3, "QH AD", "KS JS QS", **view)
    assert shape(ruff, "QH") == Spot("ruff", "QH", "AD")  # feed the partner's trick instead
    points = seen("thunee", 3, "AD KD QC", "JS KS 9S", **view)
    table = table_of(points)
    assert table is not None and chances(table) == ["points"]
    assert shape(points, "AD") == Spot("points", "AD", "QC")
    assert shape(points, "QC") is None


def test_only_the_last_seat_of_a_trick_is_judged() -> None:
    decision = seen("tarneeb", 2, "AS 3S", "5S KS", trump="H")
    table = table_of(decision)
    assert table is not None and chances(table) == []
    assert natural(decision) == {}


def test_natural_names_the_card_to_play_instead() -> None:
    """The hard level plays the natural card instead of a shaped one (games.search.hard)."""
    decision = seen("tarneeb", 3, "AS 3S 7D", "5S KS 9S", trump="H")
    assert natural(decision) == {PLAY["AS"]: PLAY["3S"]}


def test_the_normal_card_stays_unless_beaten_by_two_standard_errors() -> None:
    best, normal = PLAY["AS"], PLAY["3S"]
    values = {best: [1.0, 0.0, 1.0, 1.0, 0.0, 1.0], normal: [0.0, 0.0, 1.0, 0.0, 0.0, 1.0]}
    assert hard_today.preferred(values, normal, hard_today.CONFIDENCE) == best
    assert preferred(values, normal, 2.0) == normal
    equal = {best: [1.0, 1.0], normal: [1.0, 1.0]}
    assert preferred(equal, normal, 2.0) == normal


@pytest.fixture(scope="module")
def tarneeb_positions() -> list[bench.Position]:
    return bench.positions("tarneeb", 15, seed=3, kinds=("ruff", "endgame"))


def test_double_dummy_confirms_a_ruff_of_the_partners_trick_late_in_the_hand(
    tarneeb_positions: list[bench.Position],
) -> None:
    """Late in a hand (the worlds solved exactly), ruffing the partner's sure trick costs a
    trump; the ruff's verdict against itself gains nothing."""
    judged = mistakes = 0
    for position in tarneeb_positions:
        decision = seen_for(position.game, position.seat, "hard")
        table = table_of(decision)
        if table is None or "ruff" not in position.kinds:
            continue
        ruffs = [
            card for card in table.legal if (found := spot(table, card)) and found.kind == "ruff"
        ]
        for card in ruffs:
            found = spot(table, card)
            assert found is not None
            judgement = verdict(
                decision, PLAY[card], PLAY[found.better], True, random.Random(1), 12
            )
            if not judged:  # a card against itself, once: the verdict's zero
                same = verdict(decision, PLAY[card], PLAY[card], True, random.Random(1), 12)
                assert same.gain == 0 and not same.mistake
            judged += 1
            mistakes += judgement.mistake
            assert judgement.gain >= 0 or not judgement.mistake
    assert judged >= 2
    assert mistakes >= 1


def test_the_next_to_last_trick_is_judged_exactly(tarneeb_positions: list[bench.Position]) -> None:
    endgames = [position for position in tarneeb_positions if "endgame" in position.kinds]
    assert endgames
    for position in endgames[:4]:
        decision = seen_for(position.game, position.seat, "hard")
        for move in decision.legal:
            found = bench.judge(position, move, 8, "t", {})
            assert found.chances["endgame"] == 1


def test_the_hard_level_plays_no_shaped_card_where_the_old_rule_did() -> None:
    """Seeded positions where the hard level as it was overtook, ruffed or won higher than
    needed: the hard level now plays the natural card there."""
    old_shaped = new_shaped = 0
    for position in bench.positions("tarneeb", 15, seed=5, kinds=("overtake", "ruff", "overwin")):
        if not set(position.kinds) & {"overtake", "ruff", "overwin"}:
            continue
        rng = random.Random(f"{position.seat}")
        old = hard_today.choose_move(position.game.clone(), position.seat, rng, "hard-today")
        if not sum(bench.judge(position, old, 12, "s", {}).shaped.values()):
            continue
        old_shaped += 1
        rng = random.Random(f"{position.seat}")
        new = hard_today.choose_move(position.game.clone(), position.seat, rng, "hard")
        counts = bench.judge(position, new, 12, "s", {})
        new_shaped += sum(counts.shaped.values())
    assert old_shaped >= 1
    assert new_shaped == 0


@pytest.mark.parametrize("name", ["tuppi", "thunee"])
def test_a_bounded_run_of_the_hard_level_keeps_each_rate_at_most_one_percent(name: str) -> None:
    """Every kind the game shows: at most 1% of its chances shaped (none, in a small sample),
    and none confirmed a mistake."""
    results = bench.run(name, ["hard"], 5, worlds=8, seed=1)
    counts = results["hard"]
    assert sum(counts.chances.values()) >= 15
    for kind in counts.chances:
        assert counts.mistakes[kind] <= 0.01 * counts.chances[kind], kind
        if kind != "endgame":
            assert counts.shaped[kind] <= 0.01 * counts.chances[kind], kind


@pytest.mark.parametrize("name", ["tarneeb", "tuppi"])
def test_the_normal_player_solves_the_next_to_last_trick(name: str) -> None:
    """Seeded next-to-last tricks: the heuristic's own card is faulted by the double-dummy
    verdict in some of them, the normal player's card (counting the tricks played) in none."""
    old_mistakes = judged = 0
    for position in bench.positions(name, 20, seed=2, kinds=("endgame",)):
        if "endgame" not in position.kinds:
            continue
        decision = seen_for(position.game, position.seat, "normal")
        table = table_of(decision)
        assert table is not None and decision.history
        view: Any = decision.view
        usual = (tarneeb if name == "tarneeb" else bidcards).choose_play(
            position.seat, view, decision.legal
        )
        new = choose_move(position.game.clone(), position.seat, random.Random(1), "normal")
        judged += 1
        old_mistakes += bench.judge(position, usual, 16, "e", {}).mistakes["endgame"]
        assert not bench.judge(position, new, 16, "e", {}).mistakes["endgame"]
    assert judged >= 10
    assert old_mistakes >= 1


def test_thunee_feeds_the_partners_trick_without_overtaking_it() -> None:
    """Playing last to the partner's trick, the normal player feeds it its richest plain card
    that does not take the trick from him (the jack would: the ten is fed instead)."""
    trick = [(0, "QS"), (1, "9S"), (2, "KS")]
    card = thunee.card_for(
        3,
        ["JS", "TS", "QD"],
        trick,
        ["JS", "TS"],
        trump="H",
        contract="normal",
        caller=None,
        played={"QS", "9S", "KS"},
        players=4,
    )
    assert card == ("TS", "feed")


def test_a_card_that_cannot_be_helped_is_no_blunder() -> None:
    """Only a choice can be a mistake: when every legal card takes the trick, taking it (or
    overtaking the partner) is forced; and a seat that cannot judge is not judged."""
    forced_low = seen("tuppi", 3, "KS AS", "5S 9S 4S", hand_type="nolo", soloist=None)
    assert shape(forced_low, "KS") is None
    forced_over = seen("tarneeb", 3, "AS", "5S KS 9S", trump="H")
    assert shape(forced_over, "AS") is None
    assert table_of(seen("tarneeb", 3, "AS 3S", "5S KS 9S")) is None, "trump not named yet"
    defender = seen("tuppi", 3, "KS 8S", "5S 9S 4S", hand_type="sooli", soloist=1)
    assert table_of(defender) is None, "a sooli defender wants the soloist to take tricks"
    assert table_of(seen("tunge", 3, "AS", "5S 9S 4S")) is None, "not a trick game"
