"""The session layer's refusals: one exception type whose text is safe to show."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from bot import hand_reports, history
from bot.i18n import N_
from bot.store import StoreUnavailable
from games.base import fill_names

log = logging.getLogger(__name__)


PAUSED_TEXT = N_("The table is paused: your move was not saved. Try again in a moment.")


class UserError(Exception):
    """A refusal to show the user as is: short, and free of hidden information.

    ``code`` names the refusal and ``params`` fills its placeholders, so the answer can be
    given in the reader's language (``cogs/refusals.py``); ``kind`` is the broad kind of a
    game's refusal (``not_your_turn``, ``against_rules``, ``malformed``) for a code that has
    no translation of its own. People's names go in ``names``, the text (and any parameter)
    naming them ``{s0}``, ``{s1}``…, so that the Discord layer escapes them (:meth:`shown`): a
    display name is whatever its owner typed. ``str()`` is the English text with the names as
    they are (for logs and tests).
    """

    def __init__(
        self,
        text: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        kind: str | None = None,
        names: Sequence[str] = (),
    ) -> None:
        self.template = text
        self.names = tuple(names)
        super().__init__(fill_names(text, self.names) if self.names else text)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.kind = kind

    def shown(self, escape: Callable[[str], str], text: str | None = None) -> str:
        """``text`` (by default the English one) with every name passed through ``escape``."""
        text = self.template if text is None else text
        return fill_names(text, [escape(name) for name in self.names]) if self.names else text


class TablePaused(UserError):
    """The database cannot be written for now; nothing of the action was kept."""

    def __init__(self) -> None:
        super().__init__(PAUSED_TEXT, code="paused")


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
def reports_refused() -> Iterator[None]:
    """A refused report is a user error: its text is written for the user."""
    try:
        yield
    except hand_reports.ReportRefusal as error:
        raise UserError(str(error)) from None


@contextmanager
def refused() -> Iterator[None]:
    """A history refusal is a user error: its text is written for the user."""
    try:
        yield
    except history.HistoryRefusal as error:
        raise UserError(str(error)) from None
