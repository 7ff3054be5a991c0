"""The languages people read the bot in: catalogues, plural rules, numbers and the choice of one.

Texts are looked up in gettext catalogues (``locales/<lang>/LC_MESSAGES/<domain>.po``), written
in English in the code. The ``.po`` files are the only ones kept: each is compiled in memory the
first time it is needed (a few milliseconds), so a fresh clone, a test and the bot always read
what the ``.po`` says and there is no compiled file to forget.

Every function here takes the language explicitly: many people read the bot at once, each in their
own language, so there is no global current locale to set.

Numbers are written with Western digits in every language, Arabic included: they are what
Levantine and Egyptian players write in chat, and what the cards themselves carry.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "cardtable"
COMMANDS_DOMAIN = "commands"  # slash command names and descriptions (Discord's languages only)

ENGLISH = "en"
# The languages a person or a server may choose, with their own names for them.
LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "ar": "العربية",
    "fi": "Suomi",
    "no": "Norsk",
}
RIGHT_TO_LEFT = frozenset({"ar"})

# Discord's client languages that are ours (Discord has no Arabic client language).
_DISCORD_LOCALES: Mapping[str, str] = {"fi": "fi", "no": "no", "nb": "no", "nn": "no"}


def N_(message: str) -> str:
    """Mark a text for the catalogue where it is written, to be translated where it is read."""
    return message


@cache
def translator_for(lang: str, domain: str = DOMAIN) -> NullTranslations:
    """The catalogue of one language (English and unknown languages: the texts as written)."""
    path = LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"
    if lang == ENGLISH or not path.is_file():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=domain)


def _(lang: str, message: str, /, **params: Any) -> str:
    """``message`` in ``lang``, its ``{name}`` placeholders filled from ``params``."""
    text = translator_for(lang).gettext(message)
    return text.format(**params) if params else text


def ngettext(lang: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of ``lang``'s plural rules for ``n`` (Arabic has six), ``{n}`` filled in."""
    text = translator_for(lang).ngettext(singular, plural, n)
    return text.format(n=number(lang, n), **params)


def pgettext(lang: str, context: str, message: str, domain: str = DOMAIN) -> str:
    """``message`` in ``lang`` where the same English word has another sense elsewhere."""
    return str(translator_for(lang, domain).pgettext(context, message))


@lru_cache(maxsize=4096, typed=True)
def number(lang: str, value: float) -> str:
    """A number as ``lang`` writes it (grouping and decimal signs), always in Western digits.

    Kept once written: Babel takes about 0.2 ms a number, and every table picture, table
    message and hand writes a few (cards left, scores), nearly always the same small ones."""
    return format_decimal(value, locale=Locale.parse(lang), numbering_system="latn")


def is_language(lang: str | None) -> bool:
    return lang in LANGUAGES


@cache  # Discord has 30-odd client languages; a command sync asks for each, string by string
def from_discord(locale: str | None) -> str | None:
    """Our language for a Discord client language (``fi``, ``no``, ``en-US``...), if we have it."""
    if not locale:
        return None
    base = str(locale).split("-")[0].lower()
    if base == ENGLISH:
        return ENGLISH
    return _DISCORD_LOCALES.get(base)


def choose(own: str | None, server: str | None, client: str | None) -> str:
    """The reader's language: their own setting, else the server's, else their Discord client's
    (where we have it), else English."""
    for lang in (own, server, from_discord(client)):
        if lang is not None and is_language(lang):
            return lang
    return ENGLISH
