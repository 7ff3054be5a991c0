"""What a tournament says, in a given language: its summary (the entrants, or the standings as
text and as a picture), a round's opening, a round's end, the tournament's end.

Posts in the tournament's channel are read by everyone there: the runner asks for them in the
server's language. ``/tournament show`` answers one person: the cog asks in theirs. Every text
is a catalogue text (:mod:`bot.i18n`); names are people's own and are put in code spans, plain
(:func:`plain`), so that no name can break the layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.i18n import N_, _, ngettext
from bot.pictures.standings import draw_standings
from bot.pictures.table import Picture
from bot.sessions.errors import UserError
from bot.store import TournamentRound, TournamentRow
from bot.tournaments.spec import Entrant
from bot.tournaments.standings import Standing, StandingsWords, standings, standings_text
from bot.tournaments.tables import TableResult

ENTERED_NOBODY = N_("Entered (0): nobody yet")
AFTER_ROUND = N_("After round {n}:")
UNDER_WAY = N_("Round 1 under way:")
FINAL = N_("Final standings:")
WON_BY = N_("Won by {name}.")
ROUND_OVER = N_("Tournament #{id}: round {n} is over.")
ROUND_OPEN = N_("Tournament #{id}: round {n} is open.")
DEADLINE = N_("Deadline {when}.")
TABLE = N_("table {n}")
BYE = N_("bye")
IS_OVER = N_("Tournament #{id} is over.")
DID_NOT_START = N_("Tournament #{id} did not start: {reason} It is cancelled.")
PICTURE_TITLE = N_("Tournament #{id}: standings after round {n}")
MORE = N_("… and {n} more")
# The refusals of a start with too few entrants (said in the channel when a start time comes).
TOO_FEW = {
    "too_few_players": N_("This tournament needs at least {least} players."),
    "too_few_pairs": N_("This tournament needs at least {least} pairs."),
}


FORMATS = {"swiss": N_("Swiss"), "knockout": N_("knockout")}
ENTRIES = {"pairs": N_("pairs"), "individuals": N_("individuals")}
STATUSES = {
    "signup": N_("sign-up"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}
SIGNUP_HEAD = N_("**Tournament #{id}**: {game}, {format}, {entry}.")
SIGNUP_HEAD_ROUNDS = N_("**Tournament #{id}**: {game}, {format}, {rounds}, {entry}.")
STARTS = N_("Sign-up closes and round 1 opens {when} ({left}).")
HOW_PAIRS = N_("Pairs: one partner uses `/tournament invite`, the other accepts.")
HOW_ALONE = N_("Press **{button}** to enter.")
SIGN_UP = N_("Sign up")
CLOSED = N_("Sign-up is closed ({status}): `/tournament show tournament:{id}`.")
MAX_MESSAGE = 1900


def plain(entrant: Entrant) -> Entrant:
    """The entrant with a name fit for a code block (people choose their names: no backticks,
    one line)."""
    return replace(entrant, name=" ".join(entrant.name.replace("`", "'").split()))


@dataclass(frozen=True, slots=True)
class TournamentState:
    """A tournament as read from the store: its entrants (names plain), rounds and results."""

    entrants: tuple[Entrant, ...]
    rounds: tuple[TournamentRound, ...]
    results: tuple[TableResult, ...]

    def standings(self, row: TournamentRow) -> list[Standing]:
        paired = [r.paired for r in self.rounds]
        return standings(self.entrants, paired, self.results, seed=row.spec.seed)


def words(lang: str) -> StandingsWords:
    """The standings table's words in ``lang``."""
    return StandingsWords(
        heads=(
            "#",
            _(lang, N_("Entrant")),
            _(lang, N_("MP")),
            _(lang, N_("Buchholz")),
            _(lang, N_("Dup")),
            _(lang, N_("Played")),
        ),
        byes=lambda n: ngettext(lang, "+{n} bye", "+{n} byes", n),
        note=_(lang, N_("* a computer played for them in at least one round")),
        said=_(lang, N_("{rank}. {name}: {points} MP, Buchholz {buchholz}")),
    )


def round_length(lang: str, minutes: int) -> str:
    return ngettext(lang, "Each round lasts {n} minute.", "Each round lasts {n} minutes.", minutes)


