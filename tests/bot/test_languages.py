"""Which language a person reads: their own, the server's, their client's, English; stored in
real SQLite and a real PostgreSQL server, an unknown language refused with nothing changed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.sessions import SessionManager, UserError
from games.base import Move
from tests.bot.backends import BOTH, Backend

STORE_BACKENDS = BOTH

GUILD, OTHER_GUILD, ALICE, BOB = 1, 2, 101, 202


async def test_a_person_and_a_server_keep_their_languages_across_reopening(
    backend: Backend,
) -> None:
    store = await backend.open()
    await store.set_user_language(ALICE, "fi")
    settings = await store.guild_settings(GUILD, 60)
    await store.save_guild_settings(replace(settings, language="ar"))
    await store.close()
    store = await backend.open()
    try:
        assert await store.user_language(ALICE) == "fi"
        assert await store.user_language(BOB) is None
        assert (await store.guild_settings(GUILD, 60)).language == "ar"
        assert (await store.guild_settings(OTHER_GUILD, 60)).language is None
        await store.set_user_language(ALICE, None)
        assert await store.user_language(ALICE) is None
    finally:
        await store.close()


async def test_the_reader_gets_their_own_then_the_servers_then_their_clients(
    timed: SessionManager,
) -> None:
    assert await timed.reader_language(GUILD, ALICE, "en-US") == "en"
    assert await timed.reader_language(GUILD, ALICE, "fi") == "fi"
    assert await timed.reader_language(GUILD, ALICE, "nb") == "no"
    assert await timed.reader_language(GUILD, ALICE, "de") == "en", "a client language we lack"
    await timed.change_guild_settings(GUILD, language="no")
    assert await timed.reader_language(GUILD, ALICE, "fi") == "no", "the server's first"
    assert await timed.reader_language(OTHER_GUILD, ALICE, "fi") == "fi"
    assert await timed.set_user_language(ALICE, "AR ") == "ar"
    assert await timed.reader_language(GUILD, ALICE, "fi") == "ar", "one's own first"
    assert await timed.reader_language(OTHER_GUILD, ALICE, None) == "ar", "in every server"
    assert await timed.reader_language(None, ALICE, None) == "ar", "in direct messages too"
    assert await timed.reader_language(GUILD, BOB, "fi") == "no"
    assert await timed.server_language(GUILD) == "no"
    assert await timed.server_language(OTHER_GUILD) == "en", "never a client's for the public"
    assert await timed.set_user_language(ALICE, "auto") is None
    assert await timed.reader_language(GUILD, ALICE, "fi") == "no"


@pytest.mark.parametrize("bad", ["xx", "english", "", "fi-FI", "ar; DROP TABLE"])
async def test_an_unknown_language_is_refused_and_nothing_changes(
    timed: SessionManager, bad: str
) -> None:
    await timed.set_user_language(ALICE, "fi")
    await timed.change_guild_settings(GUILD, language="no")
    before = await timed.guild_settings(GUILD)
    with pytest.raises(UserError) as refused:
        await timed.set_user_language(ALICE, bad)
    assert refused.value.code == "unknown_language" and "auto" in str(refused.value)
    with pytest.raises(UserError):
        await timed.change_guild_settings(GUILD, turn_seconds=30, language=bad)
    assert await timed.user_language(ALICE) == "fi"
    assert await timed.guild_settings(GUILD) == before, "the good part is not kept either"


async def test_a_games_refusal_keeps_its_code_and_names_the_seat(timed: SessionManager) -> None:
    """The session layer passes a game's refusal on with its code, its kind and parameters, a
    seat given by its player's name, so the answer can be worded in any language."""
    table = await timed.create_table(
        guild_id=GUILD, channel_id=2, host_id=ALICE, host_name="Alice", game="tiny"
    )
    await timed.join(table.id, BOB, "Bob")
    await timed.start(table.id, ALICE)
    assert table.game is not None
    seat = table.game.to_act()[0]
    mover, waiting = (ALICE, BOB) if table.seat_of(ALICE) == seat else (BOB, ALICE)
    held = table.game.hands[1 - seat][0]  # type: ignore[attr-defined]
    with pytest.raises(UserError) as refused:
        await timed.submit(table.id, mover, 0, Move.of("play", card=held))
    assert (refused.value.code, refused.value.kind) == ("not_in_hand", "against_rules")
    with pytest.raises(UserError) as turn:
        await timed.submit(table.id, waiting, 0, table.game.legal_moves(seat)[0])
    assert (turn.value.code, turn.value.params) == ("not_your_turn", {})
    assert table.moves == 0
