"""A minimal discord.py bot used to test the fake's rules independently of the real cogs."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord


class MiniBot(commands.Bot):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
        )
        self.fake = fake
        self.behaviour: dict[str, Any] = {}

    async def setup_hook(self) -> None:
        build_commands(self)
        guild = discord.Object(self.fake.default_guild.id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


def build_commands(bot: MiniBot) -> None:
    @bot.tree.command(name="hello", description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Again", custom_id="hello:again"))
        await interaction.response.send_message("hello!", view=view)

    @bot.tree.command(name="slow", description="Answer after a delay")
    async def slow(interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message("late")

    @bot.tree.command(name="twice", description="Answer twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one", ephemeral=True)
        try:
            await interaction.client.http.request(  # a raw second initial response
                discord.http.Route(
                    "POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token
                ),
                json={"type": 4, "data": {"content": "two"}},
            )
        except discord.HTTPException as exc:
            bot.behaviour["twice"] = exc

    @bot.tree.command(name="wide", description="Six buttons in a row")
    async def wide(interaction: discord.Interaction) -> None:
        rows = [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": str(i), "custom_id": f"w{i}"} for i in range(6)
                ],
            }
        ]
        try:
            await interaction.client.http.request(
                discord.http.Route(
                    "POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token
                ),
                json={"type": 4, "data": {"content": "wide", "components": rows}},
            )
        except discord.HTTPException as exc:
            bot.behaviour["wide"] = exc
            await interaction.response.send_message("fallback", ephemeral=True)

    @bot.tree.command(name="longid", description="A custom_id of 101 characters")
    async def longid(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="x", custom_id="x" * 101))
        try:
            await interaction.response.send_message("long", view=view)
        except discord.HTTPException as exc:
            bot.behaviour["longid"] = exc

    @bot.tree.command(name="admin", description="Admins only")
    @app_commands.default_permissions(manage_guild=True)
    async def admin(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("admin ok", ephemeral=True)

    game = app_commands.Group(name="table", description="Tables")

    @game.command(name="new", description="Open a table")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="Thunee", value="thunee"),
            app_commands.Choice(name="Tarneeb", value="tarneeb"),
        ]
    )
    async def new(
        interaction: discord.Interaction, game: app_commands.Choice[str], seats: int = 4
    ) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(f"table for {game.value} with {seats} seats")

    @game.command(name="find", description="Find a game")
    async def find(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"found {name}", ephemeral=True)

    @find.autocomplete("name")
    async def find_auto(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=g, value=g)
            for g in ("thunee", "tarneeb", "tuppi")
            if g.startswith(current)
        ]

    @game.command(name="rename", description="Rename via a modal")
    async def rename(interaction: discord.Interaction) -> None:
        modal = discord.ui.Modal(title="Rename", custom_id=f"rename:{interaction.user.id}")
        field = discord.ui.TextInput(label="Name", custom_id="name")
        modal.add_item(field)

        async def on_submit(inner: discord.Interaction) -> None:
            await inner.response.send_message(f"renamed to {field.value}", ephemeral=True)

        modal.on_submit = on_submit  # type: ignore[method-assign]
        await interaction.response.send_modal(modal)

    bot.tree.add_command(game)

    @bot.listen("on_interaction")
    async def on_interaction(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            cid = (interaction.data or {}).get("custom_id")
            if cid == "hello:again":
                await interaction.response.edit_message(content="hello again!")


async def start_minibot(fake: FakeDiscord) -> MiniBot:
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    bot = MiniBot(fake)
    task = asyncio.create_task(bot.start(fake.token))
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        if task in done:
            task.result()
        raise TimeoutError("minibot not ready")
    bot._task = task  # type: ignore[attr-defined]
    return bot
