"""The bid-card games' sentences: Norwegian Whist, and Tuppi (its words stay: rami, nolo,
sooli, nousussa)."""

from __future__ import annotations

import re

from bot import i18n
from bot.i18n import N_
from cogs.engine_words.parts import A_CARD, CARD, TEAM, Phrase, S, seats, suit_word


def _revealed(lang: str, english: str) -> str:
    """``{s1} nullo (9♥), {s2} grand (verbally)``: each seat's bid, its card or how it bid."""
    out = []
    for item in english.split(", "):
        match = re.fullmatch(r"(\{s\d\}) (\w+) \((.+)\)", item)
        if match is None:
            out.append(item)
            continue
        how = match[3]  # the bid card, or how a bid without one was made
        shown = how if re.fullmatch(A_CARD, how) else _how(lang, how)
        out.append(f"{match[1]} {match[2]} ({shown})")
    return i18n._(lang, ", ").join(out)


def _how(lang: str, english: str) -> str:
    """How a bid was made: ``with 9♥``, or ``verbally`` / ``with a token``."""
    card = re.fullmatch(rf"with ({A_CARD})", english)
    if card is not None:
        return i18n._(lang, "with {card}", card=card[1])
    ways = {"verbally": N_("verbally"), "with a token": N_("with a token")}
    return i18n._(lang, ways[english]) if english in ways else english


