"""Typed options and the checks a table's settings pass before anything is kept."""

from __future__ import annotations

import contextlib
import re
from typing import Any

from bot.i18n import N_
from bot.sessions.errors import ChannelNotAllowed, UserError
from bot.sessions.table import LiveTable
from bot.store import GuildSettings
from games.base import Game, OptionError
from games.players import AVAILABLE_LEVELS

OPTION_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")


OPTION_VALUE = re.compile(r"-?[0-9]{1,32}|[a-z][a-z0-9_]{0,31}")  # plain digits, or a word


MAX_OPTIONS_TEXT = 300


QUOTE_CHARS = 40


def _quoted(text: str) -> str:
    """Typed text fit to quote in a refusal: one line, short, no code span broken."""
    flat = " ".join(text.split())
    shown = flat if len(flat) <= QUOTE_CHARS else flat[: QUOTE_CHARS - 1] + "…"
    return "`" + shown.replace("`", "'") + "`"


def _value(raw: str) -> Any:
    """A value as typed (already checked by :data:`OPTION_VALUE`): true/false (yes/no, on/off),
    a whole number, or a word. The game's own option rules check its type and range."""
    if raw in ("true", "yes", "on"):
        return True
    if raw in ("false", "no", "off"):
        return False
    if raw.lstrip("-").isdigit():
        return int(raw)
    return raw


def parse_option(name: str, value: str) -> tuple[str, Any]:
    """One option as typed (``/settings defaults``): a name and a single value, never more."""
    name, raw = name.strip().lower(), value.strip().lower()
    if not OPTION_NAME.fullmatch(name):
        raise UserError(
            f"{_quoted(name)} is not an option name.",
            code="not_an_option",
            params={"name": _quoted(name)},
        )
    if not OPTION_VALUE.fullmatch(raw):
        raise UserError(
            f"A value is one word or a whole number, not {_quoted(value)}.",
            code="bad_option_value",
            params={"value": _quoted(value)},
        )
    return name, _value(raw)


def parse_options(text: str | None) -> dict[str, Any]:
    """``"players=6 last_trick=bonus"`` as option values: true/false, whole numbers, words.

    The one parser of typed options (``/table new options:``, ``/settings defaults``): anything
    else is refused in one line, before the game's own rules check names, types and ranges."""
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_TEXT:
        raise UserError(
            f"That is too many options ({len(text)} characters).",
            code="too_many_options",
            params={"n": len(text)},
        )
    options: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        name, sep, raw = part.lower().partition("=")
        if not (sep and OPTION_NAME.fullmatch(name) and OPTION_VALUE.fullmatch(raw)):
            raise UserError(
                f"Options are written name=value (a word or a whole number), not {_quoted(part)}.",
                code="option_syntax",
                params={"part": _quoted(part)},
            )
        options[name] = _value(raw)
    return options


def check_computers_allowed(table: LiveTable) -> None:
    """Computer seats are refused at a table opened while the server allowed none (a computer
    still plays an away human's turns, so that no table is stranded)."""
    if not table.row.computers:
        raise UserError(
            N_("This server does not allow computer players at its tables: invite people instead.")
        )


def check_table_channel(
    settings: GuildSettings, channel_id: int, parent_channel_id: int | None = None
) -> None:
    """Refuse a channel the server did not list for tables (a listed channel's threads count)."""
    if settings.channels and not {channel_id, parent_channel_id} & set(settings.channels):
        raise ChannelNotAllowed(settings.channels)


def known_defaults(game_class: type[Game], settings: GuildSettings) -> dict[str, Any]:
    """The server's default options for a game, less any the game no longer has or allows (a
    value stored before its range was declared)."""
    known = {option.name: option for option in game_class.OPTIONS}
    stored = settings.defaults.get(game_class.name, {})
    kept = {}
    for name, value in stored.items():
        if name in known:
            with contextlib.suppress(OptionError):
                kept[name] = known[name].validate(value)
    return kept


def check_level(level: str) -> str:
    """``level`` if it is one the bot offers (:data:`games.players.AVAILABLE_LEVELS`)."""
    if level not in AVAILABLE_LEVELS:
        levels = ", ".join(AVAILABLE_LEVELS)
        raise UserError(
            f"Choose one of the computer levels offered: {levels}.",
            code="unknown_level",
            params={"levels": levels},
        )
    return level
