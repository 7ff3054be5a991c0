"""The lobby's workflows on real SQLite and PostgreSQL: filling seats, lengths, rematches, sitting
in for a computer and leaving, with the races that matter (two takers of one seat, a double
rematch)."""

from __future__ import annotations

import asyncio

import pytest

from bot.sessions import LiveTable, SessionManager, UserError
from cogs.render import shown_name
from games.base import fill_names
from games.cards import display
from tests.bot.backends import BOTH, Backend
from tests.bot.conftest import Recorder
from tests.bot.faults import until

STORE_BACKENDS = BOTH

HOST, GUEST, CAROL, DAVE = 101, 202, 303, 404


async def lobby(sessions: SessionManager, game: str = "tiny", host: int = HOST) -> LiveTable:
    return await sessions.create_table(
        guild_id=1, channel_id=2, host_id=host, host_name=f"P{host}", game=game
    )


async def against_a_computer(sessions: SessionManager) -> LiveTable:
    """A running tiny game: the host and one computer, waiting on the host's move."""
    table = await lobby(sessions)
    assert await sessions.fill_with_computers(table.id, HOST) == 1
    await sessions.start(table.id, HOST)
    await until(lambda: host_to_act(table), "the computer waits for the host")
    return table


def host_to_act(table: LiveTable) -> bool:
    return table.game is not None and table.seat_of(HOST) in table.waiting_for()


async def finished_tiny(sessions: SessionManager) -> LiveTable:
    """A tiny game between the host and a guest, played to its end."""
    table = await lobby(sessions)
    await sessions.join(table.id, GUEST, "Guest")
    await sessions.start(table.id, HOST)
    while table.id in sessions.tables:
        assert table.game is not None
        seat = table.waiting_for()[0]
        user = table.seats[seat].user_id
        assert user is not None
        await sessions.submit(table.id, user, table.moves, table.game.legal_moves(seat)[0])
    assert table.row.status == "finished"
    return table


async def test_fill_seats_every_empty_seat_at_once(timed: SessionManager) -> None:
    table = await lobby(timed, "tarneeb")
    await timed.join(table.id, GUEST, "Guest")
    with pytest.raises(UserError, match="Only the host"):
        await timed.fill_with_computers(table.id, GUEST)
    assert await timed.fill_with_computers(table.id, HOST) == 2
    stored = await timed.store.seats(table.id)
    assert [s.user_id for s in stored] == [HOST, GUEST, None, None]
    assert len({s.name for s in stored}) == 4, "each computer has its own name"
    with pytest.raises(UserError, match="taken"):
        await timed.fill_with_computers(table.id, HOST)


async def test_a_length_sets_the_options_and_is_kept(timed: SessionManager) -> None:
    table = await lobby(timed, "thunee")
    await timed.set_length(table.id, HOST, "short")
    assert table.row.options["balls_to_win"] == 6
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.options == table.row.options
    with pytest.raises(UserError, match="Only the host"):
        await timed.set_length(table.id, GUEST, "long")
    with pytest.raises(UserError, match="lengths offered"):
        await timed.set_length(table.id, HOST, "endless")
    await timed.fill_with_computers(table.id, HOST)
    await timed.start(table.id, HOST)
    assert table.game is not None and table.game.options["balls_to_win"] == 6
    with pytest.raises(UserError, match="already started"):
        await timed.set_length(table.id, HOST, "long")


async def test_rematch_clicked_twice_at_once_opens_one_lobby(timed: SessionManager) -> None:
    old = await finished_tiny(timed)
    with pytest.raises(UserError, match="Only the players"):
        await timed.rematch(old.id, CAROL)
    results = await asyncio.gather(
        timed.rematch(old.id, HOST), timed.rematch(old.id, HOST), timed.rematch(old.id, GUEST)
    )
    tables = {table.id for table, _ in results}
    assert len(tables) == 1 and [created for _, created in results].count(True) == 1
    assert await timed.store.rematch_of(old.id) == tables.pop()
    new = results[0][0]
    # two seats, no teams: everyone moves one seat on; both people confirmed by their clicks
    assert new.seat_of(HOST) == old.seat_of(GUEST) and new.seat_of(GUEST) == old.seat_of(HOST)
    assert all(s.confirmed for s in new.seats.values())
    again, created = await timed.rematch(old.id, GUEST)
    assert again is new and not created
    shown, created = await timed.rematch(old.id, CAROL)  # an onlooker is shown where it is
    assert shown is new and not created and new.seat_of(CAROL) is None


