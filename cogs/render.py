"""Pure rendering: lobby, table and hand embeds and the hand's components, from game views.

Nothing here talks to Discord or decides a rule: it lays out what the engine's views say. Every
public text passes :func:`guard_public`, which refuses to show a card the engine calls hidden.
The guard judges the text as the engine made it, in English with seats for names: a player
called ``K♥`` or ``10♦ fan`` is a name, not a leak.

Each function takes the language of its reader (``lang``): the hand's player's for the hand, the
server's for the lobby, the table and the channel's posts. The engine's own texts are put in it
by :func:`cogs.engine_words.said`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import i18n
from bot.bidi import for_direction
from bot.i18n import N_, _, ngettext
from bot.sessions import Line, LiveTable
from cogs.card_faces import card_face, cards_face, face_tokens
from cogs.engine_words import said, suit_word
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


def shown_line(line: str, names: Sequence[str], lang: str = i18n.ENGLISH) -> str:
    """A log line in the table's words, with the names of who held the seats when it happened
    (a :class:`~bot.sessions.Line`'s own), else ``names``; every name escaped."""
    own = line.names if isinstance(line, Line) else None
    return engine(lang, line, shown_names(own) if own is not None else names)


def engine(lang: str, text: str, names: Sequence[str]) -> str:
    """An engine's text in the table's words, in ``lang``, with the seats' ``names``."""
    return directed(lang, fill_names(said(lang, polish(text)), names))


def directed(lang: str, text: str) -> str:
    """``text`` laid out for ``lang``'s direction (left-to-right runs isolated in Arabic)."""
    return for_direction(lang in i18n.RIGHT_TO_LEFT, text)


def seat_line(
    table: LiveTable,
    seat: int,
    view: TableView | None,
    names: Sequence[str] | None = None,
    live: bool = True,
    lang: str = i18n.ENGLISH,
) -> str:
    """A seat on the lobby or the board (``live``: the game is still being played)."""
    game_class = table.game_class
    row = table.seats.get(seat)
    name = ((names[seat] if names is not None else shown_name(row.name)) if row else None) or (
        _(lang, "*empty*")
    )
    parts = [f"`{seat + 1}` **{name}**" if row else f"`{seat + 1}` {name}"]
    if game_class.teams:
        parts.append(_(lang, "team {team}", team=TEAM_NAMES[seat % 2]))
    if row and row.user_id == table.row.host_id and table.row.status == "lobby":
        parts.append(_(lang, "host"))
    if view is not None:
        sizes = view.hand_sizes
        if seat < len(sizes):
            parts.append(ngettext(lang, "{n} card", "{n} cards", sizes[seat]))
        if view.dealer == seat:
            parts.append(_(lang, "dealer"))
        if live and seat in view.to_act:
            parts.append("⏳ " + _(lang, "to act"))
    if row and row.away:
        parts.append(_(lang, "away (computer plays)"))
    return " · ".join(parts)


def options_in_words(
    game_class: type[Game], options: dict[str, Any], lang: str = i18n.ENGLISH
) -> str:
    changed = [
        f"{o.name} = {options.get(o.name)}"
        for o in game_class.OPTIONS
        if options.get(o.name, o.default) != o.default
    ]
    return ", ".join(changed) if changed else _(lang, "standard rules")


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A link to a message. Built from the ids the bot knows, since a message sent through a
    partial channel carries no guild and discord.py would link to ``@me`` (direct messages)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


OPTIONS_PER_PAGE = 8
OPTIONS_PAGE_CHARS = 3500  # an embed's total is 6000 characters; leave room for title and footer


def option_values(option: Option, lang: str = i18n.ENGLISH) -> str:
    """An option's allowed values in words (never a Python type name)."""
    if option.choices:
        return _(lang, "one of {values}", values=", ".join(f"`{c}`" for c in option.choices))
    if isinstance(option.default, bool):
        return _(lang, "{true} (on) or {false} (off)", true="`true`", false="`false`")
    if isinstance(option.default, int):
        low, high = option.minimum, option.maximum
        if low is not None and high is not None:
            return _(lang, "a whole number from {low} to {high}", low=low, high=high)
        if low is not None:
            return _(lang, "a whole number, at least {low}", low=low)
        if high is not None:
            return _(lang, "a whole number, at most {high}", high=high)
        return _(lang, "a whole number")
    return _(lang, "a word")


def option_help(option: Option, lang: str = i18n.ENGLISH) -> str:
    """What an option does, in ``lang``: the games write it in English, and ``make messages``
    puts each game's option texts in the catalogue (:func:`cogs.messages.option_helps`)."""
    return _(lang, option.help)


def options_pages(game_class: type[Game], lang: str = i18n.ENGLISH) -> list[discord.Embed]:
    """Every option of a game with its meaning, default and allowed values, a few per page so
    each page stays well inside Discord's embed limits (25 fields, 6000 characters)."""
    pages: list[list[tuple[str, str]]] = [[]]
    size = 0
    for option in game_class.OPTIONS:
        default = (
            str(option.default).lower() if isinstance(option.default, bool) else option.default
        )
        name = _clip_start(
            _(lang, "{name} (default {default})", name=option.name, default=default), 256
        )
        values = _(lang, "Values: {values}", values=option_values(option, lang))
        value = _clip_start(f"{option_help(option, lang)}\n{values}", 1024)
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
            title=_(lang, "{game}: options", game=game_class.title),
            description=_(
                lang,
                "Give them to {command} as {form}, separated by spaces.",
                command="`/table new`",
                form="`name=value`",
            )
            if fields
            else _(lang, "This game has no options."),
            colour=discord.Colour.blurple(),
        )
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
        if len(pages) > 1:
            embed.set_footer(
                text=_(lang, "Page {page} of {pages}", page=number, pages=len(pages))
                + " · "
                + ngettext(lang, "{n} option", "{n} options", len(game_class.OPTIONS))
            )
        embeds.append(embed)
    return embeds


