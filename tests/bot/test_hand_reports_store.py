"""The reports of a computer's play, on both backends: one per player per trick, forgotten with
the reporter, exported as the blunder suite's fixtures."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.hand_reports import HandForReport, ReportRefusal, hand_for_report
from bot.privacy import FORMER_PLAYER
from bot.report_export import export
from bot.store import Store, StoreInterface, load_migrations
from games.base import Move
from games.levels import choose_move
from games.registry import get_game
from games.reports import Play, hand_plays, seen_of
from tests.bot.backends import BOTH

STORE_BACKENDS = BOTH
REPORTS = Path(__file__).resolve().parents[1] / "games" / "blunder_reports"
POSITION = {"format": 1, "game": "tarneeb", "seat": 1, "view": {"hand": ["2S"]}}


async def test_a_player_reports_a_trick_once(store: StoreInterface, backend: Any) -> None:
    assert not await store.hand_reported(7, 1, 3, 42)
    assert await store.add_hand_report(7, 1, 3, 42, 1, POSITION)
    assert await store.hand_reported(7, 1, 3, 42)
    assert not await store.add_hand_report(7, 1, 3, 42, 3, POSITION), "pressed again"
    assert await store.add_hand_report(7, 1, 3, 43, 1, POSITION), "another player may"
    assert await store.add_hand_report(7, 1, 4, 42, 1, POSITION), "another trick may"
    assert not await store.hand_reported(7, 2, 3, 42)


async def test_forgetting_a_player_removes_their_reports(
    store: StoreInterface, backend: Any
) -> None:
    await store.add_hand_report(7, 1, 3, 42, 1, POSITION)
    await store.add_hand_report(7, 1, 3, 43, 1, POSITION)
    await store.forget_user(42)
    assert not await store.hand_reported(7, 1, 3, 42)
    assert await store.hand_reported(7, 1, 3, 43)


async def test_the_export_writes_one_fixture_per_reported_play(
    store: StoreInterface, backend: Any, tmp_path: Path
) -> None:
    (example,) = sorted(REPORTS.glob("*.json"))
    position = json.loads(example.read_text())
    del position["reports"]
    await store.add_hand_report(9, 2, 5, 42, position["seat"], position)
    await store.add_hand_report(9, 2, 5, 43, position["seat"], position)
    where = backend.url if backend.url is not None else str(backend.path)
    written = await asyncio.to_thread(export, where, tmp_path / "out")
    assert [path.name for path in written] == [f"tarneeb-9-2-5-{position['seat']}.json"]
    fixture = json.loads(written[0].read_text())
    assert fixture["reports"] == 2
    assert seen_of(fixture) == seen_of(position)


def test_only_a_computers_card_of_the_hand_can_be_reported() -> None:
    plays = (Play(1, 3, 1, "2S", 9), Play(1, 3, 3, "5S", 11), Play(1, 4, 1, "KH", 14))
    hand = HandForReport(7, "tarneeb", {}, 0, (), (), 20, plays, ("A", "B", "C", "D"))
    assert hand.tricks() == {3: [plays[0], plays[1]], 4: [plays[2]]}
    assert hand.play(11) == plays[1]
    with pytest.raises(ReportRefusal):
        hand.play(10)  # a person's card (or a crafted number): not offered


ALICE, BOB = 987_654_321_012_345_678, 1002
GUILD = 11


async def played_hand(store: StoreInterface, clicked: Any) -> tuple[int, int, list[Any]]:
    """A Tarneeb table whose first hand is played out (the normal player at every seat) and
    kept move by move as the bot keeps it: ``clicked(index, seat)`` is the person whose click
    a move was, or None where a computer chose it. Its id, the moves of the hand, and the
    plays of the hand (:func:`games.reports.hand_plays`)."""
    game = get_game("tarneeb").new(seed=5, first_dealer=0)
    row = await store.create_table(
        guild_id=GUILD,
        channel_id=GUILD * 10,
        host_id=ALICE,
        game="tarneeb",
        options={},
        seed=5,
        seats=[(ALICE, "Alice"), (None, "Computer"), (BOB, "Bob"), (None, "Computer 2")],
    )
    await store.start_game(row.id, 0, [deal.to_json() for deal in game.deals])
    rng = random.Random(5)
    moves: list[tuple[int, Move]] = []
    while True:
        seat = game.to_act()[0]
        move = choose_move(game, seat, rng)
        events = game.apply(seat, move)
        await store.append_move(row.id, len(moves), seat, move.to_json(), clicked(len(moves), seat))
        moves.append((seat, move))
        if any(event.kind == "hand_scored" for event in events):
            break
    fresh = get_game("tarneeb").new(seed=5, first_dealer=0)
    outcome = {"winners": [0], "score": [0, 0], "abandoned": True}
    await store.record_result(row, "abandoned", outcome, [(ALICE, 0, False), (BOB, 2, False)])
    return row.id, len(moves), hand_plays(fresh, moves, len(moves))


async def test_the_cards_offered_are_the_ones_a_computer_chose(
    store: StoreInterface, backend: Any
) -> None:
    """Seats 1 and 3 are computers; Bob (seat 2) runs out of time from his fourth card on, and
    a stand-in plays for him; Alice (seat 0) plays her own cards, and is then forgotten, which
    takes her id off her moves: they are hers still, never offered as a computer's."""
    bobs: list[int] = []

    def clicked(index: int, seat: int) -> int | None:
        if seat == 0:
            return ALICE
        if seat == 2:
            bobs.append(index)
            return BOB if len(bobs) <= 3 else None
        return None

    table_id, upto, plays = await played_hand(store, clicked)
    await store.forget_user(ALICE)
    assert {m.user_id for m in await store.moves(table_id)} == {None, BOB}
    hand = await hand_for_report(store, GUILD, table_id, upto, BOB)
    offered = {(play.seat, play.before) for play in hand.plays}
    stand_in = {(2, index) for index in bobs[3:] if any(p.before == index for p in plays)}
    computers = {(p.seat, p.before) for p in plays if p.seat in (1, 3)}
    assert stand_in and offered == computers | stand_in
    assert not any(seat == 0 for seat, _ in offered), "the forgotten person's own cards"
    with pytest.raises(ReportRefusal):
        hand.play(next(p.before for p in plays if p.seat == 0))


