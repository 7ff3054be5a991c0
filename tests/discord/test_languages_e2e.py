"""End to end: people read the bot in their language (their own setting, the server's, their
Discord client's) and the slash commands reach Discord localized."""

from __future__ import annotations

from typing import Any

import tests.games.tiny_game  # noqa: F401  (registers the reference game)
from bot.bidi import LRI, PDI
from tests.discord.table_driver import (
    fill_with_computers,
    move_controls,
    ok,
    open_table,
    show_hand,
    start,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser

OUT_OF_DATE = {
    "en": "That button is out of date; here is your hand as it is now.",
    "fi": "Tuo painike on vanhentunut; tässä kätesi sellaisena kuin se nyt on.",
    "no": "Den knappen er utdatert; her er hånden din slik den er nå.",
    "ar": "هذا الزر قديم؛ هذه أوراقك كما هي الآن.",
}


async def refusal_of_an_old_card(fake: FakeDiscord, bot: Any, user: FakeUser) -> str:
    """``user`` plays the reference game against a computer, opens their hand twice, plays a
    card from the newer copy, then clicks a card on the older one: the refusal's text (shown
    with the hand as it is now). Nothing more is played."""
    table_id = await open_table(fake, user, "tiny")
    await fill_with_computers(fake, user, table_id)
    await start(fake, user, table_id)
    table = bot.sessions.tables[table_id]
    seat = table.seat_of(user.id)
    await fake.wait_for(lambda: table.game.to_act() == (seat,), 10)
    older = await show_hand(user, table_id)
    newer = await show_hand(user, table_id)
    buttons, _ = move_controls(newer)
    ok(await user.click(newer, custom_id=buttons[0]["custom_id"]))
    played = [m for m in await bot.store.moves(table_id) if m.user_id == user.id]
    refused = ok(await user.click(older, custom_id=buttons[-1]["custom_id"]))
    now = [m for m in await bot.store.moves(table_id) if m.user_id == user.id]
    assert refused.ephemeral and now == played, "the computer may move on; the user did not"
    return refused.text


async def test_a_refusal_reaches_each_reader_in_their_language(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    readers = {
        "en": fake_discord.user("erin", locale="en-US"),
        "fi": fake_discord.user("aino", locale="fi"),
        "no": fake_discord.user("ola", locale="no"),
        "ar": fake_discord.user("rami", locale="en-US"),  # Discord has no Arabic client
    }
    chosen = ok(await readers["ar"].slash("settings me", language="ar"))
    assert chosen.ephemeral and "لغتك: **العربية**" in chosen.text
    for lang, user in readers.items():
        text = await refusal_of_an_old_card(fake_discord, running_bot, user)
        assert OUT_OF_DATE[lang] in text, (lang, text)
        others = {other for code, other in OUT_OF_DATE.items() if code != lang}
        assert not any(other in text for other in others)


async def test_a_lobby_refusal_reaches_a_finnish_reader_in_finnish(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    aino = fake_discord.user("aino", locale="fi")
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Join"))
    await wait_for_table(alice, table_id, "Bob")
    full = ok(await aino.click(table_message(aino, table_id), "Join"))
    assert full.ephemeral and full.text == "Pöytä on täynnä."
    assert running_bot.sessions.tables[table_id].seat_of(aino.id) is None


async def test_the_servers_language_answers_members_who_chose_none(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    member = fake_discord.user("member", locale="en-US")
    finn = fake_discord.user("finn", locale="fi")
    ok(await finn.slash("settings me", language="fi"))
    done = ok(await admin.slash("settings server", language="no"))
    assert done.ephemeral and "Språk: **Norsk**" in done.text
    unknown = ok(await member.slash("rules", game="nosuch"))
    assert unknown.ephemeral and unknown.text.startswith("Det finnes ikke noe spill")
    own = ok(await finn.slash("rules", game="nosuch"))
    assert own.text.startswith("Peliä `nosuch` ei ole."), "one's own language first"
    settings = await running_bot.store.guild_settings(fake_discord.default_guild.id, 60)
    assert settings.language == "no"


async def test_rules_of_tuppi_in_finnish_keep_the_games_words(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    aino = fake_discord.user("aino", locale="fi")
    rules = ok(await aino.slash("rules", game="tuppi"))
    text = rules.text
    assert rules.ephemeral and "Neljä pelaajaa, kaksi joukkuetta, ei valttia." in text
    assert "**nousussa**: ”nousussa”: se ainoa joukkue" in text
    assert "**sooli**: ramin paljastuttua" in text and "Sanasto" in text
    rami = fake_discord.user("rami")
    ok(await rami.slash("settings me", language="ar"))
    arabic = ok(await rami.slash("rules", game="tarneeb")).text
    assert "أربعة لاعبين" in arabic and f"**{LRI}tarneeb{PDI}**" in arabic
    assert f"{LRI}41{PDI}" in arabic, "numbers isolated in Arabic"


async def test_the_options_are_explained_in_the_readers_language(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """``/table options`` and the option list of ``/settings defaults`` say what each option
    does in the reader's words (the games write it in English)."""
    aino = fake_discord.user("aino", locale="fi")
    pages = ok(await aino.slash("table options", game="tarneeb"))
    shown = str(pages.message.embeds[0])
    assert "Yhden kierroksen tarjouksissa jakaja saa tarjota saman kuin korkein" in shown
    assert "the dealer may equal the highest bid" not in shown
    admin = fake_discord.user("admin", admin=True, locale="no")
    suggested = await admin.autocomplete("settings defaults", "option", "tar", game="tarneeb")
    names = [str(choice["name"]) for choice in suggested.choices]
    assert "target: Poeng et lag trenger for å vinne spillet." in names, names


async def test_settings_me_language_is_kept_and_a_bad_value_is_refused(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    ola = fake_discord.user("ola", locale="en-US")
    shown = ok(await ola.slash("settings me"))
    assert "Your language: **automatic" in shown.text
    chosen = ok(await ola.slash("settings me", language="no"))
    assert chosen.ephemeral and "Språket ditt: **Norsk**" in chosen.text
    assert await running_bot.store.user_language(ola.id) == "no"
    bad = ok(await ola.crafted_slash("settings me", {"language": "klingon"}, turn_ping="on"))
    assert bad.ephemeral and bad.text.startswith("Språket klingon finnes ikke her."), bad.text
    assert await running_bot.store.user_language(ola.id) == "no"
    guild = fake_discord.default_guild.id
    assert not await running_bot.store.turn_ping_wanted(guild, ola.id), "nothing else changed"
    back = ok(await ola.slash("settings me", language="auto"))
    assert "Your language: **automatic" in back.text
    assert await running_bot.store.user_language(ola.id) is None


async def test_commands_reach_discord_in_finnish_and_norwegian(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    synced = fake_discord.guild_commands[fake_discord.default_guild.id]
    rules = synced["rules"].data
    assert rules["name_localizations"] == {"fi": "säännöt", "no": "regler"}
    assert rules["description_localizations"]["fi"] == "Miten peliä pelataan täällä."
    settings = synced["settings"].data
    me = next(o for o in settings["options"] if o["name"] == "me")
    language = next(o for o in me["options"] if o["name"] == "language")
    assert language["name_localizations"] == {"fi": "kieli", "no": "språk"}
    auto = next(c for c in language["choices"] if c["value"] == "auto")
    assert auto["name_localizations"] == {"fi": "automaattinen", "no": "automatisk"}


async def test_a_turn_ping_speaks_the_servers_language(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    """A channel post is read by everyone there: the server's language, not the pinged
    player's own. The table's buttons too: the players click them in Finnish."""
    from tests.discord.test_settings_e2e import bot_messages, until

    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", language="fi"))
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    ok(await alice.slash("settings me", turn_ping="on", language="no"))
    table_id = await open_table(fake_discord, alice, "tiny")
    ok(await bob.click(table_message(bob, table_id), "Liity"))
    await wait_for_table(alice, table_id, "Bob")
    ok(await alice.click(table_message(alice, table_id), "Aloita"))
    await wait_for_table(alice, table_id, "Näytä käteni", button=True)
    table = running_bot.sessions.find(table_id)
    if table.seat_of(alice.id) not in table.game.to_act():
        hand = await show_hand(bob, table_id, "Näytä käteni")
        buttons, _ = move_controls(hand)
        ok(await bob.click(hand, custom_id=buttons[0]["custom_id"]))
    ping = await until(
        lambda: [m for m in bot_messages(fake_discord, f"<@{alice.id}>") if not m.deleted],
        what="Alice's turn ping",
    )
    assert f"sinun vuorosi pöydässä #{table_id} (" in ping[0].content
