"""The record of a finished game: who sat where, teams, places, and whether it is rated.

Pure functions over plain values (no SQL, no Discord): the store gathers the seats and the
moves log inside the transaction of the game's last move and calls :func:`build_record`; the
record goes into ``results.record`` as JSON and decides who the ratings update.

Choices the issue left open, decided here once:

- Teams: in a partnership game the team of seat ``s`` is ``s % 2`` (games/seats.py), so two-
  player Thunee is one against one and six-player Thunee three against three. In a game for
  each for themselves (Tunge) every seat is its own team.
- Places: a partnership game has the winning team first and the other second (a game without
  winners: everyone shares first). Tunge's places are its ranking by points, lowest first, the
  winners (who played out) ahead of the rest - a blocked deal has no winner and is ranked by its
  points alone.
- Unrated games: an abandoned game, a table with hints, a table opened while the server had
  ratings off, and a game where no human seat is left to rate. Unrated seats: a human seat
  whose moves were made mostly (more than half) by a computer standing in. That seat counts
  for nobody - neither the absent human nor the computer level gets a rating change for it - but
  the game stays rated for the other seats, who did play it: the seat takes part in the
  computation with the stand-in computer's rating, so beating it counts as beating a computer.
- Leaving (``/table leave`` in a running game) counts as playing the game out, as chess sites
  rate an abandoned game: the seat's record names its first person (``left_by``, from the seat
  holders' log) when someone else holds it at the end, who is rated with the seat's result
  however few of its moves they made, and whoever played it on (a computer, or a person
  sitting in) is not rated for it. A person is rated for one seat: one
  who left a seat and sat in at another of the same game counts for the seat they left.
- Resigning: the last person leaving a rated game under way (or abandoning it alone) resigns
  it, as card apps and chess sites count it. The outcome names the seat (``resigned``) and
  its winners (games/seats.py); the game is rated like a finished one, the resigner's side
  last, and the resigner counts for the seat even if a computer stood in for most of it.
- A computer level seated on more than one team (Fill with computers at a one-person table,
  two computers in Tunge) is not rated for that game: it would win every time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bot.i18n import N_
from games.registry import all_games

STAND_IN_LEVEL = "normal"  # bot/sessions/table.py: the level an away human's stand-in plays at


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the store knows it when the game ends."""

    seat: int
    user_id: int | None  # None: a computer player
    name: str
    human_moves: int = 0  # moves a person clicked for this seat
    computer_moves: int = 0  # moves a computer made for it (a computer seat or a stand-in)
    left_by: int | None = None  # the person who left the seat mid-game (rated for it)
    left_name: str | None = None

    @property
    def holder(self) -> int | None:
        """Who the seat counts for: the person who left it, else who sits there (None: a
        computer)."""
        return self.left_by if self.left_by is not None else self.user_id


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    user_id: int | None
    name: str
    level: str | None  # the computer's level; None for a human
    team: int
    place: int  # 1 = first
    won: bool
    stand_in: bool  # a human seat played mostly by a computer: it counts for nobody
    rated: bool  # this seat's player gets a rating change

    @property
    def computer(self) -> bool:
        return self.user_id is None

    @property
    def player(self) -> str:
        """The rating key of who played the seat (a stand-in: the stand-in computer's)."""
        if self.user_id is not None and not self.stand_in:
            return str(self.user_id)
        return computer_key(self.level or STAND_IN_LEVEL)


@dataclass(frozen=True)
class GameRecord:
    game: str
    options: dict[str, Any]
    status: str  # finished, resigned or abandoned
    seats: tuple[SeatRecord, ...]
    score: list[Any]
    winners: list[int]
    order: list[list[int]]  # the finishing order: seats sharing each place, first place first
    started_at: float | None
    finished_at: float
    rated: bool
    reason: str | None  # why the game, or some seat of it, is not rated (None: all rated)
    resigned: int | None = None  # the seat whose leaving ended the game as its loss

    @property
    def abandoned(self) -> bool:
        return self.status == "abandoned"

    @property
    def duration(self) -> float | None:
        return None if self.started_at is None else max(0.0, self.finished_at - self.started_at)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["duration"] = self.duration
        return data


def computer_key(level: str) -> str:
    return f"computer:{level}"


def is_team_game(game: str, players: int) -> bool:
    game_class = all_games().get(game)
    return bool(game_class is not None and game_class.teams and players > 2)


def team_of(game: str, seat: int, players: int) -> int:
    return seat % 2 if is_team_game(game, players) else seat


