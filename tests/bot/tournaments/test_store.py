"""Tournaments in the real SQLite store and a real PostgreSQL server: sign-up, rounds and results
survive a restart, a round opens once and a result counts once, in the database itself."""

from __future__ import annotations

import asyncio
import inspect
import random

import pytest

from bot.store import Store, TournamentRefused, TournamentRow, TournamentsStore
from bot.store.postgres import PostgresStore
from bot.tournaments.spec import Entrant, TournamentSpec
from bot.tournaments.standings import standings
from bot.tournaments.swiss import pair_round
from tests.bot.backends import BOTH, Backend, fetch
from tests.bot.tournaments.play import play_round

STORE_BACKENDS = BOTH

NOW = 1_000_000.0
TARNEEB = TournamentSpec.create(
    game="tarneeb", format="swiss", entry="individuals", rounds=3, seed=9, options={"target": 31}
)
PAIRS = TournamentSpec.create(game="thunee", format="knockout", entry="pairs", seed=4)


async def new(store: Store, spec: TournamentSpec, starts_at: float | None = None) -> TournamentRow:
    return await store.create_tournament(
        guild_id=1, channel_id=2, organiser_id=3, spec=spec, starts_at=starts_at, now=NOW
    )


async def running(store: Store, players: int = 8) -> tuple[TournamentRow, list[Entrant]]:
    tournament = await new(store, TARNEEB)
    for user in range(players):
        await store.enter_tournament(
            tournament.id, [100 + user], name=f"P{user}", rating=float(user), now=NOW
        )
    started = await store.set_tournament_status(tournament.id, "running", now=NOW + 1)
    return started, await store.entrants(tournament.id)


async def test_a_tournament_reads_back_as_it_was_made(store: Store) -> None:
    made = await new(store, TARNEEB, starts_at=NOW + 60)
    assert made.spec == TARNEEB and made.status == "signup" and made.starts_at == NOW + 60
    assert await store.get_tournament(made.id) == made
    assert await store.open_tournaments() == [made]
    shown = await store.set_tournament_message(made.id, 77, now=NOW + 1)
    assert shown.message_id == 77 and shown.updated_at == NOW + 1
    knockout = await new(store, PAIRS)
    assert (await store.get_tournament(knockout.id)) == knockout and knockout.spec.rounds is None
    assert await store.get_tournament(999) is None


async def test_a_tournament_keeps_its_round_length(store: Store) -> None:
    assert (await new(store, TARNEEB)).round_minutes == 60, "an hour unless chosen"
    made = await store.create_tournament(
        guild_id=1,
        channel_id=2,
        organiser_id=3,
        spec=TARNEEB,
        starts_at=None,
        now=NOW,
        round_minutes=25,
    )
    assert made.round_minutes == 25 and await store.get_tournament(made.id) == made


async def test_sign_up_refuses_late_and_duplicate_entries(store: Store) -> None:
    tournament = await new(store, TARNEEB, starts_at=NOW + 60)
    alice = await store.enter_tournament(tournament.id, [10], name="Alice", rating=3, now=NOW)
    assert alice == Entrant(1, (10,), 3.0, "Alice")
    with pytest.raises(TournamentRefused, match="Already entered"):
        await store.enter_tournament(tournament.id, [10], name="Alice", rating=3, now=NOW)
    with pytest.raises(TournamentRefused, match="entered alone"):
        await store.enter_tournament(tournament.id, [11, 12], name="Two", rating=0, now=NOW)
    with pytest.raises(TournamentRefused, match="has closed"):
        await store.enter_tournament(tournament.id, [13], name="Late", rating=0, now=NOW + 60)
    with pytest.raises(TournamentRefused, match="no such tournament"):
        await store.enter_tournament(999, [13], name="Lost", rating=0, now=NOW)
    bob = await store.enter_tournament(tournament.id, [14], name="Bob", rating=1, now=NOW)
    assert await store.entrants(tournament.id) == [alice, bob]
    assert await store.withdraw_entrant(tournament.id, 10) == alice
    assert await store.withdraw_entrant(tournament.id, 10) is None
    assert await store.entrants(tournament.id) == [bob]
    await store.set_tournament_status(tournament.id, "running", now=NOW + 1)
    with pytest.raises(TournamentRefused, match="has closed"):
        await store.enter_tournament(tournament.id, [15], name="Carol", rating=0, now=NOW + 2)
    with pytest.raises(TournamentRefused, match="entries are final"):
        await store.withdraw_entrant(tournament.id, 14)
    assert await store.entrants(tournament.id) == [bob]