# What each computer level does, in the players' words (the lobby and /table new name them).
LEVEL_TEXT = {
    "easy": N_("plays by rule of thumb, with a random move now and then"),
    "normal": N_("plays by rule of thumb"),
    "hard": N_("searches ahead by playing sample deals out"),
}


HINTS_TEXT = N_("Hints on (unrated)")  # the lobby and the table say so while a table has hints
# The lobby of a table opened while the server rated no tables, or allowed no computer players.
UNRATED_TEXT = N_("Unrated: this server's tables do not count for the ratings")
NO_COMPUTERS_TEXT = N_(
    "Not at this server's tables: invite people (a computer only plays an away player's turns)"
)


def level_line(level: str, lang: str = i18n.ENGLISH) -> str:
    meaning = _(lang, LEVEL_TEXT[level]) if level in LEVEL_TEXT else level
    return f"**{level}**: {meaning}"


def table_title(table: LiveTable, lang: str) -> str:
    return "🃏 " + _(lang, "{game} · table #{table}", game=table.game_class.title, table=table.id)


def lobby_embed(table: LiveTable, lang: str = i18n.ENGLISH) -> discord.Embed:
    game_class = table.game_class
    computers = table.row.computers  # the server allowed them when the table opened
    embed = discord.Embed(
        title=table_title(table, lang),
        description=_(
            lang,
            "Waiting for players. Join, pick a seat, or add computer players; the host starts "
            "when every seat is filled.",
        )
        if computers
        else _(
            lang,
            "Waiting for players. Join or pick a seat; the host starts when every seat is filled.",
        ),
        colour=discord.Colour.blurple(),
    )
    embed.add_field(
        name=_(lang, "Options"),
        value=options_in_words(game_class, table.row.options, lang),
        inline=False,
    )
    # The level is the table's, not a rule: it is not among the options.
    embed.add_field(
        name=_(lang, "Computer players"),
        value=level_line(table.row.computer_level, lang)
        if computers
        else _(lang, NO_COMPUTERS_TEXT),
        inline=False,
    )
    if not table.row.rated:
        embed.add_field(name=_(lang, "Ratings"), value=_(lang, UNRATED_TEXT), inline=False)
    if table.row.hints:
        embed.add_field(name=_(lang, "Hints"), value=_(lang, HINTS_TEXT), inline=False)
    embed.add_field(
        name=_(lang, "Seats"),
        value="\n".join(seat_line(table, s, None, lang=lang) for s in range(table.seat_count)),
        inline=False,
    )
    return embed