async def test_rematch_waits_for_everyone_to_confirm(timed: SessionManager) -> None:
    old = await finished_tiny(timed)
    new, created = await timed.rematch(old.id, HOST)
    assert created and new.row.host_id == HOST
    guest_seat = new.seat_of(GUEST)
    assert guest_seat is not None and not new.seats[guest_seat].confirmed
    # a reservation does not keep the guest from sitting elsewhere
    assert timed._seated_at(1, GUEST) is None
    with pytest.raises(UserError, match="Waiting for Guest"):
        await timed.start(new.id, HOST)
    await timed.join(new.id, GUEST, "Guest")
    assert new.seats[guest_seat].confirmed
    with pytest.raises(UserError, match="already seated"):
        await timed.join(new.id, GUEST, "Guest")  # a second click changes nothing
    await timed.start(new.id, HOST)
    assert new.row.status == "playing"


async def test_rematch_turns_the_partnerships(timed: SessionManager) -> None:
    """A finished four-seat partnership table (stored as a finished game would be)."""
    store = timed.store
    row = await store.create_table(
        guild_id=1,
        channel_id=2,
        host_id=HOST,
        game="tarneeb",
        options={"target": 31},
        seed=5,
        seats=[(HOST, "H"), (GUEST, "G"), (CAROL, "C"), (None, "🤖 Ada")],
        computer_level="hard",
    )
    row = await store.record_result(
        row, "finished", {"winners": [0, 2], "score": [31, 2], "abandoned": False}, []
    )
    new, created = await timed.rematch(row.id, GUEST)
    assert created and new.row.host_id == GUEST and new.row.computer_level == "hard"
    assert new.row.options == {"target": 31} and new.row.game == "tarneeb"
    names = [new.seats[s].name for s in range(4)]
    assert names == ["H", "🤖 Ada", "G", "C"], "seat 0 stays, the others move one seat on"
    partners_before = [{"H", "C"}, {"G", "🤖 Ada"}]
    partners_after = [{names[0], names[2]}, {names[1], names[3]}]
    assert not any(team in partners_before for team in partners_after)
    assert [s.confirmed for s in (new.seats[s] for s in range(4))] == [False, True, True, False]


async def finished_with_a_computer(sessions: SessionManager, *, rated: bool) -> int:
    """A finished tarneeb table of three people and a computer, opened while the server had
    ratings ``rated`` and allowed computers (stored as a finished game would be)."""
    row = await sessions.store.create_table(
        guild_id=1,
        channel_id=2,
        host_id=HOST,
        game="tarneeb",
        options={},
        seed=5,
        seats=[(HOST, "H"), (GUEST, "G"), (CAROL, "C"), (None, "🤖 Ada")],
        rated=rated,
        computers=True,
    )
    outcome = {"winners": [0, 2], "score": [31, 2], "abandoned": False}
    await sessions.store.record_result(row, "finished", outcome, [])
    return row.id


async def test_a_rematch_takes_the_servers_settings_of_now(timed: SessionManager) -> None:
    unrated = await finished_with_a_computer(timed, rated=False)
    rated = await finished_with_a_computer(timed, rated=True)
    await timed.change_guild_settings(1, rated=True)
    again, _ = await timed.rematch(unrated, HOST)
    assert again.row.rated, "ratings are on now: the rematch is rated"
    await timed.cancel(again.id, HOST, is_admin=False)

    await timed.change_guild_settings(1, 600, rated=False, computers=False, trick_lines=False)
    new, created = await timed.rematch(rated, HOST)
    assert created and not new.row.rated and not new.row.computers
    assert (new.row.turn_seconds, new.row.trick_lines) == (600, False), "kept as opened"
    await timed.change_guild_settings(1, 30, trick_lines=True)
    stored_row = await timed.store.get_table(new.id)
    assert stored_row is not None and stored_row.turn_seconds == 600
    assert all(not seat.computer for seat in new.seats.values()), "no computer is seated"
    assert new.free_seats() == [1], "the computer's seat waits for a person"
    stored = await timed.store.seats(new.id)
    assert [s.user_id for s in stored] == [HOST, GUEST, CAROL]
    with pytest.raises(UserError, match="does not allow computer"):
        await timed.add_computer(new.id, HOST)


