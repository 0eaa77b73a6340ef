"""Whole tournaments of computer teams: Erfweiler 2012 to place 12, 64 teams in every format, Rams tables, one seed one result."""

from __future__ import annotations

import pytest

from bot.tools.computer_tournament import entrants, play_tournament
from bot.tournament import TournamentError


def test_a_twelve_team_groups_and_knockout_tournament_places_every_team_once():
    out = play_tournament("bauernstoss", "groups-ko", 12, seed=2012, kind="normal")
    standings = out["standings"]
    assert [r["rank"] for r in standings] == list(range(1, 13))
    assert sorted(r["team"] for r in standings) == sorted(f"Team {i}" for i in range(1, 13))
    assert out["rounds"] == 5 and out["matches"] == 18 + 2 + 4 + 2
    assert all(r["played"] in (4, 5) for r in standings)  # three group games, then one or two
    assert all(r["played"] == 5 for r in standings[:4])  # the semi-finalists play the finals too
    champion, runner_up = standings[0], standings[1]
    assert champion["won"] >= 3 and runner_up["decided_by"] == "knockout"
    assert sum(r["won"] for r in standings) == out["matches"] and sum(r["lost"] for r in standings) == out["matches"]
    assert sum(r["points_for"] for r in standings) == sum(r["points_against"] for r in standings)
    assert all(r["won"] == 0 or r["points_for"] >= 20 * r["won"] for r in standings)  # a Partie goes to 20 Striche


@pytest.mark.parametrize("fmt", ["round-robin", "groups-ko", "swiss"])
def test_sixty_four_teams_play_to_the_end(fmt):
    out = play_tournament("bauer", fmt, 64, seed=64, table_options={"short_deck": True, "target_brote": 1},
                          kind="random")  # short matches: the test is of the draw and the ranking of 64 teams
    assert [r["rank"] for r in out["standings"]] == list(range(1, 65))
    expected = {"round-robin": 64 * 63 // 2, "swiss": 6 * 32, "groups-ko": 16 * 6 + 2 + 2 + 30}[fmt]
    assert out["matches"] == expected


@pytest.mark.parametrize(("fmt", "n"), [("round-robin", 6), ("groups-ko", 13), ("swiss", 64)])
def test_rams_players_at_tables(fmt, n):
    out = play_tournament("rams", fmt, n, seed=3, format_options={"table_size": 5}, kind="random")
    standings = out["standings"]
    assert [r["rank"] for r in standings] == list(range(1, n + 1))
    assert all(set(r) == {"rank", "team", "played", "won", "place_points", "tricks", "kartoffeln", "paid",
                          "decided_by"} for r in standings)
    assert sum(r["won"] for r in standings) == out["matches"]


def test_the_same_seed_gives_the_same_tournament():
    args = ("bauerchen", "swiss", 10)
    assert play_tournament(*args, seed=5, kind="random") == play_tournament(*args, seed=5, kind="random")
    assert play_tournament(*args, seed=5, kind="random")["standings"] != play_tournament(*args, seed=6,
                                                                                         kind="random")["standings"]


def test_short_matches_through_the_table_options():
    out = play_tournament("bauernstoss", "round-robin", 4, seed=1, table_options={"target": 5}, kind="random")
    assert out["options"]["target"] == 5
    assert all(r["points_for"] >= 5 * r["won"] for r in out["standings"])


def test_bad_arguments_are_refused():
    with pytest.raises(TournamentError):
        play_tournament("bauer", "swiss", 65)
    with pytest.raises(ValueError):
        play_tournament("bauer", "swiss", 4, kind="genius")
    assert [e.members for e in entrants("bauer", 2)] == [["1a", "1b"], ["2a", "2b"]]
    assert [e.name for e in entrants("rams", 3)] == ["Player 1", "Player 2", "Player 3"]
