"""Seasons: a new one restarts ratings and rankings; the history and all-season figures stay."""

from __future__ import annotations

import pytest

from bot.memory import UnknownSeason, current, history, new_season, ranking, seasons, stats, who_of
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


async def test_a_new_season_restarts_the_ranking_and_keeps_the_history(store, book):
    for i in range(3):
        await save_all(store, book, played("bauer", people(4), seed=i, table_id=f"A{i}", start=1_000_000.0 + i))
    assert (await ranking(book, G, "bauer")).people
    assert (await new_season(book, G, 2_000_000.0)).no == 2
    assert (await current(book, G)).no == 2 and [s.no for s in await seasons(book, G)] == [1, 2]
    fresh = await ranking(book, G, "bauer")
    assert fresh.season == 2 and not fresh.people and not fresh.computers
    assert len((await ranking(book, G, "bauer", season=1)).people) == 4
    await save_all(store, book, played("bauer", people(4), seed=9, table_id="B1", start=2_000_100.0))
    who = await who_of(book, G, "test:u0")
    assert (await stats(book, G, who, "bauer")).games[0].matches == 1
    assert (await stats(book, G, who, "bauer", season=0)).games[0].matches == 4
    assert len(await history(book, G)) == 4


async def test_a_match_counts_in_the_season_it_finished_in_even_if_counted_later(store, book):
    await save_all(store, book, played("bauer", people(4), seed=1, start=1_000_000.0))  # not counted yet
    await new_season(book, G, 5_000_000.0)
    who = await who_of(book, G, "test:u0") or "1"
    assert (await stats(book, G, who, "bauer", season=1)).games[0].matches == 1
    assert (await stats(book, G, who, "bauer")).games[0].matches == 0


async def test_an_unknown_season_is_refused(book):
    with pytest.raises(UnknownSeason):
        await ranking(book, G, "bauer", season=2)
    with pytest.raises(UnknownSeason):
        await stats(book, G, "1", season=-1)
