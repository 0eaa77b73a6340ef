"""The fault suite as a user runs it with small counts (``bench/faults.py --quick``): every column of every row
but the faults injected must be zero. Each group of rows (``--rows``) is a test of its own, so that the suite's
workers run them side by side."""

from __future__ import annotations

import re

import pytest

from bench.faults import GROUPS
from tests.benchkit import run_quick
from tests.redis_servers import skip_unless_installed

HANG_S = 570.0
"""The suite still running after this long hangs (its rows start real processes: minutes on a loaded machine)."""
ROW = re.compile(r"^(\S.*?)" + r" +(\d+)" * 6 + "$", re.MULTILINE)
"""A row of its table: the name and a count per column (faults injected, moves lost, moves doubled, tables stuck
or corrupted, crashes, leaks)."""


@pytest.mark.timeout(HANG_S + 30)
@pytest.mark.parametrize("rows", GROUPS)
def test_the_fault_suite_finds_nothing(rows):
    skip_unless_installed()
    report = run_quick("faults.py", HANG_S, "--rows", rows)
    print(report)
    rows = [[int(n) for n in found[1:]] for found in ROW.findall(report)]
    assert rows, report
    assert all(lost == doubled == stuck == crashes == leaks == 0 for _, lost, doubled, stuck, crashes, leaks in rows), \
        report
    assert all(faults > 0 for faults, *_ in rows), report
