"""The fault suite (bench/faults.py) with small counts: every column of every row must be zero."""

from __future__ import annotations

from bench.faults import run, table
from tests.redis_servers import skip_unless_installed


async def test_the_fault_suite_finds_nothing():
    skip_unless_installed()
    rows = await run(games=6, kills=6, workers=3, presses=400, fuzz=120, deals=2, seed=7, drain_s=60.0, finishes=4)
    report = table(rows)
    print(report)
    assert all(r.lost == r.doubled == r.stuck == r.crashes == r.leaks == 0 for r in rows), report
    assert all(r.faults > 0 for r in rows), report
