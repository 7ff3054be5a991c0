"""``forget_user`` on real SQLite and PostgreSQL: nothing of the person stays outside open tables,
and their game in progress plays on (bot/privacy.py)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import asyncpg
import pytest

from bot import history, privacy
from bot.privacy import FORMER_PLAYER, forget_user
from bot.sessions import SessionManager
from bot.store import Store, TurnPing, load_migrations
from bot.store.postgres import PostgresStore
from bot.tournaments.spec import TournamentSpec
from games.transcript import replay
from tests.bot.backends import BOTH, POSTGRES, Backend, fetch
from tests.bot.faults import until
from tests.bot.played import finished_game, open_game, play_moves, session_manager

STORE_BACKENDS = BOTH

# An id no seed, count or time in the database could equal by chance.
ALICE = 987_654_321_012_345_678
BOB, CAROL = 1002, 1003
GUILD_A, GUILD_B = 11, 22


@pytest.fixture
async def sessions(backend: Backend) -> AsyncIterator[SessionManager]:
    async with session_manager(backend) as manager:
        yield manager


async def mentions(store: Store, value: object) -> list[tuple[str, str, int | None]]:
    """Every (table, column, game table) of the database whose value is ``value``, or whose
    text contains it (the game table None for a row of no table)."""
    if isinstance(store, PostgresStore):
        tables = await fetch(
            store,
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name != 'schema_migrations'",
        )
        match = "strpos({column}::text, ?::text) > 0"
        value = str(value)
    else:
        tables = await fetch(
            store,
            "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c"
            " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
        )
        match = "({column} = ?1 OR instr(CAST({column} AS TEXT), CAST(?1 AS TEXT)) > 0)"
    columns: dict[str, list[str]] = {}
    for table, column in tables:
        columns.setdefault(str(table), []).append(str(column))
    found = []
    for table, names in columns.items():
        key = "id" if table == "game_tables" else "table_id" if "table_id" in names else "NULL"
        for column in names:
            rows = await fetch(
                store, f"SELECT {key} FROM {table} WHERE {match.format(column=column)}", value
            )
            found += [(table, column, row[0]) for row in rows]
    return found


async def test_forget_leaves_nothing_but_the_game_in_progress(sessions: SessionManager) -> None:
    together = await finished_game(sessions, GUILD_A, [(ALICE, "Alice"), (BOB, "Bob")])
    alone = await finished_game(sessions, GUILD_B, [(ALICE, "Alice")])
    bobs = await finished_game(sessions, GUILD_A, [(BOB, "Bob")])
    quit_early = await open_game(sessions, GUILD_A, [(ALICE, "Alice"), (CAROL, "Carol")])
    await play_moves(sessions, quit_early, limit=1)
    await sessions.cancel(quit_early.id, ALICE, is_admin=True)  # abandoned by a manager
    playing = await open_game(sessions, GUILD_A, [(ALICE, "Alice")])
    await play_moves(sessions, playing, limit=1)
    before = [await sessions.export(GUILD_A, t.id) for t in (together, bobs)]
    moves_in_play = await sessions.store.moves(playing.id)
    assert any(m.user_id == ALICE for m in moves_in_play)

    forgotten = await sessions.forget(ALICE)
    assert forgotten.results == 3  # two finished games and the abandoned one
    assert forgotten.seats == 3 and forgotten.moves >= 3 and forgotten.hosted == 3

    # The leaderboard and the stats (today's Store.leaderboard) of every server.
    for guild in (GUILD_A, GUILD_B):
        assert ALICE not in {row.user_id for row in await sessions.store.leaderboard(guild)}
    assert [r.user_id for r in await sessions.store.leaderboard(GUILD_A)] == [BOB]
    # The history: her games are listed for the others, without her.
    for guild in (GUILD_A, GUILD_B):
        assert (await sessions.history_page(guild, 0, ALICE)).games == ()
        for record in (await sessions.history_page(guild, 0)).games:
            assert ALICE not in {s.user_id for s in record.seats}
            assert "Alice" not in {s.name for s in record.seats}
    (record,) = [
        g for g in (await sessions.history_page(GUILD_A, 0)).games if g.table_id == together.id
    ]
    assert [s.name for s in record.seats] == [FORMER_PLAYER, "Bob"]
    assert [g.table_id for g in (await sessions.history_page(GUILD_A, 0, BOB)).games] == [
        bobs.id,
        together.id,
    ]
    # The games themselves are unchanged: others' history.
    after = [await sessions.export(GUILD_A, t.id) for t in (together, bobs)]
    assert [e.transcript for e in after] == [e.transcript for e in before]
    assert replay(after[0].transcript)["status"] == "finished"
    assert (await sessions.export(GUILD_B, alone.id)).transcript["moves"]

    # Nothing of her anywhere in the database, but at the table she is playing at now.
    left = await mentions(sessions.store, ALICE)
    assert left, "the open table still knows her"
    assert {table_id for _, _, table_id in left} == {playing.id}
    assert {s.user_id for s in await sessions.store.seats(playing.id)} >= {ALICE}
    # (her moves kept as they were; a computer seat may have moved since)
    assert (await sessions.store.moves(playing.id))[: len(moves_in_play)] == moves_in_play

    # Her game goes on, to the end, and is recorded as any other.
    await play_moves(sessions, playing)
    assert playing.row.status == "finished"
    assert [r.user_id for r in await sessions.store.leaderboard(GUILD_A, "tiny")].count(ALICE) == 1


async def test_forget_twice_and_a_stranger(sessions: SessionManager) -> None:
    await finished_game(sessions, GUILD_A, [(ALICE, "Alice")])
    assert (await sessions.forget(ALICE)).results == 1
    again = await sessions.forget(ALICE)
    assert again == privacy.Forgotten(0, 0, 0, 0, 0)
    assert await sessions.forget(4242) == privacy.Forgotten(0, 0, 0, 0, 0)


async def test_forget_drops_the_persons_language(sessions: SessionManager) -> None:
    """Her own language choice is a setting about her alone: it goes, Bob's stays."""
    await sessions.set_user_language(ALICE, "fi")
    await sessions.set_user_language(BOB, "ar")
    await sessions.forget(ALICE)
    assert await sessions.user_language(ALICE) is None
    assert await sessions.user_language(BOB) == "ar"
    assert await mentions(sessions.store, ALICE) == []


