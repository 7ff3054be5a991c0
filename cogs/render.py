"""Pure rendering: lobby, table and hand embeds and the hand's components, from game views.

Nothing here talks to Discord or decides a rule: it lays out what the engine's views say. Every
public text passes :func:`guard_public`, which refuses to show a card the engine calls hidden.
The guard judges the text as the engine made it, with seats for names: a player called ``K♥``
or ``10♦ fan`` is a name, not a leak.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.sessions import Line, LiveTable
from cogs.card_faces import card_face, cards_face, face_tokens
from cogs.hand_watch import restart_note
from cogs.words import explain_words
from games.base import Event, Game, Move, Option, fill_names
from games.cards import RANKS, SUITS, display
from games.seats import team_of, team_seats
from games.views import TableView

TEAM_NAMES = ("A", "B")
MAX_ROWS = 5
PER_ROW = 5
MAX_OPTIONS = 25


class LeakError(RuntimeError):
    """A public text would have shown a hidden card: a bug, never shown to anyone."""


def guard_public(game: Game | None, text: str) -> str:
    """Return ``text`` unless it names a card hidden from onlookers."""
    if game is None:
        return text
    for card in game.hidden_cards(None):
        if any(token in text for token in face_tokens(card)):
            raise LeakError("a public text named a hidden card")
    return text


@functools.lru_cache(maxsize=4096)  # names repeat on every redraw; escaping them is regex work
def shown_name(name: str) -> str:
    """A person's name as a message may show it: no mention in it pings, no markdown in it
    formats (a display name is whatever its owner typed)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def shown_names(names: Sequence[str]) -> list[str]:
    return [shown_name(name) for name in names]


def shown_line(line: str, names: Sequence[str]) -> str:
    """A log line in the table's words, with the names of who held the seats when it happened
    (a :class:`~bot.sessions.Line`'s own), else ``names``; every name escaped."""
    own = line.names if isinstance(line, Line) else None
    return fill_names(polish(line), shown_names(own) if own is not None else names)


def seat_line(
    table: LiveTable,
    seat: int,
    view: TableView | None,
    names: Sequence[str] | None = None,
    live: bool = True,
) -> str:
    """A seat on the lobby or the board (``live``: the game is still being played)."""
    game_class = table.game_class
    row = table.seats.get(seat)
    name = ((names[seat] if names is not None else shown_name(row.name)) if row else None) or (
        "*empty*"
    )
    parts = [f"`{seat + 1}` **{name}**" if row else f"`{seat + 1}` {name}"]
    if game_class.teams:
        parts.append(f"team {TEAM_NAMES[seat % 2]}")
    if row and row.user_id == table.row.host_id and table.row.status == "lobby":
        parts.append("host")
    if view is not None:
        sizes = view.hand_sizes
        if seat < len(sizes):
            parts.append(f"{sizes[seat]} card{'' if sizes[seat] == 1 else 's'}")
        if view.dealer == seat:
            parts.append("dealer")
        if live and seat in view.to_act:
            parts.append("⏳ to act")
    if row and row.away:
        parts.append("away (computer plays)")
    return " · ".join(parts)


def options_in_words(game_class: type[Game], options: dict[str, Any]) -> str:
    changed = [
        f"{o.name} = {options.get(o.name)}"
        for o in game_class.OPTIONS
        if options.get(o.name, o.default) != o.default
    ]
    return ", ".join(changed) if changed else "standard rules"


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A link to a message. Built from the ids the bot knows, since a message sent through a
    partial channel carries no guild and discord.py would link to ``@me`` (direct messages)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


OPTIONS_PER_PAGE = 8
OPTIONS_PAGE_CHARS = 3500  # an embed's total is 6000 characters; leave room for title and footer


def option_values(option: Option) -> str:
    """An option's allowed values in words (never a Python type name)."""
    if option.choices:
        return "one of " + ", ".join(f"`{c}`" for c in option.choices)
    if isinstance(option.default, bool):
        return "`true` (on) or `false` (off)"
    if isinstance(option.default, int):
        low, high = option.minimum, option.maximum
        if low is not None and high is not None:
            return f"a whole number from {low} to {high}"
        if low is not None:
            return f"a whole number, at least {low}"
        if high is not None:
            return f"a whole number, at most {high}"
        return "a whole number"
    return "a word"


