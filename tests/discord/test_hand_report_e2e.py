"""'Report this hand': a player at the table reports a computer's card from a hand's result;
the position kept is the computer seat's own view, and it exports as a blunder-suite fixture."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from games.base import Deal, Move
from games.players.__main__ import main as players_cli
from games.players.reports import seen_of
from games.registry import get_game
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


async def test_a_player_reports_a_computers_card_once(
    fake_discord: FakeDiscord, running_bot: Any, tmp_path: Path
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

    menu = ok(await alice.click(post, "Report this hand"))
    assert menu.ephemeral and menu.message is not None
    (select,) = [c for c in menu.message.iter_components() if c.get("type") == 3]
    tricks = [o["value"] for o in select["options"]]
    assert tricks and all(o["label"].startswith("Trick ") for o in select["options"])
    chosen = ok(await alice.select(menu.message, select["custom_id"], [tricks[0]]))
    assert chosen.message is not None and f"Trick {tricks[0]}:" in chosen.text
    confirm = [b for b in chosen.message.buttons() if b["custom_id"].startswith("ct:rc:")]
    assert confirm
    thanks = ok(await alice.click(chosen.message, custom_id=confirm[-1]["custom_id"]))
    assert "Thank you" in thanks.text

    store = running_bot.sessions.store
    rows = await store.fetch("SELECT hand, trick, seat, reporter_id, position FROM hand_reports")
    assert [(r["trick"], r["reporter_id"]) for r in rows] == [(int(tricks[0]), alice.id)]
    position = json.loads(rows[0]["position"])
    # Exactly the computer seat's view then: the rules' own, rebuilt here from the database.
    row = await store.get_table(table_id)
    game = get_game("tarneeb").new(
        row.options,
        deals=[Deal.from_json(d) for d in await store.deals(table_id)],
        first_dealer=row.first_dealer,
    )
    moves = await store.moves(table_id)
    before = int(confirm[-1]["custom_id"].rsplit(":", 1)[1])
    assert moves[before].user_id is None, "a computer's card"
    for stored in moves[:before]:
        game.apply(stored.seat, Move.from_json(stored.move))
    seat = position["seat"]
    assert not cards_in(position) & game.hidden_cards(seat), "nothing the seat could not see"
    seen, played = seen_of(position)
    assert seen.view == game.view(seat) and played == Move.from_json(moves[before].move)

    menu = ok(await alice.click(post, "Report this hand"))
    assert menu.message is not None
    repeat = ok(await alice.select(menu.message, select["custom_id"], [tricks[0]]))
    assert "already reported" in repeat.text
    assert len(await store.fetch("SELECT 1 FROM hand_reports")) == 1

    # Exported, the report is a fixture the blunder suite reads.
    assert (
        players_cli(
            [
                "reports",
                "export",
                str(tmp_path / "out"),
                "--database",
                str(running_bot.settings.database_path),
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
    assert fake_discord.unknown_routes == [] and fake_discord.errors == []