async def test_ratings_and_game_records_forget_the_person(sessions: SessionManager) -> None:
    """Her ratings, rating history and months go; Bob's stay; the game record names her not."""
    await finished_game(sessions, GUILD_A, [(ALICE, "Alice"), (BOB, "Bob")])
    rating_tables = ("ratings", "rating_history", "rating_months")

    async def rows_of(user: int) -> list[int]:
        counts = []
        for table in rating_tables:
            found = await fetch(
                sessions.store, f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", user
            )
            counts.append(int(found[0][0]))
        return counts

    assert await rows_of(ALICE) == [1, 1, 1] and await rows_of(BOB) == [1, 1, 1]
    forgotten = await forget_user(sessions.store, ALICE)
    assert forgotten.ratings == 3 + 1  # three rating rows and one game record
    assert await rows_of(ALICE) == [0, 0, 0] and await rows_of(BOB) == [1, 1, 1]
    ((record,),) = await fetch(sessions.store, "SELECT record FROM results")
    assert str(ALICE) not in record and "Alice" not in record
    assert FORMER_PLAYER in record and "Bob" in record


async def test_history_page_json_has_no_user_after_forget(sessions: SessionManager) -> None:
    table = await finished_game(sessions, GUILD_A, [(ALICE, "Alice")])
    await sessions.forget(ALICE)
    page = await history.history_page(sessions.store, GUILD_A)
    assert json.dumps([s.name for s in page.games[0].seats]).count(FORMER_PLAYER) == 1
    assert page.games[0].table_id == table.id


async def test_forget_a_seat_the_person_left(sessions: SessionManager) -> None:
    """Alice left mid-game: rated for her seat, and forgotten from it like from any other."""
    table = await open_game(sessions, GUILD_A, [(ALICE, "Alice"), (BOB, "Bob")])
    await sessions.leave(table.id, ALICE)
    await play_moves(sessions, table)
    holders = await sessions.store.seat_holders(table.id)
    assert [h.user_id for h in holders if h.user_id is not None] == [ALICE, BOB]
    await sessions.forget(ALICE)
    assert await mentions(sessions.store, ALICE) == []
    assert await mentions(sessions.store, "Alice") == []