def options_pages(game_class: type[Game]) -> list[discord.Embed]:
    """Every option of a game with its meaning, default and allowed values, a few per page so
    each page stays well inside Discord's embed limits (25 fields, 6000 characters)."""
    pages: list[list[tuple[str, str]]] = [[]]
    size = 0
    for option in game_class.OPTIONS:
        default = (
            str(option.default).lower() if isinstance(option.default, bool) else option.default
        )
        name = _clip_start(f"{option.name} (default {default})", 256)
        value = _clip_start(f"{option.help}\nValues: {option_values(option)}", 1024)
        if pages[-1] and (
            len(pages[-1]) >= OPTIONS_PER_PAGE or size + len(name) + len(value) > OPTIONS_PAGE_CHARS
        ):
            pages.append([])
            size = 0
        pages[-1].append((name, value))
        size += len(name) + len(value)
    embeds = []
    for number, fields in enumerate(pages, start=1):
        embed = discord.Embed(
            title=f"{game_class.title}: options",
            description="Give them to `/table new` as `name=value`, separated by spaces."
            if fields
            else "This game has no options.",
            colour=discord.Colour.blurple(),
        )
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
        if len(pages) > 1:
            embed.set_footer(
                text=f"Page {number} of {len(pages)} · {len(game_class.OPTIONS)} options"
            )
        embeds.append(embed)
    return embeds


# What each computer level does, in the players' words (the lobby and /table new name them).
LEVEL_TEXT = {
    "easy": "plays by rule of thumb, with a random move now and then",
    "normal": "plays by rule of thumb",
    "hard": "searches ahead by playing sample deals out",
}


HINTS_TEXT = "Hints on (unrated)"  # the lobby and the table say so while a table has hints
# The lobby of a table opened while the server rated no tables, or allowed no computer players.
UNRATED_TEXT = "Unrated: this server's tables do not count for the ratings"
NO_COMPUTERS_TEXT = (
    "Not at this server's tables: invite people (a computer only plays an away player's turns)"
)


def level_line(level: str) -> str:
    return f"**{level}**: {LEVEL_TEXT.get(level, level)}"


def lobby_embed(table: LiveTable) -> discord.Embed:
    game_class = table.game_class
    computers = table.row.computers  # the server allowed them when the table opened
    embed = discord.Embed(
        title=f"🃏 {game_class.title} · table #{table.id}",
        description=(
            "Waiting for players. Join, pick a seat, or add computer players; "
            if computers
            else "Waiting for players. Join or pick a seat; "
        )
        + "the host starts when every seat is filled.",
        colour=discord.Colour.blurple(),
    )
    embed.add_field(
        name="Options", value=options_in_words(game_class, table.row.options), inline=False
    )
    # The level is the table's, not a rule: it is not among the options.
    embed.add_field(
        name="Computer players",
        value=level_line(table.row.computer_level) if computers else NO_COMPUTERS_TEXT,
        inline=False,
    )
    if not table.row.rated:
        embed.add_field(name="Ratings", value=UNRATED_TEXT, inline=False)
    if table.row.hints:
        embed.add_field(name="Hints", value=HINTS_TEXT, inline=False)
    embed.add_field(
        name="Seats",
        value="\n".join(seat_line(table, s, None) for s in range(table.seat_count)),
        inline=False,
    )
    return embed


def cards_text(cards: Sequence[Any]) -> str:
    return " ".join(display(card) for card in cards) or "—"


