"""End to end: a Thunee game in Finnish from the lobby to the result, and a Tunge table in
Norwegian: the games' own running texts (prompts, table lines, move labels, results) come in the
server's language, their own words (Thunee, Jodhi...) as they are.

The simulated player clicks only what her screen shows, in her language.
"""

from __future__ import annotations

import random
import re
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
from tests.fakediscord import FakeDiscord, Message

# Bits of Thunee's and Tunge's English sentences, prompts and labels: none may be left on a
# board or a hand read in another language.
ENGLISH = re.compile(
    r"\b(to call|to play|to set trump|calls|deals|wins trick|Hand over|scores|balls?|Call \d|"
    r"trump card|face down|picks up|pick up|Second half|Jodhi window|Redeal|Play on|Last card|"
    r"sequence|draws?|stock|pile|matches|Points this deal|wins the game|Waiting for|counts|"
    r"to beat)\b"
)


# Thunee's prompts in Finnish: to call, to set trump, to play.
FINNISH_PROMPTS = (": huuda tai passaa.", " valitsee valtin.", "Vuorossa: ")


def english_left(text: str) -> list[str]:
    return sorted({match.group(0) for match in ENGLISH.finditer(text)})


def board_text(message: Message) -> str:
    """The table message as read: its embeds' words, the picture's alternative text aside."""
    parts = [message.content]
    for embed in message.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
        parts.append(str((embed.get("footer") or {}).get("text", "")))
    parts += [str(b.get("label", "")) for b in message.buttons()]
    return "\n".join(parts)


async def test_a_thunee_game_in_finnish_from_lobby_to_result(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", language="fi"))
    aino = fake_discord.user("aino", locale="en-US")  # the server's language, over her client's
    table_id = await open_table(fake_discord, aino, "thunee", "players=2 balls_to_win=2")
    ok(await aino.click(table_message(aino, table_id), "Täytä tietokoneilla"))
    await wait_for_table(aino, table_id, "🤖", timeout=5)
    ok(await aino.click(table_message(aino, table_id), "Aloita"))
    await wait_for_table(aino, table_id, "Näytä käteni", button=True)

    table = running_bot.sessions.tables[table_id]
    seat = table.seat_of(aino.id)
    rng = random.Random(table_id)
    prompts: set[str] = set()
    boards: list[str] = []
    for _ in range(200):
        if running_bot.sessions.tables.get(table_id) is not table:
            break
        if seat in table.waiting_for():
            boards.append(board_text(table_message(aino, table_id)))
            hand = await show_hand(aino, table_id, "Näytä käteni")
            text = hand_text(hand)
            assert "**Sinun siirtosi.**" in text, text
            assert not english_left(text), (english_left(text), text)
            prompts |= {p for p in FINNISH_PROMPTS if p in text}
            assert await act(aino, hand, rng)
        else:
            await fake_discord.wait_for(
                lambda: (
                    running_bot.sessions.tables.get(table_id) is not table
                    or seat in table.waiting_for()
                ),
                10,
            )
    assert prompts, "the player was asked in Finnish"
    final = await wait_for_table(aino, table_id, "Uusintaottelu", button=True, timeout=10)
    boards.append(board_text(final))
    for board in boards:
        assert not english_left(board), (english_left(board), board)
    recent = board_text(final)
    assert "ballia" in recent or "ballin" in recent, recent
    alt = [
        str(a.get("description", ""))
        for version in [*final.history, final.payload()]
        for a in version.get("attachments") or []
        if a.get("filename") == "table.png"
    ]
    assert alt and all("pöytä #" in text for text in alt), alt
    assert not [english_left(text) for text in alt if english_left(text)], alt


async def test_a_tunge_table_in_norwegian_shows_its_prompt_and_moves_in_norwegian(
    fake_discord: FakeDiscord, running_bot: Any
) -> None:
    admin = fake_discord.user("admin", admin=True)
    ok(await admin.slash("settings server", language="no"))
    ola = fake_discord.user("ola", locale="en-US")
    table_id = await open_table(fake_discord, ola, "tunge", "players=2")
    ok(await ola.click(table_message(ola, table_id), "Fyll med datamaskiner"))
    await wait_for_table(ola, table_id, "🤖", timeout=5)
    ok(await ola.click(table_message(ola, table_id), "Start"))
    await wait_for_table(ola, table_id, "Vis hånden min", button=True)

    table = running_bot.sessions.tables[table_id]
    seat = table.seat_of(ola.id)
    rng = random.Random(table_id)
    for turn in range(6):
        await fake_discord.wait_for(
            lambda: seat in table.waiting_for() or table.game.status == "finished", 10
        )
        if table.game.status == "finished":  # a computer may go out in a few turns
            assert turn > 0, "the game ended before the player's first turn"
            break
        board = board_text(table_message(ola, table_id))
        assert "skal spille en sekvens eller trekke et kort" in board, board
        assert not english_left(board), (english_left(board), board)
        hand = await show_hand(ola, table_id, "Vis hånden min")
        text = hand_text(hand)
        assert "Trekk" in [b.get("label") for b in hand.buttons()], text
        assert not english_left(text), (english_left(text), text)
        assert await act(ola, hand, rng, () if turn % 2 else ("draw",))