async def stand_in_game(store: Store, guild_id: int, players: list[tuple[int, str]]) -> int:
    """A rated game of Tiny whose last seat a computer played all along (a stand-in), written
    through the store: the record's reason names that seat's player."""
    row = await store.create_table(
        guild_id=guild_id,
        channel_id=guild_id * 10,
        host_id=players[0][0],
        game="tiny",
        options={},
        seed=1,
        seats=players,
    )
    await store.start_game(row.id, 0, [])
    for seq in range(4):
        seat = seq % len(players)
        clicker = players[seat][0] if seat < len(players) - 1 else None
        await store.append_move(row.id, seq, seat, {"action": "play"}, clicker)
    outcome = {"winners": [0], "score": [2, 1], "abandoned": False}
    await store.record_result(
        row, "finished", outcome, [(u, s, s == 0) for s, (u, _) in enumerate(players)]
    )
    return int(row.id)


async def reasons(store: Store, table_id: int) -> tuple[str, str]:
    ((reason, record),) = await fetch(
        store, "SELECT unrated_reason, record FROM results WHERE table_id = ?", table_id
    )
    return str(reason), str(json.loads(record)["reason"])


async def test_forget_goes_by_user_id_not_by_a_name_inside_another(
    sessions: SessionManager,
) -> None:
    """Forgetting "Bo" leaves Bob's name where it stands; forgetting Bob takes his out."""
    bo, bob = 2001, 2002
    table_id = await stand_in_game(sessions.store, GUILD_A, [(bo, "Bo"), (bob, "Bob")])
    named = "a computer played most of the moves for Bob, so that seat counts for nobody"
    assert await reasons(sessions.store, table_id) == (named, named)

    await sessions.forget(bo)
    assert await reasons(sessions.store, table_id) == (named, named)
    ((record,),) = await fetch(sessions.store, "SELECT record FROM results")
    seats = json.loads(record)["seats"]
    assert [(s["user_id"], s["name"]) for s in seats] == [(None, FORMER_PLAYER), (bob, "Bob")]

    await sessions.forget(bob)
    anonymous = named.replace("Bob", FORMER_PLAYER)
    assert await reasons(sessions.store, table_id) == (anonymous, anonymous)


async def test_forget_withdraws_sit_in_requests_and_closing_a_table_ends_them(
    sessions: SessionManager,
) -> None:
    """A request to sit in names its asker: it goes when they are forgotten, and when its table
    closes (no request of a finished game is kept)."""
    playing = await open_game(sessions, GUILD_A, [(BOB, "Bob")])
    seat = sessions.sit_in_seats(playing)[0]
    await sessions.ask_sit_in(playing.id, ALICE, "Alice", seat)
    await sessions.ask_sit_in(playing.id, CAROL, "Carol", seat)
    await sessions.forget(ALICE)
    assert await sessions.store.sit_in_request(playing.id, seat, ALICE) is None
    assert await sessions.store.sit_in_request(playing.id, seat, CAROL) == "Carol"
    assert await mentions(sessions.store, ALICE) == []

    await play_moves(sessions, playing)
    assert playing.row.status == "finished"
    assert await fetch(sessions.store, "SELECT * FROM sit_in_requests") == []

    abandoned = await open_game(sessions, GUILD_A, [(BOB, "Bob")])
    await sessions.ask_sit_in(abandoned.id, CAROL, "Carol", sessions.sit_in_seats(abandoned)[0])
    await sessions.cancel(abandoned.id, BOB, is_admin=False)
    assert await fetch(sessions.store, "SELECT * FROM sit_in_requests") == []


