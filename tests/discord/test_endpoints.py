"""discord.py 2.7.1 internals the bot relies on to reach the fake: an upgrade that moves them
must fail here, loudly, rather than let tests talk to the real Discord."""

from __future__ import annotations

import discord
import yarl

from tests.conftest import restored_endpoints


def test_route_base_exists_and_builds_urls() -> None:
    assert isinstance(discord.http.Route.BASE, str)
    with restored_endpoints():
        discord.http.Route.BASE = "http://127.0.0.1:9/api/v10"
        route = discord.http.Route("GET", "/users/@me")
        assert route.url == "http://127.0.0.1:9/api/v10/users/@me"


def test_default_gateway_exists_and_is_a_url() -> None:
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert isinstance(gateway, yarl.URL)
    assert gateway.with_query(v=10, encoding="json").query["encoding"] == "json"


def test_apply_endpoint_overrides_sets_both() -> None:
    from bot.app import apply_endpoint_overrides
    from bot.config import Settings

    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "MTAw.fake.token",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
        }
    )
    with restored_endpoints():
        apply_endpoint_overrides(settings)
        assert discord.http.Route("GET", "/gateway/bot").url.startswith(
            "http://127.0.0.1:9/api/v10"
        )
        gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        # from_client calls gateway.with_query(...): it must stay a yarl.URL.
        assert isinstance(gateway, yarl.URL), type(gateway)
        assert str(gateway) == "ws://127.0.0.1:9/gateway"
