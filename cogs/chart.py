"""The rating trend as a small PNG (matplotlib, Agg backend), drawn for Discord's dark theme.

A chart is a pure function of its points and title, so the latest charts drawn are kept
(:func:`trend_png`): a player's chart is drawn once per game they play, however often their
``/stats`` is asked for. Drawing a new matplotlib figure costs about 100 ms, most of it making
the axes' ticks and compressing the PNG; so one figure is kept and only its line, limits and
texts change from chart to chart, and the PNG is compressed lightly. The cog calls
:func:`trend_png` in an executor, never on the event loop, and :func:`warm` at start-up:
matplotlib is imported then, not by the first player who asks (it takes most of a second).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# Discord's dark theme: the embed's background, its text, its muted text and lines.
BACKGROUND = "#2b2d31"
TEXT = "#dbdee1"
MUTED = "#949ba4"
GRID = "#4e5058"
LINE = "#57f287"  # Discord's green: the rating
MARKED_GAMES = 40  # a dot per game up to this many; a plain line beyond
KEPT_CHARTS = 256  # a chart is some 20 KB

_DRAWING = threading.Lock()  # one figure, drawn by one thread at a time


class TrendChart:
    """One figure, redrawn for each chart: its line, limits and texts change, nothing else."""

    def __init__(self) -> None:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator

        self.figure = Figure(figsize=(5, 2.4), dpi=100, facecolor=BACKGROUND)
        self.figure.subplots_adjust(left=0.11, right=0.97, top=0.88, bottom=0.2)
        self.axes: Axes = self.figure.add_subplot(facecolor=BACKGROUND)
        axes = self.axes
        (self.line,) = axes.plot([], [], marker="o", markersize=3, linewidth=1.5, color=LINE)
        axes.axhline(0, color=MUTED, linewidth=0.6)
        # Texts at fixed places of the figure: the axes' own title and labels are placed
        # anew from the tick labels' sizes at every drawing, a fifth of its time.
        figure = self.figure
        self.title = figure.text(0.54, 0.97, "", ha="center", va="top", fontsize=10, color=TEXT)
        self.xlabel = figure.text(0.54, 0.03, "", ha="center", va="bottom", fontsize=8, color=TEXT)
        figure.text(0.01, 0.54, "rating", rotation=90, va="center", fontsize=8, color=TEXT)
        axes.tick_params(labelsize=7, colors=TEXT)
        for spine in axes.spines.values():
            spine.set_color(GRID)
        # Whole games, also for one or two (where the default would show 1.5).
        axes.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True, min_n_ticks=1))
        axes.yaxis.set_major_locator(MaxNLocator(nbins=5))
        axes.grid(color=GRID, linewidth=0.6)
        axes.set_ymargin(0.1)  # a dot at the top or bottom is not cut by the frame

    def draw(self, points: Sequence[tuple[float, float]], title: str) -> bytes:
        """``points`` are (unix time, rating) oldest first: a line, with a dot per game when
        they are few."""
        count = len(points)
        self.line.set_data(range(1, count + 1), [rating for _, rating in points])
        self.line.set_markersize(3 if count <= MARKED_GAMES else 0)
        self.axes.set_xlim(0.5, max(count, 1) + 0.5)
        self.axes.relim()
        self.axes.autoscale_view(scalex=False)
        self.title.set_text(title)
        first = datetime.fromtimestamp(points[0][0], UTC).strftime("%d %b %Y") if points else ""
        self.xlabel.set_text(f"rated games since {first}" if points else "rated games")
        out = io.BytesIO()
        self.figure.savefig(out, format="png", pil_kwargs={"compress_level": 1})
        return out.getvalue()


_chart: TrendChart | None = None


def _draw(points: Sequence[tuple[float, float]], title: str) -> bytes:
    global _chart
    with _DRAWING:
        if _chart is None:
            _chart = TrendChart()
        return _chart.draw(points, title)


@lru_cache(maxsize=KEPT_CHARTS)
def _kept(points: tuple[tuple[float, float], ...], title: str) -> bytes:
    return _draw(points, title)


def trend_png(points: Sequence[tuple[float, float]], title: str) -> bytes:
    """The chart of ``points`` ((unix time, rating) oldest first), drawn or as kept."""
    return _kept(tuple((float(when), float(rating)) for when, rating in points), title)


def warm() -> None:
    """Import matplotlib and draw once (fonts, the figure), so that no player waits for it."""
    _draw([(0.0, 0.0), (1.0, 1.0)], "")
