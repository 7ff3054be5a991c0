"""A finished game's replay: the table as it stood at each trick (Tunge: after each move).

Built from the game's transcript (the export of :mod:`bot.history`, given only once a game is
over) by replaying its moves, and shown from the public view only: a replay step shows what an
onlooker saw at the table then, never a hand, though the transcript holds them all.

A trick step is the trick just completed, all its cards in the middle and its winner framed,
with the hand sizes and score as they stood when the last card fell.

A replay holds no words of any language: its steps keep their numbers, and each reader's words
(step labels, the picture's title and words) are put in when a step is shown, so one built
replay serves readers of every language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot import i18n
from bot.i18n import _
from bot.pictures import Picture, Seating, draw_table
from games.registry import get_game
from games.transcript import parse_header, parse_move
from games.views import TableView, TungeView

MAX_STEPS = 5000  # far beyond any game's tricks; a guard against a runaway transcript


@dataclass(frozen=True, slots=True)
class Step:
    """One picture of the replay: the public view to draw, its hand (from 1), and where in the
    hand it is: a trick's number, else a move's (Tunge), else neither (the game's end)."""

    view: TableView
    hand: int
    trick: int | None = None
    move: int | None = None

    def label(self, lang: str = i18n.ENGLISH) -> str:
        """Where the step is, in ``lang``: ``Hand 1 · trick 3``, ``Hand 2 · move 40``, the end."""
        if self.trick is not None:
            return _(lang, "Hand {hand} · trick {trick}", hand=self.hand, trick=self.trick)
        if self.move is not None:
            return _(lang, "Hand {hand} · move {move}", hand=self.hand, move=self.move)
        return _(lang, "The end")


@dataclass(frozen=True, slots=True)
class Replay:
    """Every step of a game, and where each hand's steps start."""

    table_id: int
    game: str
    names: tuple[str, ...]  # who sat where ("": a seat with no name, worded when drawn)
    teams: bool
    steps: tuple[Step, ...]

    def seating(self, lang: str = i18n.ENGLISH) -> Seating:
        """The seats as the picture shows them, its title and words in ``lang``."""
        title = _(
            lang, "{game} · table #{table}", game=get_game(self.game).title, table=self.table_id
        )
        names = tuple(
            name or _(lang, "seat {n}", n=seat + 1) for seat, name in enumerate(self.names)
        )
        return Seating(names, (), self.teams, title, lang)

    def hand_starts(self) -> dict[int, int]:
        """Hand number → the index of its first step."""
        starts: dict[int, int] = {}
        for index, step in enumerate(self.steps):
            starts.setdefault(step.hand, index)
        return starts

    def picture(self, index: int, lang: str = i18n.ENGLISH) -> Picture:
        """Step ``index`` drawn, its words and alt text in ``lang``."""
        return draw_table(self.steps[index].view, self.seating(lang), live=False)


def build_replay(table_id: int, transcript: Mapping[str, Any], names: Sequence[str]) -> Replay:
    """The replay of a finished game's transcript (``names``: who sat where)."""
    header = parse_header(transcript)
    game_class = get_game(header.game)
    game = game_class.new(header.options, deals=header.deals, first_dealer=header.first_dealer)
    players = game.view(None).players
    shown = tuple(names[s] if s < len(names) else "" for s in range(players))
    steps: list[Step] = []
    hand, trick = 1, 0
    every_move = isinstance(game.view(None), TungeView)
    for move_number, raw in enumerate(transcript.get("moves", []), start=1):
        seat, move = parse_move(raw, players)
        before = game.view(None)
        events = game.apply(seat, move)
        won = next((e for e in events if e.kind == "trick_won"), None)
        card = move.get("card")
        if won is not None and isinstance(card, str):
            trick += 1
            winner = int(won.data.get("winner", seat))
            sizes = tuple(n - 1 if s == seat else n for s, n in enumerate(before.hand_sizes))
            view = dataclasses.replace(
                before, trick=(*before.trick, (seat, card)), winning=winner, hand_sizes=sizes
            )
            steps.append(Step(view, hand, trick=trick))
        elif every_move:
            steps.append(Step(game.view(None), hand, move=move_number))
        if any(e.kind == "hand_scored" for e in events):
            hand, trick = hand + 1, 0
        if len(steps) >= MAX_STEPS:
            break
    steps.append(Step(game.view(None), max(1, hand - 1) if steps else 1))
    return Replay(table_id, header.game, shown, game_class.teams, tuple(steps))
