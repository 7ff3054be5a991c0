"""Lobby and seating decisions under the table's lock and the server's lock; simultaneous bids;
the host's hand-over and idle lobbies. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.clock import ManualClock
from bot.sessions import LiveTable, SessionManager, UserError
from tests.bot.backends import BOTH
from tests.bot.conftest import Recorder
from tests.bot.faults import until

STORE_BACKENDS = BOTH

HOST, GUEST, THIRD, FOURTH = 101, 202, 303, 404

Action = Callable[[SessionManager, LiveTable], Awaitable[object]]


async def lobby(sessions: SessionManager, guild: int = 1, host: int = HOST) -> LiveTable:
    return await sessions.create_table(
        guild_id=guild, channel_id=2, host_id=host, host_name=f"P{host}", game="tiny"
    )


async def full_lobby(sessions: SessionManager) -> LiveTable:
    table = await lobby(sessions)
    await sessions.join(table.id, GUEST, "Guest")
    return table


RIVALS: dict[str, Action] = {
    "remove": lambda s, t: s.remove(t.id, HOST, 1, is_admin=False),
    "leave": lambda s, t: s.leave(t.id, GUEST),
    "cancel": lambda s, t: s.cancel(t.id, HOST, is_admin=False),
    "move": lambda s, t: s.move_seat(t.id, GUEST, 1),
}


@pytest.mark.parametrize("start_first", [True, False])
@pytest.mark.parametrize("rival", sorted(RIVALS))
async def test_start_and_a_lobby_action_at_once(
    timed: SessionManager, rival: str, start_first: bool
) -> None:
    table = await full_lobby(timed)
    actions = [lambda: timed.start(table.id, HOST), lambda: RIVALS[rival](timed, table)]
    if not start_first:
        actions.reverse()
    results = await asyncio.gather(*(action() for action in actions), return_exceptions=True)
    assert all(r is None or isinstance(r, (str, UserError)) for r in results), results
    started = table.game is not None  # then cancel abandons the running game
    stored = await timed.store.get_table(table.id)
    seats = await timed.store.seats(table.id)
    assert stored is not None and stored.status == table.row.status
    if started:
        assert len(table.seats) == 2 and table.game is not None
        if rival == "leave":  # leaving a running game hands the seat to a computer
            assert [s.user_id for s in seats] == [HOST, None] and table.seats[1].computer
        else:
            assert [s.user_id for s in seats] == [HOST, GUEST], "nobody unseated mid-game"
    else:
        assert table.game is None and table.row.status in ("lobby", "cancelled")
        assert len(await timed.store.deals(table.id)) == 0


async def test_double_click_on_start_gets_a_clear_answer(timed: SessionManager) -> None:
    table = await full_lobby(timed)
    results = await asyncio.gather(
        timed.start(table.id, HOST), timed.start(table.id, HOST), return_exceptions=True
    )
    assert results.count(None) == 1
    refusal = next(r for r in results if r is not None)
    assert isinstance(refusal, UserError) and "already started" in str(refusal)
    assert len(await timed.store.deals(table.id)) == 1


async def test_one_user_joining_two_lobbies_at_once_sits_at_one(timed: SessionManager) -> None:
    first = await lobby(timed, host=HOST)
    second = await lobby(timed, host=GUEST)
    results = await asyncio.gather(
        timed.join(first.id, THIRD, "T"), timed.join(second.id, THIRD, "T"), return_exceptions=True
    )
    assert results.count(None) == 1
    assert any(isinstance(r, UserError) and "already seated" in str(r) for r in results)
    seated = [t for t in (first, second) if t.seat_of(THIRD) is not None]
    assert len(seated) == 1
    rows = [s for t in (first, second) for s in await timed.store.seats(t.id) if s.user_id == THIRD]
    assert len(rows) == 1


async def test_three_new_tables_at_once_make_one(timed: SessionManager) -> None:
    results = await asyncio.gather(
        *(lobby(timed) for _ in range(3)), lobby(timed, guild=9), return_exceptions=True
    )
    made = [r for r in results if isinstance(r, LiveTable)]
    assert sorted(t.row.guild_id for t in made) == [1, 9], "one per server"
    assert sum(isinstance(r, UserError) for r in results) == 2
    assert await timed.store.count_open_tables() == 2


async def test_simultaneous_bids_are_all_fresh(timed: SessionManager) -> None:
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="A", game="tuppi"
    )
    for user in (GUEST, THIRD, FOURTH):
        await timed.join(table.id, user, f"P{user}")
    await timed.start(table.id, HOST)
    game = table.game
    assert game is not None and game.to_act() == (0, 1, 2, 3), "every seat bids at once"
    bids = {seat: game.legal_moves(seat)[0] for seat in range(4)}
    users = {seat: table.seats[seat].user_id for seat in range(4)}
    results = await asyncio.gather(
        *(timed.submit(table.id, users[s] or 0, 0, bids[s]) for s in range(4)),
        return_exceptions=True,
    )
    assert all(isinstance(r, list) for r in results), results
    stored = await timed.store.moves(table.id)
    assert sorted(m.seat for m in stored) == [0, 1, 2, 3], "four bids, none lost or doubled"
    assert table.moves == 4
    # A seat whose situation did change is out of date: its bid is in, its hand moved on.
    with pytest.raises(UserError, match="out of date"):
        await timed.submit(table.id, users[0] or 0, 0, bids[0])
    assert len(await timed.store.moves(table.id)) == 4


async def test_a_click_from_before_ones_situation_changed_is_stale(
    timed: SessionManager,
) -> None:
    table = await full_lobby(timed)
    await timed.start(table.id, HOST)
    game = table.game
    assert game is not None
    first = game.to_act()[0]
    await timed.submit(table.id, table.seats[first].user_id or 0, 0, game.legal_moves(first)[0])
    other = 1 - first
    assert table.game is not None
    move = table.game.legal_moves(other)[0]
    with pytest.raises(UserError, match="out of date"):  # seen when it was not their turn
        await timed.submit(table.id, table.seats[other].user_id or 0, 0, move)
    with pytest.raises(UserError, match="out of date"):  # from the future
        await timed.submit(table.id, table.seats[other].user_id or 0, 5, move)
    await timed.submit(table.id, table.seats[other].user_id or 0, 1, move)
    assert len(await timed.store.moves(table.id)) == 2


async def test_the_host_leaving_hands_the_lobby_on(timed: SessionManager) -> None:
    table = await full_lobby(timed)
    assert await timed.leave(table.id, HOST) == "You left the table."
    assert table.row.host_id == GUEST
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.host_id == GUEST
    assert any("hosts now" in text for text in table.recent)
    await timed.add_computer(table.id, GUEST)
    await timed.start(table.id, GUEST)
    assert table.row.status == "playing"


async def test_an_admin_removing_the_host_hands_the_lobby_on(timed: SessionManager) -> None:
    table = await full_lobby(timed)
    with pytest.raises(UserError, match="Leave"):
        await timed.remove(table.id, HOST, 0, is_admin=False)
    await timed.remove(table.id, THIRD, 0, is_admin=True)
    assert table.row.host_id == GUEST and table.seat_of(HOST) is None


async def test_the_last_person_leaving_closes_the_lobby(timed: SessionManager) -> None:
    table = await lobby(timed)
    await timed.add_computer(table.id, HOST)
    await timed.leave(table.id, HOST)
    assert table.id not in timed.tables
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "cancelled"
    assert timed.table_of_user(1, HOST) is None


async def test_an_idle_lobby_is_closed_and_says_why(
    timed: SessionManager, clock: ManualClock
) -> None:
    timed.lobby_idle_seconds = 600
    table = await lobby(timed)
    await clock.advance(400)
    await timed.join(table.id, GUEST, "Guest")  # activity: the lobby lives on
    await clock.advance(400)
    assert table.id in timed.tables
    await clock.advance(201)
    await until(lambda: table.id not in timed.tables, "the idle lobby closes")
    assert table.note is not None and "10 minutes without activity" in table.note
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "cancelled"
    recorder = timed.presenter
    assert isinstance(recorder, Recorder) and recorder.closed == [table.id]


async def test_a_started_table_is_not_closed_as_idle(
    timed: SessionManager, clock: ManualClock
) -> None:
    timed.lobby_idle_seconds = 600
    table = await full_lobby(timed)
    await timed.start(table.id, HOST)
    await clock.advance(601)
    await asyncio.sleep(0.01)
    assert table.row.status == "playing"
