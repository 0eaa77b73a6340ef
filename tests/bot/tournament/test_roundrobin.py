"""The circle method: every pair meets exactly once per leg, nobody twice in a round, one bye each in an odd field."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.tournament.roundrobin import circle


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 12, 13, 63, 64])
@pytest.mark.parametrize("legs", [1, 2])
def test_every_pair_meets_once_per_leg(n, legs):
    field = [f"t{i}" for i in range(n)]
    rounds = circle(field, legs)
    slots = n if n % 2 else n - 1
    assert len(rounds) == slots * legs
    meetings = Counter(frozenset(p) for r in rounds for p in r if p[1] is not None)
    assert set(meetings) == {frozenset((a, b)) for a in field for b in field if a < b}
    assert set(meetings.values()) == {legs}
    for r in rounds:
        seated = [e for p in r for e in p if e is not None]
        assert sorted(seated) == sorted(field)
        assert sum(p[1] is None for p in r) == n % 2
    byes = Counter(p[0] for r in rounds for p in r if p[1] is None)
    assert set(byes.values()) == ({legs} if n % 2 else set()) and len(byes) == (n if n % 2 else 0)


def test_the_second_leg_swaps_the_sides_and_sides_alternate():
    field = [f"t{i}" for i in range(6)]
    first, second = circle(field, 2)[:5], circle(field, 2)[5:]
    assert second == [[(b, a) for a, b in r] for r in first]
    home = Counter(p[0] for r in first for p in r)
    assert max(home.values()) - min(home.values()) <= 2
