"""The games' own texts (prompts, table lines, events, move labels, hints) in the reader's
language.

The games write their texts in English, seats as ``{s0}``... (golden transcripts pin them, and
the rules stay free of any catalogue). Each phrase is one such English sentence as a pattern,
with its catalogue template: the parts the pattern captures (seats, cards, numbers, the games'
own words) go into the translated sentence as they are, a suit's name in the reader's words. A
sentence whose words hang on a count (``1 ball``, ``2 balls``) takes the reader's plural form.
A text no phrase matches stays English: every text each game writes is matched (a test plays
them at random and finds none left over).

The phrases live in one module per game family (:mod:`.common` for what they all write alike,
:mod:`.session` for the session layer's lines that carry a part); this package is the lookup.
The games' own words stay the games' own in every language (Tarneeb's bids, Norwegian Whist's
grand and nullo, Tuppi's rami and nolo, Thunee's Jodhi, Khanaak, Thunee, Royals and Murial):
only the sentence around them is translated, and ``/rules`` glosses them.

A few texts mean one thing in one game and another in the next (``Double`` is Tarneeb's
doubling of a bid, but Thunee's own declaration on the last trick): the reader's game is given
with the text, and that game's own phrases (:data:`IN_GAME`, catalogue texts with the game as
their ``pgettext`` context) are tried before everyone's.

Lookups are cached per (language, text, game): a table redraw asks for the same few texts each
time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

from bot import i18n
from cogs.engine_words import bidcards, common, hints, session, tarneeb, thunee, tunge
from cogs.engine_words.parts import SUIT_WORDS, Convert, Phrase, Template, suit_word

__all__ = ["IN_GAME", "SUIT_WORDS", "matched", "said", "suit_word"]

Compiled = tuple[tuple[re.Pattern[str], Template, Mapping[str, Convert]], ...]


def _compiled(phrases: Iterable[Phrase]) -> Compiled:
    return tuple((re.compile(pattern), template, convert) for pattern, template, convert in phrases)


# The phrases one game says its own way, tried first for that game's texts (by game name).
IN_GAME: Mapping[str, tuple[Phrase, ...]] = {"thunee": thunee.IN_GAME}
_EVERYONES: tuple[Phrase, ...] = (
    *common.PHRASES,
    *tarneeb.PHRASES,
    *bidcards.PHRASES,
    *thunee.PHRASES,
    *tunge.PHRASES,
    *hints.PHRASES,
    *session.PHRASES,
    *thunee.HINT_PHRASES,
    *tunge.HINT_PHRASES,
)


@cache
def _phrases(game: str | None = None) -> Compiled:
    """``game``'s own phrases (none for most games), or everyone's (``None``), compiled on first
    use: a few hundred patterns that a start, and a bot read in English alone, never need."""
    return _compiled(_EVERYONES if game is None else IN_GAME.get(game, ()))


# The games' own words written alone (move labels): the same in every language.
_OWN = re.compile(thunee.OWN_LABELS)


def _team(lang: str, english: str | None) -> str:
    """A captured part as it is, but ``Team A`` in the reader's words."""
    if english in ("Team A", "Team B"):
        return i18n._(lang, "Team {team}", team=english[-1])
    return english or ""


@lru_cache(maxsize=8192)
def said(lang: str, text: str, game: str | None = None) -> str:
    """An engine's English ``text`` in ``lang`` (unchanged in English or where no phrase
    matches), as ``game`` (a game's name) says it; seat placeholders are kept for the names."""
    if lang == i18n.ENGLISH or not text or _OWN.fullmatch(text):
        return text
    worded = _phrased(lang, text, _phrases(game)) if game else None
    if worded is not None:
        return worded
    own = i18n.translator_for(lang).gettext(text)  # the session layer's lines are catalogue texts
    if own != text:
        return own
    return _phrased(lang, text, _phrases()) or text


def _phrased(lang: str, text: str, phrases: Compiled) -> str | None:
    """``text`` in ``lang`` by the first of ``phrases`` that matches it, if one does."""
    for pattern, template, convert in phrases:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        values = {
            name: convert[name](lang, value or "") if name in convert else _team(lang, value)
            for name, value in match.groupdict().items()
        }
        if callable(template):
            return template(lang, values)
        return i18n._(lang, template, **values)
    return None


def matched(text: str) -> bool:
    """Whether a phrase knows this English text (the tests look for texts left over)."""
    return bool(_OWN.fullmatch(text)) or any(
        pattern.fullmatch(text) for pattern, _, _ in _phrases()
    )