async def test_the_migration_clears_requests_of_closed_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    migrations = load_migrations()
    at = next(m.version for m in migrations if "CREATE TABLE sit_in_requests" in m.sql)
    await (await Store.open(path, migrations[:at])).close()
    with sqlite3.connect(path) as db:  # rows as the bot of that version left them
        for table_id, status in enumerate(("playing", "finished", "abandoned"), start=1):
            db.execute(
                "INSERT INTO game_tables (id, guild_id, channel_id, host_id, game, options, seed,"
                " status, created_at, updated_at) VALUES (?, ?, 1, ?, 'tiny', '{}', 1, ?, 0, 0)",
                (table_id, GUILD_A, BOB, status),
            )
            db.execute(
                "INSERT INTO sit_in_requests (table_id, seat, user_id, name, created_at)"
                " VALUES (?, 1, ?, 'Alice', 0)",
                (table_id, ALICE),
            )
    db.close()
    store = await Store.open(path)
    try:
        rows = await store.fetch("SELECT table_id FROM sit_in_requests")
        assert [r["table_id"] for r in rows] == [1]
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_forget_reaches_the_person_through_indexes(sessions: SessionManager) -> None:
    """Every statement of a forget finds the person's rows through an index, never by reading a
    whole table that grows with the games played (which would hold every table up). SQLite
    only: it reads SQLite's statement trace and query plans."""
    await finished_game(sessions, GUILD_A, [(ALICE, "Alice"), (BOB, "Bob")])
    statements: list[str] = []
    await sessions.store._db.set_trace_callback(statements.append)
    try:
        await sessions.forget(ALICE)
    finally:
        await sessions.store._db.set_trace_callback(None)
    small = {"sit_in_requests", "turn_pings", "member_settings"}  # a row per open thing or setting
    scanned = set()
    for sql in statements:
        if not sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE", "WITH")):
            continue
        for row in await sessions.store.fetch(f"EXPLAIN QUERY PLAN {sql}"):
            detail = str(row["detail"])
            if detail.startswith("SCAN ") and detail.split()[1] not in small:
                scanned.add(detail)
            if detail.split()[1:2] == ["moves"] and "moves_user" not in detail:
                scanned.add(detail)  # table by table: every move of every closed game
    assert scanned == set()


async def test_forget_leaves_a_table_another_process_holds_as_it_is(
    sessions: SessionManager, backend: Backend
) -> None:
    """Two processes on one database: Alice asks this one to forget her while she plays at a
    table the other one holds (it alone has that table in memory). What is open is read from the
    database, so her game there goes on, its rows exactly as the other process knows them, and
    is recorded with her when it ends; everything closed is forgotten, and she is told so."""
    async with session_manager(backend) as other:
        await finished_game(sessions, GUILD_A, [(ALICE, "Alice")])
        held = await open_game(other, GUILD_B, [(ALICE, "Alice"), (BOB, "Bob")])
        await play_moves(other, held, limit=2)
        ping = TurnPing(held.id, ALICE, held.row.channel_id, 555, held.moves)
        await other.save_turn_ping(ping)
        assert held.id in other.tables and held.id not in sessions.tables
        store = sessions.store
        before = (
            await store.seats(held.id),
            await store.seat_holders(held.id),
            await store.moves(held.id),
            await store.get_table(held.id),
        )

        forgotten = await sessions.forget(ALICE)
        # What she is told: one result deleted, her name gone from one past table; the game in
        # progress is not counted among them.
        assert (forgotten.results, forgotten.seats, forgotten.hosted) == (1, 1, 1)
        after = (
            await store.seats(held.id),
            await store.seat_holders(held.id),
            await store.moves(held.id),
            await store.get_table(held.id),
        )
        assert after == before
        assert await store.turn_pings(held.id) == [ping]
        # The other process's table agrees with the database: seats, who held them, the host.
        assert sorted(before[0], key=lambda s: s.seat) == sorted(
            held.seats.values(), key=lambda s: s.seat
        )
        assert before[1] == held.holders and held.row.host_id == ALICE
        assert {t for _, _, t in await mentions(store, ALICE)} == {held.id}

        await play_moves(other, held)  # her game goes on to its end, in the other process
        await until(lambda: held.id not in other.tables, "the game closed")
        assert held.row.status == "finished"
        assert ALICE in {r.user_id for r in await store.leaderboard(GUILD_B)}


async def alice_at(store: Store, table_id: int) -> tuple[bool, bool, bool]:
    """Whether the table's seats, its result's players and its game record name Alice."""
    seats = await fetch(store, "SELECT user_id FROM seats WHERE table_id = ?", table_id)
    players = await fetch(store, "SELECT user_id FROM result_players WHERE table_id = ?", table_id)
    records = await fetch(store, "SELECT record FROM results WHERE table_id = ?", table_id)
    return (
        ALICE in {row[0] for row in seats},
        ALICE in {row[0] for row in players},
        any(str(ALICE) in str(row[0]) for row in records),
    )


