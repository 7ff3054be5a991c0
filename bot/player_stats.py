"""A player's statistics in one server: games, wins, rating and its trend, best partner,
favourite calls, last games (``/stats``).

The calls are taken from the engines' hand results (``hand_scored``): Thunee's calls and
contracts (``result.kind``, ``caller``, ``success``), Tarneeb's contracts (``declarer``,
``contract``, ``made``), Tuppi's and Norwegian Whist's declared hands (``result.hand``,
``declarer``). The session manager collects them as the game is played and keeps each seat's
with the game's result; a game recorded before that has its calls counted once from a replay
of its moves (off the event loop), and kept. Only the latest :data:`CALL_GAMES` games count.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import (
    Call,
    GameTally,
    PartnerRow,
    RecentGame,
    StoreInterface,
    StoreUnavailable,
    TableRow,
)
from games.base import Deal, Event, Move
from games.registry import get_game

CALL_GAMES = 20  # the latest games whose calls count for the favourite calls
TREND_POINTS = 200
Moves = list[tuple[int, dict[str, Any]]]  # (seat, move) as stored
Replay = tuple[TableRow, list[dict[str, Any]], Moves]  # a table, its deals and its moves


@dataclass(frozen=True)
class CallCount:
    label: str  # "Thunee", "Contract 8", "Grand"
    made: int
    won: int | None  # of those made, how many succeeded (None: the game does not say)


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    game: str | None  # the game asked for, or the player's most played one for the rating
    tallies: list[GameTally]
    trend: list[tuple[float, float]]  # (finished at, rating after) of ``game``, oldest first
    partner: PartnerRow | None
    calls: list[CallCount]
    recent: list[RecentGame]
    rating: float | None = None
    rated_games: int = 0

    @property
    def games(self) -> int:
        return sum(t.games for t in self.tallies)

    @property
    def wins(self) -> int:
        return sum(t.wins for t in self.tallies)


async def gather(
    store: StoreInterface, guild_id: int, user_id: int, game: str | None = None
) -> PlayerStats:
    tallies = await store.player_games(guild_id, user_id)
    if game is not None:
        tallies = [t for t in tallies if t.game == game]
    shown = game or (tallies[0].game if tallies else None)
    trend = await store.rating_trend(guild_id, shown, user_id, TREND_POINTS) if shown else []
    tally = next((t for t in tallies if t.game == shown), None)
    partner = await store.best_partner(guild_id, user_id, game)
    recent = await store.recent_games(guild_id, user_id, game, limit=5)
    calls = await favourite_calls(store, guild_id, user_id, game)
    return PlayerStats(
        user_id=user_id,
        game=shown,
        tallies=tallies,
        trend=trend,
        partner=partner,
        calls=calls,
        recent=recent,
        rating=tally.rating if tally else None,
        rated_games=tally.rated if tally else 0,  # all of them: the trend keeps the latest
    )


async def favourite_calls(
    store: StoreInterface, guild_id: int, user_id: int, game: str | None
) -> list[CallCount]:
    """The calls this player made most in their latest games, with how many succeeded."""
    games = await store.recent_calls(guild_id, user_id, game, limit=CALL_GAMES)
    missing = [played for played in games if played.calls is None and not played.abandoned]
    counted = await _count_once(store, [played.table_id for played in missing])
    return tally_calls(
        played.calls
        if played.calls is not None
        else seat_calls(counted.get(played.table_id, []), played.seat)
        for played in games
        if not played.abandoned
    )


def seat_calls(calls: Iterable[Call], seat: int) -> list[tuple[str, bool | None]]:
    """One seat's calls of a game's, as (label, succeeded)."""
    return [(label, ok) for who, label, ok in calls if who == seat]


async def _count_once(store: StoreInterface, table_ids: Sequence[int]) -> dict[int, list[Call]]:
    """The calls of games recorded before calls were kept: replayed (off the event loop) and
    kept, so each game is replayed once. Per table, every seat's calls."""
    replays: list[Replay] = []
    for table_id in table_ids:
        table = await store.get_table(table_id)
        if table is None:
            continue
        deals = await store.deals(table.id)
        moves = [(m.seat, m.move) for m in await store.moves(table.id)]
        replays.append((table, deals, moves))
    if not replays:
        return {}
    loop = asyncio.get_running_loop()
    replayed = await loop.run_in_executor(None, _replay_all, replays)
    with contextlib.suppress(StoreUnavailable):  # kept next time, then: they are counted now
        await store.keep_calls(replayed)
    return replayed


def _replay_all(replays: Sequence[Replay]) -> dict[int, list[Call]]:
    return {table.id: game_calls(table, deals, moves) for table, deals, moves in replays}


def game_calls(
    table: TableRow, deals: Sequence[dict[str, Any]], moves: Sequence[tuple[int, dict[str, Any]]]
) -> list[Call]:
    """Every call a replay of the stored game settles, in order, as (seat, label, succeeded);
    none for a game the rules can no longer replay."""
    try:
        game = get_game(table.game).new(
            table.options,
            seed=table.seed,
            deals=[Deal.from_json(d) for d in deals],
            first_dealer=table.first_dealer,
        )
        return [
            call
            for mover, move in moves
            for event in game.apply(mover, Move.from_json(move))
            if (call := call_of(event)) is not None
        ]
    except Exception:  # a game the rules can no longer replay: left out of the count
        return []


def calls_in(events: Iterable[Event]) -> list[Call]:
    """The calls these events settle, in order."""
    return [call for event in events if (call := call_of(event)) is not None]


def tally_calls(games: Iterable[Sequence[tuple[str, bool | None]]]) -> list[CallCount]:
    """Count a seat's calls over games by label, most made first (top three)."""
    made: Counter[str] = Counter()
    won: Counter[str] = Counter()
    judged: set[str] = set()  # labels whose success the hand results tell
    for calls in games:
        for label, success in calls:
            made[label] += 1
            if success is not None:
                judged.add(label)
                won[label] += int(success)
    return [
        CallCount(label, count, won[label] if label in judged else None)
        for label, count in made.most_common(3)
    ]


def call_of(event: Event) -> tuple[int, str, bool | None] | None:
    """(seat, label, succeeded or None if unsaid) of the call a hand result settles."""
    if event.kind != "hand_scored":
        return None
    data: Mapping[str, Any] = event.data
    result = data.get("result")
    if isinstance(result, dict):
        who = result.get("caller", result.get("declarer"))
        label = result.get("kind") or result.get("hand")
        if isinstance(who, int) and label:
            success = result.get("success")
            return who, _label(str(label)), None if success is None else bool(success)
        return None
    who = data.get("declarer")
    contract = data.get("contract")
    if isinstance(who, int) and contract is not None and not data.get("throw_in"):
        return who, f"Contract {contract}", bool(data.get("made"))
    return None


def _label(kind: str) -> str:
    return kind.replace("_", " ").capitalize()