async def test_pairs_enter_together_and_nobody_twice(store: Store) -> None:
    tournament = await new(store, PAIRS)
    pair = await store.enter_tournament(tournament.id, [1, 2], name="A & B", rating=0, now=NOW)
    assert pair.members == (1, 2)
    with pytest.raises(TournamentRefused, match="Already entered"):
        await store.enter_tournament(tournament.id, [3, 2], name="C & B", rating=0, now=NOW)
    with pytest.raises(TournamentRefused, match="as a pair"):
        await store.enter_tournament(tournament.id, [3], name="C", rating=0, now=NOW)
    with pytest.raises(TournamentRefused, match="as a pair"):
        await store.enter_tournament(tournament.id, [3, 3], name="C & C", rating=0, now=NOW)
    assert await store.withdraw_entrant(tournament.id, 2) == pair  # the partner withdraws both
    assert await store.entrants(tournament.id) == []


async def test_sign_ups_at_once_each_get_a_number_and_nobody_enters_twice(
    store: Store,
) -> None:
    """Many people clicking Enter at the same moment (PostgreSQL runs their transactions side
    by side): each entry gets a number of its own, and a double click enters once, the other
    click refused as a person already entered."""
    tournament = await new(store, TARNEEB)

    async def enter(user: int) -> Entrant | TournamentRefused:
        try:
            return await store.enter_tournament(
                tournament.id, [user], name=f"U{user}", rating=0, now=NOW
            )
        except TournamentRefused as refused:
            return refused

    answers = await asyncio.gather(*(enter(user) for user in [*range(20, 28), 20, 20]))
    entered = [a for a in answers if isinstance(a, Entrant)]
    assert sorted(e.id for e in entered) == list(range(1, 9))
    refusals = [a for a in answers if isinstance(a, TournamentRefused)]
    assert [str(r) for r in refusals] == ["Already entered in this tournament."] * 2
    assert sorted(m for e in await store.entrants(tournament.id) for m in e.members) == list(
        range(20, 28)
    )


async def test_a_tournament_starts_once_and_ends_once(store: Store) -> None:
    tournament = await new(store, TARNEEB)
    with pytest.raises(TournamentRefused, match="Only a running"):
        await store.set_tournament_status(tournament.id, "finished", now=NOW)
    await store.set_tournament_status(tournament.id, "running", now=NOW)
    with pytest.raises(TournamentRefused, match="started already"):
        await store.set_tournament_status(tournament.id, "running", now=NOW)
    done = await store.set_tournament_status(tournament.id, "finished", now=NOW + 1)
    assert done.status == "finished" and await store.open_tournaments() == []
    with pytest.raises(TournamentRefused, match="ended already"):
        await store.set_tournament_status(tournament.id, "cancelled", now=NOW)


async def test_a_round_opens_once_even_when_asked_twice_at_once(store: Store) -> None:
    tournament, entrants = await running(store)
    paired = pair_round(TARNEEB, entrants, [], [])
    opened = await asyncio.gather(
        *(store.open_round(tournament.id, paired, deadline=NOW + 600, now=NOW) for _ in range(3))
    )
    assert sum(1 for o in opened if o is not None) == 1
    assert await store.open_round(tournament.id, paired, deadline=None, now=NOW) is None
    [stored] = await store.tournament_rounds(tournament.id)
    assert stored.paired == paired and stored.deadline == NOW + 600
    assert stored.table_ids == (None, None) and stored.closed_at is None
    later = pair_round(TARNEEB, entrants, [paired, paired], [])
    with pytest.raises(TournamentRefused, match="Round 2 comes first"):
        await store.open_round(tournament.id, later, deadline=None, now=NOW)


async def test_a_round_needs_a_running_tournament(store: Store) -> None:
    tournament = await new(store, TARNEEB)
    paired = pair_round(TARNEEB, [Entrant(i, (i,)) for i in range(1, 5)], [], [])
    with pytest.raises(TournamentRefused, match="not running"):
        await store.open_round(tournament.id, paired, deadline=None, now=NOW)
    assert await store.tournament_rounds(tournament.id) == []


