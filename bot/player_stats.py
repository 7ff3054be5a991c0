"""A player's statistics in one server: games, wins, rating and its trend, best partner,
favourite calls, last games (``/stats``).

The calls are not stored apart: they are read from the moves log by replaying the player's
latest games through the rules (off the event loop), and taken from the engines' hand results
(``hand_scored``): Thunee's calls and contracts (``result.kind``, ``caller``, ``success``),
Tarneeb's contracts (``declarer``, ``contract``, ``made``), Tuppi's and Norwegian Whist's
declared hands (``result.hand``, ``declarer``). Only the latest :data:`CALL_GAMES` games count.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import GameTally, PartnerRow, RecentGame, Store, TableRow
from games.base import Deal, Event, Move
from games.registry import get_game

CALL_GAMES = 20  # the latest games replayed for the favourite calls
TREND_POINTS = 200


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


async def gather(store: Store, guild_id: int, user_id: int, game: str | None = None) -> PlayerStats:
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
    store: Store, guild_id: int, user_id: int, game: str | None
) -> list[CallCount]:
    """The calls this player made most in their latest games, with how many succeeded."""
    games = await store.recent_games(guild_id, user_id, game, limit=CALL_GAMES)
    replays: list[tuple[TableRow, int, list[dict[str, Any]], list[tuple[int, dict[str, Any]]]]] = []
    for played in games:
        table = await store.get_table(played.table_id)
        if table is None or played.abandoned:
            continue
        deals = await store.deals(table.id)
        moves = [(m.seat, m.move) for m in await store.moves(table.id)]
        replays.append((table, played.seat, deals, moves))
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, count_calls, replays)


def count_calls(
    replays: Sequence[tuple[TableRow, int, list[dict[str, Any]], list[tuple[int, dict[str, Any]]]]],
) -> list[CallCount]:
    """Replay each game and count the seat's calls by label, most made first (top three)."""
    made: Counter[str] = Counter()
    won: Counter[str] = Counter()
    judged: set[str] = set()  # labels whose success the hand results tell
    for table, seat, deals, moves in replays:
        try:
            game = get_game(table.game).new(
                table.options,
                seed=table.seed,
                deals=[Deal.from_json(d) for d in deals],
                first_dealer=table.first_dealer,
            )
            for mover, move in moves:
                for event in game.apply(mover, Move.from_json(move)):
                    call = call_of(event)
                    if call is not None and call[0] == seat:
                        made[call[1]] += 1
                        if call[2] is not None:
                            judged.add(call[1])
                            won[call[1]] += int(call[2])
        except Exception:  # a game the rules can no longer replay: left out of the count
            continue
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
