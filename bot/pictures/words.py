"""The table picture in words: its alt text, for screen readers and when images are off.

Beside a picture the table message's text is short (whose turn, the score, the latest events),
so the alt text says the rest: whose turn, the trick and who wins it so far, trump, the score,
each seat (team, cards left, dealer, away), the game's corner (contract, tricks, call; Tunge:
the pile, the sequence to beat and the stock), then the engine's table lines the caller has put
in the reader's words. Drawn from the same view as the picture, so it tells no more than the
public view does.

Discord keeps an attachment's description up to 1024 characters (:data:`LIMIT` leaves room).
Six long names said in the turn, the trick, the score and the seats can pass it, so the text
is told more shortly step by step until it fits (:func:`plans`): the names shortened with an
ellipsis (in the alt text only), each seat said in fewer words, then the least asked-for parts
left out, the engine's table lines first, the game's corner next. Whose turn, the trick,
trump, the score and every seat's name stay; nothing is ever cut inside a word or a card.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Literal

from bot.i18n import N_, _, ngettext
from bot.pictures.fonts import name_text
from games.cards import display
from games.views import BidCardsView, TableView, TarneebView, ThuneeView, TungeView

if TYPE_CHECKING:
    from bot.pictures.table import Seating

LIMIT = 1000
SUIT_WORDS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
TEAM_NAMES = ("A", "B")


Style = Literal["full", "brief", "bare"]  # a seat with all its details, its marks, its name


@dataclasses.dataclass(frozen=True, slots=True)
class Plan:
    """How shortly the alt text tells the table: names cut past ``name_limit`` characters (no
    cut when 0), each seat in its ``style``, the first ``lines`` of the engine's table lines
    and the first ``corner`` lines of the game's corner (all when ``None``), the last trick."""

    name_limit: int = 0
    style: Style = "full"
    lines: int | None = None
    corner: int | None = None
    last_trick: bool = True


NAME_LIMITS = (24, 16, 12)  # the names' lengths tried, longest first (the picture cuts at 144 px)


def plans(lines: int, corner: int) -> Iterator[Plan]:
    """The ways to tell a table, fullest first: the names shortened a little and the seats in
    fewer words, then the engine's table lines left out from the last (they mostly repeat what
    the text has said), the names shortened further, the game's corner left out from its last
    line, and at the end the last trick and the seats' details."""
    first, *shorter = NAME_LIMITS
    yield Plan()
    yield Plan(first)
    yield Plan(first, "brief")
    for kept in range(lines - 1, -1, -1):
        yield Plan(first, "brief", kept)
    for limit in shorter:
        yield Plan(limit, "brief", 0)
    short = NAME_LIMITS[-1]
    for kept in range(corner - 1, -1, -1):
        yield Plan(short, "brief", 0, kept)
    yield Plan(short, "bare", 0, 0)
    yield Plan(8, "bare", 0, 0, last_trick=False)


def alt_text(view: TableView, seating: Seating, live: bool, lines: Sequence[str] = ()) -> str:
    """The picture in words, in the picture's language (``seating.lang``); ``lines``: the
    engine's table lines, already in that language, told last. Within :data:`LIMIT`."""
    told = [line for line in dict.fromkeys(lines) if line.strip()]
    text = _told(view, seating, live, told, Plan())
    if len(text) <= LIMIT:  # nearly always: the shorter plans are for long names at 6 seats
        return text
    for plan in plans(len(told), len(info_lines(view, seating))):
        text = _told(view, seating, live, told, plan)
        if len(text) <= LIMIT:
            return text
    return within(text, LIMIT)


def within(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a space, never inside a word or a card."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut[: limit - 1]).rstrip(" ,;:") + "…"


def short_names(seating: Seating, players: int, limit: int) -> tuple[str, ...]:
    """Each seat's name as the alt text says it: past ``limit`` characters cut at a space
    where one is near, else at a letter, with an ellipsis; two names cut alike are told apart
    by their seat numbers."""
    names = [name_text(seating.names, seat) for seat in range(players)]
    if not limit:
        return tuple(names)
    cut = [_shortened(name, limit) for name in names]
    return tuple(
        f"{short} {seat + 1}" if short != names[seat] and cut.count(short) > 1 else short
        for seat, short in enumerate(cut)
    )


def _shortened(name: str, limit: int) -> str:
    if len(name) <= limit:
        return name
    head = name[: limit - 1]
    space = head.rfind(" ")
    if space >= limit // 2:
        head = head[:space]
    return head.rstrip(" .,-_") + "…"


def _told(view: TableView, seating: Seating, live: bool, lines: Sequence[str], plan: Plan) -> str:
    """The alt text as ``plan`` tells it."""
    if plan.name_limit:
        names = short_names(seating, view.players, plan.name_limit)
        seating = dataclasses.replace(seating, names=names)
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
    elif view.last_trick is not None and plan.last_trick:
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
    seats = ", ".join(seat_words(view, seating, plan.style))
    parts.append(_(lang, "seats: {seats}", seats=seats))
    parts += info_lines(view, seating)[: plan.corner]
    told = lines[: plan.lines]
    return "; ".join(parts) + "." + "".join(" " + _sentence(line) for line in told)


def seat_words(view: TableView, seating: Seating, style: Style = "full") -> list[str]:
    """Each seat as the picture's plate shows it: ``Alice (team A, 11 cards, dealer)``; in
    fewer words (``brief``), ``Alice (A, dealer)``, its team's letter (as the score names the
    teams) and what sets it apart (dealer, away; Tunge's cards left), and ``bare``, its name."""
    lang = seating.lang
    said = []
    for seat in range(view.players):
        name = name_text(seating.names, seat)
        if style == "bare":
            said.append(name)
            continue
        details = []
        if seating.teams:
            team = TEAM_NAMES[seat % 2]
            details.append(_(lang, "team {team}", team=team) if style == "full" else team)
        size = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
        if style == "full" or isinstance(view, TungeView):
            details.append(ngettext(lang, "{n} card", "{n} cards", size))
        if seat == view.dealer:
            details.append(_(lang, "dealer"))
        if seat < len(seating.away) and seating.away[seat]:
            details.append(_(lang, "away"))
        said.append(f"{name} ({', '.join(details)})" if details else name)
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
