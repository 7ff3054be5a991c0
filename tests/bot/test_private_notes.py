"""A seat's "Only you see" notes belong to the deal they were made in.

Played through the real session manager on SQLite: four people at a table, each move a random
legal one, until a later deal has begun. The notes a hand shows are then exactly the private
events of the current deal, never last deal's trump card or bid.
"""

from __future__ import annotations

import random

import pytest

from bot.sessions import RECENT_EVENTS, SessionManager
from cogs.render import hand_embed
from games.base import Event

GAME_ENDERS = {"blind", "thunee", "royals"}  # Thunee calls that may end a game in one hand
PEOPLE = {101: "Alice", 202: "Bob", 303: "Carol", 404: "Dan"}


@pytest.mark.parametrize("game", ["tuppi", "thunee", "norwegian_whist"])
async def test_private_notes_are_cleared_at_every_deal(timed: SessionManager, game: str) -> None:
    host = next(iter(PEOPLE))
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=host, host_name=PEOPLE[host], game=game
    )
    for user, name in list(PEOPLE.items())[1:]:
        await timed.join(table.id, user, name)
    await timed.start(table.id, host)
    users = {table.seat_of(user): user for user in PEOPLE}
    rng = random.Random(8)
    this_deal: dict[int, list[str]] = {seat: [] for seat in users}
    noted_before = False  # some seat had a note when a new deal began
    deals = 0
    while deals < 4 and table.game is not None and table.game.status == "in_progress":
        seat = rng.choice(table.game.to_act())
        legal = table.game.legal_moves(seat)
        move = rng.choice([m for m in legal if m.action not in GAME_ENDERS] or legal)
        events: list[Event] = await timed.submit(table.id, users[seat], table.moves, move)
        for event in events:
            if event.kind == "new_deal":
                deals += 1
                noted_before = noted_before or any(this_deal.values())
                this_deal = {seat: [] for seat in users}
            for reader in event.to or ():
                this_deal[reader].append(event.text)
        for reader in users:
            assert list(table.private.get(reader, [])) == this_deal[reader][-RECENT_EVENTS:]
    assert noted_before, "the game made private notes in an earlier deal"
    for reader in users:
        shown = str(hand_embed(table, reader).to_dict())
        assert ("Only you see" in shown) == bool(this_deal[reader])