async def test_a_cancelled_rematch_frees_the_way_for_another(timed: SessionManager) -> None:
    old = await finished_tiny(timed)
    first, created = await timed.rematch(old.id, HOST)
    assert created
    await timed.cancel(first.id, HOST, is_admin=False)  # a slip of the host's finger
    second, created = await timed.rematch(old.id, GUEST)
    assert created and second.id != first.id and second.row.host_id == GUEST
    assert await timed.store.rematch_of(old.id) == second.id
    third, created = await timed.rematch(old.id, HOST)  # found, not doubled; Host confirms
    assert third is second and not created
    await timed.start(second.id, GUEST)
    with pytest.raises(UserError, match="already started or closed"):
        await timed.rematch(old.id, HOST)


async def test_a_resigned_game_can_be_played_again_an_abandoned_one_cannot(
    timed: SessionManager,
) -> None:
    """Leaving a rated game alone resigns it: a result, so its player may ask for a rematch
    (the seats as they were); a game abandoned without a result may not be played again."""
    resigned = await against_a_computer(timed)
    await timed.leave(resigned.id, HOST)
    rematch, created = await timed.rematch(resigned.id, HOST)
    assert created and rematch.row.status == "lobby"
    assert {s.user_id for s in rematch.seats.values()} == {HOST, None}
    await timed.cancel(rematch.id, HOST, is_admin=False)

    await timed.change_guild_settings(1, rated=False)
    abandoned = await against_a_computer(timed)
    await timed.leave(abandoned.id, HOST)
    before = await timed.store.rematch_of(abandoned.id)
    with pytest.raises(UserError, match="Only a finished game can be played again"):
        await timed.rematch(abandoned.id, HOST)
    assert before is None and await timed.store.rematch_of(abandoned.id) is None


async def test_two_people_take_over_one_seat_at_once(timed: SessionManager) -> None:
    table = await against_a_computer(timed)
    seat = timed.sit_in_seats(table)[0]
    await timed.ask_sit_in(table.id, CAROL, "Carol", seat)
    await timed.ask_sit_in(table.id, DAVE, "Dave", seat)
    with pytest.raises(UserError, match="asked already"):
        await timed.ask_sit_in(table.id, CAROL, "Carol", seat)
    results = await asyncio.gather(
        timed.answer_sit_in(table.id, HOST, seat, CAROL, True),
        timed.answer_sit_in(table.id, HOST, seat, DAVE, True),
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, str)]
    assert len(winners) == 1, results
    assert isinstance(next(r for r in results if not isinstance(r, str)), UserError)
    taker = table.seats[seat].user_id
    assert taker in (CAROL, DAVE)
    stored = await timed.store.seats(table.id)
    assert stored[seat].user_id == taker, "the cache and the database agree"
    for user in (CAROL, DAVE):
        assert await timed.store.sit_in_request(table.id, seat, user) is None


