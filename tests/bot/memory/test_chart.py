"""The rating chart: lines of the ranked people, and a PNG."""

from __future__ import annotations

import pytest

from bot.memory import RANKED_AFTER, UnknownGame, rating_png, rating_series
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


async def test_the_seasons_ratings_as_a_png(store, book):
    for i in range(RANKED_AFTER + 1):
        await save_all(store, book, played("bauer", people(4), seed=50 + i, table_id=f"P{i}"))
    series = await rating_series(book, G, "bauer")
    assert len(series.lines) == 4 and all(len(line.points) == RANKED_AFTER + 1 for line in series.lines)
    assert [p[0] for p in series.lines[0].points] == list(range(1, RANKED_AFTER + 2))
    finals = [line.points[-1][1] for line in series.lines]
    assert finals == sorted(finals, reverse=True)
    ticks: list[float] = []
    png = rating_png(series, "Rangliste Bauer", "Partie", "Wertung", tick=lambda v: ticks.append(v) or f"{v:g}")
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    assert ticks and min(finals) - 5 <= min(ticks) and max(ticks) <= max(finals) + 5  # the ratings' axis


def test_the_match_axis_counts_whole_matches_and_both_axes_write_the_chats_numbers():
    from bot.memory.chart import Line, RatingSeries, rating_figure
    from bot.memory.people import Person
    from bot.words.stats import chart_words

    series = RatingSeries(game="bauer", season=1, lines=[
        Line(person=Person(who="1", name="Anna"), points=[(1, 0.1), (2, 0.55), (3, 0.9)])])
    fig = rating_figure(series, **chart_words("de", "bauer", 1))
    fig.canvas.draw()
    ax = fig.axes[0]
    xs = [label.get_text() for label in ax.get_xticklabels() if label.get_text()]
    ys = [label.get_text() for label in ax.get_yticklabels() if label.get_text()]
    assert xs and all(x.isdecimal() for x in xs) and {"1", "2", "3"} <= set(xs)  # no 1.25, no 1.00
    assert any("," in y for y in ys) and not any("." in y for y in ys + xs)  # German: 0,5, never 0.5


def test_an_empty_chart_is_a_png_too():
    from bot.memory.chart import RatingSeries
    assert rating_png(RatingSeries(game="rams", season=1, lines=[]), "", "", "").startswith(b"\x89PNG")


async def test_an_unknown_game_has_no_chart(book):
    with pytest.raises(UnknownGame):
        await rating_series(book, G, "schach")


def test_the_memory_loads_no_plotting_library_until_a_chart_is_drawn():
    import subprocess
    import sys

    code = "import sys, bot.memory; print('matplotlib' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
