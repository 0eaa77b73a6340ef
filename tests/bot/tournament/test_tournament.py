"""A tournament's operations: the draw from a seed, rounds, results once, forfeits, withdrawals, the end; JSON throughout."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.tournament import Entrant, MatchResult, SideResult, Tournament, TournamentError, draw
from bot.tournament.tournament import forfeit_points


def teams(n: int, rams: bool = False) -> list[Entrant]:
    return [Entrant(id=f"e{i}", name=f"Team {i}", members=[f"{i}"] if rams else [f"{i}a", f"{i}b"]) for i in range(n)]


def random_result(t: Tournament, key: str, rng: random.Random) -> MatchResult:
    """A made-up result for pairing ``key``: a random winner (Rams: random places and tricks)."""
    sides = t.pairing(key).sides
    if t.rams:
        places = rng.sample(range(1, len(sides) + 1), len(sides))
        return MatchResult(pairing=key, sides=[SideResult(entrant=e, place=p, points_for=rng.randrange(22))
                                               for e, p in zip(sides, places)])
    w = rng.randrange(2)
    return MatchResult(pairing=key, sides=[SideResult(
        entrant=e, outcome="won" if i == w else "lost", points_for=20 if i == w else rng.randrange(20),
        points_against=0) for i, e in enumerate(sides)])


def finish(t: Tournament, rng: random.Random) -> Tournament:
    """Play ``t`` to its end with random results, checking the JSON round trip after every round."""
    while not t.is_over:
        for p in t.open_pairings():
            assert t.record(random_result(t, p.key, rng))
        t.next_round()
        assert Tournament.model_validate_json(t.model_dump_json()) == t
    return t


def test_the_same_seed_draws_the_same_and_plays_the_same():
    one = finish(draw("bauernstoss", "groups-ko", teams(12), 99), random.Random(1))
    two = finish(draw("bauernstoss", "groups-ko", teams(12), 99), random.Random(1))
    assert one.model_dump_json() == two.model_dump_json()
    other = draw("bauernstoss", "groups-ko", teams(12), 100)
    assert other.lot != one.lot and sorted(other.lot) == sorted(one.lot)


def test_erfweiler_2012_three_groups_of_four_then_placings_one_to_twelve():
    t = draw("bauernstoss", "groups-ko", teams(12), 2012)
    assert [len(g) for g in t.groups.values()] == [4, 4, 4]
    assert sorted(e for g in t.groups.values() for e in g) == sorted(t.lot)
    assert {r.group for r in t.standings()} == {"A", "B", "C"}
    with pytest.raises(TournamentError) as refused:
        t.final_ranking()
    assert refused.value.code == "not_over"
    finish(t, random.Random(5))
    assert t.round == t.planned_rounds == 5  # three group rounds, the semi-finals and placing games, the finals
    group_of = {e: letter for letter, members in t.groups.items() for e in members}
    semis = [p for p in t.pairings_of(4) if p.stage.places == (1, 4)]
    assert all(group_of[p.sides[0]] != group_of[p.sides[1]] for p in semis)
    stages = Counter(p.stage.places for p in t.pairings)
    assert stages == {None: 18, (1, 4): 2, (5, 6): 1, (7, 8): 1, (9, 10): 1, (11, 12): 1, (1, 2): 1, (3, 4): 1}
    final = t.final_ranking()
    assert [r.rank for r in final] == list(range(1, 13)) and sorted(r.entrant for r in final) == sorted(t.lot)
    champion = t.pairings_of(5)[0]
    assert final[0].entrant == t.results[champion.key].winners()[0]
    assert t.standings() == final


@pytest.mark.parametrize("fmt", ["round-robin", "groups-ko", "swiss"])
@pytest.mark.parametrize("n", [2, 3, 5, 9, 64])
def test_every_format_runs_to_a_full_ranking(fmt, n):
    t = finish(draw("bauer", fmt, teams(n), n), random.Random(n))
    assert t.round == t.planned_rounds
    final = t.final_ranking()
    assert sorted(r.entrant for r in final) == sorted(t.lot) and [r.rank for r in final] == list(range(1, n + 1))
    if fmt == "round-robin":
        met = Counter(frozenset(p.sides) for p in t.pairings if not p.bye)
        assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    if fmt == "swiss":
        assert t.round == max(1, (n - 1).bit_length())
        assert len({frozenset(p.sides) for p in t.pairings}) == len(t.pairings)  # no rematch, no second bye


@pytest.mark.parametrize(("fmt", "n", "options"), [("round-robin", 5, {"legs": 2}), ("groups-ko", 14, {}),
                                                  ("groups-ko", 64, {}), ("swiss", 9, {"table_size": 3}),
                                                  ("swiss", 64, {"rounds": 4})])
def test_rams_tables_of_three_to_seven(fmt, n, options):
    t = finish(draw("rams", fmt, teams(n, rams=True), 7, options), random.Random(n))
    assert t.round == t.planned_rounds
    assert all(3 <= len(p.sides) <= 7 for p in t.pairings)
    for r in range(1, t.round + 1):
        seated = [e for p in t.pairings_of(r) for e in p.sides]
        assert len(seated) == len(set(seated)) == n
    final = t.final_ranking()
    assert [r.rank for r in final] == list(range(1, n + 1)) and sorted(r.entrant for r in final) == sorted(t.lot)
    if fmt == "groups-ko":
        last = t.pairings_of(t.round)
        assert [p.stage.places[0] for p in last] == [1, *[1 + sum(len(q.sides) for q in last[:i]) for i in range(1, len(last))]]
        winner_table = t.results[last[0].key]
        assert final[0].entrant == next(s.entrant for s in winner_table.sides if s.place == 1)


def test_a_result_counts_once_and_a_wrong_one_changes_nothing():
    t = draw("bauernstoss", "round-robin", teams(4), 1)
    p = t.pairings_of(1)[0]
    good = MatchResult(pairing=p.key, sides=[SideResult(entrant=p.sides[0], outcome="won", points_for=20),
                                             SideResult(entrant=p.sides[1], outcome="lost", points_for=7)])
    swapped = MatchResult(pairing=p.key, sides=list(reversed(good.sides)))
    both_won = good.model_copy(deep=True)
    both_won.sides[1].outcome = "won"
    for wrong in (swapped, both_won, good.model_copy(update={"pairing": "9.9"})):
        before = t.model_dump_json()
        with pytest.raises(TournamentError) as refused:
            t.record(wrong)
        assert refused.value.code in ("result_mismatch", "unknown_pairing") and t.model_dump_json() == before
    assert t.record(good) is True
    other = good.model_copy(deep=True)
    other.sides[0].points_for = 25
    assert t.record(other) is False and t.results[p.key].sides[0].points_for == 20
    assert t.forfeit(p.key, [p.sides[0]]) is None and t.results[p.key] == good
    with pytest.raises(TournamentError) as refused:
        t.next_round()
    assert refused.value.code == "round_open"


def test_forfeits_score_as_documented():
    t = draw("bauernstoss", "round-robin", teams(4), 1, table_options={"target": 15})
    one, two = t.pairings_of(1)
    with pytest.raises(TournamentError):
        t.forfeit(one.key, ["e-nobody"])
    with pytest.raises(TournamentError):
        t.forfeit(one.key, [])
    single = t.forfeit(one.key, [one.sides[1]])
    assert single.forfeit and [(s.outcome, s.points_for, s.points_against) for s in single.sides] == [
        ("won", 15, 0), ("lost", 0, 15)]
    double = t.forfeit(two.key, list(two.sides))
    assert [(s.outcome, s.points_for, s.points_against) for s in double.sides] == [("lost", 0, 0), ("lost", 0, 0)]
    assert double.winners() == []
    assert forfeit_points("bauernstoss", {}) == 20 and forfeit_points("alter_schafkopf", {}) == 15
    assert forfeit_points("bauerchen", {"target_steine": 2}) == 48 and forfeit_points("bauer", {}) == 3
    r = draw("rams", "round-robin", teams(5, rams=True), 3)
    table = r.pairings_of(1)[0]
    absent = [table.sides[0], table.sides[3]]
    places = {s.entrant: s.place for s in r.forfeit(table.key, absent).sides}
    lots = {e: i for i, e in enumerate(r.lot)}
    present = sorted((e for e in table.sides if e not in absent), key=lots.get)
    assert [places[e] for e in present] == [1, 2, 3] and sorted(places[e] for e in absent) == [4, 5]


def test_a_double_forfeit_in_the_knockout_sends_the_first_in_the_lot_on():
    t = draw("bauer", "groups-ko", teams(4), 8, {"groups": 1, "knockout": 4})
    rng = random.Random(2)
    while t.pairings_of(t.round)[0].stage.places is None:
        for p in t.open_pairings():
            t.record(random_result(t, p.key, rng))
        t.next_round()
    semi = t.pairings_of(t.round)[0]
    assert t.round == 4 and semi.stage.places == (1, 4)
    t.forfeit(semi.key, list(semi.sides))
    t.record(random_result(t, t.pairings_of(t.round)[1].key, rng))
    final = t.next_round()[0]
    lots = {e: i for i, e in enumerate(t.lot)}
    assert min(semi.sides, key=lots.get) in final.sides


def test_a_withdrawn_team_forfeits_what_is_left_and_is_paired_no_more():
    t = draw("bauernstoss", "round-robin", teams(5), 4)
    rng = random.Random(4)
    gone = next(p for p in t.pairings_of(1) if not p.bye).sides[0]
    open_now = t.withdraw(gone)
    assert [p.sides for p in open_now] == [p.sides for p in t.open_pairings() if gone in p.sides]
    assert t.withdraw(gone) == open_now
    t.forfeit(open_now[0].key, [gone])
    finish(t, rng)
    later = [p for p in t.pairings if p.round > 1 and gone in p.sides and not p.bye]
    assert later and all(t.results[p.key].forfeit and t.results[p.key].winners() == [s for s in p.sides if s != gone]
                         for p in later)
    row = next(r for r in t.final_ranking() if r.entrant == gone)
    assert row.withdrawn and (row.won, row.lost, row.rank) == (0, 4, 5)

    s = draw("bauer", "swiss", teams(8), 4)
    gone = s.pairings_of(1)[0].sides[1]
    s.withdraw(gone)
    finish(s, rng)
    assert all(gone not in p.sides for p in s.pairings if p.round > 1)
    with pytest.raises(TournamentError) as refused:
        s.withdraw("e-nobody")
    assert refused.value.code == "unknown_entrant"
    with pytest.raises(TournamentError) as refused:
        s.next_round()
    assert refused.value.code == "not_running"


def test_rams_players_who_withdraw_sit_at_no_table_and_rank_last():
    t = draw("rams", "groups-ko", teams(9, rams=True), 5, {"groups": 2})
    rng = random.Random(9)
    for p in t.open_pairings():
        t.record(random_result(t, p.key, rng))
    gone = [t.groups["A"][0], t.groups["B"][1]]
    for e in gone:
        assert t.withdraw(e) == []
    placing = t.next_round()
    assert all(e not in p.sides for p in placing for e in gone) and sum(len(p.sides) for p in placing) == 7
    finish(t, rng)
    assert {r.entrant for r in t.final_ranking()[7:]} == set(gone)


@pytest.mark.parametrize(("args", "code"), [
    (("skat", "swiss", 4), "unknown_game"),
    (("bauer", "ko", 4), "unknown_format"),
    (("bauer", "swiss", 1), "field_size"),
    (("bauer", "swiss", 65), "field_size"),
    (("rams", "swiss", 2), "field_size"),
    (("rams", "round-robin", 8), "field_size"),
    (("bauer", "groups-ko", 6, {"knockout": 8}), "field_size"),
    (("bauer", "groups-ko", 6, {"knockout": 3}), "field_size"),
    (("bauer", "groups-ko", 6, {"groups": 4}), "field_size"),
    (("rams", "groups-ko", 9, {"groups": 4}), "field_size"),
    (("bauer", "swiss", 6, {"legs": 3}), "format_options"),
    (("bauer", "swiss", 6, {"nope": 1}), "format_options"),
    (("bauer", "swiss", 6, None, {"target": 20}), "table_options"),
    (("bauernstoss", "swiss", 6, None, {"target": 101}), "table_options"),
])
def test_the_draw_refuses_what_cannot_be_played(args, code):
    game, fmt, n, *rest = args
    with pytest.raises(TournamentError) as refused:
        draw(game, fmt, teams(n, rams=game == "rams"), 1, *rest)
    assert refused.value.code == code and str(refused.value)


def test_the_draw_refuses_bad_entrants_and_seeds():
    with pytest.raises(TournamentError) as refused:
        draw("bauer", "swiss", teams(3) + teams(1), 1)
    assert refused.value.code == "entrants"
    with pytest.raises(TournamentError) as refused:
        draw("rams", "swiss", teams(4), 1)
    assert refused.value.code == "entrants"
    with pytest.raises(TournamentError) as refused:
        draw("bauer", "swiss", teams(4), -1)
    assert refused.value.code == "format_options"