async def test_sit_in_needs_the_host_and_an_open_request(timed: SessionManager) -> None:
    table = await against_a_computer(timed)
    seat = timed.sit_in_seats(table)[0]
    with pytest.raises(UserError, match="no longer open"):
        await timed.answer_sit_in(table.id, HOST, seat, CAROL, True)  # Carol never asked
    await timed.ask_sit_in(table.id, CAROL, "Carol", seat)
    with pytest.raises(UserError, match="Only the host"):
        await timed.answer_sit_in(table.id, CAROL, seat, CAROL, True)
    with pytest.raises(UserError, match="not a computer's"):
        await timed.ask_sit_in(table.id, DAVE, "Dave", table.seat_of(HOST) or 0)
    assert "said no" in await timed.answer_sit_in(table.id, HOST, seat, CAROL, False)
    assert table.seats[seat].computer
    await timed.ask_sit_in(table.id, CAROL, "Carol", seat)
    await timed.answer_sit_in(table.id, HOST, seat, CAROL, True)
    assert table.seat_of(CAROL) == seat and not table.seats[seat].computer
    # the game goes on with Carol in the seat: the log says who played which move
    while table.id in timed.tables:
        assert table.game is not None
        mover = table.waiting_for()[0]
        user = table.seats[mover].user_id
        assert user is not None, "no computer is left to move"
        await timed.submit(table.id, user, table.moves, table.game.legal_moves(mover)[0])
    moves = await timed.store.moves(table.id)
    before = [m.user_id for m in moves if m.seat == seat and m.user_id != CAROL]
    assert all(user is None for user in before), "the computer's moves stay the computer's"
    assert any(m.user_id == CAROL and m.seat == seat for m in moves), "Carol's moves are hers"


async def test_leaving_frees_the_seat_for_a_computer(timed: SessionManager) -> None:
    table = await lobby(timed)
    await timed.join(table.id, GUEST, "Guest")
    await timed.start(table.id, HOST)
    message = await timed.leave(table.id, HOST)
    assert "free to join another table" in message
    assert table.seat_of(HOST) is None and table.row.host_id == GUEST, "the host role passed on"
    other = await lobby(timed, host=HOST)  # the leaver opens another table
    assert other.seat_of(HOST) == 0
    last = await timed.leave(table.id, GUEST)
    assert "last person" in last and "counts as a loss for your side" in last, "rated: resigned"
    assert table.id not in timed.tables
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "abandoned"


async def test_leaving_with_only_away_players_left_says_when_it_ends(
    timed: SessionManager,
) -> None:
    table = await lobby(timed, "tarneeb")
    await timed.join(table.id, GUEST, "Guest")
    await timed.fill_with_computers(table.id, HOST)
    await timed.start(table.id, HOST)
    async with table.lock:
        row, changed = await timed.store.set_away(table.id, [table.seat_of(GUEST) or 0], True)
        table.row = row
        table.seats[changed[0].seat] = changed[0]
    message = await timed.leave(table.id, HOST)
    assert message.endswith(
        "Only away players are left: unless one of them presses “I'm back” within 10 minutes,"
        " the game counts as a loss for their side."
    ), "the guest, away, is the only side left: rated, staying away is leaving"
    assert table.id in timed.tables


async def test_requests_reservations_and_lengths_survive_a_restart(
    timed: SessionManager,
) -> None:
    old = await finished_tiny(timed)
    rematch, _ = await timed.rematch(old.id, HOST)
    playing = await lobby(timed, "tarneeb", host=CAROL)
    await timed.set_length(playing.id, CAROL, "long")
    await timed.fill_with_computers(playing.id, CAROL)
    await timed.start(playing.id, CAROL)
    seat = timed.sit_in_seats(playing)[0]
    await timed.ask_sit_in(playing.id, DAVE, "Dave", seat)
    await timed.shutdown()

    second = SessionManager(timed.store, timed.settings, clock=timed.clock)
    second.presenter = Recorder()
    try:
        await second.restore()
        again = second.get(rematch.id)
        guest_seat = again.seat_of(GUEST)
        assert guest_seat is not None and not again.seats[guest_seat].confirmed
        restored = second.get(playing.id)
        assert restored.game is not None and restored.game.options["target"] == 61
        await second.answer_sit_in(playing.id, CAROL, seat, DAVE, True)
        assert restored.seat_of(DAVE) == seat
    finally:
        await second.shutdown()


