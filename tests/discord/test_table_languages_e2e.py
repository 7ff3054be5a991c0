"""End to end: one Tarneeb table read in four languages, and a Norwegian Whist game in Norwegian
from the lobby to the result.

Each person's hand, its prompt, its buttons and the refusals they get come in their own language
(their setting, else their Discord client's); the table message and the channel's posts come in
the server's. The simulated people click only what their screen shows, in their language.
"""

from __future__ import annotations

import random
from typing import Any

from tests.discord.table_driver import (
    act,
    hand_text,
    ok,
    open_table,
    show_hand,
    table_message,
    wait_for_table,
)
from tests.fakediscord import FakeDiscord, FakeUser, Message

# What each reader's hand says: its title, "your move", Tarneeb's auction prompt and its Pass.
HAND = {
    "en": ("Your hand · table #", "**Your move.**", "to bid or pass.", "Pass"),
    "fi": ("Kätesi · pöytä #", "**Sinun siirtosi.**", ": tarjoa tai passaa.", "Passi"),
    "no": ("Hånden din · bord #", "**Ditt trekk.**", "skal melde eller passe.", "Pass"),
    "ar": ("أوراقك · الطاولة #", "**دورك.**", "اطلب أو قل باس.", "باس"),
}
BID = {"en": "Bid 7", "fi": "Tarjoa 7", "no": "Meld 7", "ar": "اطلب 7"}
OUT_OF_DATE = {
    "en": "That button is out of date; here is your hand as it is now.",
    "fi": "Tuo painike on vanhentunut; tässä kätesi sellaisena kuin se nyt on.",
    "no": "Den knappen er utdatert; her er hånden din slik den er nå.",
    "ar": "هذا الزر قديم؛ هذه أوراقك كما هي الآن.",
}
OFFERED = {
    "en": "Choose one of the moves offered.",
    "fi": "Valitse jokin tarjotuista siirroista.",
    "no": "Velg et av trekkene som tilbys.",
    "ar": "اختر إحدى الحركات المعروضة.",
}


def hand_now(fake: FakeDiscord, hand: Message) -> Message:
    return fake.messages[hand.id]


def move_labels(hand: Message) -> list[str]:
    """The labels of a hand's buttons and of its menus' choices."""
    labels = [str(b.get("label", "")) for b in hand.buttons()]
    for component in hand.iter_components():
        labels += [str(o.get("label", "")) for o in component.get("options", [])]
        if component.get("placeholder"):
            labels.append(str(component["placeholder"]))
    return labels


async def four_readers(fake: FakeDiscord) -> dict[str, FakeUser]:
    """Arabic by setting (Discord has no Arabic client), Finnish and Norwegian by the client,
    and an American English client."""
    readers = {
        "en": fake.user("erin", locale="en-US"),
        "ar": fake.user("rami", locale="en-US"),
        "fi": fake.user("aino", locale="fi"),
        "no": fake.user("ola", locale="no"),
    }
    ok(await readers["ar"].slash("settings me", language="ar"))
    return readers


async def test_a_tarneeb_table_of_four_readers(fake_discord: FakeDiscord, running_bot: Any) -> None:
    readers = await four_readers(fake_discord)
    erin = readers["en"]
    table_id = await open_table(fake_discord, erin, "tarneeb")
    for lang in ("ar", "fi", "no"):  # the server has no language: its tables are in English
        lobby = table_message(readers[lang], table_id)
        assert "Join" in [b["label"] for b in lobby.buttons()]
        ok(await readers[lang].click(lobby, "Join"))
    await wait_for_table(erin, table_id, "Ola")
    ok(await erin.click(table_message(erin, table_id), "Start"))
    board = await wait_for_table(erin, table_id, "Show my hand", button=True)
    assert "to bid or pass." in board.text() and "seats: " in board.text()  # the picture's

    table = running_bot.sessions.tables[table_id]
    hands = {lang: await show_hand(user, table_id) for lang, user in readers.items()}
    for lang, hand in hands.items():
        title, _, _, _ = HAND[lang]
        assert title + str(table_id) in str(hand.embeds[0]["title"]), (lang, hand.embeds[0])

    # Around the auction: each reader, on their turn, sees the prompt and the bids in their own
    # words, and a refusal in them too.
    seen: set[str] = set()
    rng = random.Random(3)
    for _ in range(40):
        if len(seen) == 4 or table.game.phase != "auction":
            break
        seat = table.game.to_act()[0]
        lang = next(code for code, user in readers.items() if table.seat_of(user.id) == seat)
        user = readers[lang]
        await fake_discord.wait_for(
            lambda h=hands[lang], w=HAND[lang][1]: w in hand_text(hand_now(fake_discord, h)), 5
        )
        hand = hand_now(fake_discord, hands[lang])
        text = hand_text(hand)
        _, your_move, prompt, pass_label = HAND[lang]
        assert your_move in text and prompt in text, (lang, text)
        labels = move_labels(hand)
        assert pass_label in labels and any(label.startswith(BID[lang][:-2]) for label in labels)
        if lang in seen:
            assert await act(user, hand, rng, ("pass",))
        else:
            await move_and_refusals(fake_discord, running_bot, table_id, user, lang, hands, rng)
            seen.add(lang)
    assert seen == set(HAND), seen

    # The table message stays in the server's language; set it to Norwegian and it follows,
    # while Rami's own setting keeps his hand Arabic.
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", language="no"))
    board = await wait_for_table(erin, table_id, "Vis hånden min", button=True)
    assert "plasser: " in board.text() and "Trekk " in board.text(), board.text()
    rami = readers["ar"]
    hand = await show_hand(rami, table_id, "Vis hånden min")
    arabic = hand_text(hand)
    assert HAND["ar"][0] in str(hand.embeds[0]["title"])
    assert HAND["ar"][1] in arabic or "بانتظار الآخرين" in arabic, arabic
    erin_hand = await show_hand(erin, table_id, "Vis hånden min")
    assert "Hånden din · bord #" in str(erin_hand.embeds[0]["title"]), "the server's, over en-US"


