"""Every hand the bot can show fits what Discord accepts, in every game, size, phase and option.

A property over random games: each example draws a game, its options (table size included),
a seed and whether the table has hints, then plays random legal moves for a bounded number of
decisions. At every decision every seat's hand message is built by the function the cog sends
(:func:`cogs.play.hand_message`) and checked against the fake Discord's rules, which answer as
Discord does (five rows of at most five buttons, 25 options a menu, label and custom-id lengths,
embed field and total sizes). Every decision the engine offers must be on the seat's screen.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.sessions import LiveTable
from bot.store import SeatRow, TableRow
from cogs.card_faces import FACES, emoji_name
from cogs.hand_data import components_of
from cogs.hand_watch import STALE_NOTE
from cogs.play import hand_message, hand_parts
from cogs.render import sequence_ranks
from games.base import Option, OptionError
from games.registry import GAMES as OFFERED
from tests.fakediscord.limits import check_message

GAMES = {cls.name: cls for cls in OFFERED}  # the games the bot offers (not a test's own)
MAX_DECISIONS = 90  # per example: enough to reach play (and a short game's end), and fast
TABLE_ID = 9_999_999  # a long table number, for the longest custom ids
NAME = "W" * 32  # Discord's longest display name, of wide letters


def option_value(option: Option) -> st.SearchStrategy[Any]:
    if option.choices:
        return st.sampled_from(option.choices)
    if isinstance(option.default, bool):
        return st.booleans()
    if isinstance(option.default, int):
        low = option.minimum if option.minimum is not None else 0
        high = option.maximum if option.maximum is not None else low + 1000
        # Small values end games early (a game's last phase); the default plays long.
        return st.one_of(st.just(option.default), st.integers(low, min(high, low + 3)))
    return st.just(option.default)


def make_table(
    name: str, options: dict[str, Any], seed: int, hints: bool, computers: list[bool]
) -> LiveTable:
    """A table of this game in play, every seat with the longest name."""
    game = GAMES[name].new(options, seed=seed)
    row = TableRow(
        id=TABLE_ID,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=100,
        game=name,
        options=options,
        seed=seed,
        first_dealer=game.first_dealer,
        status="playing",
        turn_deadline=1_800_000_000,
        created_at=0,
        updated_at=0,
        hints=hints,
    )
    seats = {
        seat: SeatRow(TABLE_ID, seat, None if computer else 100 + seat, NAME, False)
        for seat, computer in enumerate(computers)
    }
    table = LiveTable(row, seats)
    table.game = game
    return table


@st.composite
def tables(draw: st.DrawFn) -> tuple[LiveTable, random.Random]:
    name = draw(st.sampled_from(sorted(GAMES)))
    options = {option.name: draw(option_value(option)) for option in GAMES[name].OPTIONS}
    try:
        seats = GAMES[name].seat_count(options)
        table = make_table(
            name,
            options,
            draw(st.integers(0, 2**31)),
            draw(st.booleans()),
            draw(st.lists(st.booleans(), min_size=seats, max_size=seats)),
        )
    except OptionError:
        assume(False)
        raise
    return table, random.Random(draw(st.integers(0, 2**31)))


def offered(components: list[dict[str, Any]]) -> set[str]:
    """The move codes a hand's buttons and menus offer."""
    codes = set()
    for row in components:
        for item in row["components"]:
            custom_id = str(item.get("custom_id", ""))
            if custom_id.startswith("ct:m:") and not item.get("disabled"):
                codes.add(custom_id.split(":", 4)[4])
            if custom_id.startswith("ct:s:"):
                codes |= {str(option["value"]) for option in item["options"]}
    return codes


def check_hand(table: LiveTable, seat: int, note: str | None, prefix: str = "") -> None:
    embed, view = hand_message(table, seat, note, prefix)
    components = view.to_components()
    parts = hand_parts(table, seat, prefix)  # hand_content's parts, without its embed again
    assert components_of(parts) == components, "the data a hand is sent as is its view's"
    body = {"embeds": [embed.to_dict()], "components": components, "flags": 64}
    errors = check_message(dict(body), creating=True, allow_ephemeral=True)
    assert not errors, f"{table.row.game} seat {seat}: {errors.summary()}"
    game = table.game
    assert game is not None
    if game.status != "in_progress" or prefix:
        return
    legal = game.legal_moves(seat)
    single = {move.code for move in legal if not move.get("cards")}
    missing = single - offered(components)
    assert not missing, f"{table.row.game} seat {seat}: not offered {sorted(missing)}"
    sequences = [move for move in legal if move.get("cards")]
    if sequences:  # each step of building one of them fits too
        ranks = sequence_ranks(random.Random(len(legal)).choice(sequences))
        for end in range(1, len(ranks) + 1):
            check_hand(table, seat, note, ranks[:end])


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(drawn=tables(), noted=st.booleans())
def test_every_hand_fits_discord_at_every_decision(
    drawn: tuple[LiveTable, random.Random], noted: bool
) -> None:
    table, rng = drawn
    game = table.game
    assert game is not None
    note = STALE_NOTE if noted else None
    for _ in range(MAX_DECISIONS):
        for seat in range(game.players):
            check_hand(table, seat, note)
        if game.status != "in_progress":
            break
        seat = rng.choice(game.to_act())
        events = game.apply(seat, rng.choice(game.legal_moves(seat)))
        table.moves += 1
        table.remember(events)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_hand_of_a_table_with_hints_fits_at_the_start(name: str) -> None:
    """The auction's hand with the Hint button (Egyptian Tarneeb's bids fill two menus)."""
    table = make_table(name, {}, 3, True, [False] * GAMES[name].seat_count({}))
    assert table.game is not None
    for seat in range(table.game.players):
        check_hand(table, seat, None)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_hand_with_card_pictures_is_sent_as_its_view_draws_it(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the card pictures known (each card button and sequence option has its emoji), the
    plain data a hand is sent as is what its view would send, through a whole game."""
    faces = {
        emoji_name(card): discord.PartialEmoji(name=emoji_name(card), id=1000 + index)
        for index, card in enumerate(c + s for s in "SHDC" for c in "23456789TJQKA")
    }
    monkeypatch.setattr(FACES, "emojis", faces)
    table = make_table(name, {}, 5, True, [False] * GAMES[name].seat_count({}))
    game, rng = table.game, random.Random(5)
    assert game is not None
    for _ in range(MAX_DECISIONS):
        for seat in range(game.players):
            check_hand(table, seat, None)
        if game.status != "in_progress":
            break
        seat = rng.choice(game.to_act())
        table.remember(game.apply(seat, rng.choice(game.legal_moves(seat))))
        table.moves += 1
