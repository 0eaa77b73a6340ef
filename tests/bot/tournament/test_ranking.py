"""Each game's ranking: the seed's 2011 Weltmeisterschaft in order, and every tie-breaker in its turn."""

from __future__ import annotations

from bot.tournament import Entrant, MatchResult, SideResult, draw
from bot.tournament.ranking import RANKING, figures, rank

TEAMS_2011 = ["Flieger+Kai", "Werner+Pitie", "Äppel+Klaus", "Pat+Chris", "Helmut+Dieter", "Bertl+Merk"]

GAMES_2011 = [  # winner, loser, Striche: every team against every other, to 20 Striche
    ("Flieger+Kai", "Werner+Pitie", 20, 12), ("Flieger+Kai", "Äppel+Klaus", 20, 8),
    ("Flieger+Kai", "Pat+Chris", 20, 10), ("Flieger+Kai", "Helmut+Dieter", 20, 10),
    ("Bertl+Merk", "Flieger+Kai", 20, 5), ("Werner+Pitie", "Pat+Chris", 20, 10),
    ("Werner+Pitie", "Helmut+Dieter", 20, 9), ("Werner+Pitie", "Bertl+Merk", 20, 9),
    ("Äppel+Klaus", "Werner+Pitie", 20, 11), ("Äppel+Klaus", "Helmut+Dieter", 20, 9),
    ("Äppel+Klaus", "Bertl+Merk", 20, 9), ("Pat+Chris", "Äppel+Klaus", 20, 8),
    ("Pat+Chris", "Bertl+Merk", 20, 9), ("Helmut+Dieter", "Pat+Chris", 20, 10),
    ("Helmut+Dieter", "Bertl+Merk", 20, 8),
]
"""Results that give the seed's totals: 4 Partien/85 Striche, 3/83, 3/76, 2/70, 2/68 and, for Bertl+Merk,
55 Striche with 1 Partie (the seed's 2 would make 16 Partien won in 15 matches)."""


def result(pairing, winner: str, loser: str, won: int, lost: int) -> MatchResult:
    """The result of ``pairing`` with ``winner`` scoring ``won`` Striche to ``loser``'s ``lost``."""
    score = {winner: ("won", won, lost), loser: ("lost", lost, won)}
    return MatchResult(pairing=pairing.key, sides=[
        SideResult(entrant=e, outcome=score[e][0], points_for=score[e][1], points_against=score[e][2])
        for e in pairing.sides])


def play_2011(seed: int):
    """The 2011 round robin drawn from ``seed`` and played with :data:`GAMES_2011`."""
    t = draw("bauernstoss", "round-robin", [Entrant(id=n, name=n, members=n.split("+")) for n in TEAMS_2011], seed)
    games = {frozenset(g[:2]): g for g in GAMES_2011}
    while not t.is_over:
        for p in t.open_pairings():
            assert t.record(result(p, *games.pop(frozenset(p.sides))))
        t.next_round()
    assert not games
    return t


def test_the_2011_weltmeisterschaft_ranks_as_the_seed_tells():
    for seed in (0, 1, 2011):
        rows = play_2011(seed).final_ranking()
        assert [r.name for r in rows] == TEAMS_2011
        assert [(r.won, r.points_for) for r in rows] == [(4, 85), (3, 83), (3, 76), (2, 70), (2, 68), (1, 55)]
        assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
        assert [r.decided_by for r in rows] == [None, "won", "points_for", "won", "points_for", "won"]
        assert all(r.played == 5 for r in rows)
        assert sum(r.points_for for r in rows) == sum(r.points_against for r in rows)


def two(key: str, a: str, b: str, winner: str, points=(20, 10)) -> MatchResult:
    """A match of ``a`` against ``b`` that ``winner`` won ``points``."""
    return MatchResult(pairing=key, sides=[
        SideResult(entrant=e, outcome="won" if e == winner else "lost",
                   points_for=points[0] if e == winner else points[1],
                   points_against=points[1] if e == winner else points[0]) for e in (a, b)])


def test_head_to_head_then_the_lot_end_a_tie():
    lot = {"a": 0, "b": 1, "c": 2, "d": 3}
    # b and c: two wins and 50 Striche each, and c beat b; a and d: one win and 40 each, and d beat a
    results = [two("1.1", "a", "b", "b"), two("1.2", "c", "d", "c"), two("2.1", "a", "c", "a"),
               two("2.2", "b", "d", "b"), two("3.1", "a", "d", "d"), two("3.2", "b", "c", "c")]
    assert rank(["a", "b", "c", "d"], RANKING["bauernstoss"], results, lot) == [
        ("c", None), ("b", "head_to_head"), ("d", "won"), ("a", "head_to_head")]
    # all four on one win, 30 Striche and 1 : 1 among themselves: the lot decides
    circle = [two("1.1", "a", "b", "b"), two("1.2", "c", "d", "c"), two("2.1", "a", "c", "a"), two("2.2", "b", "d", "d")]
    assert rank(["a", "b", "c", "d"], RANKING["bauernstoss"], circle, lot) == [
        ("a", None), ("b", "lot"), ("c", "lot"), ("d", "lot")]


def test_bauer_ranks_by_brote_before_matches():
    results = [two("1.1", "a", "b", "a", (3, 2)), two("1.2", "c", "d", "d", (3, 0)),
               two("2.1", "b", "d", "b", (3, 2)), two("2.2", "a", "c", "c", (3, 1))]
    order = rank(["a", "b", "c", "d"], RANKING["bauer"], results, {"a": 0, "b": 1, "c": 2, "d": 3})
    # Brote: a 4, b 5, c 3, d 5; b and d tie on Brote and on matches (one each), and b beat d
    assert order == [("b", None), ("d", "head_to_head"), ("a", "points_for"), ("c", "points_for")]


def test_rams_ranks_by_places_then_tricks_then_kartoffeln():
    def table(key, places_tricks_marks):
        return MatchResult(pairing=key, sides=[SideResult(entrant=e, place=p, points_for=t, kartoffeln=k)
                                               for e, (p, t, k) in places_tricks_marks.items()])
    results = [table("1.1", {"a": (1, 21, 0), "b": (2, 21, 1), "c": (3, 9, 2)}),
               table("2.1", {"a": (3, 5, 3), "b": (2, 18, 1), "c": (1, 21, 0)})]
    assert figures(["a", "b", "c"], results)["a"] == {
        "played": 2, "won": 1, "drawn": 0, "lost": 0, "points_for": 26, "points_against": 0, "place_points": 2,
        "kartoffeln": 3}
    # place points a 2, b 2, c 2; tricks a 26, b 39, c 30
    assert rank(["a", "b", "c"], RANKING["rams"], results, {"a": 0, "b": 1, "c": 2}) == [
        ("b", None), ("c", "points_for"), ("a", "points_for")]
    results[1].sides[0].points_for = 9  # a: 30 tricks like c, but 3 Kartoffeln to c's 2
    assert rank(["a", "b", "c"], RANKING["rams"], results, {"a": 0, "b": 1, "c": 2})[1:] == [
        ("c", "points_for"), ("a", "fewer_kartoffeln")]
