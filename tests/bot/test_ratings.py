"""The game record and the ratings against real SQLite and PostgreSQL: written with the last move,
unrated cases, computers by level, Tunge's finishing order, per-server isolation, the ladder."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.clock import ManualClock
from bot.config import Secret, Settings
from bot.player_stats import call_of, game_calls, seat_calls, tally_calls
from bot.ratings import month_of
from bot.records import SeatInfo, build_record
from bot.sessions import LiveTable, SessionManager, UserError
from bot.store import Result, Store, TableRow
from games.registry import get_game
from tests.bot.backends import BOTH, POSTGRES, Backend, execute, fetch
from tests.bot.conftest import Recorder
from tests.bot.faults import until

STORE_BACKENDS = BOTH
HUMANS = (11, 12, 13, 14)


async def finish(
    store: Store,
    *,
    game: str = "tarneeb",
    seats: Sequence[int | None] = HUMANS,
    winners: Sequence[int] = (0, 2),
    score: Sequence[int] = (31, 12),
    guild: int = 1,
    level: str = "normal",
    stand_in: Sequence[int] = (),
    flags: str = "",
    status: str = "finished",
) -> TableRow:
    """A table whose game ends with its last move: every seat moves twice, a stand-in seat's
    moves are made by the computer (no user id)."""
    table = await store.create_table(
        guild_id=guild,
        channel_id=5,
        host_id=next(s for s in seats if s is not None),
        game=game,
        options={"players": len(seats)} if game in ("thunee", "tunge") else {},
        seed=1,
        seats=[(user, f"p{user}" if user else f"bot{i}") for i, user in enumerate(seats)],
        computer_level=level,
    )
    if flags:
        await execute(store, f"UPDATE game_tables SET {flags} WHERE id = ?", table.id)
        table = await store.get_table(table.id) or table
    await store.start_game(table.id, 0, [])
    seq = 0
    for _ in range(2):
        for seat, user in enumerate(seats):
            by = None if seat in stand_in else user
            last = seq == 2 * len(seats) - 1
            result = None
            if last:
                result = Result(
                    status,
                    {
                        "winners": list(winners),
                        "score": list(score),
                        "abandoned": status == "abandoned",
                    },
                    [],
                )
            await store.append_move(table.id, seq, seat, {"action": "play"}, by, result=result)
            seq += 1
    done = await store.get_table(table.id)
    assert done is not None
    return done


async def rows(store: Store, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    return await fetch(store, sql, *params)


async def test_a_team_game_rates_the_partnerships_as_openskill_does(store: Store) -> None:
    table = await finish(store)
    model = PlackettLuce()
    expected = model.rate([[model.rating(), model.rating()] for _ in range(2)], ranks=[1.0, 2.0])
    ladder = await store.ladder(1, "tarneeb")
    assert ladder.total == 4
    winners = {row.user_id: row for row in ladder.rows[:2]}
    assert set(winners) == {11, 13}
    assert winners[11].ordinal == pytest.approx(expected[0][0].ordinal())
    assert ladder.rows[3].ordinal == pytest.approx(expected[1][0].ordinal())
    assert [(r.games, r.wins) for r in ladder.rows] == [(1, 1), (1, 1), (1, 0), (1, 0)]
    [(rated, reason, duration)] = await rows(
        store, "SELECT rated, unrated_reason, duration FROM results WHERE table_id = ?", table.id
    )
    assert rated == 1 and reason is None and duration >= 0
    assert await store.result_note(table.id) == "Rated."
    history = await rows(store, "SELECT player, won FROM rating_history ORDER BY player")
    assert history == [("11", 1), ("12", 0), ("13", 1), ("14", 0)]
    players = await rows(store, "SELECT user_id, team, place, rated FROM result_players")
    assert sorted(players) == [(11, 0, 1, 1), (12, 1, 2, 1), (13, 0, 1, 1), (14, 1, 2, 1)]


NO_RATINGS = {  # a trigger that makes the rating write fail, as a broken constraint
    "sqlite": (
        "CREATE TRIGGER no_ratings BEFORE INSERT ON ratings"
        " BEGIN SELECT RAISE(ABORT, 'disk says no'); END",
    ),
    POSTGRES: (
        "CREATE FUNCTION no_ratings() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'disk says no' USING ERRCODE = '23000'; END $$",
        "CREATE TRIGGER no_ratings BEFORE INSERT ON ratings"
        " FOR EACH ROW EXECUTE FUNCTION no_ratings()",
    ),
}


async def test_the_record_fails_with_the_last_move_or_not_at_all(
    store: Store, backend: Backend
) -> None:
    for statement in NO_RATINGS[backend.name]:
        await execute(store, statement)
    with pytest.raises(backend.integrity):
        await finish(store)
    assert await rows(store, "SELECT COUNT(*) FROM results") == [(0,)]
    [(table_id, status)] = await rows(store, "SELECT id, status FROM game_tables")
    assert status == "playing"
    moves = await store.moves(table_id)
    assert len(moves) == 7, "the last move went with its record"


@pytest.mark.parametrize(
    ("flags", "status", "reason"),
    [
        ("hints = 1", "finished", "Not rated: the table allowed hints."),
        ("rated = 0", "finished", "Not rated: the server had ratings off"),
        ("", "abandoned", "Not rated: the game was abandoned."),
    ],
)
async def test_unrated_games_change_no_rating(
    store: Store, flags: str, status: str, reason: str
) -> None:
    table = await finish(store, flags=flags, status=status)
    note = await store.result_note(table.id)
    assert note is not None and note.startswith(reason)
    assert await rows(store, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert (await store.ladder(1, "tarneeb")).rows == []
    places = await rows(store, "SELECT DISTINCT place, rated FROM result_players ORDER BY place")
    assert places == ([(None, 0)] if status == "abandoned" else [(1, 0), (2, 0)])


async def test_a_seat_played_mostly_by_a_computer_counts_for_nobody(store: Store) -> None:
    table = await finish(store, stand_in=[1])
    note = await store.result_note(table.id)
    assert note == (
        "Rated, except that a computer played most of the moves for p12, "
        "so that seat counts for nobody."
    )
    rated = await rows(store, "SELECT player FROM ratings ORDER BY player")
    assert rated == [("11",), ("13",), ("14",)], "neither the away human nor the stand-in"
    model = PlackettLuce()
    expected = model.rate([[model.rating(), model.rating()] for _ in range(2)], ranks=[1.0, 2.0])
    ladder = await store.ladder(1, "tarneeb")
    assert ladder.rows[-1].user_id == 14
    assert ladder.rows[-1].ordinal == pytest.approx(expected[1][1].ordinal())
    [(seat_rated,)] = await rows(store, "SELECT rated FROM result_players WHERE user_id = 12")
    assert seat_rated == 0


async def test_computers_are_rated_once_per_level_and_listed_on_request(store: Store) -> None:
    await finish(store, seats=(11, None, 13, None), level="hard", winners=(1, 3))
    humans = await store.ladder(1, "tarneeb")
    assert [r.user_id for r in humans.rows] == [11, 13]
    everyone = await store.ladder(1, "tarneeb", computers=True)
    assert everyone.rows[0].player == "computer:hard" and everyone.rows[0].level == "hard"
    assert (everyone.rows[0].games, everyone.rows[0].wins) == (1, 1)
    assert everyone.total == 3


async def test_a_computer_level_on_both_sides_is_not_rated(store: Store) -> None:
    model = PlackettLuce()
    table = await finish(store, seats=(11, None, None, None), winners=(0, 2))
    [[human, _], _] = model.rate([[model.rating(), model.rating()] for _ in range(2)], [1, 2])
    everyone = await store.ladder(1, "tarneeb", computers=True)
    assert [(r.player, r.games, r.wins) for r in everyone.rows] == [("11", 1, 1)]
    assert everyone.rows[0].ordinal == pytest.approx(human.ordinal())
    assert await store.result_note(table.id) == "Rated."
    await finish(store, game="tunge", seats=(11, None, None), winners=(), score=(4, 17, 9))
    first, _, _ = model.rate([[model.rating()] for _ in range(3)], ranks=[1.0, 3.0, 2.0])
    tunge = await store.ladder(1, "tunge", computers=True)
    assert [r.player for r in tunge.rows] == ["11"]
    assert tunge.rows[0].ordinal == pytest.approx(first[0].ordinal())


def test_a_leaver_counts_for_the_seat_they_left_and_for_no_other() -> None:
    """Bob (12) left seat 1 before moving, then sat in at seat 3 and played most of it."""
    record = build_record(
        game="tarneeb",
        options={},
        status="finished",
        outcome={"winners": [1, 3], "score": [12, 31]},
        seats=[
            SeatInfo(0, 11, "Ann", 13, 0),
            SeatInfo(1, None, "🤖 Ada", 0, 13, left_by=12, left_name="Bob"),
            SeatInfo(2, 13, "Cy", 13, 0),
            SeatInfo(3, 12, "Bob", 10, 3),
        ],
        computer_level="hard",
        table_rated=True,
        hints=False,
        started_at=None,
        finished_at=1.0,
    )
    left, sat_in = record.seats[1], record.seats[3]
    assert (left.user_id, left.name, left.player, left.won, left.rated) == (
        12,
        "Bob",
        "12",
        True,
        True,
    )
    assert sat_in.stand_in and not sat_in.rated and sat_in.player != "12"
    assert record.rated and record.reason == (
        "Bob left another seat of this game, which counts for them, so that seat counts for nobody"
    )


async def test_leaving_counts_as_playing_the_game_out(timed: SessionManager) -> None:
    """The guest plays two of their three cards and leaves; the bot restarts; the host plays
    on against the computer that took the seat. The guest is rated with the seat's result, the
    computer level not at all: OpenSkill of host against guest."""
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=11, host_name="Host", game="tiny"
    )
    await timed.join(table.id, 12, "Guest")
    await timed.start(table.id, 11)
    host, guest = table.seat_of(11), table.seat_of(12)
    assert host is not None and guest is not None
    while sum(1 for m in await timed.store.moves(table.id) if m.seat == guest) < 2:
        seat = table.waiting_for()[0]
        user = table.seats[seat].user_id
        assert table.game is not None and user is not None
        await timed.submit(table.id, user, table.moves, table.game.legal_moves(seat)[0])
    left = await timed.leave(table.id, 12)
    assert "counts for your rating" in left
    await timed.shutdown()

    again = SessionManager(timed.store, timed.settings, clock=timed.clock)
    again.presenter = Recorder()
    try:
        await again.restore()
        await again.resume_after_connect()
        restored = again.get(table.id)
        while table.id in again.tables:
            await until(
                lambda: table.id not in again.tables or host in restored.waiting_for(),
                "the host's turn or the end",
            )
            if table.id in again.tables and restored.game is not None:
                move = restored.game.legal_moves(host)[0]
                await again.submit(table.id, 11, restored.moves, move)
        ladder = await again.ladder(1, "tiny", computers=True)
    finally:
        await again.shutdown()
    [(outcome, note)] = await rows(
        timed.store, "SELECT outcome, unrated_reason FROM results WHERE table_id = ?", table.id
    )
    won = json.loads(outcome)["winners"] == [guest]
    model = PlackettLuce()
    ranks = [2.0, 1.0] if won else [1.0, 2.0]  # host, guest
    [[host_after], [guest_after]] = model.rate([[model.rating()], [model.rating()]], ranks)
    assert note is None
    assert {r.player: r.ordinal for r in ladder.rows} == {
        "11": pytest.approx(host_after.ordinal()),
        "12": pytest.approx(guest_after.ordinal()),
    }, "no computer level is rated for the guest's seat"
    players = await rows(timed.store, "SELECT user_id, won, rated FROM result_players")
    assert sorted(players) == [(11, int(not won), 1), (12, int(won), 1)]


async def open_with_computers(
    timed: SessionManager, game: str, people: Sequence[int], *, hints: bool = False
) -> LiveTable:
    """A started table: the people in the first seats (the first hosts), computers after."""
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=people[0], host_name="p0", game=game, hints=hints
    )
    for index, user in enumerate(people[1:], start=1):
        await timed.join(table.id, user, f"p{index}")
    if table.free_seats():
        await timed.fill_with_computers(table.id, people[0])
    await timed.start(table.id, people[0])
    return table


async def stored_result(store: Store, table_id: int) -> tuple[dict[str, Any], list[Any]]:
    [(outcome,)] = await rows(store, "SELECT outcome FROM results WHERE table_id = ?", table_id)
    players = await rows(
        store, "SELECT user_id, seat, won, rated FROM result_players ORDER BY seat"
    )
    return json.loads(outcome), players


async def test_the_last_person_leaving_a_team_game_resigns_it(timed: SessionManager) -> None:
    """Tarneeb: Alice (seat 0) and Bob (seat 1, her opponent), computers partnering each. Bob
    leaves first, then Alice, the last person: the game is Alice's team's loss. Both are rated
    (Bob with his seat's side, a win), the computer level on both sides is not."""
    table = await open_with_computers(timed, "tarneeb", [11, 12])
    assert (table.seat_of(11), table.seat_of(12)) == (0, 1)
    await timed.leave(table.id, 12)
    answer = await timed.leave(table.id, 11)
    assert answer == (
        "You were the last person at the table: the game counts as a loss for your side."
    )
    assert table.id not in timed.tables and table.resigned == 0
    assert table.result_note == "Rated."
    outcome, players = await stored_result(timed.store, table.id)
    assert outcome["winners"] == [1, 3] and outcome["resigned"] == 0
    assert players == [(11, 0, 0, 1), (12, 1, 1, 1)]
    model = PlackettLuce()
    ranks = [2.0, 1.0]  # Alice's team, Bob's team; a computer (new) beside each
    teams = [[model.rating(), model.rating()] for _ in range(2)]
    [[alice, _], [bob, _]] = model.rate(teams, ranks)
    ladder = await timed.ladder(1, "tarneeb", computers=True)
    assert {r.player: (r.ordinal, r.wins) for r in ladder.rows} == {
        "11": (pytest.approx(alice.ordinal()), 0),
        "12": (pytest.approx(bob.ordinal()), 1),
    }
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "abandoned", "the board code sees it closed"
    # Had the bot stopped before the board showed it, the board posted after a restart says so.
    again = SessionManager(timed.store, timed.settings, clock=timed.clock)
    try:
        [shown] = [t for t, _ in await again.unannounced() if t.id == table.id]
        assert (shown.resigned, shown.result_note) == (0, "Rated.")
    finally:
        await again.shutdown()


async def test_the_last_person_leaving_tunge_loses_to_every_other_seat(
    timed: SessionManager,
) -> None:
    table = await open_with_computers(timed, "tunge", [11])
    seats = table.seat_count
    await timed.leave(table.id, 11)
    outcome, players = await stored_result(timed.store, table.id)
    assert outcome["winners"] == list(range(1, seats)) and outcome["resigned"] == 0
    assert players == [(11, 0, 0, 1)]
    model = PlackettLuce()
    new = model.rate([[model.rating()] for _ in range(seats)], [2.0] + [1.0] * (seats - 1))
    ladder = await timed.ladder(1, "tunge", computers=True)
    assert [(r.player, r.wins) for r in ladder.rows] == [("11", 0)], "computers on every side"
    assert ladder.rows[0].ordinal == pytest.approx(new[0][0].ordinal())
    [(place,)] = await rows(timed.store, "SELECT place FROM result_players")
    assert place == 2, "last, behind the computers who share first place"


async def test_a_player_does_not_abandon_a_rated_game_others_sit_at(
    timed: SessionManager,
) -> None:
    table = await open_with_computers(timed, "tiny", [11, 12])
    before = (table.row, dict(table.seats), table.moves)
    with pytest.raises(UserError) as refused:
        await timed.cancel(table.id, 11, is_admin=False)
    assert str(refused.value) == (
        "A rated game under way is not abandoned by one player: /table leave hands your seat"
        " to a computer, and the game still counts for your rating."
    )
    assert (table.row, dict(table.seats), table.moves) == before and table.id in timed.tables
    assert await rows(timed.store, "SELECT * FROM results") == []
    stored = await timed.store.get_table(table.id)
    assert stored is not None and stored.status == "playing"


async def test_abandoning_a_rated_game_alone_resigns_it(timed: SessionManager) -> None:
    """Alice alone against a computer abandons: the game is hers lost, the computer (on one
    side only) rated for its win."""
    table = await open_with_computers(timed, "tiny", [11])
    answer = await timed.cancel(table.id, 11, is_admin=False)
    assert answer == (
        "You were the only person at the table: the game counts as a loss for your side."
    )
    outcome, players = await stored_result(timed.store, table.id)
    assert outcome["winners"] == [1] and outcome["resigned"] == 0
    assert players == [(11, 0, 0, 1)]
    model = PlackettLuce()
    [[alice], [computer]] = model.rate([[model.rating()], [model.rating()]], [2.0, 1.0])
    ladder = await timed.ladder(1, "tiny", computers=True)
    assert {r.player: r.ordinal for r in ladder.rows} == {
        "11": pytest.approx(alice.ordinal()),
        "computer:normal": pytest.approx(computer.ordinal()),
    }
    recent = await timed.store.recent_games(1, 11)
    assert [(r.won, r.abandoned, r.rated) for r in recent] == [(False, False, True)]
    tallies = await timed.store.player_games(1, 11)
    assert [(t.game, t.games, t.wins) for t in tallies] == [("tiny", 1, 0)], "played and lost"


async def test_a_server_manager_playing_alone_resigns_like_anyone(timed: SessionManager) -> None:
    """Her power is over other people's games: abandoning her own rated game as its only
    person is leaving alone, her side's loss; with another person seated it stays a
    moderator's unrated act."""
    alone = await open_with_computers(timed, "tiny", [11])
    assert await timed.cancel(alone.id, 11, is_admin=True) == (
        "You were the only person at the table: the game counts as a loss for your side."
    )
    outcome, players = await stored_result(timed.store, alone.id)
    assert outcome["resigned"] == 0 and players == [(11, 0, 0, 1)]

    together = await open_with_computers(timed, "tarneeb", [11, 12])
    assert await timed.cancel(together.id, 11, is_admin=True) is None
    outcome, _ = await stored_result(timed.store, together.id)
    assert outcome["abandoned"] and "resigned" not in outcome
    players = await rows(
        timed.store, "SELECT rated FROM result_players WHERE table_id = ?", together.id
    )
    assert players == [(0,), (0,)]


@pytest.mark.parametrize("alone", [True, False])
async def test_staying_away_from_a_rated_game_is_leaving_it(
    timed: SessionManager, alone: bool
) -> None:
    """A person alone against computers who lets her turn time out and never comes back loses
    the game when the away time runs out, as if she had left (no dodging the rating by going
    quiet); away people on both sides make it nobody's loss: abandoned, unrated."""
    people = [11] if alone else [11, 12]
    table = await open_with_computers(timed, "tiny", people)
    clock = timed.clock
    assert isinstance(clock, ManualClock)
    while any(not s.away for s in table.humans()):
        await until(lambda: clock.sleepers > 0, "a turn timer")
        await clock.advance(3600)
        await until(
            lambda: table.id not in timed.tables or table.row.turn_deadline is not None,
            "the next timer",
        )
        await until(lambda: any(s.away for s in table.humans()), "someone marked away")
    await until(lambda: table.id not in timed.tables or clock.sleepers > 0, "the away timer")
    await clock.advance(timed.abandon_seconds + 1)  # (both away at once: closed already)
    await until(lambda: table.id not in timed.tables, "the game closed")
    outcome, players = await stored_result(timed.store, table.id)
    if alone:
        assert outcome["resigned"] == table.seat_of(11) and outcome["winners"] == [1]
        assert players == [(11, 0, 0, 1)]
    else:
        assert outcome["abandoned"] and "resigned" not in outcome
        assert [rated for *_, rated in players] == [0, 0]


@pytest.mark.parametrize("how", ["hints", "ratings off", "server manager"])
async def test_an_unrated_table_or_a_managers_abandon_stays_unrated(
    timed: SessionManager, how: str
) -> None:
    if how == "ratings off":
        await timed.change_guild_settings(1, rated=False)
    table = await open_with_computers(timed, "tiny", [11], hints=how == "hints")
    if how == "server manager":  # a moderator who does not play at the table
        assert await timed.cancel(table.id, 99, is_admin=True) is None
    else:
        answer = await timed.leave(table.id, 11)
        assert answer == "You were the last person at the table, so the game is abandoned."
    outcome, players = await stored_result(timed.store, table.id)
    assert outcome["abandoned"] and outcome["winners"] == [] and "resigned" not in outcome
    assert players == [(11, 0, 0, 0)] and table.resigned is None
    assert await rows(timed.store, "SELECT * FROM ratings") == []


async def test_tunge_rates_its_finishing_order_a_blocked_deal_included(store: Store) -> None:
    await finish(store, game="tunge", seats=(11, 12, 13), winners=(), score=(17, 4, 9))
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[3.0, 1.0, 2.0])
    ladder = await store.ladder(1, "tunge")
    assert [r.user_id for r in ladder.rows] == [12, 13, 11]
    assert [r.ordinal for r in ladder.rows] == pytest.approx(
        [expected[1][0].ordinal(), expected[2][0].ordinal(), expected[0][0].ordinal()]
    )
    places = await rows(store, "SELECT user_id, place FROM result_players ORDER BY user_id")
    assert places == [(11, 3), (12, 1), (13, 2)]


