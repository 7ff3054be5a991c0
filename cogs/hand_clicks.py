"""Clicks on a hand's controls, dispatched without discord.py rebuilding the hand's view.

For every click on a dynamic item, discord.py builds a whole ``View`` from the clicked message
(a hand: a dozen buttons and menus) only to find the clicked component in it, then hands that
to the item's ``from_custom_id``. A hand's controls need none of it: each is rebuilt from its
custom id alone and checks what it must itself (the move, the seat, how fresh the hand is, the
values a menu offered). What stays is discord.py's one check, that the clicked component is on
the message (a crafted custom id is not dispatched: the errors cog's watchdog answers it), and
its one step before the callback, the item's state from the click (a menu's values).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Collection, Coroutine
from typing import Any

import discord

log = logging.getLogger(__name__)

Schedule = Callable[..., Coroutine[Any, Any, None]]
ORIGINAL = "_cardtable_original_schedule"  # discord.py's own, kept on the view store


def on_message(message: discord.Message, component_type: int, custom_id: str) -> bool:
    """The clicked component (its type and custom id) is on the message."""
    for row in message.components:
        for child in getattr(row, "children", ()):
            if (
                child.type.value == component_type
                and getattr(child, "custom_id", None) == custom_id
            ):
                return True
    return False


def dispatch_lightly(
    client: discord.Client, factories: Collection[type[discord.ui.DynamicItem[Any]]]
) -> None:
    """Dispatch clicks on these dynamic items without building the clicked message's view
    (discord.py's own dispatch for every other); installing it again replaces the set."""
    store = client._connection._view_store
    original: Schedule = getattr(store, ORIGINAL, None) or store.schedule_dynamic_item_call
    light = frozenset(factories)

    async def schedule(
        component_type: int,
        factory: type[discord.ui.DynamicItem[Any]],
        interaction: discord.Interaction,
        custom_id: str,
        match: re.Match[str],
    ) -> None:
        message = interaction.message
        if factory not in light or message is None:
            await original(component_type, factory, interaction, custom_id, match)
            return
        if not on_message(message, component_type, custom_id):
            return
        try:
            item = await factory.from_custom_id(interaction, None, match)  # type: ignore[arg-type]
        except Exception:
            log.exception("a %s could not be made from its custom id", factory.__name__)
            return
        item._refresh_state(interaction, interaction.data)  # type: ignore[arg-type]
        try:
            await item.callback(interaction)
        except Exception:
            log.exception("a %s callback failed", factory.__name__)

    setattr(store, ORIGINAL, original)
    store.schedule_dynamic_item_call = schedule  # type: ignore[method-assign]
