"""The rating trend as a small PNG (matplotlib, Agg backend): a pure function of the points.

Drawing takes tens of milliseconds, so the cog calls :func:`trend_png` in an executor, never on
the event loop. Matplotlib is imported on first use: the bot starts without paying for it.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from datetime import UTC, datetime

_DRAWING = threading.Lock()  # pyplot's state is global: one drawing at a time


def trend_png(points: Sequence[tuple[float, float]], title: str) -> bytes:
    """``points`` are (unix time, rating) oldest first; a line with a dot per game."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    with _DRAWING:
        figure = Figure(figsize=(5, 2.4), dpi=100)
        axes = figure.add_subplot()
        games = list(range(1, len(points) + 1))
        ratings = [rating for _, rating in points]
        axes.plot(games, ratings, marker="o", markersize=3, linewidth=1.5, color="#2e7d32")
        axes.axhline(0, color="#999999", linewidth=0.6)
        axes.set_title(title, fontsize=10)
        axes.set_xlabel("rated games", fontsize=8)
        axes.set_ylabel("rating", fontsize=8)
        axes.tick_params(labelsize=7)
        if points:
            first = datetime.fromtimestamp(points[0][0], UTC).strftime("%d %b %Y")
            axes.annotate(f"since {first}", (0.01, 0.02), xycoords="axes fraction", fontsize=7)
        axes.grid(alpha=0.3)
        figure.tight_layout()
        out = io.BytesIO()
        figure.savefig(out, format="png")
    return out.getvalue()
