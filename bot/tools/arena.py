"""Player kinds against each other on paired deals: ``stammtisch arena``.

Every deal is played once per rotation of the kinds through the seats, from the same cards: in
the team games twice (the two sides swap seats, so the cards cancel out), in Rams once per seat
(every kind sits in every seat). The team games play deal after deal of a running match (it
goes on from the rotations' results in turn), a new one for every block of :data:`BLOCK` deals;
in Rams the unit is a whole match from the same shuffles, and the points are match wins. Blocks
can be spread over processes (``--jobs``) with the same figures.

Points per deal are those of :func:`engine.players.strong.worth`: Striche (Bauernstoß, Alter
Schafkopf), points and melds (Bauerchen), the points counted down and set back (Bauer). A team's
points go half to each of its two seats' kinds.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import engine
from bot.table.computer import act, kind_of, offer
from engine.players.playout import play_out
from engine.players.strong import samples_for, worth
from engine.state import State

__all__ = ["arena"]

Z95 = 1.96


class _Seats:
    """The kind of every seat in one rotation, and the decision times of each kind."""

    def __init__(self, kinds: list[str], rng: random.Random, samples: int | None,
                 times: dict[str, list[float]]) -> None:
        self.kinds = kinds
        self.deciders = [kind_of(k) for k in kinds]
        self.rng = rng
        self.samples = samples
        self.times = times

    def act(self, state: State, seat: int) -> engine.Action:
        """The timed action of the seat to act."""
        start = time.perf_counter()
        action = act(self.deciders[seat], state, seat, self.rng, self.samples)
        self.times[self.kinds[seat]].append(time.perf_counter() - start)
        return action

    def offer(self, state: State, seat: int) -> engine.Action | None:
        """The timed out-of-turn decision of ``seat``."""
        start = time.perf_counter()
        action = offer(self.deciders[seat], state, seat, self.rng, self.samples)
        self.times[self.kinds[seat]].append(time.perf_counter() - start)
        return action

    def play(self, state: State) -> None:
        """Play ``state``'s deal to its end in place, every action checked."""
        if not play_out(state, self.act, self.offer, check=True):
            raise RuntimeError("a deal did not end")


def _rotations(game: str, n: int) -> int:
    """How many seatings a deal is played in: both sides in team games, every seat in Rams."""
    return n if game == "rams" else 2


BLOCK = 20
"""Paired deals per block: a block is one running match with its own shuffles and decision random
numbers, so blocks can be played in any process and in any order with the same results."""


def arena(game: str, deals: int, seed: int, seats: list[str], players: int | None = None,
          options: dict | None = None, samples: int | None = None, jobs: int = 1) -> dict[str, Any]:
    """Play ``deals`` paired deals (Rams: matches) between the kinds in ``seats``; return the figures.

    ``seats`` names one kind per seat, or fewer, repeated round the table (``strong,heuristic``
    at four seats: strong in seats 1 and 3). The deals are played in blocks of :data:`BLOCK`,
    spread over ``jobs`` processes (each pinned to one core where the platform allows it); the
    figures do not depend on ``jobs``, only the decision times may. ``samples`` caps the strong
    player's sampled deals per decision (``None``: the game's default, ``strong.samples_for``).
    ``ValueError`` for a bad game, kind or number.
    """
    if deals < 1:
        raise ValueError("--deals must be at least 1")
    if samples is not None and samples < 1:
        raise ValueError("--samples must be at least 1")
    if jobs < 1:
        raise ValueError("--jobs must be at least 1")
    kinds = [k.strip() for k in seats]
    for k in kinds:
        kind_of(k)
    first = engine.new_match(game, random.Random(seed), players, options)
    n = first.n
    if not kinds or n % len(kinds):
        raise ValueError(f"--seats must name 1 to {n} kinds that repeat evenly round {n} seats")
    by_seat = [kinds[s % len(kinds)] for s in range(n)]
    blocks = [(game, n, options, seed, by_seat, samples, b, min(BLOCK, deals - b))
              for b in range(0, deals, BLOCK)]
    if jobs == 1 or len(blocks) == 1:
        played = [_block(*b) for b in blocks]
    else:
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(jobs, len(blocks)), ctx, initializer=_pin,
                                 initargs=(ctx.Value("i", 0),)) as pool:
            played = list(pool.map(_block, *zip(*blocks)))
    units = [u for block_units, _ in played for u in block_units]
    times: dict[str, list[float]] = {k: [] for k in by_seat}
    for _, block_times in played:
        for k, ts in block_times.items():
            times[k] += ts
    return {
        "game": game,
        "players": n,
        "seed": seed,
        "options": first.options.model_dump(),
        "seats": by_seat,
        "unit": "match" if game == "rams" else "deal",
        "deals": deals,
        "rotations": _rotations(game, n),
        "samples": samples or samples_for(game),
        "kinds": {k: _figures(k, units, times[k]) for k in times},
    }


