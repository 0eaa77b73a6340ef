"""The memory's refusals carry what was asked for, bounded, and are lookup errors."""

from __future__ import annotations

from bot.memory import Unknown, UnknownGame, UnknownPerson, UnknownSeason


def test_what_was_asked_for_is_kept_short():
    for kind in (UnknownGame, UnknownPerson, UnknownSeason):
        err = kind("x" * 1000)
        assert isinstance(err, Unknown) and isinstance(err, LookupError) and err.what == "x" * 64
