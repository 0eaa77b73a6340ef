"""Rams tables: every field from 3 to 64 players seated at tables of 3 to 7, as even as can be."""

from __future__ import annotations

import pytest

from bot.tournament.tables import seat, table_sizes


@pytest.mark.parametrize("preferred", [3, 4, 5, 6, 7])
def test_every_field_fits_tables_of_three_to_seven(preferred):
    for players in range(3, 65):
        sizes = table_sizes(players, preferred)
        assert sum(sizes) == players and all(3 <= s <= 7 for s in sizes), (players, sizes)
        assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)


def test_sizes_follow_the_preferred_size_and_seat_keeps_the_order():
    assert table_sizes(8, 4) == [4, 4] and table_sizes(7, 4) == [4, 3] and table_sizes(20, 5) == [5, 5, 5, 5]
    assert table_sizes(3, 7) == [3] and table_sizes(15, 7) == [5, 5, 5]
    assert seat(list("abcdefg"), 4) == [list("abcd"), list("efg")]
    with pytest.raises(ValueError):
        table_sizes(2, 4)
