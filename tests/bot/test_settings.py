"""Server settings and turn pings' storage, on real SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.sessions import ChannelNotAllowed, LiveTable, SessionManager, UserError
from bot.store import GuildSettings, TurnPing
from tests.bot.backends import BOTH, Backend, execute
from tests.bot.faults import until

STORE_BACKENDS = BOTH

GUILD, OTHER_GUILD, HOST, GUEST, OTHER = 1, 2, 101, 202, 303
CHANNEL, THREAD, ELSEWHERE = 500, 501, 600


async def test_a_new_server_has_every_default(timed: SessionManager) -> None:
    settings = await timed.guild_settings(GUILD)
    assert settings == GuildSettings(GUILD, 60, False)
    assert (settings.computers, settings.rated, settings.trick_lines) == (True, True, True)
    assert settings.channels == () and settings.defaults == {}


async def test_settings_are_stored_and_survive_reopening(backend: Backend) -> None:
    store = await backend.open()
    saved = GuildSettings(
        GUILD,
        90,
        True,
        computers=False,
        rated=False,
        trick_lines=False,
        channels=(CHANNEL, ELSEWHERE),
        defaults={"tarneeb": {"target": 31}},
        tournament_role=2**62 + 7,
    )
    await store.save_guild_settings(saved)
    await store.close()
    store = await backend.open()
    try:
        assert await store.guild_settings(GUILD, 60) == saved
        assert await store.guild_settings(OTHER_GUILD, 60) == GuildSettings(OTHER_GUILD, 60, False)
    finally:
        await store.close()


async def test_changing_one_setting_keeps_the_others(timed: SessionManager) -> None:
    await timed.change_guild_settings(GUILD, 30, True)
    changed = await timed.change_guild_settings(GUILD, computers=False, rated=False)
    assert (changed.turn_seconds, changed.use_threads) == (30, True)
    assert (changed.computers, changed.rated, changed.trick_lines) == (False, False, True)
    assert await timed.guild_settings(GUILD) == changed
    with pytest.raises(UserError, match="10 to 3600"):
        await timed.change_guild_settings(GUILD, turn_seconds=5)
    assert await timed.guild_settings(GUILD) == changed


async def test_a_default_option_is_checked_by_the_game(timed: SessionManager) -> None:
    settings = await timed.set_game_default(GUILD, "tarneeb", "target", "31")
    assert settings.defaults == {"tarneeb": {"target": 31}}
    for option, value, reason in (
        ("target", "40", "one of 31, 41, 61"),
        ("target", "yes", "whole number"),
        ("no_such_option", "1", "unknown option"),
    ):
        with pytest.raises(UserError, match=reason):
            await timed.set_game_default(GUILD, "tarneeb", option, value)
    with pytest.raises(UserError, match="no game called"):
        await timed.set_game_default(GUILD, "chess", "target", "31")
    assert (await timed.guild_settings(GUILD)).defaults == {"tarneeb": {"target": 31}}


async def test_a_default_is_one_value_in_the_games_range(timed: SessionManager) -> None:
    await timed.set_game_default(GUILD, "tunge", "turn_limit", "300")
    before = await timed.guild_settings(GUILD)
    for value, reason in (
        ("²", "one word or a whole number"),
        ("5" * 5000, "one word or a whole number"),
        ("1" * 1500, "one word or a whole number"),
        ("3 match_target=1", "one word or a whole number"),
        ("3,4", "one word or a whole number"),
        ("10001", "turn_limit must be at most 10000"),
        ("0", "turn_limit must be at least 1"),
    ):
        with pytest.raises(UserError, match=reason) as refused:
            await timed.set_game_default(GUILD, "tunge", "turn_limit", value)
        assert "\n" not in str(refused.value) and len(str(refused.value)) < 200, value
    with pytest.raises(UserError, match="not an option name"):
        await timed.set_game_default(GUILD, "tunge", "turn_limit=3 players", "2")
    assert await timed.guild_settings(GUILD) == before, "nothing stored"
    await timed.set_game_default(GUILD, "tunge", "match_target", "10000")
    table = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tunge"
    )
    assert (table.row.options["turn_limit"], table.row.options["match_target"]) == (300, 10000)


async def test_a_new_tables_options_are_refused_out_of_range(timed: SessionManager) -> None:
    for text, reason in (
        ("turn_limit=10001", "turn_limit must be at most 10000"),
        ("match_target=99999", "match_target must be at most 10000"),
        ("turn_limit=²", "name=value"),
        ("turn_limit=" + "9" * 5000, "too many options"),
    ):
        with pytest.raises(UserError, match=reason):
            await timed.create_table(
                guild_id=GUILD,
                channel_id=CHANNEL,
                host_id=HOST,
                host_name="Host",
                game="tunge",
                options_text=text,
            )
    assert await timed.open_table_count() == 0


async def test_defaults_apply_to_new_tables_and_can_be_reset(timed: SessionManager) -> None:
    await timed.set_game_default(GUILD, "tarneeb", "target", "31")
    table = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tarneeb"
    )
    assert table.row.options["target"] == 31
    given = await timed.create_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=GUEST,
        host_name="Guest",
        game="tarneeb",
        options_text="target=61",
    )
    assert given.row.options["target"] == 61, "the host's own options win"
    other = await timed.create_table(
        guild_id=OTHER_GUILD, channel_id=ELSEWHERE, host_id=HOST, host_name="H", game="tarneeb"
    )
    assert other.row.options["target"] == 41, "another server keeps the game's default"
    with pytest.raises(UserError, match="no server default"):
        await timed.reset_game_defaults(GUILD, "tarneeb", "hand_limit")
    assert (await timed.reset_game_defaults(GUILD, "tarneeb", "target")).defaults == {}


async def test_resetting_a_game_without_an_option_clears_all_its_defaults(
    timed: SessionManager,
) -> None:
    await timed.set_game_default(GUILD, "tarneeb", "target", "31")
    await timed.set_game_default(GUILD, "tarneeb", "hand_limit", "50")
    await timed.set_game_default(GUILD, "tunge", "players", "3")
    cleared = await timed.reset_game_defaults(GUILD, "tarneeb")
    assert cleared.defaults == {"tunge": {"players": 3}}, "the other games' stay"
    assert (await timed.guild_settings(GUILD)).defaults == {"tunge": {"players": 3}}
    table = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tarneeb"
    )
    assert (table.row.options["target"], table.row.options["hand_limit"]) == (41, 30)


async def test_a_default_the_game_no_longer_has_is_ignored(timed: SessionManager) -> None:
    await timed.store.save_guild_settings(
        GuildSettings(
            GUILD,
            60,
            False,
            defaults={
                "tarneeb": {"gone": 1, "target": 61},
                "tunge": {"turn_limit": int("1" * 1500), "players": 3},  # stored by an older bot
            },
        )
    )
    table = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tarneeb"
    )
    assert table.row.options["target"] == 61 and "gone" not in table.row.options
    tunge = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=GUEST, host_name="Guest", game="tunge"
    )
    assert (tunge.row.options["turn_limit"], tunge.row.options["players"]) == (500, 3)


async def test_only_listed_channels_and_their_threads_host_tables(timed: SessionManager) -> None:
    await timed.set_table_channels(GUILD, add=CHANNEL)
    with pytest.raises(ChannelNotAllowed, match=f"<#{CHANNEL}>"):
        await timed.create_table(
            guild_id=GUILD, channel_id=ELSEWHERE, host_id=HOST, host_name="H", game="tiny"
        )
    assert await timed.open_table_count() == 0
    in_thread = await timed.create_table(
        guild_id=GUILD,
        channel_id=THREAD,
        parent_channel_id=CHANNEL,
        host_id=HOST,
        host_name="H",
        game="tiny",
    )
    assert in_thread.row.channel_id == THREAD
    with pytest.raises(UserError, match="not in the list"):
        await timed.set_table_channels(GUILD, remove=ELSEWHERE)
    assert (await timed.set_table_channels(GUILD, clear=True)).channels == ()
    anywhere = await timed.create_table(
        guild_id=GUILD, channel_id=ELSEWHERE, host_id=GUEST, host_name="G", game="tiny"
    )
    assert anywhere.row.channel_id == ELSEWHERE


async def test_rated_and_computers_are_fixed_when_the_table_opens(timed: SessionManager) -> None:
    await timed.change_guild_settings(GUILD, computers=False, rated=False)
    table = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tiny"
    )
    stored = await timed.store.get_table(table.id)
    assert stored is not None and not stored.rated and not stored.computers
    with pytest.raises(UserError, match="does not allow computer players"):
        await timed.add_computer(table.id, HOST)
    assert table.free_seats() == [1], "nothing was seated"
    await timed.change_guild_settings(GUILD, computers=True, rated=True)
    assert not table.row.computers, "changes apply to new tables only"
    later = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=GUEST, host_name="Guest", game="tiny"
    )
    assert later.row.rated and later.row.computers
    await timed.add_computer(later.id, GUEST)
    assert later.free_seats() == []


async def test_turn_ping_wishes_and_pings_are_stored(
    timed: SessionManager, backend: Backend
) -> None:
    assert not await timed.turn_ping_wanted(GUILD, HOST), "off until asked for"
    await timed.set_turn_ping_wanted(GUILD, HOST, True)
    assert await timed.turn_ping_wanted(GUILD, HOST)
    assert not await timed.turn_ping_wanted(OTHER_GUILD, HOST), "per server"
    table = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tiny"
    )
    ping = TurnPing(table.id, HOST, CHANNEL, 9001, 3)
    await timed.save_turn_ping(ping)
    await timed.save_turn_ping(TurnPing(table.id, HOST, CHANNEL, 9002, 5))
    assert await timed.turn_pings(table.id) == [TurnPing(table.id, HOST, CHANNEL, 9002, 5)]
    await timed.forget_turn_ping(table.id, HOST)
    assert await timed.turn_pings(table.id) == []
    with pytest.raises(backend.integrity):  # a ping belongs to a table
        await timed.store.save_turn_ping(TurnPing(999, HOST, CHANNEL, 1, 0))


async def test_a_table_keeps_the_turn_timer_and_trick_lines_it_opened_with(
    backend: Backend, clock: ManualClock
) -> None:
    db_path = backend.path
    store = await backend.open()
    sessions = SessionManager(store, _settings(db_path), clock=clock)
    await sessions.change_guild_settings(GUILD, turn_seconds=600, trick_lines=True)
    running = await sessions.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tiny"
    )
    await sessions.join(running.id, GUEST, "Guest")
    await sessions.start(running.id, HOST)
    await until(lambda: running.row.turn_deadline is not None, "the first deadline is stored")
    assert running.row.turn_deadline == clock.now() + 600
    await sessions.change_guild_settings(GUILD, turn_seconds=10, trick_lines=False)
    assert await _next_turn_seconds(sessions, running, clock) == 600, "the running table's own"
    assert running.row.trick_lines is True
    newer = await sessions.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=OTHER, host_name="Other", game="tiny"
    )
    assert (newer.row.turn_seconds, newer.row.trick_lines) == (10, False)
    await sessions.shutdown()
    await store.close()

    store = await backend.open()  # a restart keeps each table's own
    sessions = SessionManager(store, _settings(db_path), clock=clock)
    try:
        await sessions.restore()
        restored = sessions.tables[running.id]
        assert (restored.row.turn_seconds, restored.row.trick_lines) == (600, True)
        assert (sessions.tables[newer.id].row.turn_seconds, newer.row.trick_lines) == (10, False)
        assert await _next_turn_seconds(sessions, restored, clock) == 600
    finally:
        await sessions.shutdown()
        await store.close()


async def test_an_older_table_without_its_own_timer_follows_the_server(
    timed: SessionManager, clock: ManualClock
) -> None:
    table = await timed.create_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="Host", game="tiny"
    )
    await execute(  # as a table opened before the columns
        timed.store,
        "UPDATE game_tables SET turn_seconds = NULL, trick_lines = NULL WHERE id = ?",
        table.id,
    )
    stored = await timed.store.get_table(table.id)
    assert stored is not None and (stored.turn_seconds, stored.trick_lines) == (None, None)
    table.row = stored
    await timed.change_guild_settings(GUILD, turn_seconds=90)
    await timed.join(table.id, GUEST, "Guest")
    await timed.start(table.id, HOST)
    await until(lambda: table.row.turn_deadline is not None, "the first deadline is stored")
    assert table.row.turn_deadline == clock.now() + 90


def _settings(path: Path) -> Settings:
    return Settings(discord_token=Secret("x.y.z"), database_path=path, turn_seconds=60)


async def _next_turn_seconds(sessions: SessionManager, table: LiveTable, clock: ManualClock) -> int:
    """Play the turn to act, and the seconds the next turn's deadline gives."""
    game = table.game
    assert game is not None and table.row.turn_deadline is not None
    seat = game.to_act()[0]
    user = table.seats[seat].user_id
    assert user is not None
    moves = table.moves
    await sessions.submit(table.id, user, moves, game.legal_moves(seat)[0])
    await until(
        lambda: table.moves > moves and table.row.turn_deadline is not None,
        "the next deadline is stored",
    )
    assert table.row.turn_deadline is not None
    return round(table.row.turn_deadline - clock.now())
