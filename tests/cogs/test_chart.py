"""The rating chart of ``/stats``: whole-game ticks for few games, colours for Discord's dark
theme, and a chart drawn once per game played."""

from __future__ import annotations

import io
from collections import Counter
from itertools import pairwise

import pytest
from PIL import Image

from cogs import chart
from cogs.chart import MOST_TICKS, trend_png, x_ticks, y_ticks

Rgb = tuple[int, int, int]


def points(count: int) -> list[tuple[float, float]]:
    return [(1_700_000_000.0 + 86_400 * i, (i % 5) * 0.7 - 1.2) for i in range(count)]


def luminance(colour: Rgb) -> float:
    """WCAG's relative luminance."""

    def linear(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Rgb, b: Rgb) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("count", [1, 2, 3, 6, 8])
def test_few_games_are_marked_game_by_game(count: int) -> None:
    assert x_ticks(count) == list(range(1, count + 1))


@pytest.mark.parametrize("count", [9, 17, 40, 123, 200])
def test_many_games_are_marked_in_whole_games_evenly_apart(count: int) -> None:
    ticks = x_ticks(count)
    assert 2 <= len(ticks) <= MOST_TICKS
    assert all(isinstance(t, int) and 1 <= t <= count for t in ticks)
    assert len({b - a for a, b in pairwise(ticks)}) == 1


def test_the_rating_is_marked_in_round_steps() -> None:
    assert y_ticks(-0.8, 0.3) == [-0.75, -0.5, -0.25, 0.0, 0.25]
    assert y_ticks(-2.0, 26.0) == [0.0, 10.0, 20.0]


def test_the_chart_reads_well_on_discord_s_dark_theme() -> None:
    image = Image.open(io.BytesIO(trend_png(points(30), "Ann · Tarneeb"))).convert("RGB")
    flat = image.tobytes()
    pixels: list[Rgb] = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]
    background = Counter(pixels).most_common(1)[0][0]
    assert luminance(background) < 0.05, f"a dark background, not {background}"
    assert contrast(background, (0x31, 0x33, 0x38)) < 1.2, "close to Discord's own"
    width = image.width
    title = [p for i, p in enumerate(pixels) if i // width < image.height // 10]
    assert max(contrast(p, background) for p in title) >= 4.5, "the title stands out"
    line = [p for p in pixels if p[1] > p[0] + 40 and p[1] > p[2] + 40]
    assert len(line) > 100, "the rating line is drawn in a colour"
    colour = Counter(line).most_common(1)[0][0]
    assert contrast(colour, background) >= 3, f"the line ({colour}) stands out"


def test_a_chart_is_drawn_once_until_the_player_s_next_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[int] = []
    draw = chart.draw

    def counting(shown: list[tuple[float, float]], title: str, lang: str) -> bytes:
        drawn.append(len(shown))
        return draw(shown, title, lang)

    monkeypatch.setattr(chart, "draw", counting)
    chart._kept.cache_clear()
    first = trend_png(points(12), "Ben · Tuppi")
    assert trend_png(points(12), "Ben · Tuppi") == first
    assert drawn == [12]
    trend_png(points(13), "Ben · Tuppi")  # another game played: another chart
    assert drawn == [12, 13]


@pytest.mark.parametrize(
    ("lang", "games", "rating"),
    [
        ("en", "rated games since November 14, 2023", "rating"),
        ("fi", "rankatut pelit 14. marraskuuta 2023 alkaen", "ranking"),
        ("no", "rangerte spill siden 14. november 2023", "rangering"),
        ("ar", "الألعاب المحتسبة منذ 14 نوفمبر 2023", "التصنيف"),
    ],
)
def test_the_axes_are_named_in_the_readers_language(lang: str, games: str, rating: str) -> None:
    """The axes in the reader's words, the first game's date as their language writes it (in
    Western digits, as everywhere)."""
    assert chart.axis_words(points(3), lang) == (games, rating)
    if lang != "en":
        assert trend_png(points(3), "Ann · Tuppi", lang) != trend_png(points(3), "Ann · Tuppi")
