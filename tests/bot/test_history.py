"""The history queries and the transcript export, on real SQLite and PostgreSQL (bot/history.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import history
from bot.history import PAGE_SIZE, HistoryRefusal
from bot.sessions import SessionManager, UserError
from bot.store import Store
from games.__main__ import main as games_cli
from tests.bot.backends import BOTH, Backend, fetch
from tests.bot.faults import until
from tests.bot.played import finished_game, open_game, play_moves, session_manager

STORE_BACKENDS = BOTH

ALICE, BOB, CAROL = 1001, 1002, 1003
GUILD_A, GUILD_B = 11, 22


@pytest.fixture
async def sessions(backend: Backend) -> AsyncIterator[SessionManager]:
    async with session_manager(backend) as manager:
        yield manager


async def closed_table(store: Store, guild_id: int, game: str, host: int, name: str) -> int:
    """A finished table with a result but no moves: enough for listing and paging."""
    row = await store.create_table(
        guild_id=guild_id,
        channel_id=5,
        host_id=host,
        game=game,
        options={},
        seed=1,
        seats=[(host, name), (None, "🤖 Ada")],
    )
    await store.start_game(row.id, 0, [])
    await store.record_result(
        row, "finished", {"winners": [0], "score": [2, 1], "abandoned": False}, [(host, 0, True)]
    )
    return row.id


async def test_the_history_lists_this_servers_closed_games_newest_first(
    sessions: SessionManager,
) -> None:
    first = await finished_game(sessions, GUILD_A, [(ALICE, "Alice"), (BOB, "Bob")])
    second = await finished_game(sessions, GUILD_A, [(BOB, "Bob")])
    elsewhere = await finished_game(sessions, GUILD_B, [(ALICE, "Alice")])
    playing = await open_game(sessions, GUILD_A, [(CAROL, "Carol")])

    page = await history.history_page(sessions.store, GUILD_A)
    assert [g.table_id for g in page.games] == [second.id, first.id]
    assert not page.more and page.page == 0
    record = page.games[1]
    assert record.game == "tiny" and not record.abandoned
    assert [(s.seat, s.name, s.user_id) for s in record.seats] == [
        (0, "Alice", ALICE),
        (1, "Bob", BOB),
    ]
    assert first.game is not None
    outcome = first.game.outcome()
    assert outcome is not None
    assert record.score == outcome.score and record.winners == outcome.winners
    assert playing.id not in {g.table_id for g in page.games}, "a game in play is not listed"

    only_alice = await history.history_page(sessions.store, GUILD_A, user_id=ALICE)
    assert [g.table_id for g in only_alice.games] == [first.id]
    assert [g.table_id for g in (await history.history_page(sessions.store, GUILD_B)).games] == [
        elsewhere.id
    ]
    assert (await history.history_page(sessions.store, 999)).games == ()
    assert (await history.history_page(sessions.store, GUILD_A, game="thunee")).games == ()
    assert (await history.history_page(sessions.store, GUILD_A, user_id=2**70)).games == ()


async def test_an_abandoned_game_is_listed_as_abandoned(sessions: SessionManager) -> None:
    table = await open_game(sessions, GUILD_A, [(ALICE, "Alice")])
    await play_moves(sessions, table, limit=1)
    await sessions.cancel(table.id, 99, is_admin=True)  # a server manager's: unrated
    (record,) = (await history.history_page(sessions.store, GUILD_A)).games
    assert record.table_id == table.id and record.abandoned and record.winners == ()
    assert record.resigned is None


async def test_a_game_abandoned_alone_is_listed_as_resigned(sessions: SessionManager) -> None:
    table = await open_game(sessions, GUILD_A, [(ALICE, "Alice")])
    await play_moves(sessions, table, limit=1)
    await sessions.cancel(table.id, ALICE, is_admin=False)  # alone, rated: she resigns
    (record,) = (await history.history_page(sessions.store, GUILD_A)).games
    seat = next(s.seat for s in record.seats if s.user_id == ALICE)
    assert not record.abandoned and record.resigned == seat
    assert seat not in record.winners and len(record.winners) == len(record.seats) - 1


async def test_a_seat_that_changed_hands_lists_everyone_who_held_it(
    sessions: SessionManager,
) -> None:
    """Alice leaves mid-game and a computer finishes her seat: the history names both, in
    order, and lists the game among Alice's (she is rated for it) and to her as a viewer."""
    table = await open_game(sessions, GUILD_A, [(ALICE, "Alice"), (BOB, "Bob")])
    await play_moves(sessions, table, limit=1)
    seat = next(s for s, holder in table.seats.items() if holder.user_id == ALICE)
    await sessions.leave(table.id, ALICE)
    stand_in = table.seats[seat].name
    await play_moves(sessions, table)
    await until(lambda: table.row.status == "finished", "the result is kept")

    (record,) = (await history.history_page(sessions.store, GUILD_A)).games
    assert record.seat_count == 2
    assert record.names_of(seat) == ("Alice", stand_in)
    assert record.name_of(seat) == f"Alice → {stand_in}"
    assert record.name_of(1 - seat) == "Bob"
    mine = await history.history_page(sessions.store, GUILD_A, user_id=ALICE)
    assert [g.table_id for g in mine.games] == [table.id]
    blind = history.Viewer(ALICE, frozenset())  # she cannot view the channel, but she sat there
    assert [
        g.table_id for g in (await sessions.history_page(GUILD_A, 0, None, viewer=blind)).games
    ] == [table.id]
    await sessions.export(GUILD_A, table.id, blind)
    export = await history.export(sessions.store, GUILD_A, table.id)
    assert export.names[seat] == stand_in, "a replay names the seat's last holder"