async def test_six_player_thunee_is_three_against_three(store: Store) -> None:
    six = (11, 12, 13, 14, 15, 16)
    await finish(store, game="thunee", seats=six, winners=(1, 3, 5), score=(3, 12))
    teams = await rows(store, "SELECT user_id, team, won FROM result_players ORDER BY user_id")
    assert teams == [(11, 0, 0), (12, 1, 1), (13, 0, 0), (14, 1, 1), (15, 0, 0), (16, 1, 1)]
    model = PlackettLuce()
    expected = model.rate([[model.rating() for _ in range(3)] for _ in range(2)], ranks=[2.0, 1.0])
    top = (await store.ladder(1, "thunee")).rows[0]
    assert top.user_id in (12, 14, 16) and top.ordinal == pytest.approx(expected[1][0].ordinal())


async def test_ratings_carry_over_and_stay_in_their_server(store: Store) -> None:
    await finish(store, guild=1)
    await finish(store, guild=1, winners=(1, 3))
    await finish(store, guild=2, seats=(11, 21, 22, 23))
    model = PlackettLuce()
    a, b, c, d = (model.rating() for _ in range(4))
    [[a, c], [b, d]] = model.rate([[a, c], [b, d]], ranks=[1.0, 2.0])
    [[a, c], [b, d]] = model.rate([[a, c], [b, d]], ranks=[2.0, 1.0])
    first = {r.user_id: r for r in (await store.ladder(1, "tarneeb")).rows}
    assert first[11].ordinal == pytest.approx(a.ordinal()) and first[11].games == 2
    assert first[12].ordinal == pytest.approx(b.ordinal())
    second = await store.ladder(2, "tarneeb")
    assert {r.user_id for r in second.rows} == {11, 21, 22, 23}
    assert {r.user_id: r.games for r in second.rows}[11] == 1, "server 1's games stay there"
    assert [g.game for g in await store.player_games(2, 12)] == []
    recent = await store.recent_games(2, 11)
    assert len(recent) == 1 and recent[0].won