async def tarneeb_with_a_guest(sessions: SessionManager) -> LiveTable:
    """A running Tarneeb game: the host (seat 1, team A), the guest (seat 2, team B) and two
    computers (seats 3 and 4)."""
    table = await lobby(sessions, "tarneeb")
    await sessions.join(table.id, GUEST, "Guest")
    await sessions.fill_with_computers(table.id, HOST)
    await sessions.start(table.id, HOST)
    return table


async def test_a_former_player_may_not_come_back_as_an_opponent(timed: SessionManager) -> None:
    table = await tarneeb_with_a_guest(timed)
    assert table.seat_of(GUEST) == 1
    await timed.leave(table.id, GUEST)  # she has seen seat 2's hand
    assert table.seats[1].computer
    assert timed.sit_in_seats(table) == [1, 2, 3], "a newcomer may take any computer's seat"
    assert timed.sit_in_seats(table, GUEST) == [1], "her own seat while it is free"
    for opponent in (2,):
        with pytest.raises(UserError, match=r"played seat 2 earlier.*own team's seats only"):
            await timed.ask_sit_in(table.id, GUEST, "Guest", opponent)
    with pytest.raises(UserError, match=r"own team's seats only \(seat 2\)"):
        await timed.ask_sit_in(table.id, GUEST, "Guest", 3)  # her partner's, while hers is free
    assert await timed.store.sit_in_request(table.id, 2, GUEST) is None, "nothing was kept"
    # Carol takes her old seat: now her team's other seat is the only one left to her.
    await timed.ask_sit_in(table.id, CAROL, "Carol", 1)
    await timed.answer_sit_in(table.id, HOST, 1, CAROL, True)
    assert timed.sit_in_seats(table, GUEST) == [3]
    with pytest.raises(UserError, match="own team's seats only"):
        await timed.ask_sit_in(table.id, GUEST, "Guest", 2)
    await timed.ask_sit_in(table.id, GUEST, "Guest", 3)
    assert timed.former_seats(table, GUEST) == [1], "the host is told which seat she held"
    await timed.answer_sit_in(table.id, HOST, 3, GUEST, True)
    assert table.seat_of(GUEST) == 3


async def test_the_host_cannot_let_a_former_player_hop_sides(timed: SessionManager) -> None:
    """The host's Yes checks again: a request kept from before (by an older bot, say) for an
    opponent's seat of someone who played here is refused, and dropped."""
    table = await tarneeb_with_a_guest(timed)
    await timed.leave(table.id, GUEST)
    assert await timed.store.ask_sit_in(table.id, 2, GUEST, "Guest")
    with pytest.raises(UserError, match="own side"):
        await timed.answer_sit_in(table.id, HOST, 2, GUEST, True)
    assert table.seats[2].computer
    assert await timed.store.sit_in_request(table.id, 2, GUEST) is None


async def test_without_teams_a_former_player_comes_back_only_to_her_seat(
    timed: SessionManager,
) -> None:
    table = await lobby(timed, "tunge")
    await timed.join(table.id, GUEST, "Guest")
    await timed.fill_with_computers(table.id, HOST)
    await timed.start(table.id, HOST)
    seat = table.seat_of(GUEST)
    await timed.leave(table.id, GUEST)
    others = [s for s in timed.sit_in_seats(table) if s != seat]
    assert others, "another computer's seat is there to take"
    assert timed.sit_in_seats(table, GUEST) == [seat]
    with pytest.raises(UserError, match="come back to that seat only"):
        await timed.ask_sit_in(table.id, GUEST, "Guest", others[0])


def told(table: LiveTable) -> list[str]:
    """The table's recent log as the board tells it (a line's own names, else today's)."""
    return [fill_names(line, getattr(line, "names", table.names)) for line in table.recent]


