"""The history: newest first, by game, with score sheets for the last matches."""

from __future__ import annotations

from bot.memory import SHEETS, history
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


async def test_newest_first_by_game_and_with_sheets(store, book):
    games = ["bauer", "rams", "bauer", "bauerchen"]
    for i, game in enumerate(games):
        await save_all(store, book, played(game, people(5 if game == "rams" else 4), seed=i, table_id=f"H{i}"))
    found = await history(book, G, limit=10, sheets=True)
    assert [m.game for m in found] == games[::-1] and [m.no for m in found] == [4, 3, 2, 1]
    assert all(m.sheet and len(m.sheet) >= m.deals for m in found)
    assert [m.table for m in await history(book, G, game="bauer")] == ["H2", "H0"]
    assert len(await history(book, G, limit=1)) == 1 and await history(book, G, limit=-5) == []
    assert found[0].seats[0].name == "Anna" and found[0].seats[0].user == ""
    assert SHEETS >= 4
