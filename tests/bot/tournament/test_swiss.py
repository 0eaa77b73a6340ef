"""Swiss pairing: no rematch while one can be avoided (then no second bye), like meets like, byes to the lowest, up to 64."""

from __future__ import annotations

import random

import pytest

from bot.tournament.swiss import pair


def matchings(players: list[str]):
    """Every way to pair ``players`` (an odd one out gets the bye, ``None``)."""
    if not players:
        yield []
        return
    if len(players) % 2:
        for i, p in enumerate(players):
            for rest in matchings(players[:i] + players[i + 1:]):
                yield [(p, None), *rest]
        return
    first = players[0]
    for i in range(1, len(players)):
        for rest in matchings(players[1:i] + players[i + 1:]):
            yield [(first, players[i]), *rest]


def rematches(pairs, met) -> int:
    return sum(frozenset(p) in met for p in pairs if p[1] is not None)


def second_byes(pairs, had_bye) -> int:
    return sum(p[1] is None and p[0] in had_bye for p in pairs)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_no_rematch_while_avoidable(n):
    rng = random.Random(n)
    for trial in range(20):
        field = [f"t{i}" for i in range(n)]
        met: set[frozenset[str]] = set()
        had_bye: set[str] = set()
        for _ in range(n + 1):  # beyond a full round robin, rematches become unavoidable
            rng.shuffle(field)
            pairs = pair(field, met, had_bye)
            assert sorted(e for p in pairs for e in p if e is not None) == sorted(field)
            fewest = min((rematches(m, met), second_byes(m, had_bye)) for m in matchings(field))
            assert (rematches(pairs, met), second_byes(pairs, had_bye)) == fewest
            met |= {frozenset(p) for p in pairs if p[1] is not None}
            byes = [p[0] for p in pairs if p[1] is None]
            assert len(byes) == n % 2
            had_bye |= set(byes)


def test_like_meets_like_and_the_bye_goes_to_the_last():
    ranked = [f"t{i}" for i in range(1, 8)]
    assert pair(ranked, set(), set()) == [("t1", "t2"), ("t3", "t4"), ("t5", "t6"), ("t7", None)]
    assert pair(ranked, {frozenset(("t1", "t2"))}, {"t7"})[0] == ("t1", "t3")
    assert ("t6", None) in pair(ranked, set(), {"t7"})


def test_sixty_four_teams_six_rounds_without_a_rematch():
    rng = random.Random(64)
    field = [f"t{i}" for i in range(64)]
    met: set[frozenset[str]] = set()
    for _ in range(6):
        rng.shuffle(field)
        pairs = pair(field, met, set())
        assert len(pairs) == 32 and rematches(pairs, met) == 0
        met |= {frozenset(p) for p in pairs}
    assert len(met) == 6 * 32
