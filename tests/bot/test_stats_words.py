"""What ``/stats`` says, from real SQLite: every rated game counted, and a game a computer
played for an away player not shown as played (nor won) by them."""

from __future__ import annotations

import pytest

import bot.player_stats
from bot.player_stats import PlayerStats, gather
from bot.store import Store
from cogs.stats import stats_embed
from tests.bot.test_ratings import finish

ALICE = 11


def rating_line(stats: PlayerStats) -> str:
    embed = stats_embed(stats, "Alice", stats.game, False)
    return next(str(f.value) for f in embed.fields if str(f.name).startswith("Rating"))


async def test_the_rating_counts_every_rated_game_not_just_the_charted_ones(
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.player_stats, "TREND_POINTS", 2)  # the chart keeps two points
    await finish(store)
    stats = await gather(store, 1, ALICE, "tarneeb")
    assert rating_line(stats).endswith(" after 1 rated game")
    for _ in range(2):
        await finish(store)
    stats = await gather(store, 1, ALICE, "tarneeb")
    assert len(stats.trend) == 2 and stats.rated_games == 3
    assert rating_line(stats).endswith(" after 3 rated games")


async def test_a_game_sat_out_as_away_is_not_shown_as_played_and_won(
    store: Store,
) -> None:
    await finish(store, winners=(0, 2), stand_in=(0,))  # a computer played Alice's seat
    await finish(store, winners=(1, 3))
    stats = await gather(store, 1, ALICE, "tarneeb")
    assert (stats.games, stats.wins) == (1, 0), "only the game Alice played"
    sat_out, played = reversed(stats.recent)
    assert sat_out.sat_out and not played.sat_out
    text = str(stats_embed(stats, "Alice", None, False).to_dict())
    assert "sat out (away: a computer played)" in text and ": won" not in text
