"""Reading a finished table's match into a tournament result: each game's points, the winner, Rams' places."""

from __future__ import annotations

import random

import pytest

import engine
from bot.tools.simulate import random_deal
from bot.tournament import MatchResult, result_of
from bot.tournament.results import POINTS, deal_points


def finished(game: str, seed: int, players: int | None = None):
    """A match of ``game`` played to its end with random moves, and Bauerchen's summed deal points."""
    rng = random.Random(seed)
    state = engine.new_match(game, rng, players)
    points = [0, 0]
    while True:
        random_deal(state, rng)
        points = [a + b for a, b in zip(points, deal_points(game, state.result))]
        if state.match_over():
            return state, points
        state = engine.next_deal(state, rng)


@pytest.mark.parametrize("game", ["bauernstoss", "alter_schafkopf", "bauerchen", "bauer"])
def test_team_games_credit_the_winner_and_each_side_its_points(game):
    for seed in range(3):
        state, points = finished(game, seed)
        result = result_of(game, "2.1", ["x", "y"], state.match, points)
        winner = state.match["winner"]
        assert result.winners() == [["x", "y"][winner]]
        assert [s.outcome for s in result.sides] == (["won", "lost"] if winner == 0 else ["lost", "won"])
        key = {"striche": "striche", "brote": "brote"}.get(POINTS[game])
        expected = state.match[key] if key else points
        assert [s.points_for for s in result.sides] == expected
        assert [s.points_against for s in result.sides] == list(reversed(expected))
        assert MatchResult.model_validate_json(result.model_dump_json()) == result
    if game == "bauerchen":
        assert sum(points) > 0


def test_rams_gives_every_seat_its_place_tricks_and_kartoffeln():
    state, _ = finished("rams", 4, 5)
    result = result_of("rams", "1.1", list("abcde"), state.match)
    assert sorted(s.place for s in result.sides) == [1, 2, 3, 4, 5]
    assert result.winners() == ["abcde"[state.match["ranking"][0]]]
    assert [s.points_for for s in result.sides] == state.match["tricks"]
    assert [s.kartoffeln for s in result.sides] == state.match["kartoffeln"]


def test_an_undecided_match_is_no_result():
    rng = random.Random(1)
    state = engine.new_match("bauer", rng)
    random_deal(state, rng)
    with pytest.raises(ValueError):
        result_of("bauer", "1.1", ["x", "y"], state.match)
    with pytest.raises(ValueError):
        result_of("rams", "1.1", ["x", "y", "z"], {"tricks": [0, 0, 0], "kartoffeln": [0, 0, 0], "ranking": [1]})
    assert deal_points("bauer", {"tricks": [5, 3]}) == [0, 0] and deal_points("bauerchen", {"thrown_in": True}) == [0, 0]