def _pin(counter) -> None:
    """Pin this worker process to its own core (the next in turn), where the platform allows it."""
    with counter.get_lock():
        mine = counter.value
        counter.value += 1
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[mine % len(cpus)]})


def _block(game: str, n: int, options: dict | None, seed: int, by_seat: list[str], samples: int | None,
           start: int, count: int) -> tuple[list[dict[str, float]], dict[str, list[float]]]:
    """Play the paired deals ``start`` to ``start + count - 1``: their points per kind, and the decision times."""
    rotations = _rotations(game, n)
    times: dict[str, list[float]] = {k: [] for k in by_seat}
    rng = random.Random(f"{seed}:{start}:decisions")
    state = engine.new_match(game, random.Random(seed if not start else f"{seed}:{start}"), n, options)
    units: list[dict[str, float]] = []
    for i in range(start, start + count):
        unit = {k: 0.0 for k in times}
        for r in range(rotations):
            seated = _Seats([by_seat[(s + r) % n] for s in range(n)], rng, samples, times)
            if game == "rams":
                played = _rams_match(game, n, options, seed, i, seated)
                unit[seated.kinds[played.match["winner"]]] += 1
            else:
                played = state.clone()
                seated.play(played)
                for s, points in enumerate(worth(played)):
                    unit[seated.kinds[s]] += points / 2
                if r == i % rotations:
                    going_on = played
        units.append(unit)
        if game != "rams":
            deal_rng = random.Random(seed * 1_000_003 + i)
            state = (engine.new_match(game, deal_rng, n, options, dealer=deal_rng.randrange(n))
                     if engine.match_over(going_on) else engine.next_deal(going_on, deal_rng))
    return units, times


def _rams_match(game: str, n: int, options: dict | None, seed: int, i: int, seated: _Seats) -> State:
    """Match ``i`` of Rams from its own shuffles (the same in every rotation), played to its end."""
    deal_rng = random.Random(seed * 1_000_003 + i)
    state = engine.new_match(game, deal_rng, n, options, dealer=i % n)
    while True:
        seated.play(state)
        if engine.match_over(state):
            return state
        state = engine.next_deal(state, deal_rng)


def _figures(kind: str, units: list[dict[str, float]], times: list[float]) -> dict[str, Any]:
    """Points share with its 95% half-width (ratio estimate over the paired units) and decision times."""
    mine = [u[kind] for u in units]
    total = [sum(u.values()) for u in units]
    all_points = sum(total)
    share = sum(mine) / all_points if all_points else 0.5
    m = len(units)
    if m > 1 and all_points:
        resid = sum((a - share * t) ** 2 for a, t in zip(mine, total))
        ci = Z95 * math.sqrt(resid * m / (m - 1)) / all_points
    else:
        ci = 1.0
    ms = sorted(x * 1000 for x in times)
    return {
        "points_share": round(share, 4),
        "ci95": round(ci, 4),
        "points": round(sum(mine), 2),
        "decisions": len(ms),
        "decision_ms": {
            "p50": round(_quantile(ms, 0.5), 3),
            "p95": round(_quantile(ms, 0.95), 3),
            "max": round(ms[-1], 3) if ms else 0.0,
        },
    }


def _quantile(sorted_ms: list[float], q: float) -> float:
    """The ``q`` quantile of sorted figures (nearest rank); 0 for none."""
    if not sorted_ms:
        return 0.0
    return sorted_ms[min(len(sorted_ms) - 1, max(0, math.ceil(q * len(sorted_ms)) - 1))]
