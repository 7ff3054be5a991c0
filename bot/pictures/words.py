"""The table picture in words: its alt text, for screen readers and when images are off.

Beside a picture the table message's text is short (whose turn, the score, the latest events),
so the alt text says the rest: whose turn, the trick and who wins it so far, trump, the score,
each seat (team, cards left, dealer, away), the game's corner (contract, tricks, call; Tunge:
the pile, the sequence to beat and the stock), then the engine's table lines the caller has put
in the reader's words. Drawn from the same view as the picture, so it tells no more than the
public view does. Discord shows alt text up to 1024 characters: the most asked-for first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n import N_, _, ngettext
from bot.pictures.fonts import name_text
from games.cards import display
from games.views import BidCardsView, TableView, TarneebView, ThuneeView, TungeView

if TYPE_CHECKING:
    from bot.pictures.table import Seating

LIMIT = 1000
SUIT_WORDS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
TEAM_NAMES = ("A", "B")


def alt_text(view: TableView, seating: Seating, live: bool, lines: Sequence[str] = ()) -> str:
    """The picture in words, in the picture's language (``seating.lang``); ``lines``: the
    engine's table lines, already in that language, told last."""
    lang = seating.lang

    def who(seat: int) -> str:
        return name_text(seating.names, seat)

    title = seating.title or _(lang, "Card table")
    parts = [_(lang, "{title}: {n} seats", title=title, n=view.players)]
    if live and view.to_act:
        people = _(lang, " and ").join(who(s) for s in view.to_act)
        parts.append(_(lang, "{who} to act", who=people))
    if view.trick:
        cards = ", ".join(f"{who(s)} {display(c)}" for s, c in view.trick)
        winning = (
            " (" + _(lang, "{who} winning", who=who(view.winning)) + ")"
            if view.winning is not None
            else ""
        )
        parts.append(_(lang, "trick: {cards}", cards=cards) + winning)
    elif view.last_trick is not None:
        cards = ", ".join(f"{who(s)} {display(c)}" for s, c in view.last_trick.cards)
        won = who(view.last_trick.winner)
        parts.append(_(lang, "last trick: {cards}, won by {who}", cards=cards, who=won))
    if view.trump in SUIT_WORDS:
        parts.append(_(lang, "trump {suit}", suit=_(lang, SUIT_WORDS[view.trump])))
    elif view.trump == "NT":
        parts.append(_(lang, "no trump"))
    elif isinstance(view, ThuneeView) and view.trump_face_down:
        parts.append(_(lang, "trump face down"))
    if isinstance(view, ThuneeView) and view.counting_team is not None:
        parts.append(counting_text(view, lang))
    if isinstance(view, TungeView):
        parts += _tunge_parts(view, lang)
    parts.append(_score_part(view, seating))
    parts.append(_(lang, "seats: {seats}", seats=", ".join(seat_words(view, seating))))
    parts += info_lines(view, seating)
    told = [line for line in dict.fromkeys(lines) if line.strip()]
    text = "; ".join(parts) + "." + "".join(" " + _sentence(line) for line in told)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def seat_words(view: TableView, seating: Seating) -> list[str]:
    """Each seat as the picture's plate shows it: ``Alice (team A, 11 cards, dealer)``."""
    lang = seating.lang
    said = []
    for seat in range(view.players):
        details = []
        if seating.teams:
            details.append(_(lang, "team {team}", team=TEAM_NAMES[seat % 2]))
        size = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
        details.append(ngettext(lang, "{n} card", "{n} cards", size))
        if seat == view.dealer:
            details.append(_(lang, "dealer"))
        if seat < len(seating.away) and seating.away[seat]:
            details.append(_(lang, "away"))
        said.append(f"{name_text(seating.names, seat)} ({', '.join(details)})")
    return said


def counting_text(view: ThuneeView, lang: str) -> str:
    """Thunee: the counting team's card points against what it must reach."""
    team = view.counting_team
    assert team is not None
    points = view.card_points[team] if len(view.card_points) > team else 0
    return _(
        lang,
        "Team {team} counts {points} of {target}",
        team=TEAM_NAMES[team],
        points=points,
        target=view.counting_target,
    )


def _tunge_parts(view: TungeView, lang: str) -> list[str]:
    parts = []
    reference = view.reference
    if reference is not None:
        cards = " ".join(display(c) for c in reference.cards)
        parts.append(
            _(lang, "longest viable sequence: {cards}", cards=cards)
            if reference.end_game
            else _(lang, "to beat: {cards}", cards=cards)
        )
    parts.append(_(lang, "pile {pile}, stock {stock}", pile=len(view.pile), stock=view.stock_size))
    return parts


def _score_part(view: TableView, seating: Seating) -> str:
    lang = seating.lang
    unit = _(lang, view.score_label)  # the games' score words are catalogue texts (engine_words)
    if seating.teams and len(view.score) == 2:
        score = f"A {view.score[0]}, B {view.score[1]} {unit}"
    else:
        who = seating.names
        score = ", ".join(f"{name_text(who, s)} {v}" for s, v in enumerate(view.score)) + f" {unit}"
    target = getattr(view, "target", None)
    to = " (" + _(lang, "to {target}", target=target) + ")" if isinstance(target, int) else ""
    return _(lang, "score: {score}", score=score) + to


def _sentence(line: str) -> str:
    line = line.strip()
    return line if line[-1:] in ".!?…" else line + "."


def info_lines(view: TableView, seating: Seating) -> list[str]:
    """The game's corner of the picture: contract, tricks per team, the hand's kind, the call;
    Tunge's turn."""
    names, lang = seating.names, seating.lang
    tricks = _(lang, "Tricks")
    lines: list[str] = []
    if isinstance(view, TarneebView):
        if view.declarer is not None and view.contract is not None:
            who = name_text(names, view.declarer)
            lines.append(
                _(lang, "Bid {bid} doubled: {who}", bid=view.contract, who=who)
                if view.doubled
                else _(lang, "Bid {bid}: {who}", bid=view.contract, who=who)
            )
        lines.append(_per_team(tricks, view.team_tricks))
    elif isinstance(view, ThuneeView):
        if view.caller is not None and view.call:
            caller = name_text(names, view.caller)
            lines.append(_(lang, "Call {call}: {who}", call=view.call, who=caller))
        if view.contract != "normal":
            lines.append(view.contract.replace("_", " ").capitalize())
        lines.append(_per_team(tricks, view.tricks_won))
    elif isinstance(view, BidCardsView):
        if view.hand_type:
            lines.append(_(lang, "Hand: {bid}", bid=view.hand_type))
        lines.append(_per_team(tricks, view.tricks_won))
    elif isinstance(view, TungeView):
        lines.append(_(lang, "Turn {n} of {limit}", n=view.turns_taken, limit=view.turn_limit))
    return lines


def _per_team(what: str, values: Sequence[int]) -> str:
    if len(values) == 2:
        return f"{what}: A {values[0]} · B {values[1]}"
    return f"{what}: " + " · ".join(str(value) for value in values)
