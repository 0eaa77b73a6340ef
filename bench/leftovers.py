"""Redis memory per table, and what finished tables leave behind after the retention time.

    .venv/bin/python bench/leftovers.py [--tables 10000] [--retention 5] [--on server|cluster|env] [--quick]

Opens ``--tables`` group tables with four people each through the service (with the metrics'
table counts on), deals them and plays a few moves, and prints the Redis memory per playing
table. Then the players end every table (``abbrechen``, three votes of four, with update ids as a
platform sends them) through a service whose store keeps finished tables and update markers
``--retention`` seconds instead of a day, and after that time it prints what is left: keys under
the run's prefix by kind, the shared timer and table-count sets, and Redis memory against the
start. Chat settings (``chatcfg``), a chat's note of the tables opened in it (``inchat``, kept
``abandoned_ttl`` after its last table) and the rate limiter's windows of its typed commands (``rl``,
gone with their minute) belong to chats, not tables: they outlive the tables by design, and are
counted apart.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import itertools
import random
import re
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import service as bench  # noqa: E402  (bench/service.py)

from bench.quick import parse  # noqa: E402

from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol.outgoing import Command  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store.connection import connect  # noqa: E402
from bot.store.counts import TableCounts  # noqa: E402
from bot.store.tables import Store  # noqa: E402

BATCH = 50
"""Tables opened at once (concurrently)."""


async def used_memory(redis) -> int:
    """Bytes Redis uses (summed over the nodes of a cluster)."""
    info = await redis.info("memory")
    if isinstance(info, dict) and "used_memory" not in info:  # a cluster: one dict per node
        return sum(node["used_memory"] for node in info.values())
    return info["used_memory"]


async def kinds(redis, prefix: str) -> collections.Counter:
    """Keys under ``prefix`` by kind (the key with ids replaced by ``*``)."""
    out: collections.Counter = collections.Counter()
    async for key in redis.scan_iter(match=f"{prefix}:*", count=1000):
        parts = re.sub(r"\{t:[^}]+\}", "{t:*}", key).split(":")[1:]
        out[":".join(parts[:2] if parts[0].startswith("{") else parts[:1])] += 1
    return out


async def run(tables: int, retention: int) -> None:
    settings = load_settings()
    redis = await connect(settings)
    prefix = f"left{secrets.token_hex(4)}"
    svc = Service(Store(redis, prefix=prefix), settings, rng=random.Random(1), counts=TableCounts(redis, prefix=prefix))
    short = Store(redis, prefix=prefix, finished_ttl=retention, seen_ttl=retention)
    ending = Service(short, settings, counts=TableCounts(redis, prefix=prefix, finished_ttl=retention))
    updates = itertools.count(1)
    try:
        base = await used_memory(redis)
        opened: dict[str, dict] = {}
        start = time.perf_counter()
        for first in range(0, tables, BATCH):
            for part in await asyncio.gather(*(bench.open_tables(svc, f"t{i}", 1)
                                               for i in range(first, min(tables, first + BATCH)))):
                opened.update(part)
        await bench.run_moves(svc, dict(opened), min(4 * tables, 20000), random.Random(2))
        seconds = time.perf_counter() - start
        playing = await used_memory(redis)
        print(f"{len(opened)} tables opened, dealt and played into in {seconds:.0f} s")
        print(f"Redis memory per playing table: {(playing - base) / len(opened):.0f} B "
              f"({(playing - base) / 1e6:.1f} MB for {len(opened)})")
        for t in opened.values():
            users = list(t["users"].values())
            for u in users[:3]:
                await ending.handle(Command(t["chat"], u, verb="abbrechen", update_id=str(next(updates))))
        ended = await used_memory(redis)
        print(f"after ending them: {(ended - base) / 1e6:.1f} MB above the start")
        await asyncio.sleep(retention + 1)
        left = await kinds(redis, prefix)
        chats, notes, windows = (left.pop(kind, 0) for kind in ("chatcfg", "inchat", "rl"))
        due = await redis.zcard(f"{prefix}:{{deadlines}}:due")
        stats = {state: await redis.zcard(f"{prefix}:{{stats}}:tables:{state}")
                 for state in ("lobby", "playing", "finished", "aborted")}
        after = await used_memory(redis)
        print(f"after the retention time ({retention} s): {sum(left.values())} keys of tables left {dict(left)}; "
              f"timers {due}; table counts {stats}; the chats': {chats} settings (kept a year per chat), {notes} "
              f"notes of their tables (14 days after the chat's last table), {windows} rate-limit windows (a minute); "
              f"Redis memory {(after - base) / 1e3:+.0f} kB against the start")
    finally:
        keys = [k async for k in redis.scan_iter(match=f"{prefix}:*", count=1000)]
        for key in keys:
            await redis.unlink(key)
        await redis.aclose()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=10000)
    p.add_argument("--retention", type=int, default=5, help="seconds every lifetime of the store is cut to")
    p.add_argument("--on", default="server", choices=["server", "cluster", "env"])
    args = parse(p, tables=4, retention=1, on="env")
    with bench.redis_for(args.on) as name:
        print(f"Redis: {name}")
        asyncio.run(run(args.tables, args.retention))


if __name__ == "__main__":
    main()
