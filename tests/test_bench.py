"""Every bench of ``bench/`` runs to its end in its quick mode and prints its figures (no figure is checked:
the machine may be busy), as a user runs it: ``python bench/NAME --quick``."""

from __future__ import annotations

import random
import re

import pytest

from bench.service import open_tables, run_moves
from bench.stuck import Stuck
from bot.ops.settings import load_settings
from bot.service import Service
from tests.benchkit import BENCH, run_quick

FIGURES = {
    "ai.py": r"strong,heuristic +1 +[\d.]+ +[\d.]+ +[\d.]+",
    "discord.py": r'"calls_per_card": [\d.]+',
    "engine.py": r"bauerchen +[\d,]+ +[\d,]+ +[\d,]+",
    "hint.py": r"bauerchen +\d+ +[\d.]+ +[\d.]+",
    "leftovers.py": r"Redis memory per playing table: -?\d+ B",
    "loop_stall.py": r"bauerchen +\d+ +[\d.]+ +[\d.]+",
    "memchat.py": r"rangliste bauer: p50 [\d.]+ ms",
    "memory.py": r"ranking bauer: p50 [\d.]+ ms",
    "mytables.py": r"tische, \d+ tables of his among \d+, \d+ calls: p50 [\d.]+ ms  p95 [\d.]+ ms",
    "review.py": r"rams +1 +\d+ +[\d.]+ +[\d.]+% +[\d.]+% +[\d.]+ +[\d.]+ +[\d.]+",
    "service.py": r"\d+ moves/s together",
    "telegram.py": r'"calls_per_card": [\d.]+',
    "web.py": r"\n +25 +[\d.]+ +-?[\d.]+ +\d+ ms",  # 20 connections of the players, 5 of watchers
}
"""Per bench, a line of figures its quick mode prints."""
ELSEWHERE = {"faults.py": "tests/e2e/test_faults.py", "outbox_faults.py": "rows of faults.py", "quick.py": "not a bench",
             "rolling.py": "a row of faults.py", "shards.py": "a row of faults.py", "stuck.py": "not a bench"}
"""The files of ``bench/`` not run here: why."""
HANG_S = 270.0
"""A quick mode still running after this long hangs (it takes seconds of CPU; a loaded machine stretches them)."""


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_the_quick_mode_ends_with_its_figures(name: str):
    out = run_quick(name, HANG_S)
    assert re.search(FIGURES[name], out), f"bench/{name} --quick printed no figures:\n{out}"


def test_every_bench_is_run():
    assert {p.name for p in BENCH.glob("*.py")} == set(FIGURES) | set(ELSEWHERE)


async def test_a_bench_stops_at_a_table_it_cannot_move_on(store):
    svc = Service(store, load_settings())
    tables = await open_tables(svc, "stuck", 1)
    for t in tables.values():
        t["hands"].clear()  # nobody the bench plays for holds a hand: nobody can press
    with pytest.raises(Stuck, match=r"nobody can press .* status playing, .* windows before the first lead open"):
        await run_moves(svc, tables, 10, random.Random(1))


def test_the_discord_bench_traces_each_call_it_counts(tmp_path):
    trace = tmp_path / "calls.txt"
    out = run_quick("discord.py", HANG_S, "--trace", str(trace))
    lines = trace.read_text().splitlines()
    uncounted = [line for line in lines if line.endswith(" not counted")]
    assert len(lines) - len(uncounted) == int(re.search(r'"rest_calls": (\d+)', out)[1]), "one line per call counted"
    assert len(uncounted) == int(re.search(r'"not_counted_after_end": (\d+)', out)[1]), "and per call not counted"
    assert any(re.search(r"POST callback 200 answer:[67] \w+ act=\S+ on DM", line) for line in lines), \
        "an answer names who pressed what, and where"
    assert any(re.search(r"PATCH \{message\} 200 channel:\d+ '", line) for line in lines), "a table edit with its text"
