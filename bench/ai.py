"""Computer player strength and speed: per game, paired deals of heuristic vs random and strong vs heuristic.

Usage: ``.venv/bin/python bench/ai.py [--deals N] [--rams-matches N] [--samples S] [--seed N]
[--game ID ...] [--pairing heuristic,random ...] [--jobs N] [--quick]``

Each line is one ``stammtisch arena`` run (``bot.tools.arena.arena``): the first kind's share of the
points (Striche, points; in Rams match wins, two seats of each kind at four seats) with its 95%
half-width, and the decision times of the first kind. The issue asks for at least 2,000 paired
deals per pairing (the default); a busy machine may need fewer (``--deals``) to finish.
The process (with ``--jobs N``, each of the N processes the deals are spread over) is pinned to
one CPU where the platform allows it, so decision times are one core's; the figures do not
depend on ``--jobs``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.quick import parse  # noqa: E402
from bot.tools.arena import arena  # noqa: E402

GAMES = ("bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams")
PAIRINGS = ("heuristic,random", "strong,heuristic")
RAMS_DEALS = 14
"""A little fewer deals than a Rams match has on average (about 15 at four seats, 12 to 17): so
``--deals / RAMS_DEALS`` matches hold about ``--deals`` deals or more, each played in every seating."""


def main(argv: list[str] | None = None) -> int:
    """Run the pairings and print one line per game and pairing."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=2000, help="paired deals per pairing (default 2000)")
    p.add_argument("--rams-matches", type=int, default=None, help=f"paired Rams matches (default: --deals / {RAMS_DEALS})")
    p.add_argument("--samples", type=int, help="strong player's sampled deals (default: the game's)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--pairing", action="append", help="only this pairing, e.g. strong,heuristic (repeatable)")
    p.add_argument("--jobs", type=int, default=1, help="processes to spread each run's deals over (default 1)")
    args = parse(p, argv, deals=1, rams_matches=1, samples=1)
    if args.jobs == 1 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"{'game':<16} {'pairing':<18} {'units':>6} {'share':>7} {'±ci95':>7} {'p50 ms':>8} {'p95 ms':>8} "
          f"{'max ms':>8} {'seconds':>8}", flush=True)
    for game in args.game or GAMES:
        for pairing in args.pairing or PAIRINGS:
            kinds = pairing.split(",")
            units = max(1, args.rams_matches or args.deals // RAMS_DEALS) if game == "rams" else args.deals
            start = time.perf_counter()
            out = arena(game, units, args.seed, kinds, samples=args.samples, jobs=args.jobs)
            f = out["kinds"][kinds[0]]
            ms = f["decision_ms"]
            print(f"{game:<16} {pairing:<18} {units:>6} {f['points_share']:>7.3f} {f['ci95']:>7.3f} {ms['p50']:>8.1f} "
                  f"{ms['p95']:>8.1f} {ms['max']:>8.1f} {time.perf_counter() - start:>8.0f}", flush=True)
    print("share: the first kind's share of the points both sides scored (Rams: of the matches won);")
    print("decision times are the first kind's, per decision (its own turns and the offers it was asked).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