def trick_text(trick: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    return " · ".join(f"{names[seat]} {card_face(card)}" for seat, card in trick) or "—"


def score_text(game_class: type[Game], view: TableView, names: Sequence[str]) -> str:
    score = view.score
    label = view.score_label
    if game_class.teams:
        return " · ".join(f"Team {TEAM_NAMES[i]}: **{v}**" for i, v in enumerate(score)) + (
            f" {label}" if label else ""
        )
    return " · ".join(f"{names[i]}: **{v}**" for i, v in enumerate(score)) + (
        f" {label}" if label else ""
    )


def table_embed(table: LiveTable, now: float | None = None) -> discord.Embed:
    """The one public table message: turn, trick, last trick, trump, calls, score, timer.

    Guarded as the engine wrote it (seats in place of the players' names), shown with names.
    """
    game = table.game
    assert game is not None
    engine_text = _table_embed(table, [f"seat {s + 1}" for s in range(table.seat_count)])
    # "Recent" was checked when each event happened; the rest is checked as one text (one pass
    # over the hidden cards, not one a field)
    checked = [f"{f.name} {f.value}" for f in engine_text.fields if f.name != "Recent"]
    guard_public(game, "\n".join([*checked, engine_text.description or ""]))
    embed = _table_embed(table, shown_names(table.names))
    explain_words(embed, table.id, table.row.game)  # a game's own words, where they first appear
    return embed


RECENT_LINES = 4
ABANDONED = "This game was abandoned. Not rated."  # an abandoned game never counts


def abandoned_text(table: LiveTable, names: Sequence[str]) -> str:
    """A closed game's headline: abandoned and not rated, or, where its last person left a
    rated game (which resigns it), who left and whose loss it counts as."""
    seat = table.resigned
    if seat is None or seat >= len(names):
        return ABANDONED
    side = team_label(table, team_of(seat), names) if table.game_class.teams else names[seat]
    return f"{names[seat]} left: the game counts as a loss for {side}.{_rating_tail(table)}"


def resignation_message(table: LiveTable) -> str | None:
    """The channel's line for a game its last person left: a result, posted like a game's end
    (None for any other table)."""
    if table.resigned is None:
        return None
    return _clip(f"**Table #{table.id}** · {abandoned_text(table, shown_names(table.names))}", 1900)


def _table_embed(table: LiveTable, names: Sequence[str]) -> discord.Embed:
    """One glance: whose turn and the timer on top, the seats, trump and score side by side,
    the trick, the engine's table lines as one paragraph, and the few latest events that are
    not already shown above."""
    game = table.game
    assert game is not None
    view = game.view(None)
    status = game.status
    abandoned = table.row.status == "abandoned"
    live = status == "in_progress" and not abandoned
    embed = discord.Embed(
        title=f"🃏 {table.game_class.title} · table #{table.id}", colour=discord.Colour.dark_green()
    )
    head = []
    prompt = fill_names(view.prompt, names)
    if status == "finished":
        head.append(f"**{result_headline(table, names)}**")
    elif abandoned:
        head.append(f"**{abandoned_text(table, names)}**")
    elif prompt:
        head.append(f"**{prompt}**")
    deadline = table.row.turn_deadline
    if deadline and live:
        head.append(f"⏱ turn ends <t:{int(deadline)}:R>")
    note = restart_note(table.id) if live else None
    embed.description = " · ".join(head) + (f"\n*{note}*" if note else "") or None
    embed.add_field(
        name="Seats",
        value="\n".join(seat_line(table, s, view, names, live) for s in range(table.seat_count)),
        inline=False,
    )
    trump = view.trump
    if trump:
        embed.add_field(name="Trump", value=_suit_text(trump), inline=True)
    embed.add_field(name="Score", value=score_text(table.game_class, view, names), inline=True)
    if view.trick:
        embed.add_field(name="Trick", value=trick_text(view.trick, names), inline=False)
    else:
        last = view.last_trick
        if last:
            won = f" → **{names[last.winner]}**"
            points = f" ({last.points} pts)" if last.points is not None else ""
            embed.add_field(
                name="Last trick",
                value=trick_text(last.cards, names) + won + points,
                inline=False,
            )
    recent = [shown_line(line, names) for line in table.recent][-RECENT_LINES:]
    extra = [fill_names(polish(line), names) for line in view.lines]
    extra = [line for line in extra if line not in recent]
    if extra:
        embed.add_field(name="Table", value=_clip(" · ".join(extra), 1024), inline=False)
    if recent:
        embed.add_field(name="Recent", value=_clip("\n".join(recent), 1024), inline=False)
    hint = " · Press “Show my hand” to see your cards and play." if live else ""
    hints = f" · {HINTS_TEXT}" if table.row.hints else ""
    embed.set_footer(text=f"Move {table.moves}{hints}{hint}")
    return embed


def _suit_text(trump: str) -> str:
    from games.cards import SUIT_NAMES, SUIT_SYMBOLS

    if trump in SUIT_SYMBOLS:
        return f"{SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]}"
    return {"NT": "no trump"}.get(trump, str(trump))


def plural(count: int, noun: str) -> str:
    """``1 rated game``, ``2 rated games``: a count with its noun (nouns taking an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


def polish(text: str) -> str:
    """Engine texts in the table's own words: ``Team b`` is ``Team B`` on the board, and a pair
    of players (``{s0} & {s2}``) takes a plural verb. Engine texts stay unchanged (golden
    transcripts pin them); this is presentation only."""
    text = _TEAM_LETTER.sub(lambda m: f"{m.group(1)} {m.group(2).upper()}", text)
    return _PAIR_VERB.sub(lambda m: f"{m.group(1)} {_PLURAL[m.group(2)]}", text)


_TEAM_LETTER = re.compile(r"\b(Team|team) ([ab])\b")
_PAIR_VERB = re.compile(r"(\{s\d\} & \{s\d\}) (makes|fails|wins|scores)\b")
_PLURAL = {"makes": "make", "fails": "fail", "wins": "win", "scores": "score"}


def team_label(table: LiveTable, team: int, names: Sequence[str]) -> str:
    """``Team A (Alice & Carol)``, or the player's name when a team is one seat."""
    members = [names[s] for s in team_seats(team, table.seat_count)]
    if len(members) == 1:
        return members[0]
    return f"Team {TEAM_NAMES[team]} ({' & '.join(members)})"


def _score_pairs(table: LiveTable, score: Sequence[Any], names: Sequence[str]) -> str:
    if table.game_class.teams and len(score) == 2:
        labels = [team_label(table, t, names) for t in (0, 1)]
    else:
        labels = [names[s] if s < len(names) else f"seat {s + 1}" for s in range(len(score))]
    return " · ".join(f"{label} **{value}**" for label, value in zip(labels, score, strict=False))


def score_words(table: LiveTable, score: Sequence[Any], names: Sequence[str]) -> str:
    """``12 to 3`` between two teams; ``Alice 0 · Bob 8 · Carol 29`` for each for themselves."""
    if table.game_class.teams and len(score) == 2:
        return f"{score[0]} to {score[1]}"
    return " · ".join(f"{names[s]} {v}" for s, v in enumerate(score) if s < len(names))


def result_headline(table: LiveTable, names: Sequence[str]) -> str:
    """The final board's headline: who won and the final score, from the game's ``outcome``."""
    game = table.game
    outcome = game.outcome() if game is not None else None
    if outcome is None:
        return "Game over."
    score = score_words(table, outcome.score, names)
    tail = f" Final score: {score}." if score else ""
    if outcome.abandoned:
        return "Game abandoned." + tail
    why = f" {fill_names(outcome.reason, names)}" if outcome.reason else ""
    winners = list(outcome.winners)
    if not winners:
        return f"Game over: nobody wins{why}." + tail + _rating_tail(table)
    teams = {seat % 2 for seat in winners}
    if table.game_class.teams and len(teams) == 1 and len(outcome.score) == 2:
        who = team_label(table, next(iter(teams)), names)
        verb = "wins"
    else:
        who = " & ".join(names[s] for s in winners)
        verb = "wins" if len(winners) == 1 else "win"
    return f"Game over: 🏆 {who} {verb} the game{why}.{tail}{_rating_tail(table)}"


def _rating_tail(table: LiveTable) -> str:
    """Whether the game counts for the ratings (and why not), after the result."""
    return f" {table.result_note}" if table.result_note else ""


def _hand_detail(table: LiveTable, event: Event, names: Sequence[str]) -> str | None:
    """What the event's data says that its text leaves out: who made or failed a contract,
    and the totals after the hand, with the teams named."""
    data = event.data
    result = data.get("result")
    parts = []
    if isinstance(result, dict):
        who = result.get("caller")
        if result.get("declarer") is not None:
            who = result["declarer"]
        success = result.get("success")
        if who is not None and success is not None:
            kind = str(result.get("kind", "call")).replace("_", " ").title()
            parts.append(f"{names[who]}'s {kind} {'succeeds' if success else 'fails'}.")
    score = data.get("score")
    if isinstance(score, list) and score and event.kind != "game_over":
        parts.append(f"Totals: {_score_pairs(table, score, names)}")
    return " ".join(parts) or None


def event_message(
    table: LiveTable, events: Sequence[Event | str], names: Sequence[str] | None = None
) -> str:
    """A message that stays in the channel: a hand's or the game's result.

    Each event's text, then what its data adds (who made the contract, the totals with the
    teams named), so every hand post says who won it and what it changed. ``names`` are who
    held the seats then (a result posted late, after a restart), by default who holds them now.
    """
    names = shown_names(table.names if names is None else names)
    seats = [f"seat {s + 1}" for s in range(table.seat_count)]
    engine: list[str] = []
    shown: list[str] = []
    for event in events:
        text = polish(event if isinstance(event, str) else event.text)
        engine.append(fill_names(text))
        shown.append(fill_names(text, names))
        if isinstance(event, Event):
            detail = _hand_detail(table, event, seats)
            if detail:
                engine.append(detail)
                shown.append(_hand_detail(table, event, names) or "")
    if table.result_note and any(isinstance(e, Event) and e.kind == "game_over" for e in events):
        shown.append(table.result_note)
    guard_public(table.game, "\n".join(engine))
    return _clip(f"**Table #{table.id}** · " + "\n".join(shown), 1900)


# --- the private hand ---------------------------------------------------------------------------
@dataclass(frozen=True)
class HandLayout:
    """The hand's components: card buttons (legal ones enabled), then actions."""

    card_buttons: list[tuple[str, Move | None]]  # (card, its legal move or None)
    action_buttons: list[Move]
    selects: list[list[Move]]
    card_select: list[Move]  # used when the hand is too big for buttons
    sequences: list[Move]  # plays of several cards, offered through the sequence builder


def menu_order(moves: Sequence[Move]) -> list[Move]:
    """Decisions in the order a player scans them; the engine's order is kept otherwise.

    Moves naming one card (Tuppi's and Norwegian Whist's bid cards) keep their kinds in the
    engine's order (all Nolo, then all Rami) and within a kind run by suit, then rank. Only
    the presentation changes: the engine's legal moves (and the computers' choices) do not.
    """
    kinds: dict[Any, int] = {}
    for move in moves:
        if move.action != "play" and _card_of(move):
            kinds.setdefault((move.action, move.get("value")), len(kinds))
    if not kinds:
        return list(moves)

    def key(indexed: tuple[int, Move]) -> tuple[int, int, int, int]:
        position, move = indexed
        card = _card_of(move)
        if move.action == "play" or not card:
            return (-1, position, 0, 0)  # the other decisions first, as the engine listed them
        return (kinds[move.action, move.get("value")], SUITS.index(card[1]), -_rank(card), 0)

    return [move for _, move in sorted(enumerate(moves), key=key)]


def _card_of(move: Move) -> str | None:
    card = move.get("card")
    return card if isinstance(card, str) and len(card) == 2 and card[1] in SUITS else None


def _rank(card: str) -> int:
    return RANKS.index(card[0]) if card[0] in RANKS else -1


def select_placeholder(labels: Sequence[str], several: bool) -> str:
    """A menu's prompt; when the decisions fill several menus, each says which range it holds."""
    if not several or not labels:
        return "Choose your move"
    if len(labels) == 1:
        return _clip_start(f"Choose: {labels[0]}", 150)
    return _clip_start(f"Choose: {labels[0]} … {labels[-1]}", 150)


def _clip_start(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def hand_layout(hand: Sequence[str], moves: Sequence[Move]) -> HandLayout:
    """Fit a hand and its legal moves into Discord's five rows of five.

    Plays of several cards (Tunge) go to the sequence builder, which takes two rows.
    """
    sequences = [m for m in moves if m.get("cards")]
    if sequences:
        others = [m for m in moves if not m.get("cards")]
        chunks = [others[i : i + MAX_OPTIONS] for i in range(0, len(others), MAX_OPTIONS)]
        if len(others) <= PER_ROW:
            return HandLayout([], others, [], [], sequences)
        return HandLayout([], [], chunks[: MAX_ROWS - 2], [], sequences)
    by_card = {m.get("card"): m for m in moves if m.action == "play" and m.get("card")}
    others = menu_order([m for m in moves if m not in by_card.values()])
    card_rows = -(-len(hand) // PER_ROW)
    card_buttons: list[tuple[str, Move | None]] = []
    card_select: list[Move] = []
    if card_rows <= 3:
        card_buttons = [(card, by_card.get(card)) for card in hand]
        free_rows = MAX_ROWS - card_rows
    else:
        card_select = list(by_card.values())[:MAX_OPTIONS]
        free_rows = MAX_ROWS - (1 if card_select else 0)
    if len(others) <= PER_ROW and free_rows >= 1:
        return HandLayout(card_buttons, others, [], card_select, [])
    chunks = [others[i : i + MAX_OPTIONS] for i in range(0, len(others), MAX_OPTIONS)]
    return HandLayout(card_buttons, [], chunks[:free_rows], card_select, [])


@dataclass(frozen=True)
class SequenceStep:
    """Where a player building a sequence stands: ranks chosen so far, what may follow."""

    chosen: tuple[str, ...]  # the cards the chosen ranks stand for
    next_ranks: dict[str, str]  # rank → a card of that rank that would come next
    complete: Move | None  # the play, when the chosen ranks already make one


def sequence_ranks(move: Move) -> str:
    return "".join(card[0] for card in move.get("cards") or ())


def sequence_step(sequences: Sequence[Move], prefix: str) -> SequenceStep:
    """The builder's next step, from the engine's legal plays only (it decides no rule).

    Suits never change which sequences are legal, so a player picks ranks and the engine's
    listed play supplies the cards.
    """
    matching = [m for m in sequences if sequence_ranks(m).startswith(prefix)]
    chosen: tuple[str, ...] = tuple(matching[0].get("cards")[: len(prefix)]) if matching else ()
    next_ranks: dict[str, str] = {}
    complete = None
    for move in matching:
        cards = move.get("cards")
        if len(cards) == len(prefix):
            complete = move
        else:
            next_ranks.setdefault(cards[len(prefix)][0], cards[len(prefix)])
    in_order = dict(sorted(next_ranks.items(), key=lambda item: RANKS.find(item[0])))
    return SequenceStep(chosen, in_order, complete)


WAITING = "Waiting for the others (the table shows whose turn it is)."


def hand_embed(
    table: LiveTable, seat: int, note: str | None = None, chosen: Sequence[str] = ()
) -> discord.Embed:
    game = table.game
    assert game is not None
    names = shown_names(table.names)
    view = game.view(seat)
    embed = discord.Embed(title=f"Your hand · table #{table.id}", colour=discord.Colour.gold())
    lines = []
    if note:
        lines.append(f"⚠️ {note}")
    if game.status == "finished":
        lines.append("The game is over.")
    elif table.row.status == "abandoned":
        lines.append(abandoned_text(table, names))
    elif seat in game.to_act():
        prompt = fill_names(view.prompt, names)
        lines.append(f"**Your move.** {prompt}")
    else:  # whose turn it is shows on the table; here it would cost an edit every move
        lines.append(WAITING)
    lines.append(cards_face(view.hand or ()) or "—")
    if chosen:
        lines.append(f"Your sequence so far: **{cards_face(chosen)}**")
    embed.description = "\n".join(lines)
    private = [shown_line(line, names) for line in table.private.get(seat, [])]
    if private:
        embed.add_field(
            name="Only you see", value=_clip("\n".join(private[-5:]), 1024), inline=False
        )
    return embed
