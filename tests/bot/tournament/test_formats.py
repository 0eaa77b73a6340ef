"""Format options: bounded, and the defaults for the rounds of a Swiss and the number of groups."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.tournament import FORMATS, FormatOptions


def test_the_formats_and_the_defaults():
    assert FORMATS == ("round-robin", "groups-ko", "swiss")
    options = FormatOptions()
    assert [options.swiss_rounds(n, rams=False) for n in (2, 3, 8, 9, 64)] == [1, 2, 3, 4, 6]
    assert options.swiss_rounds(4, rams=True) == 3 and FormatOptions(rounds=9).swiss_rounds(64, rams=False) == 9
    assert [options.group_count(n, rams=False) for n in (4, 12, 16, 64)] == [1, 3, 4, 16]
    assert [options.knockout_size(n) for n in (2, 3, 4, 64)] == [2, 2, 4, 4]
    assert FormatOptions(knockout=16).knockout_size(20) == 16
    assert FormatOptions(table_size=5).group_count(20, rams=True) == 4 and FormatOptions(groups=2).group_count(20, rams=False) == 2


@pytest.mark.parametrize("bad", [{"legs": 0}, {"legs": 3}, {"groups": 0}, {"groups": 17}, {"rounds": 0},
                                 {"rounds": 64}, {"table_size": 2}, {"table_size": 8}, {"knockout": 64}, {"x": 1}])
def test_out_of_bounds_options_are_refused(bad):
    with pytest.raises(ValidationError):
        FormatOptions.model_validate(bad)
