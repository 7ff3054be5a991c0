"""What each game option does, in the reader's language: ``/table options`` and the option
autocomplete of ``/settings defaults`` read the games' English through the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot import i18n
from cogs.messages import option_helps
from cogs.render import option_help, options_pages
from games.registry import GAMES

SHIPPED = ("ar", "fi", "no")


def catalogue(path: Path, lang: str | None = None) -> dict[str, bool]:
    """Each text of a catalogue: whether it has a finished translation."""
    with path.open("rb") as file:
        found = read_po(file, locale=lang)
    return {
        str(m.id): bool(m.string) and "fuzzy" not in m.flags
        for m in found
        if m.id and m.context is None
    }


def test_the_template_holds_every_option_of_every_game() -> None:
    """A new option's text is in the template once ``make messages`` has run."""
    held = catalogue(i18n.LOCALES / f"{i18n.DOMAIN}.pot")
    helps = {option.help for game in GAMES for option in game.OPTIONS}
    assert set(option_helps()) == helps
    assert sorted(helps - held.keys()) == []


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_option_of_every_game_is_explained_in_each_shipped_language(lang: str) -> None:
    """Fails as soon as a game gains an option that a shipped language does not explain."""
    done = catalogue(i18n.LOCALES / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", lang)
    lacking = sorted(
        f"{game.name}.{option.name}"
        for game in GAMES
        for option in game.OPTIONS
        if not done.get(option.help)
    )
    assert lacking == []


@pytest.mark.parametrize("lang", SHIPPED)
def test_the_options_pages_explain_each_option_in_the_readers_language(lang: str) -> None:
    for game in GAMES:
        shown = "\n".join(
            str(field.value) for page in options_pages(game, lang) for field in page.fields
        )
        for option in game.OPTIONS:
            assert option_help(option, lang) != option.help, (game.name, option.name)
            assert option_help(option, lang) in shown and option.help not in shown
