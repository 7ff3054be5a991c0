"""When a tournament starts, as an organiser types it: minutes from now, or a clock time.

``start:45`` is 45 minutes from now; ``start:20:30`` the next 20:30 (today's if still ahead,
else tomorrow's) in the server's time zone. There is no per-server time zone setting yet, so
clock times are UTC, and the command says so; the sign-up message shows the moment as Discord's
``<t:…>`` timestamp, which every reader sees in their own time zone.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo

MAX_START_MINUTES = 7 * 24 * 60  # a week ahead at most
_MINUTES = re.compile(r"\d{1,5}")
_CLOCK = re.compile(r"(?P<hour>\d{1,2})[:.](?P<minute>\d{2})(?:\s*(?:utc|z))?", re.IGNORECASE)


REFUSALS = {
    "form": "Give the start as minutes from now (45) or a UTC clock time (20:30).",
    "minutes": f"The start is 1 to {MAX_START_MINUTES} minutes from now.",
    "clock": "That is not a clock time: hours 0-23, minutes 00-59.",
}


class BadStart(ValueError):
    """A start that is neither minutes from now nor a clock time; ``kind`` says which refusal:
    ``form`` (unreadable), ``minutes`` (out of range) or ``clock`` (no such time of day)."""

    def __init__(self, kind: str) -> None:
        super().__init__(REFUSALS[kind])
        self.kind = kind


def start_time(text: str, now: float, zone: tzinfo = UTC) -> float:
    """The Unix time ``text`` names, after ``now`` (see the module's docstring); ``BadStart``
    if it names none."""
    typed = text.strip()
    if _MINUTES.fullmatch(typed):
        minutes = int(typed)
        if not 1 <= minutes <= MAX_START_MINUTES:
            raise BadStart("minutes")
        return now + 60 * minutes
    clock = _CLOCK.fullmatch(typed)
    if clock is None:
        raise BadStart("form")
    hour, minute = int(clock["hour"]), int(clock["minute"])
    if hour > 23 or minute > 59:
        raise BadStart("clock")
    today = datetime.fromtimestamp(now, zone)
    then = today.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if then.timestamp() <= now:
        then = (then + timedelta(days=1)).replace(hour=hour, minute=minute)
    return then.timestamp()
