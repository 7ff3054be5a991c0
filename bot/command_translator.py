"""Slash commands in Finnish and Norwegian: names, descriptions, options and choices.

discord.py asks an :class:`app_commands.Translator` for every string of every command when it
syncs them; the answers go to Discord as ``name_localizations`` and
``description_localizations``, and each person's client shows the commands in its own language.
The strings are looked up in the ``commands`` catalogue, with the kind of string (a command's
name, an option's description...) as the context, so a name and a description never share a
translation. Discord has no Arabic client, so the catalogue is Finnish and Norwegian only.
"""

from __future__ import annotations

from discord import Locale, app_commands

from bot import i18n


class CatalogueTranslator(app_commands.Translator):
    """The ``commands`` catalogue's translation, or None (Discord then shows the English)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = i18n.from_discord(locale.value)
        if lang is None or lang == i18n.ENGLISH:
            return None
        message = string.message
        text = i18n.pgettext(lang, context.location.name, message, domain=i18n.COMMANDS_DOMAIN)
        return None if text == message else text