async def test_a_result_counts_once(store: Store) -> None:
    tournament, entrants = await running(store)
    paired = pair_round(TARNEEB, entrants, [], [])
    await store.open_round(tournament.id, paired, deadline=None, now=NOW)
    results = play_round(TARNEEB, paired, random.Random(1), stand_ins=[3])
    assert await store.record_tournament_result(tournament.id, results[0], now=NOW + 5)
    assert not await store.record_tournament_result(tournament.id, results[0], now=NOW + 6)
    assert await store.tournament_results(tournament.id) == results[:1]
    twice = await asyncio.gather(
        *(store.record_tournament_result(tournament.id, results[1], now=NOW + 6) for _ in range(3))
    )
    assert sorted(twice) == [False, False, True]
    assert await store.tournament_results(tournament.id) == results[:2]
    missing = type(results[0])(round=1, table=9, places=(1, 2))
    with pytest.raises(TournamentRefused, match="no such table"):
        await store.record_tournament_result(tournament.id, missing, now=NOW)
    assert await store.close_round(tournament.id, 1, now=NOW + 7)
    assert not await store.close_round(tournament.id, 1, now=NOW + 8)


async def test_the_keys_hold_in_the_database_itself(store: Store, backend: Backend) -> None:
    tournament, entrants = await running(store)
    paired = pair_round(TARNEEB, entrants, [], [])
    await store.open_round(tournament.id, paired, deadline=None, now=NOW)
    result = play_round(TARNEEB, paired, random.Random(2))[0]
    await store.record_tournament_result(tournament.id, result, now=NOW)
    for sql in (
        "INSERT INTO tournament_rounds (tournament_id, round, byes, opened_at)"
        " VALUES (?, 1, '[]', 0)",
        "INSERT INTO tournament_results (tournament_id, round, number, places, deals,"
        " stand_ins, finished_at) VALUES (?, 1, 1, '[1, 2]', '[]', '[]', 0)",
        "INSERT INTO tournament_members (tournament_id, entrant, member, user_id)"
        " VALUES (?, 2, 1, 100)",
    ):
        with pytest.raises(backend.integrity):
            async with store.transaction() as db:
                await backend.run(db, sql, tournament.id)


async def test_a_game_table_plays_one_round_table(store: Store) -> None:
    tournament, entrants = await running(store)
    paired = pair_round(TARNEEB, entrants, [], [])
    await store.open_round(tournament.id, paired, deadline=None, now=NOW)
    game = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, game="tarneeb", options={}, seed=5, seats=[]
    )
    assert await store.link_round_table(tournament.id, 1, 2, game.id)
    assert not await store.link_round_table(tournament.id, 1, 2, game.id)
    assert await store.round_table_of(game.id) == (tournament.id, 1, 2)
    assert await store.round_table_of(game.id + 1) is None
    [stored] = await store.tournament_rounds(tournament.id)
    assert stored.table_ids == (None, game.id)


async def test_a_whole_tournament_survives_a_restart(backend: Backend) -> None:
    rng = random.Random(3)
    store = await backend.open()
    tournament, entrants = await running(store)
    for _ in range(2):
        rounds = [r.paired for r in await store.tournament_rounds(tournament.id)]
        paired = pair_round(
            TARNEEB, entrants, rounds, await store.tournament_results(tournament.id)
        )
        await store.open_round(tournament.id, paired, deadline=None, now=NOW)
        for result in play_round(TARNEEB, paired, rng):
            await store.record_tournament_result(tournament.id, result, now=NOW)
    before = standings(
        entrants,
        [r.paired for r in await store.tournament_rounds(tournament.id)],
        await store.tournament_results(tournament.id),
        seed=TARNEEB.seed,
    )
    expected_next = pair_round(
        TARNEEB,
        entrants,
        [r.paired for r in await store.tournament_rounds(tournament.id)],
        await store.tournament_results(tournament.id),
    )
    await store.close()
    store = await backend.open()
    try:
        assert await store.open_tournaments() == [tournament]
        assert await store.entrants(tournament.id) == entrants
        rounds = [r.paired for r in await store.tournament_rounds(tournament.id)]
        results = await store.tournament_results(tournament.id)
        assert len(rounds) == 2 and len(results) == 4
        assert standings(entrants, rounds, results, seed=TARNEEB.seed) == before
        assert pair_round(TARNEEB, entrants, rounds, results) == expected_next
    finally:
        await store.close()


