"""Engine speed: card plays per second of random full deals for every registered game, on one core.

Usage: ``.venv/bin/python bench/engine.py [--seconds S] [--repeat R] [--game ID ...] [--seed N] [--quick]``

Two figures per game:

- ``fast``: ``bot.tools.simulate.random_deal``, the in-place path of simulations (legal_cards -> choose ->
  play_card, with trump naming, bids and out-of-turn offers through ``do``), plus dealing each
  next deal and scoring it; this is the figure the speed requirement is about.
- ``apply``: the pure public API (``engine.legal_actions`` -> choose -> ``engine.apply``, which
  validates and clones every step), for comparison.

Rates are per CPU second of this process (``time.process_time``), so time given to other
processes does not count; the process is pinned to one CPU where the platform allows it. Each
figure is the best of ``--repeat`` runs (as ``timeit`` does): a busy machine only slows runs down.
A game whose module is missing or fails is skipped and named in the output.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

# This file is named engine.py: keep its own folder off the path so ``import engine`` finds the package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import engine  # noqa: E402
from bench.quick import parse  # noqa: E402
from bot.tools.simulate import random_deal  # noqa: E402

EXPECTED = ("bauernstoss", "alter_schafkopf", "bauerchen", "bauer", "rams")
"""The games of the rules folder, to name those not registered yet."""
MODULES = ("bauernstoss", "bauerchen", "bauer", "rams")


def registered_games() -> tuple[list[str], dict[str, str]]:
    """The registered game ids and, per game that could not be loaded, why."""
    problems: dict[str, str] = {}
    try:
        games = engine.game_ids()
    except Exception:  # noqa: BLE001  (a module of another game is missing or broken)
        for name in MODULES:
            try:
                __import__(f"engine.{name}")
            except Exception as exc:  # noqa: BLE001
                problems[name] = f"{type(exc).__name__}: {exc}"
        games = engine.game_ids()
    for game in EXPECTED:
        if game not in games and game not in problems:
            problems[game] = "not registered"
    return games, problems


def timed_deals(game: str, seconds: float, seed: int, play_deal) -> tuple[int, int, float]:
    """Deal after deal for about ``seconds`` of CPU, each played by ``play_deal(state, rng) -> (state, plays)``.

    Returns (card plays, deals, CPU seconds); dealing the next deal is timed too.
    """
    rng = random.Random(seed)
    plays = deals = 0
    start = time.process_time()
    deadline = start + seconds
    state = engine.new_match(game, rng)
    while True:
        state, n = play_deal(state, rng)
        plays += n
        deals += 1
        if time.process_time() >= deadline:
            break
        state = engine.new_match(game, rng) if engine.match_over(state) else engine.next_deal(state, rng)
    return plays, deals, time.process_time() - start


def fast_deal(state, rng) -> tuple[object, int]:
    """A random deal in place (``bot.tools.simulate.random_deal``)."""
    return state, random_deal(state, rng)


def apply_deal(state, rng) -> tuple[object, int]:
    """A random deal through ``engine.legal_actions`` and ``engine.apply``."""
    plays = 0
    while not engine.is_over(state):
        action = rng.choice(engine.legal_actions(state))
        state, _ = engine.apply(state, engine.to_act(state), action)
        plays += action.kind == "play"
    return state, plays


def rate(run: tuple[int, int, float]) -> float:
    """Card plays per CPU second of a run."""
    return run[0] / run[2]


def pin_one_core() -> str:
    """Run on a single CPU where the platform allows it; return a note saying which."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity)"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per game."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run (default 1)")
    p.add_argument("--repeat", type=int, default=3, help="runs per game and path, the best counts (default 3)")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--seed", type=int, default=1)
    args = parse(p, argv, seconds=0.05, repeat=1)
    games, problems = registered_games()
    if args.game:
        games = [g for g in games if g in args.game]
    print(f"Python {sys.version.split()[0]}, {pin_one_core()}, best of {args.repeat} runs of {args.seconds:g} CPU s")
    print(f"{'game':<16} {'fast plays/s':>13} {'deals':>8}   {'apply plays/s':>13} {'deals':>7}")
    for game in games:
        try:
            fast = max((timed_deals(game, args.seconds, args.seed + i, fast_deal) for i in range(args.repeat)), key=rate)
            slow = max((timed_deals(game, args.seconds, args.seed + i, apply_deal) for i in range(args.repeat)),
                       key=rate)
        except Exception as exc:  # noqa: BLE001  (a game still being written must not stop the others)
            problems[game] = f"failed: {type(exc).__name__}: {exc}"
            continue
        print(f"{game:<16} {rate(fast):>13,.0f} {fast[1]:>8,}   {rate(slow):>13,.0f} {slow[1]:>7,}")
    print("fast = bot.tools.simulate.random_deal in place (legal_cards -> choose -> play_card), with dealing and scoring;")
    print("apply = engine.legal_actions -> choose -> engine.apply (validates and clones every action).")
    for game, why in sorted(problems.items()):
        print(f"skipped {game}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