def summary_text(row: TournamentRow, state: TournamentState, lang: str, winner: int | None) -> str:
    """The tournament in a few lines: the entrants in sign-up, else the standings (``winner``:
    a finished knockout's champion)."""
    entrants = state.entrants
    if row.status == "signup" or not state.rounds:
        if not entrants:
            return _(lang, ENTERED_NOBODY)
        names = ", ".join(f"`{e.label}`" for e in entrants)
        return ngettext(
            lang, "Entered ({n}): {names}", "Entered ({n}): {names}", len(entrants), names=names
        )
    table = standings_text(state.standings(row), duplicate=row.spec.duplicate, words=words(lang))
    done = sum(1 for r in state.rounds if r.closed_at is not None)
    head = _(lang, AFTER_ROUND, n=done) if done else _(lang, UNDER_WAY)
    if row.status == "finished":
        head = _(lang, FINAL)
        if winner is not None:
            name = next(e.label for e in entrants if e.id == winner)
            head = _(lang, WON_BY, name=f"`{name}`") + " " + head
    return f"{head}\n```\n{table}\n```"


def status_text(lang: str, status: str) -> str:
    return _(lang, STATUSES[status]) if status in STATUSES else status


def signup_text(row: TournamentRow, summary: str, lang: str, game: str) -> str:
    """The sign-up message: what the tournament is (``game``: its title), when it starts, how
    to enter (or that sign-up closed), and the entrants or standings (``summary``)."""
    spec = row.spec
    shown = {
        "id": row.id,
        "game": game,
        "format": _(lang, FORMATS[spec.format.value]),
        "entry": _(lang, ENTRIES[spec.entry.value]),
    }
    if spec.rounds:
        rounds = ngettext(lang, "{n} round", "{n} rounds", spec.rounds)
        lines = [_(lang, SIGNUP_HEAD_ROUNDS, rounds=rounds, **shown)]
    else:
        lines = [_(lang, SIGNUP_HEAD, **shown)]
    lines.append(round_length(lang, row.round_minutes))
    if row.starts_at:
        when = int(row.starts_at)
        lines.append(_(lang, STARTS, when=f"<t:{when}:F>", left=f"<t:{when}:R>"))
    if row.status != "signup":
        how = _(lang, CLOSED, status=status_text(lang, row.status), id=row.id)
    elif spec.members == 2:
        how = _(lang, HOW_PAIRS)
    else:
        how = _(lang, HOW_ALONE, button=_(lang, SIGN_UP))
    return f"{' '.join(lines)}\n{how}\n{summary}"[:MAX_MESSAGE]


def round_over_text(row: TournamentRow, number: int, summary: str, lang: str) -> str:
    return _(lang, ROUND_OVER, id=row.id, n=number) + "\n" + summary


def over_text(row: TournamentRow, summary: str, lang: str) -> str:
    return _(lang, IS_OVER, id=row.id) + "\n" + summary


def not_started_text(row: TournamentRow, error: UserError, lang: str) -> str:
    """A start time came with the tournament unable to start (``error`` says why)."""
    template = TOO_FEW.get(error.code or "")
    reason = _(lang, error.template) if template is None else _(lang, template, **error.params)
    return _(lang, DID_NOT_START, id=row.id, reason=reason)


def opening_text(
    row: TournamentRow, opened: TournamentRound, entrants: Sequence[Entrant], lang: str
) -> str:
    """A round's opening: its tables (who plays whom) and byes, and its deadline."""
    label = {e.id: plain(e).label for e in entrants}
    tables = [
        _(lang, TABLE, n=t.number)
        + ": "
        + " v ".join("/".join(label[e] for e in side) for side in t.sides)
        for t in opened.paired.tables
    ]
    byes = [f"{_(lang, BYE)}: {label[e]}" for e in opened.paired.byes]
    head = _(lang, ROUND_OPEN, id=row.id, n=opened.paired.number)
    if opened.deadline:
        head += " " + _(lang, DEADLINE, when=f"<t:{int(opened.deadline)}:R>")
    return head + "\n```\n" + "\n".join(tables + byes) + "\n```"


def standings_picture(
    row: TournamentRow, state: TournamentState, number: int, lang: str
) -> Picture:
    """The standings after round ``number`` drawn (slow-ish: run it in a thread)."""
    return draw_standings(
        state.standings(row),
        _(lang, PICTURE_TITLE, id=row.id, n=number),
        duplicate=row.spec.duplicate,
        words=words(lang),
        more=_(lang, MORE),
    )
