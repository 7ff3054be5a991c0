"""A tournament's settings and its entrants, as typed values with clear refusals.

:meth:`TournamentSpec.create` turns what an organiser asked for into a checked value or raises
:class:`TournamentError` with one sentence saying why not; :func:`check_entrants` does the same
for the list of entrants when the tournament starts. Neither changes anything.

How a game is played in a tournament follows from its facts (:mod:`games.registry`):

- a partnership game for four (Tarneeb, Thunee, Tuppi, ...) with ``entry: pairs``: each table
  is one pair against another (:attr:`Layout.SIDES`);
- the same with ``entry: individuals``: tables of four with partners rotating each round
  (:attr:`Layout.PARTNERS`);
- a partnership game set to two seats (Thunee 1 v 1) with individuals: one against one
  (:attr:`Layout.SIDES`);
- a game where each plays for themself (Tunge): tables of three or four (:attr:`Layout.FREE`).

A knockout needs head-to-head matches between the same entrants, so only :attr:`Layout.SIDES`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.i18n import N_
from games.base import OptionError
from games.registry import get_game

MAX_ROUNDS = 15
# A round's time, in minutes: its games are finished by computers after it.
ROUND_MINUTES = 60
MIN_ROUND_MINUTES, MAX_ROUND_MINUTES = 10, 1440
# A game's options in a tournament where the organiser gives none: Tuppi's tournament rules
# (16 hands, the higher peak wins, no sooli, bid tokens: rules §B.2).
DEFAULT_OPTIONS: Mapping[str, Mapping[str, Any]] = {"tuppi": {"rules": "tournament"}}


class TournamentError(ValueError):
    """A refusal, in one sentence for the person who asked. A fixed sentence is a catalogue
    text (marked ``N_``); one with values has a ``code`` and its ``params`` (the reader's
    language picks the text by the code: ``cogs/refusals.py``)."""

    def __init__(
        self, text: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(text)
        self.code = code
        self.params = dict(params or {})


class Format(StrEnum):
    SWISS = "swiss"
    KNOCKOUT = "knockout"


class Entry(StrEnum):
    PAIRS = "pairs"
    INDIVIDUALS = "individuals"


class Layout(StrEnum):
    """How a table is made up (see the module's docstring)."""

    SIDES = "sides"
    PARTNERS = "partners"
    FREE = "free"


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry: a pair (two members) or an individual (one).

    ``id`` is the entrant's number in its tournament (stable: standings and tables refer to
    it); ``members`` are Discord user ids; ``rating`` seeds a knockout and orders the first
    Swiss round (higher is stronger)."""

    id: int
    members: tuple[int, ...]
    rating: float = 0.0
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or f"#{self.id}"


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the tournament's seed and a place in it (round, table, ...): stable
    across processes, unlike ``hash``."""
    key = ":".join(str(part) for part in parts).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What an organiser set: the game and its options, the format, the entry and the rounds.

    ``rounds`` is the number of Swiss rounds; a knockout's follows from its entrants
    (:func:`bot.tournaments.knockout.round_count`) and is ``None`` here. ``duplicate``: every
    table of a round plays the same deals (:mod:`bot.tournaments.duplicate`). ``seed`` makes
    every draw and every deal of the tournament reproducible."""

    game: str
    format: Format
    entry: Entry
    rounds: int | None
    duplicate: bool
    seed: int
    layout: Layout
    seats: int  # seats at a table (a Tunge table's own count is set per table: 3 or 4)
    options: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def create(
        cls,
        *,
        game: str,
        format: str,
        entry: str,
        rounds: int | None = None,
        duplicate: bool | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> TournamentSpec:
        """A checked tournament, or :class:`TournamentError` saying what is wrong.

        ``duplicate`` defaults to on for Swiss and off for a knockout."""
        try:
            engine = get_game(game)
        except KeyError:
            raise TournamentError(
                f"There is no game called {game!r}.", code="no_such_game", params={"game": game}
            ) from None
        try:
            kind = Format(format)
        except ValueError:
            raise TournamentError(N_("The format must be swiss or knockout.")) from None
        try:
            how = Entry(entry)
        except ValueError:
            raise TournamentError(N_("Entry must be pairs or individuals.")) from None
        given = dict(options or {})
        if not engine.teams and "players" in given:
            raise TournamentError(
                f"{engine.title} tables are seated by the tournament (three or four a table).",
                code="seated_by_tournament",
                params={"title": engine.title},
            )
        chosen = {**DEFAULT_OPTIONS.get(game, {}), **given}
        try:
            values = engine.validate_options(chosen)
        except OptionError as error:
            text = str(error)
            raise TournamentError(f"{text[:1].upper()}{text[1:]}.") from None
        seats = engine.seat_count(values)
        layout = _layout(engine.title, engine.teams, seats, how)
        if kind is Format.KNOCKOUT:
            if layout is not Layout.SIDES:
                raise _no_knockout(engine.title, layout)
            if rounds is not None:
                raise TournamentError(N_("A knockout's rounds follow from the number of entrants."))
        elif rounds is None or not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(
                f"A Swiss tournament has 1 to {MAX_ROUNDS} rounds.",
                code="swiss_rounds",
                params={"most": MAX_ROUNDS},
            )
        return cls(
            game=game,
            format=kind,
            entry=how,
            rounds=rounds,
            duplicate=kind is Format.SWISS if duplicate is None else duplicate,
            seed=seed,
            layout=layout,
            seats=seats,
            options=values,
        )

    @property
    def min_entrants(self) -> int:
        """The fewest entrants that make one table (a knockout needs two)."""
        return {Layout.SIDES: 2, Layout.PARTNERS: 4, Layout.FREE: 3}[self.layout]

    @property
    def members(self) -> int:
        """People per entrant: two for pairs, one for individuals."""
        return 2 if self.entry is Entry.PAIRS else 1

    def check_entrants(self, entrants: Iterable[Entrant]) -> None:
        """Refuse a list of entrants the tournament cannot start with: too few, a wrong number
        of members, or one person entered twice."""
        entrants = list(entrants)
        if len({entrant.id for entrant in entrants}) != len(entrants):
            raise TournamentError("Two entrants share a number.")
        for entrant in entrants:
            if len(entrant.members) != self.members:
                kind = "a pair of two people" if self.members == 2 else "one person"
                raise TournamentError(f"Each entrant must be {kind}.")
        people = [person for entrant in entrants for person in entrant.members]
        if len(set(people)) != len(people):
            raise TournamentError("Somebody is entered twice.")
        if len(entrants) < self.min_entrants:
            noun = "pairs" if self.entry is Entry.PAIRS else "players"
            raise TournamentError(
                f"This tournament needs at least {self.min_entrants} {noun}.",
                code=f"too_few_{noun}",
                params={"least": self.min_entrants},
            )


def _layout(title: str, teams: bool, seats: int, entry: Entry) -> Layout:
    if not teams:
        if entry is Entry.PAIRS:
            raise TournamentError(
                f"In {title} each plays for themself: entry is individuals.",
                code="each_for_themself",
                params={"title": title},
            )
        return Layout.FREE
    if seats == 4:
        return Layout.SIDES if entry is Entry.PAIRS else Layout.PARTNERS
    if seats == 2 and entry is Entry.INDIVIDUALS:
        return Layout.SIDES
    if seats == 2:
        raise TournamentError(
            f"{title} for two is one against one: entry is individuals.",
            code="one_against_one",
            params={"title": title},
        )
    raise TournamentError(
        f"Tournaments play {title} with four players (or two).",
        code="four_or_two",
        params={"title": title},
    )


def _no_knockout(title: str, layout: Layout) -> TournamentError:
    if layout is Layout.FREE:
        return TournamentError(
            f"A knockout needs head-to-head matches; {title} is played three or four a table.",
            code="no_knockout_free",
            params={"title": title},
        )
    return TournamentError(
        N_("A knockout needs fixed sides: enter as pairs (partners rotate only in Swiss).")
    )
