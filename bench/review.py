"""The review of a deal: how stable its marks are and how long it takes, per game.

Usage: ``.venv/bin/python bench/review.py [--deals N] [--seed N] [--game ID ...] [--samples S] [--every N] [--quick]``

Per game, ``--deals`` random deals (a first deal at a random dealer, played by ``leicht`` computers:
the heuristic with a random slip about every fourth decision, so there are mistakes to mark; Rams
with passes and the blind as they come), one seat reviewed per deal (the seats in turn), twice: with
the review seeds 1 and 2 (``engine.review.review``, the game's budget unless ``--samples``). Printed per game:

- ``marks``: marked decisions of the first run per seat-deal;
- ``agree``: the share of decisions marked alike in both runs (the issue's "agree on 90% of the marks");
- ``both``: of the decisions marked in either run, the share marked in both (the stricter reading);
- ``p50 s``, ``p95 s``: the CPU seconds of one seat's review (one core);
- ``hint p95 s``: the CPU seconds of a hint-sized opinion (the strong player's own budget, ending once
  settled, as the strong player decides) on each reviewed decision.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.quick import parse  # noqa: E402
from bot.tools.simulate import played_replay  # noqa: E402
from engine.players.opinion import opinion  # noqa: E402
from engine.replay import load  # noqa: E402
from engine.review import review  # noqa: E402

GAMES = ("bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams")


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def measure(game: str, deals: int, seed: int, samples: int | None, every: int = 0) -> dict[str, float]:
    """The figures of ``game`` over ``deals`` reviewed seat-deals (see the module's docstring); with ``every``, its
    line so far after every that many deals as well."""
    first, second, seconds, hints = [], [], [], []
    for d in range(deals):
        state, actions = load(json.dumps(played_replay(game, random.Random(f"{seed}:{game}:{d}"))))
        seat = d % state.n
        runs = []
        for run in (1, 2):
            start = time.process_time()
            runs.append(review(state, actions, lambda i: random.Random(f"{run}:{i}"), {seat}, samples))
            if run == 1:
                seconds.append(time.process_time() - start)
        first += [x.mark for x in runs[0].decisions]
        second += [x.mark for x in runs[1].decisions]
        for x in runs[0].decisions:
            start = time.process_time()
            opinion(x.view, state.options, random.Random(x.index))
            hints.append(time.process_time() - start)
        if every and (d + 1) % every == 0 and d + 1 < deals:
            _line(game, d + 1, _figures(first, second, seconds, hints))
    return _figures(first, second, seconds, hints)


def _figures(first: list[bool], second: list[bool], seconds: list[float], hints: list[float]) -> dict[str, float]:
    either = sum(a or b for a, b in zip(first, second))
    alike = sum(a == b for a, b in zip(first, second))
    return {"marks": sum(first) / max(1, len(seconds)), "agree": alike / max(1, len(first)),
            "both": sum(a and b for a, b in zip(first, second)) / either if either else 1.0, "decisions": len(first),
            "p50": _p(seconds, 0.5), "p95": _p(seconds, 0.95), "hint95": _p(hints, 0.95)}


def _line(game: str, deals: int, f: dict[str, float]) -> None:
    print(f"{game:<16} {deals:>5} {f['decisions']:>9} {f['marks']:>6.2f} {f['agree']:>6.1%} {f['both']:>6.1%} "
          f"{f['p50']:>6.2f} {f['p95']:>6.2f} {f['hint95']:>10.2f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Measure every game (or ``--game``) and print a line each."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200, help="reviewed seat-deals per game (default 200)")
    p.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--samples", type=int, help="sampled deals per reviewed decision (default: the game's)")
    p.add_argument("--every", type=int, default=0, help="also print the line so far after every N deals")
    args = parse(p, argv, deals=1, samples=8)
    print(f"{'game':<16} {'deals':>5} {'decisions':>9} {'marks':>6} {'agree':>6} {'both':>6} {'p50 s':>6} {'p95 s':>6} "
          f"{'hint p95 s':>10}", flush=True)
    for game in args.game or GAMES:
        _line(game, args.deals, measure(game, args.deals, args.seed, args.samples, args.every))
    print("marks: per seat-deal; agree: decisions marked alike by two seeds; both: marked by both of those marked by "
          "either; seconds: CPU of one core per seat's review (p50, p95) and per hint-sized opinion (p95)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
