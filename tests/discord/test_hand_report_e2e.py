"""'Report this hand': a player at the table reports a computer's card from a hand's result;
the position kept is the computer seat's own view, and it exports as a blunder-suite fixture."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bench import blunders
from bot.report_export import main as export_cli
from games.base import Deal, Game, Move
from games.players import seen_for
from games.registry import get_game
from games.reports import hand_plays, seen_of
from tests.conftest import start_bot, stop_bot
from tests.discord.table_driver import fill_with_computers, ok, open_table, start
from tests.discord.test_table_picture_e2e import play_first_offered
from tests.fakediscord import FakeDiscord, FakeUser, Message

SEED = 12  # a fixed deal: the same hand on every run
WAIT_SECONDS = 30.0
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def report_posts(user: FakeUser, table_id: int) -> list[Message]:
    return [
        m
        for m in user.visible_messages()
        if not m.is_ephemeral
        and f"Table #{table_id}" in m.content
        and any(b.get("label") == "Report this hand" for b in m.buttons())
    ]


def cards_in(data: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    return set(CARD.findall(json.dumps(data)))


async def judged_play(store: Any, table_id: int, upto: int) -> tuple[int, int]:
    """The (trick, moves before it) of the hand's first computer card that the blunder suite
    judges: the seat plays last to the trick and has a choice."""
    row = await store.get_table(table_id)
    moves = await store.moves(table_id)
    parsed = [(m.seat, Move.from_json(m.move)) for m in moves]

    def new() -> Game:
        deals = [Deal.from_json(d) for d in deals_json]
        return get_game(row.game).new(row.options, deals=deals, first_dealer=row.first_dealer)

    deals_json = await store.deals(table_id)
    for play in hand_plays(new(), parsed, upto):
        if moves[play.before].user_id is not None:
            continue
        game = new()
        for seat, move in parsed[: play.before]:
            game.apply(seat, move)
        if blunders.kinds_seen(seen_for(game, play.seat, "hard")):
            return play.trick, play.before
    raise AssertionError("no computer card of this hand has a mistake's shape to judge")


async def test_a_player_reports_a_computers_card_once(
    fake_discord: FakeDiscord, running_bot: Any, bot_env: dict[str, str], tmp_path: Path
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    running_bot.sessions.new_seed = lambda: SEED
    table_id = await open_table(fake_discord, alice, "tarneeb")
    await fill_with_computers(fake_discord, alice, table_id)
    await start(fake_discord, alice, table_id)
    table = running_bot.sessions.find(table_id)

    def alice_or_over() -> bool:
        over = running_bot.sessions.find(table_id) is not table
        return over or table.seat_of(alice.id) in table.waiting_for()

    while running_bot.sessions.find(table_id) is table:  # the whole game, then its reports
        await fake_discord.wait_for(alice_or_over, WAIT_SECONDS)
        if running_bot.sessions.find(table_id) is table:
            await play_first_offered(alice, table_id)
    await fake_discord.wait_for(lambda: report_posts(alice, table_id), WAIT_SECONDS)
    await fake_discord.quiet()
    post = report_posts(alice, table_id)[0]

    refused = ok(await bob.click(post, "Report this hand"))
    assert refused.ephemeral and "Only the players at this table" in refused.text

    # Alice reports a card the blunder suite can judge (a computer playing last to a trick,
    # with a choice): found by the test's oracle, the game replayed from the database.
    store = running_bot.sessions.store
    upto = int(
        next(b for b in post.buttons() if b.get("label") == "Report this hand")["custom_id"].rsplit(
            ":", 1
        )[1]
    )
    trick, before = await judged_play(store, table_id, upto)

    menu = ok(await alice.click(post, "Report this hand"))
    assert menu.ephemeral and menu.message is not None
    (select,) = [c for c in menu.message.iter_components() if c.get("type") == 3]
    tricks = [o["value"] for o in select["options"]]
    assert str(trick) in tricks and all(o["label"].startswith("Trick ") for o in select["options"])
    chosen = ok(await alice.select(menu.message, select["custom_id"], [str(trick)]))
    assert chosen.message is not None and f"Trick {trick}:" in chosen.text
    confirm = [b for b in chosen.message.buttons() if b["custom_id"].endswith(f":{before}")]
    assert len(confirm) == 1
    thanks = ok(await alice.click(chosen.message, custom_id=confirm[0]["custom_id"]))
    assert "Thank you" in thanks.text

    rows = await store.fetch("SELECT hand, trick, seat, reporter_id, position FROM hand_reports")
    assert [(r["trick"], r["reporter_id"]) for r in rows] == [(trick, alice.id)]
    position = json.loads(rows[0]["position"])
    # Exactly the computer seat's view then: the rules' own, rebuilt here from the database.
    row = await store.get_table(table_id)
    game = get_game("tarneeb").new(
        row.options,
        deals=[Deal.from_json(d) for d in await store.deals(table_id)],
        first_dealer=row.first_dealer,
    )
    moves = await store.moves(table_id)
    assert moves[before].user_id is None, "a computer's card"
    for stored in moves[:before]:
        game.apply(stored.seat, Move.from_json(stored.move))
    seat = position["seat"]
    assert not cards_in(position) & game.hidden_cards(seat), "nothing the seat could not see"
    seen, played = seen_of(position)
    assert seen.view == game.view(seat) and played == Move.from_json(moves[before].move)

    # After a restart the button still works; pressing again says it was reported.
    await stop_bot(running_bot)
    bot = await start_bot(bot_env)
    try:
        store = bot.sessions.store
        menu = ok(await alice.click(post, "Report this hand"))
        assert menu.message is not None
        repeat = ok(await alice.select(menu.message, select["custom_id"], [str(trick)]))
        assert "already reported" in repeat.text
        assert len(await store.fetch("SELECT 1 FROM hand_reports")) == 1

        # Exported, the report is a fixture the blunder suite reads.
        assert (
            export_cli(
                [
                    str(tmp_path / "out"),
                    "--database",
                    str(bot.settings.database_path),
                ]
            )
            == 0
        )
        (fixture,) = (tmp_path / "out").glob("*.json")
        assert seen_of(json.loads(fixture.read_text()))[0].view == seen.view

        # The game deleted: the button says so, and changes nothing.
        async with store.transaction() as db:
            await db.execute("DELETE FROM game_tables WHERE id = ?", (table_id,))
        gone = ok(await alice.click(post, "Report this hand"))
        assert gone.ephemeral and "no longer kept" in gone.text
        assert len(await store.fetch("SELECT 1 FROM hand_reports")) == 1
        assert fake_discord.unknown_routes == [] and fake_discord.errors == []
    finally:
        await stop_bot(bot)
