"""A tournament's start as typed: minutes from now, or the next such clock time (UTC)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.tournaments.start import MAX_START_MINUTES, BadStart, start_time

NOW = datetime(2026, 11, 27, 19, 0, 30, tzinfo=UTC).timestamp()


def at(text: str) -> datetime:
    return datetime.fromtimestamp(start_time(text, NOW), UTC)


def test_minutes_count_from_now() -> None:
    assert start_time("45", NOW) == NOW + 45 * 60
    assert start_time(" 1 ", NOW) == NOW + 60
    assert start_time(str(MAX_START_MINUTES), NOW) == NOW + MAX_START_MINUTES * 60


def test_a_clock_time_is_the_next_one() -> None:
    assert at("20:30") == datetime(2026, 11, 27, 20, 30, tzinfo=UTC)
    assert at("19:01") == datetime(2026, 11, 27, 19, 1, tzinfo=UTC)
    assert at("19:00") == datetime(2026, 11, 28, 19, 0, tzinfo=UTC), "passed: tomorrow's"
    assert at("8:05") == datetime(2026, 11, 28, 8, 5, tzinfo=UTC)
    assert at("0:00") == datetime(2026, 11, 28, 0, 0, tzinfo=UTC)
    assert at("20.30") == at("20:30") == at("20:30 UTC") == at("20:30z")


def test_a_clock_time_in_another_zone() -> None:
    helsinki = ZoneInfo("Europe/Helsinki")  # UTC+2 in November: 21:00 there is 19:00 UTC
    when = start_time("21:30", NOW, helsinki)
    assert datetime.fromtimestamp(when, UTC) == datetime(2026, 11, 27, 19, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("0", "minutes"),
        (str(MAX_START_MINUTES + 1), "minutes"),
        ("24:00", "clock"),
        ("12:60", "clock"),
        ("soon", "form"),
        ("-5", "form"),
        ("20:3", "form"),
        ("", "form"),
        ("1e3", "form"),
    ],
)
def test_anything_else_is_refused_with_its_reason(text: str, kind: str) -> None:
    with pytest.raises(BadStart) as refused:
        start_time(text, NOW)
    assert refused.value.kind == kind and str(refused.value).endswith(".")