def cards_text(cards: Sequence[Any]) -> str:
    return " ".join(display(card) for card in cards) or "—"


def trick_text(trick: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    return " · ".join(f"{names[seat]} {card_face(card)}" for seat, card in trick) or "—"


def score_text(
    game_class: type[Game], view: TableView, names: Sequence[str], lang: str = i18n.ENGLISH
) -> str:
    score = view.score
    label = said(lang, view.score_label)
    if game_class.teams:
        return " · ".join(
            _(lang, "Team {team}: **{score}**", team=TEAM_NAMES[i], score=v)
            for i, v in enumerate(score)
        ) + (f" {label}" if label else "")
    return " · ".join(f"{names[i]}: **{v}**" for i, v in enumerate(score)) + (
        f" {label}" if label else ""
    )


def table_embed(
    table: LiveTable,
    now: float | None = None,
    lang: str = i18n.ENGLISH,
    picture_alt: str | None = None,
) -> discord.Embed:
    """The one public table message: turn, trick, last trick, trump, calls, score, timer.

    ``picture_alt``: the alt text of the table's picture the message shows (``None``: no
    picture); it says the seats, trump, the tricks and the table lines, so the text beside it
    is short, and a game word only it says gets its note under the description.

    The leak guard reads the text shown and the alt text, or, where a name looks like a card,
    the whole text as the engine wrote it (seats in place of the players' names).
    """
    game = table.game
    assert game is not None
    names = shown_names(table.names)
    embed = _table_embed(table, names, lang, picture_alt is not None)
    # What is shown is checked, the picture's alt text too (a translation moves words around,
    # never a card); but a name may look like a card ("Q♠ fan"), and then the text is checked
    # as the engine wrote it, seats in place of names.
    if any(could_name_a_card(name) for name in table.names):
        seats = [f"seat {s + 1}" for s in range(table.seat_count)]
        guard_public(game, _checked_text(_table_embed(table, seats)))
    else:
        guard_public(game, _checked_text(embed, _(lang, RECENT)) + "\n" + (picture_alt or ""))
    # a game's own words, where they first appear, glossed in the reader's language
    explain_words(embed, table.id, table.row.game, lang, picture_alt or "")
    return embed


CARD_MARKS = frozenset("♠♥♦♣:")  # in every card's face: its suit, or an emoji's colons


def could_name_a_card(name: str) -> bool:
    """Whether a name could hold a card's face (a suit symbol or an emoji)."""
    return not CARD_MARKS.isdisjoint(name)


def _checked_text(embed: discord.Embed, recent: str = "Recent") -> str:
    """The embed's text that the leak guard reads as one (one pass over the hidden cards, not
    one a field): "Recent" is left out, its lines were checked as each event happened."""
    checked = [f"{f.name} {f.value}" for f in embed.fields if f.name != recent]
    return "\n".join([*checked, embed.description or ""])


RECENT_LINES = 4
RECENT_BESIDE_PICTURE = 2  # beside the picture: the latest event or two, for notifications
ABANDONED = N_("This game was abandoned. Not rated.")  # an abandoned game never counts


def abandoned_text(table: LiveTable, names: Sequence[str], lang: str = i18n.ENGLISH) -> str:
    """A closed game's headline: abandoned and not rated, or, where its last person left a
    rated game (which resigns it), who left and whose loss it counts as."""
    seat = table.resigned
    if seat is None or seat >= len(names):
        return _(lang, ABANDONED)
    side = team_label(table, team_of(seat), names, lang) if table.game_class.teams else names[seat]
    left = _(lang, "{who} left: the game counts as a loss for {side}.", who=names[seat], side=side)
    return left + _rating_tail(table, lang)


def post_head(table: LiveTable, lang: str) -> str:
    """``**Table #12** · ``: how a channel post about a table begins."""
    return "**" + _(lang, "Table #{table}", table=table.id) + "** · "


def resignation_message(table: LiveTable, lang: str = i18n.ENGLISH) -> str | None:
    """The channel's line for a game its last person left: a result, posted like a game's end
    (None for any other table)."""
    if table.resigned is None:
        return None
    text = abandoned_text(table, shown_names(table.names), lang)
    return _clip(post_head(table, lang) + text, 1900)


def _table_embed(
    table: LiveTable, names: Sequence[str], lang: str = i18n.ENGLISH, pictured: bool = False
) -> discord.Embed:
    """One glance: whose turn and the timer on top, the seats, trump and score side by side,
    the trick, the engine's table lines as one paragraph, and the few latest events that are
    not already shown above. ``pictured``: only the turn, the timer, the score and the latest
    events or two; the picture and its alt text show the rest."""
    game = table.game
    assert game is not None
    view = table.view(None)
    status = game.status
    abandoned = table.row.status == "abandoned"
    live = status == "in_progress" and not abandoned
    embed = discord.Embed(title=table_title(table, lang), colour=discord.Colour.dark_green())
    head = []
    prompt = engine(lang, view.prompt, names)
    if status == "finished":
        head.append(f"**{result_headline(table, names, lang)}**")
    elif abandoned:
        head.append(f"**{abandoned_text(table, names, lang)}**")
    elif prompt:
        head.append(f"**{prompt}**")
    deadline = table.row.turn_deadline
    if deadline and live:
        head.append("⏱ " + _(lang, "turn ends {when}", when=f"<t:{int(deadline)}:R>"))
    note = restart_note(table.id) if live else None
    note = _(lang, note) if note else None
    embed.description = " · ".join(head) + (f"\n*{note}*" if note else "") or None
    if pictured:
        return _short_fields(embed, table, view, names, live, lang)
    embed.add_field(
        name=_(lang, "Seats"),
        value="\n".join(
            seat_line(table, s, view, names, live, lang) for s in range(table.seat_count)
        ),
        inline=False,
    )
    trump = view.trump
    if trump:
        embed.add_field(name=_(lang, "Trump"), value=_suit_text(trump, lang), inline=True)
    embed.add_field(
        name=_(lang, "Score"), value=score_text(table.game_class, view, names, lang), inline=True
    )
    if view.trick:
        embed.add_field(name=_(lang, "Trick"), value=trick_text(view.trick, names), inline=False)
    else:
        last = view.last_trick
        if last:
            won = f" → **{names[last.winner]}**"
            points = (
                " (" + _(lang, "{points} pts", points=last.points) + ")"
                if last.points is not None
                else ""
            )
            embed.add_field(
                name=_(lang, "Last trick"),
                value=trick_text(last.cards, names) + won + points,
                inline=False,
            )
    recent = [shown_line(line, names, lang) for line in table.recent][-RECENT_LINES:]
    extra = [engine(lang, line, names) for line in view.lines]
    extra = [line for line in extra if line not in recent]
    if extra:
        embed.add_field(name=_(lang, "Table"), value=_clip(" · ".join(extra), 1024), inline=False)
    if recent:
        embed.add_field(name=_(lang, RECENT), value=_clip("\n".join(recent), 1024), inline=False)
    return _footer(embed, table, live, lang)


def _short_fields(
    embed: discord.Embed,
    table: LiveTable,
    view: TableView,
    names: Sequence[str],
    live: bool,
    lang: str,
) -> discord.Embed:
    """Beside the picture: the score (players look for it first) and the latest events."""
    embed.add_field(
        name=_(lang, "Score"), value=score_text(table.game_class, view, names, lang), inline=False
    )
    recent = [shown_line(line, names, lang) for line in table.recent][-RECENT_BESIDE_PICTURE:]
    if recent:
        embed.add_field(name=_(lang, RECENT), value=_clip("\n".join(recent), 1024), inline=False)
    return _footer(embed, table, live, lang)


def _footer(embed: discord.Embed, table: LiveTable, live: bool, lang: str) -> discord.Embed:
    hint = " · " + _(lang, "Press “Show my hand” to see your cards and play.") if live else ""
    hints = " · " + _(lang, HINTS_TEXT) if table.row.hints else ""
    embed.set_footer(text=_(lang, "Move {n}", n=table.moves) + hints + hint)
    return embed


RECENT = N_("Recent")  # the field whose lines were checked as each event happened


def _suit_text(trump: str, lang: str = i18n.ENGLISH) -> str:
    from games.cards import SUIT_NAMES, SUIT_SYMBOLS

    if trump in SUIT_SYMBOLS:
        return f"{SUIT_SYMBOLS[trump]} {suit_word(lang, SUIT_NAMES[trump])}"
    return suit_word(lang, "no trump") if trump == "NT" else str(trump)


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


def team_label(table: LiveTable, team: int, names: Sequence[str], lang: str = i18n.ENGLISH) -> str:
    """``Team A (Alice & Carol)``, or the player's name when a team is one seat."""
    members = [names[s] for s in team_seats(team, table.seat_count)]
    if len(members) == 1:
        return members[0]
    return _(lang, "Team {team}", team=TEAM_NAMES[team]) + f" ({' & '.join(members)})"


def _score_pairs(
    table: LiveTable, score: Sequence[Any], names: Sequence[str], lang: str = i18n.ENGLISH
) -> str:
    if table.game_class.teams and len(score) == 2:
        labels = [team_label(table, t, names, lang) for t in (0, 1)]
    else:
        labels = [names[s] if s < len(names) else f"seat {s + 1}" for s in range(len(score))]
    return " · ".join(f"{label} **{value}**" for label, value in zip(labels, score, strict=False))


def score_words(
    table: LiveTable, score: Sequence[Any], names: Sequence[str], lang: str = i18n.ENGLISH
) -> str:
    """``12 to 3`` between two teams; ``Alice 0 · Bob 8 · Carol 29`` for each for themselves."""
    if table.game_class.teams and len(score) == 2:
        return _(lang, "{a} to {b}", a=score[0], b=score[1])
    return " · ".join(f"{names[s]} {v}" for s, v in enumerate(score) if s < len(names))


def result_headline(table: LiveTable, names: Sequence[str], lang: str = i18n.ENGLISH) -> str:
    """The final board's headline: who won and the final score, from the game's ``outcome``."""
    game = table.game
    outcome = game.outcome() if game is not None else None
    if outcome is None:
        return _(lang, "Game over.")
    score = score_words(table, outcome.score, names, lang)
    tail = " " + _(lang, "Final score: {score}.", score=score) if score else ""
    if outcome.abandoned:
        return _(lang, "Game abandoned.") + tail
    why = f" {engine(lang, outcome.reason, names)}" if outcome.reason else ""
    winners = list(outcome.winners)
    if not winners:
        return _(lang, "Game over: nobody wins{why}.", why=why) + tail + _rating_tail(table, lang)
    teams = {seat % 2 for seat in winners}
    if table.game_class.teams and len(teams) == 1 and len(outcome.score) == 2:
        who = team_label(table, next(iter(teams)), names, lang)
        won = _(lang, "Game over: 🏆 {who} wins the game{why}.", who=who, why=why)
    else:
        who = " & ".join(names[s] for s in winners)
        won = (
            _(lang, "Game over: 🏆 {who} wins the game{why}.", who=who, why=why)
            if len(winners) == 1
            else _(lang, "Game over: 🏆 {who} win the game{why}.", who=who, why=why)
        )
    return won + tail + _rating_tail(table, lang)


def _rating_tail(table: LiveTable, lang: str = i18n.ENGLISH) -> str:
    """Whether the game counts for the ratings (and why not), after the result."""
    return f" {_(lang, table.result_note)}" if table.result_note else ""


def _hand_detail(
    table: LiveTable, event: Event, names: Sequence[str], lang: str = i18n.ENGLISH
) -> str | None:
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
            parts.append(
                _(lang, "{who}'s {kind} succeeds.", who=names[who], kind=kind)
                if success
                else _(lang, "{who}'s {kind} fails.", who=names[who], kind=kind)
            )
    score = data.get("score")
    if isinstance(score, list) and score and event.kind != "game_over":
        parts.append(_(lang, "Totals: {score}", score=_score_pairs(table, score, names, lang)))
    return " ".join(parts) or None


def event_message(
    table: LiveTable,
    events: Sequence[Event | str],
    names: Sequence[str] | None = None,
    lang: str = i18n.ENGLISH,
) -> str:
    """A message that stays in the channel: a hand's or the game's result.

    Each event's text, then what its data adds (who made the contract, the totals with the
    teams named), so every hand post says who won it and what it changed. ``names`` are who
    held the seats then (a result posted late, after a restart), by default who holds them now.
    """
    names = shown_names(table.names if names is None else names)
    seats = [f"seat {s + 1}" for s in range(table.seat_count)]
    english: list[str] = []
    shown: list[str] = []
    for event in events:
        text = event if isinstance(event, str) else event.text
        english.append(fill_names(polish(text)))
        shown.append(engine(lang, text, names))
        if isinstance(event, Event):
            detail = _hand_detail(table, event, seats)
            if detail:
                english.append(detail)
                shown.append(_hand_detail(table, event, names, lang) or "")
    if table.result_note and any(isinstance(e, Event) and e.kind == "game_over" for e in events):
        shown.append(_(lang, table.result_note))
    guard_public(table.game, "\n".join(english))
    return _clip(post_head(table, lang) + "\n".join(shown), 1900)


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


def select_placeholder(labels: Sequence[str], several: bool, lang: str = i18n.ENGLISH) -> str:
    """A menu's prompt; when the decisions fill several menus, each says which range it holds."""
    if not several or not labels:
        return _(lang, "Choose your move")
    if len(labels) == 1:
        return _clip_start(_(lang, "Choose: {moves}", moves=labels[0]), 150)
    return _clip_start(_(lang, "Choose: {moves}", moves=f"{labels[0]} … {labels[-1]}"), 150)


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


WAITING = N_("Waiting for the others (the table shows whose turn it is).")


def hand_embed(
    table: LiveTable,
    seat: int,
    note: str | None = None,
    chosen: Sequence[str] = (),
    lang: str = i18n.ENGLISH,
) -> discord.Embed:
    """A seat's private hand, in its reader's language (``note``: already in it)."""
    game = table.game
    assert game is not None
    names = shown_names(table.names)
    view = table.view(seat)
    embed = discord.Embed(
        title=_(lang, "Your hand · table #{table}", table=table.id), colour=discord.Colour.gold()
    )
    lines = []
    if note:
        lines.append(f"⚠️ {note}")
    if game.status == "finished":
        lines.append(_(lang, "The game is over."))
    elif table.row.status == "abandoned":
        lines.append(abandoned_text(table, names, lang))
    elif seat in game.to_act():
        prompt = engine(lang, view.prompt, names)
        your_move = _(lang, "Your move.")
        lines.append(f"**{your_move}** {prompt}")
    else:  # whose turn it is shows on the table; here it would cost an edit every move
        lines.append(_(lang, WAITING))
    lines.append(cards_face(view.hand or ()) or "—")
    if chosen:
        lines.append(_(lang, "Your sequence so far: {cards}", cards=f"**{cards_face(chosen)}**"))
    embed.description = "\n".join(lines)
    private = [shown_line(line, names, lang) for line in table.private.get(seat, [])]
    if private:
        embed.add_field(
            name=_(lang, "Only you see"), value=_clip("\n".join(private[-5:]), 1024), inline=False
        )
    return embed
