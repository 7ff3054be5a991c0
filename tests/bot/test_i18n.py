"""The catalogues: complete for every shipped language, current with the code, CLDR plural
rules (Arabic's six forms), numbers in Western digits, and command names Discord accepts."""

from __future__ import annotations

import asyncio
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot import i18n

SHIPPED = ("ar", "fi", "no")
COMMAND_LANGUAGES = ("fi", "no")  # Discord's client languages among ours
KEYWORDS = {"_": (2,), "ngettext": (2, 3), "N_": None, "pgettext": ((2, "c"), 3)}
NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule for command and option names
NAME_KINDS = ("command_name", "group_name", "parameter_name")


def catalog(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=lang)


def template(domain: str) -> Catalog:
    return catalog(i18n.LOCALES / f"{domain}.pot")


def translations(lang: str, domain: str) -> Catalog:
    return catalog(i18n.LOCALES / lang / "LC_MESSAGES" / f"{domain}.po", lang)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize(
    ("lang", "domain"),
    [*((lang, i18n.DOMAIN) for lang in SHIPPED)]
    + [(lang, i18n.COMMANDS_DOMAIN) for lang in COMMAND_LANGUAGES],
)
def test_every_message_of_the_template_is_translated(lang: str, domain: str) -> None:
    """A shipped language lacks no message: each entry of the template has its translation,
    none left fuzzy, every plural form written, the same placeholders as the English."""
    ours = translations(lang, domain)
    gaps = []
    for message in template(domain):
        if not message.id:
            continue
        found = ours.get(message.id, message.context)
        strings = () if found is None else found.string
        strings = (strings,) if isinstance(strings, str) else tuple(strings)
        if found is None or "fuzzy" in found.flags or not all(strings):
            gaps.append(message.id)
            continue
        if message.pluralizable:
            assert len(strings) == ours.num_plurals, message.id
        english = message.id if isinstance(message.id, str) else message.id[-1]
        for text in strings:
            assert fields(text) - {"n"} <= fields(english) | {"n"}, (lang, english, text)
            if not message.pluralizable:
                assert fields(text) == fields(english), (lang, english, text)
    assert gaps == [], f"{lang} lacks these in {domain}.po: run `make messages` and translate"


def test_the_template_holds_every_text_marked_in_the_code() -> None:
    """A text marked with _, ngettext, N_ or pgettext in bot/ or cogs/ is in the template (a
    new text without `make messages` fails here)."""
    marked = set()
    for folder in ("bot", "cogs"):
        found = extract_from_dir(folder, [("**.py", "python")], keywords=KEYWORDS, comment_tags=())
        for _, _, message, _, context in found:
            marked.add((context, message if isinstance(message, str) else message[0]))
    held = {
        (m.context, m.id if isinstance(m.id, str) else m.id[0])
        for m in template(i18n.DOMAIN)
        if m.id
    }
    assert marked - held == set()


def test_the_commands_template_holds_every_command_string() -> None:
    from cogs.messages import command_strings

    held = {(m.context, m.id) for m in template(i18n.COMMANDS_DOMAIN) if m.id}
    assert set(asyncio.run(command_strings())) == held


@pytest.mark.parametrize("lang", COMMAND_LANGUAGES)
def test_translated_command_names_obey_discords_rules(lang: str) -> None:
    for message in translations(lang, i18n.COMMANDS_DOMAIN):
        if not message.id:
            continue
        text = str(message.string)
        if message.context in NAME_KINDS:
            assert NAME.match(text) and text == text.lower(), (message.id, text)
        else:
            assert 1 <= len(text) <= 100, (message.id, text)


ARABIC_SECONDS = {
    0: "مؤقت الدور: **0 ثانية**",  # zero
    1: "مؤقت الدور: **ثانية واحدة**",  # one
    2: "مؤقت الدور: **ثانيتان**",  # two
    3: "مؤقت الدور: **3 ثوانٍ**",  # few: 3-10
    11: "مؤقت الدور: **11 ثانيةً**",  # many: 11-99
    100: "مؤقت الدور: **100 ثانية**",  # other
}


def test_arabic_has_six_plural_forms() -> None:
    got = {
        n: i18n.ngettext("ar", "Turn timer: **{n} second**", "Turn timer: **{n} seconds**", n)
        for n in ARABIC_SECONDS
    }
    assert got == ARABIC_SECONDS
    assert len(set(got.values())) == 6


@pytest.mark.parametrize(
    ("lang", "one", "many"),
    [
        ("en", "Turn timer: **1 second**", "Turn timer: **2 seconds**"),
        ("fi", "Vuoron aika: **1 sekunti**", "Vuoron aika: **2 sekuntia**"),
        ("no", "Tid per tur: **1 sekund**", "Tid per tur: **2 sekunder**"),
    ],
)
def test_two_plural_forms_elsewhere(lang: str, one: str, many: str) -> None:
    def seconds(n: int) -> str:
        return i18n.ngettext(lang, "Turn timer: **{n} second**", "Turn timer: **{n} seconds**", n)

    assert (seconds(1), seconds(2)) == (one, many)


def test_numbers_follow_the_language_in_western_digits() -> None:
    assert i18n.number("en", 1234567) == "1,234,567"
    assert i18n.number("fi", 1234567) == "1\xa0234\xa0567"
    assert i18n.number("no", 1234.5) == "1\xa0234,5"
    arabic = i18n.number("ar", 1234567)
    assert arabic == "1,234,567" and not re.search("[\u0660-\u0669\u06f0-\u06f9]", arabic)


def test_each_language_is_its_own_no_global_locale() -> None:
    """Texts in four languages asked for at once, interleaved: each comes out in its own."""

    async def ask(lang: str) -> list[str]:
        out = []
        for _ in range(20):
            out.append(i18n._(lang, "It is not your turn."))
            await asyncio.sleep(0)
        return out

    async def everyone() -> list[list[str]]:
        return await asyncio.gather(*(ask(lang) for lang in ("en", "ar", "fi", "no")))

    answers = asyncio.run(everyone())
    assert [set(a) for a in answers] == [
        {"It is not your turn."},
        {"ليس دورك."},
        {"Ei ole sinun vuorosi."},
        {"Det er ikke din tur."},
    ]


@pytest.mark.parametrize(
    ("own", "server", "client", "chosen"),
    [
        (None, None, None, "en"),
        (None, None, "en-US", "en"),
        (None, None, "fi", "fi"),
        (None, None, "no", "no"),
        (None, None, "pt-BR", "en"),
        (None, "ar", "fi", "ar"),
        ("fi", "ar", "no", "fi"),
        ("xx", None, "no", "no"),
    ],
)
def test_choose(own: str | None, server: str | None, client: str | None, chosen: str) -> None:
    assert i18n.choose(own, server, client) == chosen