async def test_pages_of_ten(sessions: SessionManager) -> None:
    store = sessions.store
    ids = [await closed_table(store, GUILD_A, "tiny", ALICE, "Alice") for _ in range(12)]
    await closed_table(store, GUILD_B, "tiny", ALICE, "Alice")
    first = await history.history_page(store, GUILD_A, 0)
    second = await history.history_page(store, GUILD_A, 1)
    assert len(first.games) == PAGE_SIZE and first.more
    assert len(second.games) == 2 and not second.more
    listed = [g.table_id for g in first.games + second.games]
    assert listed == sorted(ids, reverse=True), "newest first, each once, this server only"
    assert (await history.history_page(store, GUILD_A, 7)).games == ()
    with pytest.raises(HistoryRefusal):
        await history.history_page(store, GUILD_A, history.MAX_PAGE + 1)
    with pytest.raises(UserError):
        await sessions.history_page(GUILD_A, -1)


@pytest.mark.parametrize(
    ("game", "options", "humans"),
    [
        ("tiny", None, [(ALICE, "Alice"), (BOB, "Bob")]),
        ("norwegian_whist", "target=1", [(ALICE, "Alice")]),
        ("tunge", None, [(ALICE, "Alice")]),
        ("thunee", "balls_to_win=1", [(ALICE, "Alice"), (BOB, "Bob")]),
        ("tarneeb", "target=31", [(ALICE, "Alice")]),
        ("tarneeb_egyptian", "target=31", [(ALICE, "Alice")]),
        ("tuppi", "target=1", [(ALICE, "Alice")]),
    ],
)
async def test_the_export_replays_to_the_stored_final_score(
    sessions: SessionManager,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    game: str,
    options: str | None,
    humans: list[tuple[int, str]],
) -> None:
    table = await finished_game(sessions, GUILD_A, humans, game, options)
    rows = await fetch(sessions.store, "SELECT outcome FROM results WHERE table_id = ?", table.id)
    stored = json.loads(rows[0][0])

    exported = await sessions.export(GUILD_A, table.id)
    assert exported.filename == f"table-{table.id}-{game}.json"
    path = tmp_path / exported.filename
    path.write_bytes(exported.data())
    data = json.loads(path.read_text())
    assert data["format"] == 1 and data["game"] == game
    assert len(data["moves"]) == table.moves

    capsys.readouterr()
    assert games_cli(["replay", str(path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["status"] == "finished"
    assert replayed["score"] == stored["score"]


async def test_exports_that_are_refused(sessions: SessionManager) -> None:
    finished = await finished_game(sessions, GUILD_A, [(ALICE, "Alice")])
    playing = await open_game(sessions, GUILD_A, [(BOB, "Bob")])
    await play_moves(sessions, playing, limit=1)
    lobby = await sessions.create_table(
        guild_id=GUILD_A, channel_id=5, host_id=CAROL, host_name="Carol", game="tiny"
    )
    await sessions.cancel(lobby.id, CAROL, is_admin=False)

    with pytest.raises(UserError, match="still being played"):
        await sessions.export(GUILD_A, playing.id)  # by anyone, its own players included
    with pytest.raises(UserError, match="never started"):
        await sessions.export(GUILD_A, lobby.id)
    missing = f"no game #{finished.id} in this server"
    with pytest.raises(UserError, match=missing):
        await sessions.export(GUILD_B, finished.id)  # another server's game: as if missing
    for crafted in (0, -5, 10**6, 2**63, 10**40):
        with pytest.raises(UserError, match="no game #"):
            await sessions.export(GUILD_A, crafted)
    assert (await sessions.export(GUILD_A, finished.id)).table_id == finished.id


def test_export_refusal_by_status() -> None:
    assert history.export_refusal("finished", True) is None
    assert history.export_refusal("abandoned", True) is None
    assert history.export_refusal("playing", True) is not None
    assert history.export_refusal("lobby", False) is not None
    assert history.export_refusal("cancelled", False) is not None


async def test_a_viewer_sees_games_of_channels_they_can_view_and_their_own(
    sessions: SessionManager,
) -> None:
    """A table in a thread counts as played in the thread's channel: typed in a thread, or
    moved to its own thread from the channel where it was opened."""
    store = sessions.store
    in_thread = await store.create_table(
        guild_id=GUILD_A,
        channel_id=701,
        parent_channel_id=70,
        host_id=ALICE,
        game="tiny",
        options={},
        seed=1,
        seats=[(ALICE, "Alice")],
    )
    own_thread = await store.create_table(
        guild_id=GUILD_A,
        channel_id=80,
        host_id=BOB,
        game="tiny",
        options={},
        seed=1,
        seats=[(BOB, "Bob")],
    )
    await store.move_table(own_thread.id, 801)
    elsewhere = await closed_table(store, GUILD_A, "tiny", CAROL, "Carol")  # channel 5
    for row in (in_thread, own_thread):
        await store.start_game(row.id, 0, [])
        outcome = {"winners": [0], "score": [2, 1], "abandoned": False}
        await store.record_result(row, "finished", outcome, [(row.host_id, 0, True)])

    async def seen(viewer: history.Viewer, user_id: int | None = None) -> list[int]:
        page = await sessions.history_page(GUILD_A, 0, user_id, viewer=viewer)
        return [g.table_id for g in page.games]

    async def exported(viewer: history.Viewer) -> list[int]:
        tables = []
        for table_id in (in_thread.id, own_thread.id, elsewhere):
            try:
                await sessions.export(GUILD_A, table_id, viewer)
            except UserError as refusal:
                assert str(refusal) == f"There is no game #{table_id} in this server's history."
            else:
                tables.append(table_id)
        return tables

    everything = [elsewhere, own_thread.id, in_thread.id]
    assert await seen(history.Viewer(CAROL, frozenset({70, 80, 5}))) == everything
    assert await seen(history.Viewer(CAROL, frozenset({701, 801, 5}))) == everything
    assert await seen(history.Viewer(CAROL, frozenset({80}))) == [elsewhere, own_thread.id]
    assert await exported(history.Viewer(CAROL, frozenset({80}))) == [own_thread.id, elsewhere]
    assert await seen(history.Viewer(ALICE, frozenset())) == [in_thread.id]
    assert await seen(history.Viewer(ALICE, frozenset()), BOB) == []
    assert await seen(history.Viewer(BOB, frozenset({70})), ALICE) == [in_thread.id]
    assert await exported(history.Viewer(9, frozenset({999}))) == []
