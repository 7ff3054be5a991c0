"""The session layer's refusals: one exception type whose text is safe to show."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from bot import history
from bot.store import StoreUnavailable
from games.base import fill_names

log = logging.getLogger(__name__)


PAUSED_TEXT = "The table is paused: your move was not saved. Try again in a moment."


class UserError(Exception):
    """A refusal to show the user as is: short, and free of hidden information.

    People's names go in ``names``, the text naming them ``{s0}``, ``{s1}``…, so that the
    Discord layer escapes them (:meth:`shown`): a display name is whatever its owner typed.
    ``str()`` is the text with the names as they are (for logs and tests).
    """

    def __init__(self, text: str = "", *, names: Sequence[str] = ()) -> None:
        self.template = text
        self.names = tuple(names)
        super().__init__(fill_names(text, self.names) if self.names else text)

    def shown(self, escape: Callable[[str], str]) -> str:
        """The text with every name passed through ``escape``."""
        if not self.names:
            return str(self)
        return fill_names(self.template, [escape(name) for name in self.names])


class TablePaused(UserError):
    """The database cannot be written for now; nothing of the action was kept."""

    def __init__(self) -> None:
        super().__init__(PAUSED_TEXT)


@contextmanager
def paused() -> Iterator[None]:
    """Turn a database outage into the user's :class:`TablePaused`."""
    try:
        yield
    except StoreUnavailable as error:
        log.warning("database unavailable: %s", error)
        raise TablePaused() from None


class ChannelNotAllowed(UserError):
    """Tables may not be opened in this channel; ``allowed`` are the channels that may."""

    def __init__(self, allowed: Sequence[int]) -> None:
        self.allowed = tuple(allowed)
        where = ", ".join(f"<#{channel}>" for channel in self.allowed)
        super().__init__(f"Tables can be opened here: {where}.")


@contextmanager
def refused() -> Iterator[None]:
    """A history refusal is a user error: its text is written for the user."""
    try:
        yield
    except history.HistoryRefusal as error:
        raise UserError(str(error)) from None
