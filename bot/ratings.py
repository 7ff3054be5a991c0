"""Ratings: OpenSkill's Plackett-Luce model over a game's record, per server and game.

Pure computation (the store reads the current ratings and writes the new ones in the
transaction of the game's last move). Teams are rated as teams (a partnership's players move
together), a free-for-all game by its finishing order; seats sharing a place tie.

Computer players are rated by level (``computer:hard``): a table with several computer seats of
one level on one team updates that level's entry once, with the mean of what its seats would
have got (seated on more than one team, the level is not rated: bot/records.py). A stand-in
seat (a human away for most of the game) enters the computation with the stand-in computer's
rating so that the others' result means something, and updates nobody; a seat its person left
counts as theirs (bot/records.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from statistics import fmean

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.records import GameRecord

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown on the ladder: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class RatingChange:
    player: str  # the rating key: a user id as text or "computer:<level>"
    user_id: int | None
    level: str | None
    before: Rating
    after: Rating
    won: bool

    @property
    def delta(self) -> float:
        return self.after.ordinal - self.before.ordinal


@dataclass(frozen=True)
class LadderRow:
    """One line of the rated leaderboard; ``change``: the rating gained in the period."""

    rank: int
    player: str  # the rating key: a user id as text or "computer:<level>"
    user_id: int | None
    level: str | None
    ordinal: float
    games: int
    wins: int
    change: float | None = None


@dataclass(frozen=True)
class LadderPage:
    rows: list[LadderRow]
    total: int  # players on the whole ladder


def rate(record: GameRecord, current: Mapping[str, Rating]) -> list[RatingChange]:
    """The rating changes a rated game makes (none for an unrated one); ``current`` holds the
    players' ratings so far (a missing player starts at the model's default)."""
    if not record.rated or not record.order:
        return []
    teams: dict[int, list[int]] = {}
    for seat in record.seats:
        teams.setdefault(seat.team, []).append(seat.seat)
    team_ids = sorted(teams)
    if len(team_ids) < 2:  # nobody to be measured against
        return []
    by_seat = {seat.seat: seat for seat in record.seats}
    place_of_team = {team: by_seat[teams[team][0]].place for team in team_ids}
    ratings = [
        [_model_rating(current.get(by_seat[s].player, DEFAULT)) for s in teams[team]]
        for team in team_ids
    ]
    new = MODEL.rate(ratings, ranks=[float(place_of_team[team]) for team in team_ids])
    after: dict[str, list[Rating]] = {}
    won: dict[str, bool] = {}
    for team, team_new in zip(team_ids, new, strict=True):
        for s, value in zip(teams[team], team_new, strict=True):
            seat = by_seat[s]
            if not seat.rated:
                continue
            after.setdefault(seat.player, []).append(Rating(value.mu, value.sigma))
            won[seat.player] = won.get(seat.player, False) or seat.won
    changes = []
    for seat in record.seats:
        values = after.pop(seat.player, None)
        if values is None:
            continue
        changes.append(
            RatingChange(
                player=seat.player,
                user_id=seat.user_id,
                level=seat.level,
                before=current.get(seat.player, DEFAULT),
                after=Rating(fmean(v.mu for v in values), fmean(v.sigma for v in values)),
                won=won[seat.player],
            )
        )
    return changes


def _model_rating(rating: Rating) -> PlackettLuceRating:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def month_of(now: float) -> str:
    """The calendar month (UTC) of a moment, "YYYY-MM": the key of "this month" on the ladder."""
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m")
