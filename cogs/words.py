"""The games' own words in plain words: the /rules legend, and a one-line note on the table
where a word first appears there.

A note stays under the field where the word showed up for as long as the word stays on the
board; once the word has left the board, that table does not explain it again (until the bot
restarts, which forgets).
"""

from __future__ import annotations

import re
from functools import lru_cache

import discord

from bot import i18n
from bot.i18n import N_

# One line per word a player meets on the table and may not know (from shared/rules/*.md).
# The words are the games' own and stay as they are in every language (but the few plain
# English terms of PLAIN, said in the reader's words); their meanings are catalogue texts,
# glossed in the reader's language by /rules.
# Every game of games/ has its entry, empty where its table shows no such word (a test checks
# that none is missing): the words are text for people, so they live here, not in the rules.
GLOSSARY: dict[str, tuple[tuple[str, str], ...]] = {
    "tarneeb": (("tarneeb", N_("the trump suit, named by the winner of the bidding")),),
    "tarneeb_egyptian": (("tarneeb", N_("the trump suit, named in the winning bid")),),
    "norwegian_whist": (),
    "thunee": (
        ("trumpman", N_("the player after the dealer, who sets trump unless a call moves it")),
        ("trumper", N_("the player who sets trump for the hand")),
        ("the counting team", N_("the team without trump; it tries to count 105 card points")),
        ("ball", N_("one game point; a hand is worth one or more balls")),
        (
            "Jodhi",
            N_(
                "a king and queen of one suit, claimed after a won trick: 20, or 40 in trump "
                "(30 and 50 with the jack)"
            ),
        ),
        (
            "Khanaak",
            N_(
                "a declaration in the last trick: the team bets that its Jodhi and the last "
                "trick beat the other team's points"
            ),
        ),
    ),
    "tuppi": (
        ("rami", N_("a bid (a red card) to take most tricks; one rami makes the hand rami")),
        ("nolo", N_("a bid (a black card) to take few tricks; four nolos make the hand nolo")),
        ("sooli", N_("after a rami reveal, one defender plays nolo alone against all three")),
        ("nousussa", N_("“rising”: the one team that has points; the other team is at 0")),
    ),
    "tunge": (
        (
            "longest viable sequence",
            N_(
                "once the stock is empty, the longest legal sequence on top of the pile: "
                "the play to beat"
            ),
        ),
    ),
}


@lru_cache(maxsize=256)
def _pattern(word: str) -> re.Pattern[str]:
    """The word standing alone (no letter either side: a word-end rule that holds in Arabic,
    whose words may end in a mark that is not a letter)."""
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)


# The words noted on the table: the ones players asked about. The others (rami,
# nolo, ball) are on the board all game long and explained in /rules.
NOTED = frozenset(("trumpman", "the counting team", "sooli", "nousussa", "longest viable sequence"))
# Noted words that are plain English rather than the game's own: the board says them in the
# reader's words (cogs/engine_words), so the note looks for them, and names them, so.
PLAIN: dict[str, str] = {
    "the counting team": N_("the counting team"),
    "longest viable sequence": N_("longest viable sequence"),
}


def shown_word(lang: str, word: str) -> str:
    """A glossary word as a board in ``lang`` shows it."""
    return i18n._(lang, PLAIN[word]) if word in PLAIN else word


MAX_FIELD = 1024
MAX_DESCRIPTION = 4096


class FirstMentions:
    """Per table: the words shown with a note now, and those already explained."""

    def __init__(self) -> None:
        self.showing: dict[int, set[str]] = {}
        self.explained: dict[int, set[str]] = {}

    def notes(
        self, table_id: int, game: str, places: list[str], lang: str = i18n.ENGLISH
    ) -> list[list[str]]:
        """For each place (a text on the board), the notes to put under it: the game's word as
        it is, its meaning in ``lang``."""
        found: dict[str, int] = {}
        for index, text in enumerate(places):
            for word, _ in GLOSSARY.get(game, ()):
                if word not in NOTED or word in found:
                    continue
                if _pattern(shown_word(lang, word)).search(text):
                    found[word] = index
        explained = self.explained.setdefault(table_id, set())
        showing = self.showing.get(table_id, set())
        explained |= showing - set(found)  # words that left the board have had their note
        now = {word for word in found if word not in explained}
        self.showing[table_id] = now
        out: list[list[str]] = [[] for _ in places]
        for word, meaning in GLOSSARY.get(game, ()):
            if word in now:
                out[found[word]].append(f"*{shown_word(lang, word)}: {i18n._(lang, meaning)}*")
        return out

    def forget(self, table_id: int) -> None:
        self.showing.pop(table_id, None)
        self.explained.pop(table_id, None)

    def clear(self) -> None:
        """At shutdown: forget every table (the next start explains the words again)."""
        self.showing.clear()
        self.explained.clear()


MENTIONS = FirstMentions()


def explain_words(
    embed: discord.Embed, table_id: int, game: str, lang: str = i18n.ENGLISH, picture: str = ""
) -> None:
    """Add the note of each game word that first appears on this board under its field; a word
    the table's picture says (``picture``: its alt text), under the description."""
    fields = list(embed.fields)
    places = [f"{embed.description or ''}\n{picture}"] + [f"{f.name} {f.value}" for f in fields]
    notes = MENTIONS.notes(table_id, game, places, lang)
    if notes[0]:
        extra = "\n" + "\n".join(notes[0])
        if len(embed.description or "") + len(extra) <= MAX_DESCRIPTION:
            embed.description = (embed.description or "") + extra
    for index, (field, lines) in enumerate(zip(fields, notes[1:], strict=True)):
        extra = "\n" + "\n".join(lines)
        if lines and len(field.value or "") + len(extra) <= MAX_FIELD:
            embed.set_field_at(
                index, name=field.name or "", value=(field.value or "") + extra, inline=field.inline
            )
