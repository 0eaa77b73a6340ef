"""Entrants: teams of two made by lot from players who registered alone, the same for the same seed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.tournament import Entrant, teams_by_lot


def test_singles_are_paired_by_lot_reproducibly():
    players = [(f"u{i}", f"Name{i}") for i in range(7)]
    teams, left = teams_by_lot(players, 42)
    again, left_again = teams_by_lot(players, 42)
    assert teams == again and left == left_again
    members = [m for t in teams for m in t.members] + [left]
    assert sorted(members) == sorted(p[0] for p in players) and len(teams) == 3
    assert all(t.name == "+".join(f"Name{m[1:]}" for m in t.members) for t in teams)
    assert len({t.id for t in teams}) == 3
    assert any(teams_by_lot(players, s)[0] != teams for s in range(43, 48))
    even, nobody = teams_by_lot(players[:6], 1)
    assert nobody is None and len(even) == 3


def test_an_entrant_is_bounded():
    with pytest.raises(ValidationError):
        Entrant(id="", name="x")
    with pytest.raises(ValidationError):
        Entrant(id="x" * 65, name="x")
    with pytest.raises(ValidationError):
        Entrant(id="x", name="x", members=["a", "b", "c"])
    with pytest.raises(ValidationError):
        Entrant(id="x", name="x", extra=1)
    long_names = [(f"u{i}", "N" * 100) for i in range(2)]
    assert len(teams_by_lot(long_names, 1)[0][0].name) == 100
