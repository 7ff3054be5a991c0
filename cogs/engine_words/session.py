"""The session layer's log lines that carry a part (a game's title, a number of minutes): its
fixed lines are catalogue texts as they are, these are matched like the games' sentences."""

from __future__ import annotations

from collections.abc import Mapping

from bot import i18n
from bot.i18n import N_
from cogs.engine_words.parts import Phrase

MINUTES = r"(?P<n>\d+) minutes?"
ALL_AWAY = rf"Only away players are left: unless one of them comes back within {MINUTES}"


def _away_lost(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "Only away players are left: unless one of them comes back within {n} minute, the game "
        "counts as a loss for their side.",
        "Only away players are left: unless one of them comes back within {n} minutes, the game "
        "counts as a loss for their side.",
        int(values["n"]),
    )


def _away_abandoned(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "Only away players are left: unless one of them comes back within {n} minute, the game "
        "is abandoned.",
        "Only away players are left: unless one of them comes back within {n} minutes, the game "
        "is abandoned.",
        int(values["n"]),
    )


PHRASES: tuple[Phrase, ...] = (
    # a game's title stays as it is (as on the table's title)
    (r"The game begins: (?P<game>[^.]+)\.", N_("The game begins: {game}."), {}),
    (rf"{ALL_AWAY}, the game counts as a loss for their side\.", _away_lost, {}),
    (rf"{ALL_AWAY}, the game is abandoned\.", _away_abandoned, {}),
)
