"""The knockout: the bracket keeps the best seeds apart, and every place from 1 to the last is played for."""

from __future__ import annotations

import pytest

from bot.tournament.knockout import bracket_order, first_games, next_games


def test_bracket_order_meets_the_best_seeds_last():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for k in (16, 32):
        order = bracket_order(k)
        assert sorted(order) == list(range(1, k + 1))
        assert all(order[i] + order[i + 1] == k + 1 for i in range(0, k, 2))


def test_erfweiler_2012_semi_finals_and_placing_games():
    seeded = [f"s{i}" for i in range(1, 13)]
    games = first_games(seeded, 4)
    assert games == [(["s1", "s4"], (1, 4)), (["s2", "s3"], (1, 4)), (["s5", "s6"], (5, 6)), (["s7", "s8"], (7, 8)),
                     (["s9", "s10"], (9, 10)), (["s11", "s12"], (11, 12))]
    then = next_games([((1, 4), "s4", "s1"), ((1, 4), "s2", "s3"), ((5, 6), "s6", "s5"), ((7, 8), "s7", "s8"),
                       ((9, 10), "s9", "s10"), ((11, 12), "s11", "s12")])
    assert then == [(["s4", "s2"], (1, 2)), (["s1", "s3"], (3, 4))]
    assert next_games([((1, 2), "s4", "s2"), ((3, 4), "s1", "s3")]) == []


def test_teams_of_one_group_meet_not_in_the_first_round_where_a_swap_helps():
    seeded = ["A1", "C1", "B1", "A2", "C2", "B2"]
    group_of = {e: e[0] for e in seeded}
    assert first_games(seeded, 4, group_of)[:2] == [(["A1", "B1"], (1, 4)), (["C1", "A2"], (1, 4))]
    assert first_games(seeded, 4)[:2] == [(["A1", "A2"], (1, 4)), (["C1", "B1"], (1, 4))]
    one_group = {e: "A" for e in seeded}
    assert first_games(seeded, 4, one_group) == first_games(seeded, 4)


@pytest.mark.parametrize(("n", "k"), [(2, 2), (3, 2), (7, 4), (12, 4), (16, 8), (33, 32), (64, 32)])
def test_every_place_is_played_for_once(n, k):
    """Play the whole knockout, the first side always winning: each place goes to exactly one seed."""
    seeded = [f"s{i}" for i in range(1, n + 1)]
    places: dict[int, str] = {}
    games = first_games(seeded, k)
    while games:
        decided = []
        for sides, (best, worst) in games:
            if len(sides) == 1:
                assert best == worst == n
                places[best] = sides[0]
                continue
            decided.append(((best, worst), sides[0], sides[1]))
            if worst - best == 1:
                places[best], places[worst] = sides
        games = next_games(decided)
    assert sorted(places) == list(range(1, n + 1)) and sorted(places.values()) == sorted(seeded)
    assert places[1] == "s1"  # the better seed always won
