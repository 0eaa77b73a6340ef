"""Ratings: winners rise, losers fall, uneven sides and places work, one identity at several seats moves once."""

from __future__ import annotations

from bot.memory.ratings import DEFAULT, Rating, rate


def test_the_winning_team_rises_and_the_losers_fall():
    new = rate([["a", "b"], ["c", "d"]], [1, 2], {})
    assert new["a"].mu > DEFAULT.mu > new["c"].mu
    assert all(r.matches == 1 for r in new.values())


def test_uneven_sides_and_places():
    new = rate([["a"], ["b"], ["c"]], [2, 1, 3], {})
    assert new["b"].mu > new["a"].mu > new["c"].mu


def test_one_identity_at_two_seats_moves_once_and_nobody_is_not_kept():
    old = {"cpu-normal": Rating(30.0, 5.0, 7)}
    new = rate([["cpu-normal", ""], ["cpu-normal", "x"]], [1, 2], old)
    assert set(new) == {"cpu-normal", "x"} and new["cpu-normal"].matches == 8


def test_a_rating_survives_its_stored_form():
    r = Rating(27.1234, 6.5, 4)
    assert Rating.decode(r.encode()) == r and r.ordinal == r.mu - 3 * r.sigma
