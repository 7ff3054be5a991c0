"""Restart-safe components whose custom id carries only the table's number."""

from __future__ import annotations

import re
from typing import Self

import discord


class ByTable:
    """Mixin for a ``discord.ui.DynamicItem`` rebuilt from its table id alone (its template
    names the group ``table``): the item's ``from_custom_id``, written once."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls(int(match["table"]))  # type: ignore[call-arg]  # the item's own __init__