async def test_a_game_another_process_ends_during_the_forget_is_forgotten_whole_or_not_at_all(
    sessions: SessionManager, backend: Backend
) -> None:
    """The other process plays her game to its end while the forget is under way (between its
    statements: PostgreSQL lets another transaction commit there). The game is either still
    open to the whole forget (kept whole, and recorded with her as a game that ends after the
    forget) or closed to all of it (forgotten whole): never her seat anonymised with her result
    and game record left behind."""
    if backend.name != POSTGRES:
        pytest.skip("SQLite's writers take turns: a forget's transaction holds the only write lock")
    assert backend.url is not None
    async with session_manager(backend) as other:
        await finished_game(sessions, GUILD_A, [(ALICE, "Alice")])
        held = await open_game(other, GUILD_B, [(ALICE, "Alice")])
        side = await asyncpg.connect(backend.url)
        try:
            # Hold the forget before its first change of seats, while the game goes on.
            hold = side.transaction()
            await hold.start()
            await side.execute("LOCK TABLE seats IN EXCLUSIVE MODE")
            forgetting = asyncio.create_task(sessions.forget(ALICE))
            waits = "SELECT count(*) FROM pg_locks WHERE NOT granted"
            await polled(side, waits, 1)
            playing = asyncio.create_task(play_moves(other, held))
            # Until the game ended, or its next move waits for the forget.
            await polled(side, waits, 2, lambda: held.row.status == "finished")
            assert not forgetting.done()
            await hold.rollback()
        finally:
            await side.close()
        await forgetting
        await playing
        await until(lambda: held.row.status == "finished", "the result is kept")
    kept = await alice_at(sessions.store, held.id)
    assert kept in {(True, True, True), (False, False, False)}, kept
    assert kept == (True, True, True), "her game ended after the forget, which waited for it"


async def polled(
    db: asyncpg.Connection, waits: str, count: int, done: Callable[[], bool] = lambda: False
) -> None:
    """Until ``count`` lock requests wait in the database (or ``done``)."""
    for _ in range(2000):
        if done() or await db.fetchval(waits) >= count:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {count} waiting for a lock")


async def test_a_tournament_another_process_ends_during_the_forget_is_forgotten_whole_or_not(
    sessions: SessionManager, backend: Backend
) -> None:
    """As a game, so a tournament of hers that another process ends during the forget: her entry
    keeps both her name and her membership, or loses both."""
    if backend.name != POSTGRES:
        pytest.skip("SQLite's writers take turns: a forget's transaction holds the only write lock")
    assert backend.url is not None
    store = sessions.store
    spec = TournamentSpec.create(game="tarneeb", format="swiss", entry="individuals", rounds=3)
    made = await store.create_tournament(
        guild_id=GUILD_A, channel_id=2, organiser_id=BOB, spec=spec, starts_at=None, now=1.0
    )
    for user, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await store.enter_tournament(made.id, [user], name=name, rating=0.0, now=2.0)
    await store.set_tournament_status(made.id, "running", now=3.0)
    other = await backend.open()  # the other process's store
    side = await asyncpg.connect(backend.url)
    try:
        # Hold the forget before it drops her membership of ended tournaments.
        hold = side.transaction()
        await hold.start()
        await side.execute("LOCK TABLE tournament_members IN EXCLUSIVE MODE")
        forgetting = asyncio.create_task(store.forget_user(ALICE))
        waits = "SELECT count(*) FROM pg_locks WHERE NOT granted"
        await polled(side, waits, 1)
        ending = asyncio.create_task(other.set_tournament_status(made.id, "finished", now=4.0))
        await polled(side, waits, 2, ending.done)  # it ended, or it waits for the forget
        await hold.rollback()
    finally:
        await side.close()
    await forgetting
    await ending
    await other.close()
    named = "Alice" in {e.name for e in await store.entrants(made.id)}
    members = await fetch(store, "SELECT user_id FROM tournament_members WHERE user_id = ?", ALICE)
    assert (named, bool(members)) in {(True, True), (False, False)}, (named, members)