async def test_the_log_keeps_who_acted_through_leaves_sit_ins_and_restarts(
    timed: SessionManager, backend: Backend
) -> None:
    table = await lobby(timed)
    await timed.join(table.id, GUEST, "Guest")
    await timed.start(table.id, HOST)
    assert table.game is not None
    leader = table.waiting_for()[0]
    user, name = table.seats[leader].user_id, table.seats[leader].name
    assert user is not None
    card = table.game.legal_moves(leader)[0]
    await timed.submit(table.id, user, table.moves, card)
    played = f"{name} plays {display(card.get('card'))}."
    await timed.leave(table.id, user)  # a computer takes the seat; the other human is to act
    computer = table.seats[leader].name
    await timed.ask_sit_in(table.id, CAROL, "Carol", leader)
    await timed.answer_sit_in(table.id, table.row.host_id, leader, CAROL, True)
    live = [line for line in told(table) if "hosts now" not in line]
    assert live == [
        "The game begins: Tiny.",
        played,
        f"{name} left; {computer} plays their seat.",
        f"Carol sits in for {computer}.",
    ]
    store = await backend.open()
    try:
        again = SessionManager(store, timed.settings, clock=timed.clock)
        await again.restore()
        assert told(again.get(table.id)) == live, "a restart tells it the same"
        assert again.former_seats(again.get(table.id), user) == [leader]
    finally:
        await again.shutdown()
        await store.close()


async def test_refusals_name_people_so_that_discord_can_escape_them(
    timed: SessionManager,
) -> None:
    """A display name is whatever its owner typed: a refusal naming someone keeps the name
    apart, and the Discord layer's escaping reaches it (no markdown formats, no mention pings)."""
    names = {HOST: "**Ho_st**", GUEST: "_Bob_ @everyone"}
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name=names[HOST], game="tarneeb"
    )
    await timed.join(table.id, GUEST, names[GUEST])
    await timed.fill_with_computers(table.id, HOST)
    await timed.start(table.id, HOST)
    people = {table.seat_of(HOST): HOST, table.seat_of(GUEST): GUEST}
    await until(lambda: bool(set(table.waiting_for()) & set(people)), "a person to act")
    game = table.game
    assert game is not None
    [waiting] = table.waiting_for()
    idle = HOST if people[waiting] == GUEST else GUEST
    with pytest.raises(UserError) as refused:
        await timed.submit(table.id, idle, table.moves, game.legal_moves(waiting)[0])
    assert str(refused.value) == f"It is {names[people[waiting]]}'s turn.", "logs read it as is"
    shown = refused.value.shown(shown_name)
    assert shown == f"It is {shown_name(names[people[waiting]])}'s turn."
    assert "\\_" in shown or "\\*" in shown, shown


@pytest.mark.parametrize(("lang", "own"), [("fi", "paikka 2"), ("no", "plass 2")])
async def test_a_former_players_seat_is_named_in_the_readers_language(
    timed: SessionManager, lang: str, own: str
) -> None:
    from cogs.refusals import refusal_text

    table = await tarneeb_with_a_guest(timed)
    await timed.leave(table.id, GUEST)
    with pytest.raises(UserError) as refused:
        await timed.ask_sit_in(table.id, GUEST, "Guest", 2)
    worded = refusal_text(refused.value, lang)
    assert worded.count(own) == 2 and "seat" not in worded, worded
    assert "seat 2 earlier" in refusal_text(refused.value, "en")


async def test_the_leavers_answer_and_the_away_warning_are_in_the_readers_language(
    timed: SessionManager,
) -> None:
    from bot.sessions.answers import Answer
    from cogs.engine_words import said

    table = await lobby(timed, "tarneeb")
    await timed.join(table.id, GUEST, "Guest")
    await timed.fill_with_computers(table.id, HOST)
    await timed.start(table.id, HOST)
    async with table.lock:
        row, changed = await timed.store.set_away(table.id, [table.seat_of(GUEST) or 0], True)
        table.row = row
        table.seats[changed[0].seat] = changed[0]
    message = await timed.leave(table.id, HOST)
    assert isinstance(message, Answer)
    norsk = message.said("no")
    assert norsk.startswith("Du gikk: ") and "«Jeg er tilbake» innen 10 minutter" in norsk
    assert "You left" not in norsk and "rating" in norsk, "rated: the leaver still counts"
    warning = table.recent[-1]
    assert "comes back within 10 minutes" in warning
    assert said("fi", warning).startswith("Jäljellä on vain poissa olevia pelaajia")
