"""A hand's answers and edits, sent as discord.py sends them minus the work nobody reads.

``interaction.response.send_message`` asks Discord for the new message back, parses it and files
the view for dispatch (with a 15-minute timer for an ephemeral one);
``interaction.response.edit_message`` asks for the edited message back, parses it into a
``Message`` and files the view; ``edit_original_response`` parses the answer into an
``InteractionMessage`` and files the view too. A hand is shown or edited about twice a click, and
nothing reads the answers; every control on a hand is dispatched by its custom id (a dynamic
item, or a disabled button no one can press), so no view needs filing, and its components go as
the plain data :func:`cogs.play.components_of` builds. The request itself is the same: the same
route and payload (allowed mentions and flags included), through the same webhook adapter (its
retries and per-token rate limits), and its errors are raised as discord.py raises them.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.enums import InteractionResponseType
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

UPDATE = InteractionResponseType.message_update
MESSAGE = InteractionResponseType.channel_message
Components = list[dict[str, Any]]


async def update_clicked(
    interaction: discord.Interaction, embed: discord.Embed, components: Components
) -> None:
    """Answer a component click by editing the message it was on (what
    ``interaction.response.edit_message(embed=..., view=...)`` sends)."""
    await _respond(interaction, UPDATE, embed, components)


async def send_ephemeral(
    interaction: discord.Interaction, embed: discord.Embed, components: Components
) -> None:
    """Answer an interaction with a message only its user sees (what
    ``interaction.response.send_message(embed=..., view=..., ephemeral=True)`` sends)."""
    await _respond(interaction, MESSAGE, embed, components, discord.MessageFlags(ephemeral=True))


async def _respond(
    interaction: discord.Interaction,
    kind: InteractionResponseType,
    embed: discord.Embed,
    components: Components,
    flags: discord.MessageFlags | None = None,
) -> None:
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value,
        embed=embed,
        previous_allowed_mentions=state.allowed_mentions,
        flags=discord.utils.MISSING if flags is None else flags,
    )
    assert params.payload is not None  # no files: the payload goes as JSON
    params.payload["data"]["components"] = components
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    await async_context.get().request(
        route,
        interaction._session,
        payload=params.payload,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
    )
    response._response_type = kind


async def edit_original(
    interaction: discord.Interaction, embed: discord.Embed, components: Components | None
) -> None:
    """Edit the interaction's original response (what
    ``interaction.edit_original_response(embed=..., view=...)`` sends; ``components`` None:
    none any more)."""
    state = interaction._state
    with handle_message_parameters(
        embed=embed, previous_allowed_mentions=state.allowed_mentions
    ) as params:
        assert params.payload is not None  # no files: the payload goes as JSON
        params.payload["components"] = components or []
        http = state.http
        await async_context.get().edit_original_interaction_response(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
        )