async def test_the_month_ranks_by_rating_gained_and_pages_hold_ten(store: Store) -> None:
    for first in range(0, 24, 4):  # six games, 24 players
        await finish(store, seats=tuple(100 + first + i for i in range(4)))
    page = await store.ladder(1, "tarneeb", offset=10, limit=10)
    assert page.total == 24 and [r.rank for r in page.rows] == list(range(11, 21))
    month = await store.ladder(1, "tarneeb", month=month_of(time.time()))
    assert month.total == 24
    assert month.rows[0].change is not None and month.rows[0].change > 0
    assert (await store.ladder(1, "tarneeb", month="1999-12")).rows == []


async def test_stats_best_partner_and_recent_games(store: Store) -> None:
    await finish(store)
    await finish(store, winners=(1, 3))
    await finish(store, seats=(11, 12, 14, 13))
    partner = await store.best_partner(1, 11)
    assert partner is not None and (partner.user_id, partner.games, partner.wins) == (13, 2, 1)
    tallies = await store.player_games(1, 11)
    assert [(t.game, t.games, t.wins) for t in tallies] == [("tarneeb", 3, 2)]
    trend = await store.rating_trend(1, "tarneeb", 11)
    assert len(trend) == 3 and trend[-1][1] == pytest.approx(tallies[0].rating)
    recent = await store.recent_games(1, 11)
    assert [r.won for r in recent] == [True, False, True] and recent[0].delta is not None