def finishing_order(
    game: str, players: int, winners: Sequence[int], score: Sequence[Any]
) -> list[list[int]]:
    """Seats sharing each place, first place first (see the module docstring)."""
    seats = list(range(players))
    if is_team_game(game, players):
        if not winners:
            return [seats]
        won = [s for s in seats if s % 2 == winners[0] % 2]
        return [won, [s for s in seats if s not in won]]
    first = [s for s in seats if s in winners]
    rest = [s for s in seats if s not in winners]
    points: dict[Any, list[int]] = {}
    for seat in rest:
        value = score[seat] if seat < len(score) else 0
        points.setdefault(value, []).append(seat)
    return ([first] if first else []) + [points[value] for value in sorted(points)]


def build_record(
    *,
    game: str,
    options: Mapping[str, Any],
    status: str,
    outcome: Mapping[str, Any],
    seats: Sequence[SeatInfo],
    computer_level: str,
    table_rated: bool,
    hints: bool,
    started_at: float | None,
    finished_at: float,
) -> GameRecord:
    """The record of a game that just ended, with who is rated and why not."""
    players = len(seats)
    winners = [int(s) for s in outcome.get("winners") or []]
    score = list(outcome.get("score") or [])
    resigned = None if outcome.get("resigned") is None else int(outcome["resigned"])
    abandoned = (status == "abandoned" or bool(outcome.get("abandoned"))) and resigned is None
    order = [] if abandoned else finishing_order(game, players, winners, score)
    place_of = {seat: place for place, group in enumerate(order, start=1) for seat in group}
    game_reason = None
    if abandoned:
        why = outcome.get("reason")
        game_reason = f"the game was abandoned ({why})" if why else "the game was abandoned"
    elif hints:
        game_reason = "the table allowed hints"
    elif not table_rated:
        game_reason = "the server had ratings off when the table was opened"
    leavers = {info.left_by for info in seats if info.left_by is not None}
    stand_ins = [
        info
        for info in seats
        if info.left_by is None
        and info.seat != resigned
        and info.user_id is not None
        and info.user_id not in leavers
        and info.computer_moves > info.human_moves
    ]
    # Sat in at another seat after leaving one: the person counts for the seat they left.
    doubled = [info for info in seats if info.left_by is None and info.user_id in leavers]
    unrated = stand_ins + doubled
    if game_reason is None and all(info.holder is None or info in unrated for info in seats):
        game_reason = "no seat was played by a person"
    rated = game_reason is None
    computer_teams = {team_of(game, info.seat, players) for info in seats if info.holder is None}
    records = tuple(
        SeatRecord(
            seat=info.seat,
            user_id=info.holder,
            name=(info.left_name or info.name) if info.left_by is not None else info.name,
            level=computer_level if info.holder is None else None,
            team=team_of(game, info.seat, players),
            place=place_of.get(info.seat, 0),
            won=info.seat in winners and not abandoned,
            stand_in=info in unrated,
            rated=rated
            and info not in unrated
            and (info.holder is not None or len(computer_teams) == 1),
        )
        for info in seats
    )
    reason = game_reason
    if rated and unrated:
        reason = unrated_seats_reason(
            [info.name for info in stand_ins], [info.name for info in doubled]
        )
    return GameRecord(
        game=game,
        options=dict(options),
        status="abandoned" if abandoned else "resigned" if resigned is not None else status,
        seats=records,
        score=score,
        winners=winners,
        order=order,
        started_at=started_at,
        finished_at=finished_at,
        rated=rated,
        reason=reason,
        resigned=resigned,
    )


def unrated_seats_reason(stand_ins: Sequence[str], doubled: Sequence[str]) -> str:
    """Why a rated game's unrated seats count for nobody (the only reason that names people):
    ``stand_ins`` a computer played for, ``doubled`` held by someone who left another seat."""
    reasons = []
    if stand_ins:
        reasons.append(f"a computer played most of the moves for {', '.join(stand_ins)}")
    if doubled:
        reasons.append(
            f"{', '.join(doubled)} left another seat of this game, which counts for them"
        )
    return " and ".join(reasons) + ", so that seat counts for nobody"


def rating_note(rated: bool, reason: str | None) -> str:
    """The line the table's result shows: rated, unrated and why, or rated but for a seat."""
    if not rated:
        return f"Not rated: {reason}." if reason else N_("Not rated.")
    if reason:
        return f"Rated, except that {reason}."
    return N_("Rated.")