PEAKS = {"equal peaks": N_("equal peaks"), "the higher peak": N_("the higher peak")}
PHRASES: tuple[Phrase, ...] = (
    (rf"{S} has committed a bid\.", N_("{who} has committed a bid."), {}),
    (
        r"You bid (?P<bid>grand|nullo|rami|nolo) (?P<how>with \S+|verbally|with a token)\.",
        N_("You bid {bid} {how}."),
        {"how": _how},
    ),
    (
        rf"{S} shows (?P<bid>grand|nullo|rami|nolo) (?P<how>with \S+|verbally|with a token)\.",
        N_("{who} shows {bid} {how}."),
        {"how": _how},
    ),
    (rf"{S} grands\.", N_("{who} grands."), {}),
    (
        r"All four bid (?P<bid>nullo|nolo): the hand is (?P=bid)\.",
        N_("All four bid {bid}: the hand is {bid}."),
        {},
    ),
    (rf"{TEAM} wins the game\.", N_("{team} wins the game."), {}),
    (
        rf"{TEAM} (?P<n>[+−]\d+) \((?P<bid>grand|nullo), tricks A (?P<a>\d+), B (?P<b>\d+)\)\.",
        N_("{team} {n} ({bid}, tricks A {a}, B {b})."),
        {},
    ),
    (
        rf"{S} exposes a one-colour hand: (?P<cards>[^.]+)\. The hand is dealt again\.",
        N_("{who} exposes a one-colour hand: {cards}. The hand is dealt again."),
        {},
    ),
    (
        r"Commit a bid: a (?P<high_colour>black|red) card for (?P<high>grand|rami), "
        r"a (?P<low_colour>black|red) card for (?P<low>nullo|nolo)\.",
        N_("Commit a bid: a {high_colour} card for {high}, a {low_colour} card for {low}."),
        {"high_colour": suit_word, "low_colour": suit_word},
    ),
    (r"Committed: (?P<seats>[^.]+)\.", N_("Committed: {seats}."), {"seats": seats}),
    (r"Revealed: (?P<bids>.+)\.", N_("Revealed: {bids}."), {"bids": _revealed}),
    (r"The hand is (?P<bid>grand|nullo|rami|nolo)\.", N_("The hand is {bid}."), {}),
    (
        rf"The hand is (?P<bid>grand|nullo|rami|nolo), by {S}\.",
        N_("The hand is {bid}, by {who}."),
        {},
    ),
    (r"Tricks: A (?P<a>\d+), B (?P<b>\d+)\.", N_("Tricks: A {a}, B {b}."), {}),
    (r"The hand is scored\.", N_("The hand is scored."), {}),  # a family member's default
    (
        rf"(?P<bid>Grand|Nullo|Rami|Nolo) \((?P<how>{A_CARD}|verbal|token)\)",
        N_("{bid} ({how})"),
        {"how": suit_word},
    ),
    (r"Expose", N_("Expose"), {}),
    # Tuppi (its words stay: rami, nolo, sooli, nousussa).
    (
        r"Nousussa: team (?P<team>[AB]) \((?P<n>-?\d+)\)\.",
        N_("Nousussa: team {team} ({n})."),
        {},
    ),
    (
        rf"{TEAM} scores (?P<n>-?\d+) \((?P<bid>rami|nolo|sooli)\)\.",
        N_("{team} scores {n} ({bid})."),
        {},
    ),
    (
        rf"{TEAM} scores (?P<n>-?\d+), but team (?P<other>[AB]) had points: both totals go "
        r"back to (?P<zero>-?\d+)\.",
        N_("{team} scores {n}, but team {other} had points: both totals go back to {zero}."),
        {},
    ),
    (rf"{S}: declare sooli or pass\?", N_("{who}: declare sooli or pass?"), {}),
    (rf"{S} may declare sooli\.", N_("{who} may declare sooli."), {}),
    (
        rf"{S} declares sooli; (?P<out>\{{s\d\}}) sits out\.",
        N_("{who} declares sooli; {out} sits out."),
        {},
    ),
    (rf"{S} bid rami: the hand is rami\.", N_("{who} bid rami: the hand is rami."), {}),
    (
        rf"Sooli by {S}; (?P<out>\{{s\d\}}) sits out; aces are low\.",
        N_("Sooli by {who}; {out} sits out; aces are low."),
        {},
    ),
    (
        r"points \(only one team can have points\)",
        N_("points (only one team can have points)"),
        {},
    ),
    (r"Sooli", N_("Sooli"), {}),
    (
        r"Hand (?P<n>\d+) of (?P<of>\d+); peaks A (?P<a>-?\d+), B (?P<b>-?\d+)\.",
        N_("Hand {n} of {of}; peaks A {a}, B {b}."),
        {},
    ),
    (r"Give", N_("Give"), {}),
    (r"Return", N_("Return"), {}),
    (rf"{S} passes a card to the soloist\.", N_("{who} passes a card to the soloist."), {}),
    (
        rf"{S} returns a card to their partner\.",
        N_("{who} returns a card to their partner."),
        {},
    ),
    (
        rf"{S} passes a card to (?P<to>\{{s\d\}})\.",
        N_("{who} passes a card to {to}."),
        {},
    ),
    (
        rf"{S} passes {CARD} to (?P<to>\{{s\d\}})\.",
        N_("{who} passes {card} to {to}."),
        {},
    ),
    (
        rf"{S} passes a card back to (?P<to>\{{s\d\}})\.",
        N_("{who} passes a card back to {to}."),
        {},
    ),
    (
        rf"{S} passes {CARD} back to (?P<to>\{{s\d\}})\.",
        N_("{who} passes {card} back to {to}."),
        {},
    ),
    (
        r"Commit a bid: the red token for rami, the black token for nolo\.",
        N_("Commit a bid: the red token for rami, the black token for nolo."),
        {},
    ),
    (
        r"on (?P<peaks>equal peaks|the higher peak), (?P<a>-?\d+) to (?P<b>-?\d+)",
        N_("on {peaks}, {a} to {b}"),
        {"peaks": lambda lang, text: i18n._(lang, PEAKS[text])},
    ),
    (
        rf"{TEAM} wins the game on (?P<peaks>equal peaks|the higher peak), (?P<a>-?\d+) to "
        r"(?P<b>-?\d+), after (?P<n>\d+) hands?\.",
        N_("{team} wins the game on {peaks}, {a} to {b}, after {n} hands."),
        {"peaks": lambda lang, text: i18n._(lang, PEAKS[text])},
    ),
    (
        r"The game is a draw on (?P<peaks>equal peaks|the higher peak), (?P<a>-?\d+) to "
        r"(?P<b>-?\d+), after (?P<n>\d+) hands?\.",
        N_("The game is a draw on {peaks}, {a} to {b}, after {n} hands."),
        {"peaks": lambda lang, text: i18n._(lang, PEAKS[text])},
    ),
)
