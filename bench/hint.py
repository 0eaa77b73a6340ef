"""The hint (»Tipp«): how long the strong player's opinion and its words take for a person's decision, one core.

Usage: ``.venv/bin/python bench/hint.py [--decisions N] [--samples S] [--seconds T] [--seed N] [--game ID ...]
[--quick]``

Per game, ``N`` decisions of a seat, each at a random point of a deal the heuristic plays (its bids,
doublings and cards alike, only decisions with more than one choice), are given a hint as the
service gives it (:func:`bot.table.tipp.advise` with the settings' sample budget and deadline, then
:func:`bot.words.tipp.tipp_text`). It prints the p50, p95 and longest time per hint in milliseconds
(wall clock, and the p95 of its CPU time, which a busy machine stretches less) and the mean of the
sampled deals it weighed (fewer than the budget where the deadline cut it, more where a stake taken is
confirmed on twice as many). The process is pinned to one CPU where the platform allows it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.quick import parse  # noqa: E402
from bot.ops.settings import Settings  # noqa: E402
from bot.table.tipp import advise  # noqa: E402
from bot.words.tipp import tipp_text  # noqa: E402
from engine.players.heuristic import heuristic  # noqa: E402

GAMES = ("bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams")


def decisions(game: str, count: int, rng: random.Random) -> list[tuple[dict, object]]:
    """``count`` views of a seat to act with more than one choice, at random points of heuristic deals."""
    brain = heuristic(game)
    out = []
    while len(out) < count:
        state = engine.new_match(game, rng)
        stop = rng.randrange(40)
        for _ in range(stop):
            if engine.is_over(state):
                break
            state, _ = engine.apply(state, state.to_act, brain.choose(state, state.to_act))
        if not engine.is_over(state) and len(engine.legal_actions(state)) > 1:
            out.append((engine.view(state, state.to_act), state.options))
    return out


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    """Time the hints and print one line per game."""
    defaults = Settings.model_fields
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--decisions", type=int, default=200, help="decisions per game (default 200)")
    p.add_argument("--samples", type=int, default=defaults["tipp_samples"].default,
                   help="sampled deals per hint (default: STAMMTISCH_TIPP_SAMPLES's)")
    p.add_argument("--seconds", type=float, default=defaults["tipp_seconds"].default,
                   help="a hint's deadline (default: STAMMTISCH_TIPP_SECONDS's)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parse(p, argv, decisions=3)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"{'game':<16} {'hints':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cpu p95':>8} {'samples':>8}",
          flush=True)
    for game in args.game or GAMES:
        rng = random.Random(args.seed)
        times, cpu, weighed = [], [], []
        for view, options in decisions(game, args.decisions, rng):
            start, used = time.perf_counter(), time.process_time()
            seen = advise(view, options, rng, args.samples, args.seconds)
            tipp_text("de", game, view, seen)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - used) * 1000)
            weighed.append(seen.samples)
        print(f"{game:<16} {len(times):>6} {statistics.median(times):>8.1f} {_p95(times):>8.1f} {max(times):>8.1f} "
              f"{_p95(cpu):>8.1f} {statistics.mean(weighed):>8.1f}", flush=True)
    print(f"ms: wall clock per hint, cpu: its CPU time; samples: the mean of the sampled deals a hint weighed "
          f"(budget {args.samples}, more to confirm a stake; deadline {args.seconds} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