async def test_forgetting_a_person_leaves_no_trace_in_ended_tournaments(store: Store) -> None:
    alice = 987_654_321_012_345_678
    ended = await store.create_tournament(
        guild_id=1, channel_id=2, organiser_id=alice, spec=PAIRS, starts_at=None, now=NOW
    )
    await store.enter_tournament(ended.id, [alice, 5], name="Alice & Bob", rating=0, now=NOW)
    await store.enter_tournament(ended.id, [6, 7], name="Carol & Dan", rating=0, now=NOW)
    await store.set_tournament_status(ended.id, "cancelled", now=NOW)
    open_one = await new(store, PAIRS)
    await store.enter_tournament(open_one.id, [alice, 5], name="Alice & Bob", rating=0, now=NOW)
    inviting = await new(store, PAIRS)
    await store.invite_partner(inviting.id, alice, 8, now=NOW)
    await store.invite_partner(inviting.id, 9, alice, now=NOW)
    await store.forget_user(alice)
    assert await store.invites_to(inviting.id, 8) == []  # invitations go everywhere
    assert await store.invites_to(inviting.id, alice) == []
    assert [e.name for e in await store.entrants(ended.id)] == ["Former player", "Carol & Dan"]
    assert [e.members for e in await store.entrants(ended.id)] == [(5,), (6, 7)]
    forgotten = await store.get_tournament(ended.id)
    assert forgotten is not None and forgotten.organiser_id == 0
    # the open tournament keeps its entry, as an open table keeps its seat
    assert (await store.entrants(open_one.id))[0].members == (alice, 5)
    ended_rows = [
        row
        for table in ("tournaments", "tournament_entrants", "tournament_members")
        for row in await fetch(
            store,
            f"SELECT * FROM {table} WHERE {'id' if table == 'tournaments' else 'tournament_id'}"
            " = ?",
            ended.id,
        )
    ]
    assert not any(alice in row or "Alice & Bob" in row for row in ended_rows)


async def test_a_pair_signs_up_by_invitation(store: Store) -> None:
    tournament = await new(store, PAIRS, starts_at=NOW + 60)
    await store.invite_partner(tournament.id, 1, 2, now=NOW)
    await store.invite_partner(tournament.id, 3, 2, now=NOW + 1)
    assert await store.invites_to(tournament.id, 2) == [1, 3]
    with pytest.raises(TournamentRefused, match="somebody else"):
        await store.invite_partner(tournament.id, 4, 4, now=NOW)
    with pytest.raises(TournamentRefused, match="no longer open"):
        await store.accept_invite(tournament.id, 4, 2, name="D & B", rating=0, now=NOW)
    pair = await store.accept_invite(tournament.id, 1, 2, name="A & B", rating=2, now=NOW + 2)
    assert pair == Entrant(1, (1, 2), 2.0, "A & B")
    assert await store.invites_to(tournament.id, 2) == []  # 3's invitation went with it
    with pytest.raises(TournamentRefused, match="Already entered"):
        await store.invite_partner(tournament.id, 3, 1, now=NOW + 3)
    await store.invite_partner(tournament.id, 3, 4, now=NOW + 3)
    await store.invite_partner(tournament.id, 3, 5, now=NOW + 4)  # replaces the one to 4
    assert await store.invites_to(tournament.id, 4) == []
    assert not await store.decline_invite(tournament.id, 3, 4)
    assert await store.decline_invite(tournament.id, 3, 5)
    await store.invite_partner(tournament.id, 6, 7, now=NOW + 5)
    with pytest.raises(TournamentRefused, match="has closed"):
        await store.accept_invite(tournament.id, 6, 7, name="F & G", rating=0, now=NOW + 60)
    assert await store.entrants(tournament.id) == [pair]


async def test_invitations_are_for_pairs_only(store: Store) -> None:
    tournament = await new(store, TARNEEB)
    with pytest.raises(TournamentRefused, match="entered alone"):
        await store.invite_partner(tournament.id, 1, 2, now=NOW)


def test_the_store_has_every_method_of_its_tournament_protocol() -> None:
    names = [n for n in vars(TournamentsStore) if not n.startswith("_")]
    assert len(names) > 15
    for name in names:
        expected = inspect.signature(getattr(TournamentsStore, name))
        assert inspect.signature(getattr(Store, name)) == expected, name
        assert inspect.signature(getattr(PostgresStore, name)) == expected, name
