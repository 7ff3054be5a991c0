"""Texts a channel reads are in the server's language: the turn ping."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.bidi import LRI, PDI
from cogs.turn_ping import ping_text


def test_a_turn_ping_is_posted_in_the_servers_language_its_link_last() -> None:
    table: Any = SimpleNamespace(
        id=7,
        row=SimpleNamespace(guild_id=1, channel_id=2, message_id=3),
        game_class=SimpleNamespace(title="Tuppi"),
    )
    link = "https://discord.com/channels/1/2/3"
    assert ping_text(table, 42) == f"<@42>, your turn at Table #7 (Tuppi): {link}"
    assert ping_text(table, 42, "fi") == f"<@42>, sinun vuorosi pöydässä #7 (Tuppi): {link}"
    arabic = ping_text(table, 42, "ar")
    assert arabic.startswith(f"{LRI}<@42>{PDI}، دورك") and arabic.endswith(f"): {link}")
