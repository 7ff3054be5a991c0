"""Seat arithmetic for 2, 3, 4 and 6 seats.

Seats are numbered from 0 in the order of play: seat ``i + 1`` (mod the number of seats) plays
after seat ``i``. In partnership games the team of seat ``i`` is ``i % 2``. Nothing in the project
writes ``1 - seat`` or ``seat ^ 1``: those only work for two seats.
"""

from __future__ import annotations

from collections.abc import Iterable


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat ``step`` places after ``seat`` in the order of play."""
    return (seat + step) % players


def seats_from(first: int, players: int) -> list[int]:
    """Every seat once, in order of play, starting with ``first``."""
    return [(first + i) % players for i in range(players)]


def team_of(seat: int) -> int:
    """Team of a seat in a partnership game (seat 0's team is 0)."""
    return seat % 2


def team_seats(team: int, players: int) -> list[int]:
    """The seats of a team, in order of play."""
    return [seat for seat in range(players) if seat % 2 == team]


def partners(seat: int, players: int) -> list[int]:
    """The other seats of this seat's team (one with 4 players, two with 6, none with 2)."""
    return [other for other in team_seats(team_of(seat), players) if other != seat]


def partner(seat: int, players: int) -> int:
    """The partner opposite: only meaningful for four players."""
    if players != 4:
        raise ValueError("a single partner exists only with four players")
    return (seat + 2) % 4


def other_team(team: int) -> int:
    return (team + 1) % 2


def seat_ref(seat: int) -> str:
    """Placeholder for a seat's name in an event or prompt text: the bot fills in the name."""
    return "{s" + str(seat) + "}"


def resignation_winners(resigner: int, players: int, teams: bool) -> list[int]:
    """The winners when ``resigner`` resigns (leaving a rated game alone counts as resigning
    it): every seat not on the resigner's team. In a partnership game that is the other team
    (with two seats, the other seat); without teams (Tunge), every other seat."""
    if teams:
        return [seat for seat in range(players) if team_of(seat) != team_of(resigner)]
    return [seat for seat in range(players) if seat != resigner]


def rematch_order(players: int, teams: bool) -> list[int]:
    """For a rematch: the old seat of whoever sits at each new seat.

    With teams of two or three (4 or 6 seats), seat 0 stays and everyone else moves one seat
    on, so every partnership changes (with 4 seats, three rematches visit all three pairings
    and come back). Without teams, or with two seats, everyone moves one seat on, so the order
    of play (and who deals and leads first) shifts.
    """
    if teams and players >= 4:
        return [0, players - 1, *range(1, players - 1)]
    return [(seat - 1) % players for seat in range(players)]


def seats_to_return_to(
    players: int, teams: bool, held: Iterable[int], offered: Iterable[int]
) -> list[int]:
    """Of the ``offered`` seats, those a person who held the ``held`` seats earlier in this game
    may take: she has seen those seats' cards, so never an opponent's.

    Her old seat if it is offered; else, in a partnership game, a seat of her own team; else
    none. A person who held no seat may take any offered seat.
    """
    offered = sorted(set(offered))
    held = set(held)
    if not held:
        return offered
    old = [seat for seat in offered if seat in held]
    if old or not teams:
        return old
    own_teams = {team_of(seat) for seat in held}
    return [seat for seat in offered if seat < players and team_of(seat) in own_teams]
