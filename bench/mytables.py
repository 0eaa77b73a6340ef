"""»Meine Tische« (``/tische``): the answer's latency for a person at many tables among many.

    .venv/bin/python bench/mytables.py [--his 300] [--tables 10000] [--calls 200] [--on server|env] [--quick]

One started table (four people, Bauerchen) is opened through the service; its record is copied into
``--tables`` tables in as many chats, ``--his`` of them seating the one person asked for (the others seat
other people). Then ``tische`` is typed in his private chat ``--calls`` times, through the service's
``handle`` as an adapter calls it: p50 and p95 of its answer, the CPU the bot's process spent on one
(p50: a figure a busy machine stretches less), and how many rows and pages it had.
The per-person table cap is set to ``--his``, so every one of his tables is listed.

``--on server`` starts a Redis server of its own (``tests/redis_servers.py``); ``--on env`` uses
``REDIS_URL`` or the embedded Redis. Keys get a prefix of their own and are deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import service as bench  # noqa: E402  (bench/service.py)

from bench.quick import parse  # noqa: E402
from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol.outgoing import ChatRef, Command, TableList, UserRef  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store.connection import connect  # noqa: E402
from bot.store.tables import Store  # noqa: E402
from bot.table.record import Seat, Table  # noqa: E402

HIM = UserRef("bench", "him", "Er")


async def fill(store: Store, model: Table, count: int, his: int) -> None:
    """``count`` copies of ``model`` in chats of their own; the first ``his`` seat :data:`HIM` in seat 0."""
    batch = []
    for i in range(count):
        seats = [Seat(user=f"bench:o{i}-{k}", name=f"P{k}") for k in range(model.n)]
        if i < his:
            seats[0] = Seat(user=HIM.key, name=HIM.name)
        chat = ChatRef("bench", f"g{i}", title=f"Gruppe {i}")
        table = model.model_copy(update={"id": store.new_id(), "chat": chat, "seats": seats,
                                         "since": model.since - i * 60})
        batch.append(store.create(table.id, chat.key, table.dump(), table.user_keys()))
        if len(batch) == 200:
            await asyncio.gather(*batch)
            batch.clear()
    await asyncio.gather(*batch)


async def run(his: int, count: int, calls: int) -> None:
    prefix = f"bench{secrets.token_hex(4)}"
    redis = await connect(load_settings())
    store = Store(redis, prefix=prefix)
    svc = Service(store, load_settings(max_tables_per_user=max(his, 1)))
    try:
        opened = await bench.open_tables(svc, "model", 1)
        model = Table.load((await store.load(next(iter(opened))))[1])
        t0 = time.perf_counter()
        await fill(store, model, count, his)
        print(f"{count} tables stored, {his} of them his, in {time.perf_counter() - t0:.1f} s")
        private = ChatRef("bench", HIM.user_id, private=True)
        times, cpu, shown = [], [], None
        for _ in range(calls):
            t0, c0 = time.perf_counter(), time.process_time()
            shown = await svc.handle(Command(private, HIM, verb="tische"))
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        listing = next(o for o in shown if isinstance(o, TableList))
        print(f"tische, {his} tables of his among {count}, {calls} calls: p50 {bench.pct(times, 50) * 1000:.1f} ms"
              f"  p95 {bench.pct(times, 95) * 1000:.1f} ms; the bot's CPU per answer p50 "
              f"{bench.pct(cpu, 50) * 1000:.1f} ms ({len(listing.rows)} rows on the first page: {listing.head})")
    finally:
        await redis.aclose()
        await bench.cleanup(prefix)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--his", type=int, default=300, help="tables the person asking sits at")
    p.add_argument("--tables", type=int, default=10_000, help="tables in the store")
    p.add_argument("--on", default="server", help="server (one started here) or env (REDIS_URL or embedded)")
    p.add_argument("--calls", type=int, default=200, help="answers timed")
    args = parse(p, his=12, tables=40, calls=5, on="env")
    with bench.redis_for(args.on) as name:
        print(f"on {name}")
        asyncio.run(run(args.his, max(args.tables, args.his), args.calls))


if __name__ == "__main__":
    main()
