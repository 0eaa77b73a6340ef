"""The season's ratings over time as a PNG chart: the data (:func:`rating_series`) and the picture (:func:`rating_png`).

The picture (:func:`rating_figure`, :func:`rating_png`) is drawn with matplotlib's Agg backend, imported only
when a chart is asked for; :func:`rating_png` is CPU work of some 100 ms, so the caller runs it in a thread
(``asyncio.to_thread``). Its words (title, axis labels) are the caller's.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from pydantic import BaseModel

from bot.memory.absorb import absorb, history_key
from bot.memory.book import Book
from bot.memory.people import Person, names
from bot.memory.ratings import RANKED_AFTER
from bot.memory.seasons import checked
from bot.memory.stats import checked_game

__all__ = ["Line", "RatingSeries", "rating_series", "rating_figure", "rating_png", "MAX_LINES", "MAX_POINTS"]

MAX_LINES = 8
"""The most people a chart shows (the best ranked)."""
MAX_POINTS = 2000
"""The most points a line keeps (evenly thinned beyond)."""


class Line(BaseModel):
    """One person's rating (the ordinal, ``mu - 3 sigma``) after each of his matches: ``(match no, rating)``."""

    person: Person
    points: list[tuple[int, float]]


class RatingSeries(BaseModel):
    """The ratings of a game's season over time, the best ranked people's lines."""

    game: str
    season: int
    lines: list[Line]


async def rating_series(book: Book, group: str, game: str, season: int | None = None,
                        lines: int = MAX_LINES) -> RatingSeries:
    """The rating lines of ``game`` in ``season`` (``None``: the current one), best final rating first.

    Raises:
        UnknownGame, UnknownSeason: no such game or season (``0``, all seasons, has no ratings).
    """
    checked_game(game)
    await absorb(book, group)
    season = await checked(book, group, season) or await checked(book, group, None)
    points: dict[str, list[tuple[int, float]]] = {}
    for item in await book.redis.lrange(book.key(group, history_key(season, game)), 0, -1):
        no, who, mu, sigma = item.split()
        points.setdefault(who, []).append((int(no), round(float(mu) - 3 * float(sigma), 2)))
    people = await names(book, group, points)
    shown = sorted((w for w, p in points.items() if not people[w].computer and len(p) >= RANKED_AFTER),
                   key=lambda w: (-points[w][-1][1], w))[:max(0, min(lines, MAX_LINES))]
    return RatingSeries(game=game, season=season,
                        lines=[Line(person=people[w], points=_thinned(points[w])) for w in shown])


def _thinned(points: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """At most :data:`MAX_POINTS` of ``points``, evenly chosen, the last always kept."""
    if len(points) <= MAX_POINTS:
        return points
    step = len(points) / MAX_POINTS
    return [points[int(i * step)] for i in range(MAX_POINTS - 1)] + [points[-1]]


def rating_figure(series: RatingSeries, title: str, xlabel: str, ylabel: str, nobody: str = "?",
                  tick: Callable[[float], str] = str):
    """The chart of ``series`` as a matplotlib ``Figure`` on an Agg canvas (800 × 450 pixels).

    ``nobody`` labels a line without a name; ``tick`` writes every tick of both axes as the chat's language
    does (``2,5`` in German). The x axis counts matches: its ticks are whole numbers only.
    """
    # loaded only when a chart is asked for; the Agg canvas draws without pyplot's global state (thread-safe)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    fig = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for line in series.lines:
        xs, ys = zip(*line.points) if line.points else ((), ())
        ax.plot(xs, ys, marker="." if len(xs) < 50 else None, label=(line.person.name or nobody)[:32])
    ax.set_title(title[:80])
    ax.set_xlabel(xlabel[:40])
    ax.set_ylabel(ylabel[:40])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda value, _: tick(value)))
    ax.grid(True, alpha=0.3)
    if series.lines:
        ax.legend(loc="best", fontsize="small")
    return fig


def rating_png(series: RatingSeries, title: str, xlabel: str, ylabel: str, nobody: str = "?",
               tick: Callable[[float], str] = str) -> bytes:
    """The chart of ``series`` (:func:`rating_figure`) as PNG bytes."""
    out = io.BytesIO()
    rating_figure(series, title, xlabel, ylabel, nobody, tick).canvas.print_png(out)
    return out.getvalue()
