"""Words a player reads: results that say why, the counting team by name, their not his,
and counts with the right plural."""

from __future__ import annotations

import random
import re

import pytest

from cogs.privacy import FORGOTTEN
from cogs.render import plural, table_embed
from games.registry import GAMES, all_games
from tests.cogs.test_render import played

VARIANTS = {  # where the texts that name a player's own come up: the last card, the exchange
    "thunee": {"last_card_trump": "always"},
    "tuppi": {"sooli_exchange": True},
}
PREFERRED = ("last_card", "sooli", "give", "return")  # the moves whose texts name a player's own
GAME_ENDERS = ("blind", "thunee", "royals")  # Thunee calls that may end a game in one hand
GENDERED = re.compile(r"\b(his|him|he|her|hers|she)\b", re.IGNORECASE)


def test_a_tuppi_game_decided_on_peaks_says_so() -> None:
    table, posts = played("tuppi/U7_tournament_peaks")
    headline = table_embed(table).description or ""
    assert "wins the game on the higher peak, 44 to 40. Final score: 0 to 28." in headline
    assert "Team A wins the game on the higher peak, 44 to 40, after 16 hands." in posts[-1]
    draw, posts = played("tuppi/U7_tournament_draw")
    assert "nobody wins on equal peaks, 40 to 40." in (table_embed(draw).description or "")
    assert "The game is a draw on equal peaks, 40 to 40, after 16 hands." in posts[-1]


def test_a_tuppi_game_won_on_the_target_needs_no_reason() -> None:
    table, posts = played("tuppi/U5_federation_game")
    assert "peak" not in (table_embed(table).description or "") + posts[-1]


@pytest.mark.parametrize(
    "example,counting",
    [("thunee/e01_exactly_105", "Team A"), ("thunee/e03_call_and_lose", "Team B")],
)
def test_a_thunee_hand_result_names_the_counting_team(example: str, counting: str) -> None:
    _, posts = played(example)
    assert f"Hand over: {counting}, the counting team, made" in posts[-1]


@pytest.mark.parametrize(
    "name",
    sorted(n for n, c in all_games().items() if c.__module__.split(".")[:2] != ["tests", "games"]),
)
def test_no_game_text_calls_a_player_he(name: str) -> None:
    """The rules summary, every option's help, and every event and prompt of random games:
    Thunee's last card call and blind calls included."""
    assert all_games()[name] in GAMES
    game_class = all_games()[name]
    for text in (game_class.summary_text, *(option.help for option in game_class.OPTIONS)):
        assert not GENDERED.search(text), text
    for seed in range(6):
        game = game_class.new(VARIANTS.get(name), seed=seed)
        rng = random.Random(seed)
        wanted = PREFERRED if seed % 2 else GAME_ENDERS  # half the games end in a blind call
        for _ in range(300):
            if game.status != "in_progress":
                break
            seat = rng.choice(game.to_act())
            legal = game.legal_moves(seat)
            preferred = [m for m in legal if m.action in wanted]
            lasting = [m for m in legal if m.action not in GAME_ENDERS]
            for event in game.apply(seat, rng.choice(preferred or lasting or legal)):
                assert not GENDERED.search(event.text), event.text
            view = game.view(seat)
            for text in (view.prompt, *view.lines):
                assert not GENDERED.search(text), text


def test_counts_take_the_right_plural() -> None:
    assert plural(1, "rated game") == "1 rated game" and plural(0, "result") == "0 results"
    one = FORGOTTEN.format(results=plural(1, "result"), seats=plural(1, "past table"))
    assert "1 result deleted" in one and "from 1 past table." in one


def test_a_blind_caller_picks_up_their_other_cards() -> None:
    """Random Thunee games with blind calls, until a blind caller picks up the set-aside cards."""
    thunee = all_games()["thunee"]
    for seed in range(300):
        game = thunee.new(seed=seed)
        rng = random.Random(seed)
        while game.status == "in_progress":
            seat = rng.choice(game.to_act())
            legal = game.legal_moves(seat)
            blind = [m for m in legal if m.action == "blind"]
            events = game.apply(seat, rng.choice(blind or legal))
            pickups = [e.text for e in events if e.kind == "blind_pickup"]
            if pickups:
                assert pickups[0].endswith("picks up their other cards."), pickups
                return
    raise AssertionError("no blind caller picked up their cards")