async def test_the_session_manager_tells_the_result_an_away_seat_counts_for_nobody(
    backend: Backend,
) -> None:
    store = await backend.open()
    settings = Settings(discord_token=Secret("x.y.z"), database_path=backend.path, turn_seconds=60)
    timed = SessionManager(store, settings, clock=ManualClock(time.time()))  # this month
    try:
        await play_with_an_away_guest(timed)
    finally:
        await timed.shutdown()
        await store.close()


async def play_with_an_away_guest(timed: SessionManager) -> None:
    table = await timed.create_table(
        guild_id=1, channel_id=2, host_id=11, host_name="Host", game="tiny"
    )
    await timed.join(table.id, 12, "Guest")
    await timed.start(table.id, 11)
    host, guest = table.seat_of(11), table.seat_of(12)
    assert guest is not None and isinstance(timed.clock, ManualClock)
    while table.id in timed.tables:
        game, seq = table.game, table.moves
        assert game is not None
        if guest in game.to_act() and not table.seats[guest].away:
            # The guest lets their first turn time out: a computer plays for them from then on.
            clock = timed.clock
            await until(lambda: clock.sleepers > 0, "the turn timer")  # noqa: B023
            await clock.advance(3600)
            await until(lambda: table.seats[guest].away, "the guest marked away")
        elif host in game.to_act():
            await timed.submit(table.id, 11, table.moves, game.legal_moves(host)[0])
        else:
            await until(lambda: table.id not in timed.tables or table.moves > seq, "a move")  # noqa: B023
    assert table.result_note == (
        "Rated, except that a computer played most of the moves for Guest, "
        "so that seat counts for nobody."
    )
    ladder = await timed.ladder(1, "tiny", computers=True)
    assert [row.user_id for row in ladder.rows] == [11], "neither the guest nor its stand-in"
    month = await timed.ladder(1, "tiny", month=True)
    assert [(row.user_id, row.games) for row in month.rows] == [(11, 1)]


