"""Tunge's sentences: draws, plays and their matches, forced pick-ups, the end game, a deal's
points and the game's end; its hints."""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot import i18n
from bot.i18n import N_
from cogs.engine_words.parts import A_CARD, CARD, CARDS, Phrase, S, others, seats

RANK = r"(?:10|[2-9JQKA])"
SEQUENCE = rf"(?P<seq>{RANK}(?:-{RANK})*)"  # ranks as the table shows them: A-10-9
MATCHES = r"\((?P<n>\d+) match(?:es)?\)"
PICKED = (
    (re.compile(r"(?P<n>\d+) from the stock"), N_("{n} from the stock")),
    (re.compile(rf"(?P<cards>{A_CARD}(?: {A_CARD})*) from the pile"), N_("{cards} from the pile")),
    (re.compile(r"(?P<n>\d+) forgiven \(no cards left\)"), N_("{n} forgiven (no cards left)")),
)


def _picked(lang: str, english: str) -> str:
    """``1 from the stock, K♥ from the pile``: where each card of a pick-up comes from."""
    out = []
    for part in english.split(", "):
        for pattern, template in PICKED:
            match = pattern.fullmatch(part)
            if match is not None:
                out.append(i18n._(lang, template, **match.groupdict()))
                break
        else:
            out.append(part)
    return i18n._(lang, ", ").join(out)


def _pickup(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "{who} must pick up {n} card: {parts}.",
        "{who} must pick up {n} cards: {parts}.",
        int(values["n"]),
        **others(values),
    )


def _plays(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "{who} plays {cards} ({n} match).",
        "{who} plays {cards} ({n} matches).",
        int(values["n"]),
        **others(values),
    )


def _played(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "{who} played {cards} ({n} match)",
        "{who} played {cards} ({n} matches)",
        int(values["n"]),
        **others(values),
    )


def _turns(lang: str, values: Mapping[str, str]) -> str:
    return i18n.ngettext(
        lang,
        "The deal is blocked ({n} turn was played); nobody wins it.",
        "The deal is blocked ({n} turns were played); nobody wins it.",
        int(values["n"]),
    )


PHRASES: tuple[Phrase, ...] = (
    (
        rf"Deal (?P<n>\d+): {S} deals (?P<size>\d+) cards each; (?P<first>\{{s\d\}}) starts\.",
        N_("Deal {n}: {who} deals {size} cards each; {first} starts."),
        {},
    ),
    (rf"{S} to play a sequence or draw a card", N_("{who} to play a sequence or draw a card"), {}),
    (rf"{S} to play a sequence or pass", N_("{who} to play a sequence or pass"), {}),
    (rf"{S} draws a card from the stock\.", N_("{who} draws a card from the stock."), {}),
    (rf"You draw {CARD}\.", N_("You draw {card}."), {}),
    (rf"{S} draws {CARD} from the pile\.", N_("{who} draws {card} from the pile."), {}),
    (rf"{S} cannot play and passes\.", N_("{who} cannot play and passes."), {}),
    (rf"{S} plays {CARDS}\.", N_("{who} plays {cards}."), {}),
    (rf"{S} plays {CARDS} {MATCHES}\.", _plays, {}),
    (rf"{S} played {CARDS} {MATCHES}", _played, {}),
    (
        rf"{S} must pick up (?P<n>\d+) cards?: (?P<parts>[^.]+)\.",
        _pickup,
        {"parts": _picked},
    ),
    (
        r"The stock is empty: the end game begins\. Draws now come from the pile, and the last "
        r"sequence may not be replayed\.",
        N_(
            "The stock is empty: the end game begins. Draws now come from the pile, and the last "
            "sequence may not be replayed."
        ),
        {},
    ),
    (rf"Last sequence: {SEQUENCE}", N_("Last sequence: {seq}"), {}),
    (rf"Longest viable sequence: {SEQUENCE}", N_("Longest viable sequence: {seq}"), {}),
    (rf"{S} has played out and wins the deal\.", N_("{who} has played out and wins the deal."), {}),
    (
        r"The deal is blocked \(every player passed\); nobody wins it\.",
        N_("The deal is blocked (every player passed); nobody wins it."),
        {},
    ),
    (
        r"The deal is blocked \(the same position came up a third time\); nobody wins it\.",
        N_("The deal is blocked (the same position came up a third time); nobody wins it."),
        {},
    ),
    (r"The deal is blocked \((?P<n>\d+) turns were played\); nobody wins it\.", _turns, {}),
    (
        r"Points this deal: (?P<scores>[^.]+)\.",
        N_("Points this deal: {scores}."),
        {"scores": seats},
    ),
    (rf"{S} wins the game\.", N_("{who} wins the game."), {}),
    (
        r"The game is shared by (?P<seats>[^.]+)\.",
        N_("The game is shared by {seats}."),
        {"seats": seats},
    ),
    (
        r"The game ends without a winner; by points: (?P<scores>[^.]+)\.",
        N_("The game ends without a winner; by points: {scores}."),
        {"scores": seats},
    ),
    (r"The game ends without a winner\.", N_("The game ends without a winner."), {}),
    (r"points \(lower is better\)", N_("points (lower is better)"), {}),
    (r"Draw", N_("Draw"), {}),
)

# The Hint button's reasons (games/players/hints.py), as written.
HINT_REASONS: tuple[str, ...] = (
    N_("you have no play and nothing is left to draw: pass"),
    N_("you have no play: draw"),
    N_("play out your whole hand"),
    N_("shed the most points, even at the cost of a match"),
    N_("shed the most points (aces and courts first) without a match"),
)
HINT_PHRASES: tuple[Phrase, ...] = tuple((re.escape(reason), reason, {}) for reason in HINT_REASONS)