async def move_and_refusals(
    fake: FakeDiscord,
    bot: Any,
    table_id: int,
    user: FakeUser,
    lang: str,
    hands: dict[str, Message],
    rng: random.Random,
) -> None:
    """On the reader's turn, with a second copy of their hand open: a choice the menu does not
    offer (a crafted client) is refused, the move is made from the first copy, and a move on the
    second copy, now out of date, is refused; each refusal in their language, nothing else
    stored."""
    moves = len(await bot.store.moves(table_id))
    spare = await show_hand(user, table_id)
    menu = next(c for c in spare.iter_components() if str(c.get("custom_id")).startswith("ct:s:"))
    crafted = ok(await user.crafted_component(spare, menu["custom_id"], ["bid;value=99"]))
    assert crafted.ephemeral and crafted.text == OFFERED[lang], (lang, crafted.text)
    assert len(await bot.store.moves(table_id)) == moves
    assert await act(user, hand_now(fake, hands[lang]), rng, ("pass",))
    assert len(await bot.store.moves(table_id)) == moves + 1
    late = await act(user, hand_now(fake, spare), rng, ("pass",))
    assert late is not None and OUT_OF_DATE[lang] in late.text, (lang, late.text)
    assert len(await bot.store.moves(table_id)) == moves + 1, "the late click played nothing"
    hands[lang] = spare  # the newest copy: the one the bot keeps up to date


def norwegian_english_left(text: str) -> list[str]:
    """English words of the table's own that a Norwegian table message must not show."""
    words = ("Seats", "Score", "Trick", "Move ", "Show my hand", "Game over", "Team ", "wins")
    return [word for word in words if word in text]


async def test_a_norwegian_whist_game_in_norwegian_from_lobby_to_result(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", language="no"))
    kari = fake_discord.user("kari", locale="en-US")  # the server's language, over her client's
    table_id = await open_table(fake_discord, kari, "norwegian_whist", "target=2")
    lobby = table_message(kari, table_id)
    assert "Venter på spillere." in lobby.text() and "Plasser" in lobby.text(), lobby.text()
    labels = [b["label"] for b in lobby.buttons()]
    assert {"Bli med", "Start", "Avlys", "Fyll med datamaskiner"} <= set(labels), labels
    ok(await kari.click(lobby, "Fyll med datamaskiner"))
    await wait_for_table(kari, table_id, "🤖", timeout=5)
    ok(await kari.click(table_message(kari, table_id), "Start"))
    board = await wait_for_table(kari, table_id, "Vis hånden min", button=True)
    assert not norwegian_english_left(board.text()), board.text()

    table = running_bot.sessions.tables[table_id]
    seat = table.seat_of(kari.id)
    rng = random.Random(table_id)
    prompts: set[str] = set()
    for _ in range(400):
        if running_bot.sessions.tables.get(table_id) is not table:
            break
        if seat in table.waiting_for():
            hand = await show_hand(kari, table_id, "Vis hånden min")
            text = hand_text(hand)
            assert "Hånden din · bord #" in str(hand.embeds[0]["title"])
            assert "**Ditt trekk.**" in text, text
            prompts |= {p for p in ("Velg bud: et ", "skal spille.") if p in text}
            labels = move_labels(hand)
            assert all(not label.startswith("Play ") for label in labels), labels
            assert await act(kari, hand, rng)
        else:
            await fake_discord.wait_for(
                lambda: (
                    running_bot.sessions.tables.get(table_id) is not table
                    or seat in table.waiting_for()
                ),
                10,
            )
    assert prompts == {"Velg bud: et ", "skal spille."}, prompts

    final = await wait_for_table(kari, table_id, "Omkamp", button=True, timeout=10)
    alt = [
        str(a.get("description", ""))
        for version in [*final.history, final.payload()]
        for a in version.get("attachments") or []
        if a.get("filename") == "table.png"
    ]
    assert alt and all(f"bord #{table_id}: 4 plasser" in text for text in alt), alt
    assert any("poeng" in text for text in alt), "the picture's words are Norwegian too"
    assert "Spillet er over: 🏆 Lag " in final.text() and " vinner spillet." in final.text()
    assert not norwegian_english_left(final.text()), final.text()

    def posts() -> list[str]:
        return [
            m.content
            for m in sorted(fake_discord.messages.values(), key=lambda m: m.id)
            if not m.is_ephemeral and m.content.startswith(f"**Bord #{table_id}** · ")
        ]

    await fake_discord.wait_for(lambda: any("vinner spillet." in p for p in posts()), 10)
    hands = posts()
    assert all("stikk A " in post and "Totalt: " in post for post in hands[:-1]), hands
    assert "Lag A vinner spillet." in hands[-1] or "Lag B vinner spillet." in hands[-1], hands
