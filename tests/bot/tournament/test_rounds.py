"""Pairings: their key, byes, stages, bounds and JSON."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.tournament import Pairing, Stage


def test_a_pairing_has_a_key_and_knows_a_bye():
    final = Pairing(round=5, slot=1, sides=["a", "b"], stage=Stage(places=(1, 2)))
    assert final.key == "5.1" and not final.bye
    assert Pairing.model_validate_json(final.model_dump_json()) == final
    assert Pairing(round=1, slot=3, sides=["c"]).bye


@pytest.mark.parametrize("bad", [dict(round=0, slot=1, sides=["a"]), dict(round=1, slot=0, sides=["a"]),
                                 dict(round=1, slot=1, sides=[]), dict(round=1, slot=1, sides=list("abcdefgh"))])
def test_a_pairing_is_bounded(bad):
    with pytest.raises(ValidationError):
        Pairing(**bad)
