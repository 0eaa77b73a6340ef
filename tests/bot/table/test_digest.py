"""The daily digest's hour: read from words, and its next moment in a time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.table import digest

BERLIN = ZoneInfo("Europe/Berlin")


def at(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=BERLIN).timestamp()


@pytest.mark.parametrize(("words", "minute"), [(("19:00",), 1140), (("19",), 1140), (("7.30", "Uhr"), 450),
                                               (("0:05",), 5), (("24:00",), None), (("19:60",), None),
                                               (("abends",), None), (("1" * 500,), None), ((), None)])
def test_the_hour_from_words(words, minute):
    assert digest.hour_of(words) == minute


def test_its_next_moment_is_after_now_in_the_zone_across_a_change_of_the_clocks():
    assert digest.next_at(1140, "Europe/Berlin", at("2027-01-15 18:59")) == at("2027-01-15 19:00")
    assert digest.next_at(1140, "Europe/Berlin", at("2027-01-15 19:00")) == at("2027-01-16 19:00")
    assert digest.next_at(1140, "Europe/Berlin", at("2027-03-27 19:30")) == at("2027-03-28 19:00")
    assert digest.next_at(1140, "Europe/Berlin", at("2027-03-27 19:00")) - at("2027-03-27 19:00") == 23 * 3600