async def test_the_migration_keeps_a_forgotten_persons_old_moves_from_the_offer(
    tmp_path: Path,
) -> None:
    """Moves kept before computers' moves were marked: one without a person's id is a
    computer's, unless the seat was then held by a forgotten person (who may have clicked it)."""
    path = tmp_path / "old.sqlite3"
    migrations = load_migrations()
    at = next(m.version for m in migrations if "by_computer" in m.sql)
    await (await Store.open(path, migrations[: at - 1])).close()
    with sqlite3.connect(path) as db:  # rows as the bot of that version left them
        db.execute(
            "INSERT INTO game_tables (id, guild_id, channel_id, host_id, game, options, seed,"
            " status, created_at, updated_at) VALUES (1, 1, 1, 5, 'tarneeb', '{}', 1,"
            " 'finished', 0, 0)"
        )
        holders = [(0, 0, None, FORMER_PLAYER), (1, 0, None, "Computer"), (1, 2, 7, "Carol")]
        db.executemany(
            "INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)"
            " VALUES (1, ?, ?, ?, ?)",
            holders,
        )
        moves = [(0, 0, None), (1, 1, None), (2, 0, None), (3, 1, 7), (4, 1, None)]
        db.executemany(
            "INSERT INTO moves (table_id, seq, seat, move, user_id, created_at)"
            " VALUES (1, ?, ?, '{}', ?, 0)",
            moves,
        )
    db.close()
    store = await Store.open(path)
    try:
        # seat 0: a forgotten person's; seat 1: the computer's, then Carol's own click, then a
        # stand-in's for her
        assert [m.by_computer for m in await store.moves(1)] == [False, True, False, False, True]
    finally:
        await store.close()
