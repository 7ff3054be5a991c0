"""Refusals: Discord's error answers (a status and a JSON body with a code, as discord.py reads
them), and the Discord client's own (:class:`ClientRefused`)."""

from __future__ import annotations

from typing import Any

from . import limits


class DiscordError(Exception):
    """An API error answered as Discord answers it (status, JSON body)."""

    def __init__(self, status: int, code: int, message: str, extra: dict[str, Any] | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: dict[str, Any] = {"message": message, "code": code, **(extra or {})}


def form_error(errors: limits.FormErrors) -> DiscordError:
    body = errors.body()
    return DiscordError(400, 50035, "Invalid Form Body", {"errors": body["errors"]})


def one_error(path: tuple[str | int, ...], code: str, message: str) -> limits.FormErrors:
    """A form error of one field."""
    errors = limits.FormErrors()
    errors.add(path, code, message)
    return errors


class ClientRefused(Exception):
    """The Discord client would not let the user do this (nothing is sent to the bot)."""