@pytest.mark.parametrize("game_name", ["tarneeb", "thunee", "norwegian_whist"])
def test_favourite_calls_are_read_from_a_replay_of_the_moves(game_name: str) -> None:
    game_class = get_game(game_name)
    game = game_class.new({}, seed=8)
    rng = random.Random(8)
    moves, settled = [], []
    while game.status != "finished":
        seat = game.to_act()[0]
        move = rng.choice(game.legal_moves(seat))
        moves.append((seat, move.to_json()))
        settled += [call for e in game.apply(seat, move) if (call := call_of(e)) is not None]
    assert settled, "the game settled some calls"
    row = TableRow(1, 1, 2, None, 3, game_name, {}, 8, game.first_dealer, "finished", None, 0, 0)
    deals = [deal.to_json() for deal in game.deals]
    for seat in range(4):
        mine = Counter(label for who, label, _ in settled if who == seat)
        won = Counter(label for who, label, ok in settled if who == seat and ok)
        judged = {label for who, label, ok in settled if who == seat and ok is not None}
        expected = [
            (label, n, won[label] if label in judged else None) for label, n in mine.most_common(3)
        ]
        counted = tally_calls([seat_calls(game_calls(row, deals, moves), seat)])
        assert [(c.label, c.made, c.won) for c in counted] == expected
