"""A match in which a person took a hint (»Tipp«): marked in the history beside his name, and not rated for him."""

from __future__ import annotations

from bot.memory import absorb, history, stats, who_of
from bot.memory.ratings import DEFAULT, Rating, rate
from bot.words.evening import history_text
from tests.bot.memory.kit import GROUP, people, played, save_all

G = GROUP.group


def test_who_is_unrated_plays_at_his_rating_and_keeps_it():
    old = {"a": Rating(30.0, 4.0, 5)}
    new = rate([["a", "b"], ["c", "d"]], [1, 2], old, unrated={"a"})
    assert "a" not in new and set(new) == {"b", "c", "d"}
    assert new["b"].mu > DEFAULT.mu > new["c"].mu


async def test_a_hinted_match_is_marked_for_him_and_not_rated_for_him(store, book):
    steps = played("bauer", people(4), seed=7)
    steps[-1].table.hinted = ["test:u0"]  # Anna took a hint during the match
    await save_all(store, book, steps)
    await absorb(book, G)
    (match,) = await history(book, G)
    assert [seat.hinted for seat in match.seats] == [True, False, False, False]
    assert "💡 mit Tipp: Anna" in history_text("de", [match], "Europe/Berlin")
    anna = (await stats(book, G, await who_of(book, G, "test:u0"), "bauer")).games[0]
    ben = (await stats(book, G, await who_of(book, G, "test:u1"), "bauer")).games[0]
    assert anna.matches == 1 and anna.rating is None  # counted in her figures, not rated
    assert ben.rating is not None
