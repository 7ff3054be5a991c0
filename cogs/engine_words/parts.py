"""The pieces every phrase module is built of: suit words, the patterns of seats, teams,
numbers and cards, and the converters that put a captured part into the reader's words."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot import i18n
from bot.i18n import N_

Convert = Callable[[str, str], str]  # (language, captured English) → the reader's words
# A catalogue template, or a function of (language, the converted parts) where the sentence
# depends on a count (its singular and plural are ``ngettext`` texts).
Template = str | Callable[[str, Mapping[str, str]], str]
Phrase = tuple[str, Template, Mapping[str, Convert]]  # (English pattern, template, converters)

SUIT_WORDS: Mapping[str, str] = {
    "spades": N_("spades"),
    "hearts": N_("hearts"),
    "diamonds": N_("diamonds"),
    "clubs": N_("clubs"),
    "no trump": N_("no trump"),
    "black": N_("black"),
    "red": N_("red"),
    "verbal": N_("verbal"),
    "token": N_("token"),
}


def suit_word(lang: str, english: str) -> str:
    """One of :data:`SUIT_WORDS` in ``lang`` (capitalised as the English was)."""
    key = english.lower()
    if key not in SUIT_WORDS:
        return english
    word = i18n._(lang, SUIT_WORDS[key])
    return word[:1].upper() + word[1:] if english[:1].isupper() else word


def seats(lang: str, english: str) -> str:
    """``{s0}, {s2}``: the seats as they are, joined the reader's way."""
    return i18n._(lang, ", ").join(english.split(", "))


S = r"(?P<who>\{s\d\})"
TEAM = r"(?P<team>\{s\d\} & \{s\d\}|Team [AB])"
N = r"(?P<n>[-+−]?\d+)"
A_CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
CARD = rf"(?P<card>{A_CARD})"
CARDS = rf"(?P<cards>{A_CARD}(?: {A_CARD})*)"  # one card or several, space-separated
SUIT = r"(?P<suit>spades|hearts|diamonds|clubs)"


def others(values: Mapping[str, str]) -> dict[str, str]:
    """The converted parts but the count ``n`` (``ngettext`` fills that in itself)."""
    return {name: value for name, value in values.items() if name != "n"}
