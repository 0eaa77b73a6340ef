"""The group's memory: what recording costs a finishing move, queries on a full chat, Redis memory per match.

    .venv/bin/python bench/memory.py [--matches 10000] [--people 12] [--saves 400] [--seeds 30] [--calls 200]
                                     [--on server|env] [--quick]

- the cost recording adds to a finishing move: the store's save of a finished table with its journal
  against the same save without one (p50 of ``--saves`` each, alternating), and building the journal;
- counting (``absorb``) per match, with its deals, while ``--matches`` matches of all five games
  among ``--people`` people and the computers fill one chat (matches the engine played, their
  outcomes given new tables, people and times);
- ``ranking`` and ``stats`` on that chat: p50 and p99 of ``--calls`` calls each;
- Redis memory of the chat (MEMORY USAGE of each key): the history and rating history per match, and
  everything over the matches.

``--on server`` starts a Redis server of its own (``tests/redis_servers.py``); ``--on env`` uses
``REDIS_URL`` or the embedded Redis. Keys get a prefix of their own and are deleted afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import service as bench  # noqa: E402  (bench/service.py)

from bench.quick import parse  # noqa: E402

from bot import memory  # noqa: E402
from bot.memory.journal import INBOX, decode  # noqa: E402
from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol.outgoing import ChatRef  # noqa: E402
from bot.store.connection import connect  # noqa: E402
from bot.store.tables import Store  # noqa: E402
from bot.table.record import Seat  # noqa: E402
from tests.bot.memory.kit import people, played  # noqa: E402

CHAT = ChatRef("bench", "chat1", title="Bench")
GROUP = f"{CHAT.platform}:{CHAT.chat_id}"
SEEDS = 30
"""Matches the engine plays per game; the chat's matches are these, given new people, tables and times."""


def seed_matches(seeds: int = SEEDS) -> list[list]:
    """Played matches (each its steps) of every game, ``seeds`` of each."""
    out = []
    for game in memory.GAMES:
        for seed in range(seeds):
            seats = people(5 if game == "rams" else 2) + ([Seat(bot=True, level="normal")] if game == "rams" else [])
            out.append(played(game, seats, seed=seed, chat=CHAT, table_id=f"S{seed}"))
    return out


async def _evalsha(redis) -> tuple[int, int]:
    """Calls and microseconds of EVALSHA the server counted so far (its own time, not the client's)."""
    stats = (await redis.info("commandstats")).get("cmdstat_evalsha", {})
    return int(stats.get("calls", 0)), int(stats.get("usec", 0))


async def recording_cost(store: Store, book: memory.Book, matches: list[list], saves: int) -> None:
    """The save of a finishing move with its journal against without one; the journal's building."""
    times: dict[bool, list[float]] = {True: [], False: []}
    server: dict[bool, list[float]] = {True: [], False: []}
    built = []
    for i in range(saves * 2):
        steps = matches[i % len(matches)]
        last, with_journal = steps[-1], i % 2 == 0
        table_id = store.new_id()
        data = last.table.model_copy(update={"id": table_id}).dump()
        await store.create(table_id, f"{CHAT.key}{i}", data, last.table.user_keys())
        start = time.perf_counter()
        entries = memory.journal(book, last.table, last.news, last.at) if with_journal else None
        if with_journal:
            built.append(time.perf_counter() - start)
        calls, usec = await _evalsha(book.redis)
        start = time.perf_counter()
        await store.save(table_id, 1, data, status="finished", user_keys=last.table.user_keys(),
                         chat_key=f"{CHAT.key}{i}", journal=entries)
        times[with_journal].append(time.perf_counter() - start)
        after_calls, after_usec = await _evalsha(book.redis)
        if after_calls == calls + 1:
            server[with_journal].append(after_usec - usec)
    with_, without = statistics.median(times[True]), statistics.median(times[False])
    if server[True] and server[False]:
        in_redis = statistics.median(server[True]) - statistics.median(server[False])
        counted = (f"in Redis's own count the script takes {in_redis:.0f} µs more (p50 "
                   f"{statistics.median(server[True]):.0f} against {statistics.median(server[False]):.0f} µs)")
    else:  # a Redis other clients use: their scripts ran between every save and its count
        counted = "Redis's own count not taken (other clients' scripts ran meanwhile)"
    print(f"finishing save, {saves} each: p50 with journal {with_ * 1000:.3f} ms, without {without * 1000:.3f} ms "
          f"(the client's clock); {counted}; building the journal {statistics.median(built) * 1000:.3f} ms (p50)")
    await book.redis.delete(book.key(GROUP, INBOX))


def renamed(texts: list[str], pool: list[tuple[str, str]], table_id: str, at: float, rng: random.Random) -> list[str]:
    """A played match's inbox entries as another match: new table, people from ``pool``, a later time."""
    chosen = rng.sample(pool, len(pool))
    out = []
    for text in texts:
        entry = decode(text)
        entry.table, entry.at = table_id, at
        for i, seat in enumerate(entry.seats):
            if seat.user:
                seat.user, seat.name = chosen[i]
        out.append(entry.model_dump_json(exclude_defaults=True))
    return out


async def fill(book: memory.Book, matches: list[list], count: int, people_count: int, apart_s: float = 600.0) -> None:
    """``count`` matches in the chat, ``apart_s`` seconds apart up to now, counted; prints the counting's cost per
    match."""
    rng = random.Random(1)
    pool = [(f"bench:u{i}", f"Person {i}") for i in range(people_count)]
    journals = [[text for step in steps if (j := memory.journal(book, step.table, step.news, step.at))
                 for _, text in j.entries] for steps in matches]
    inbox, counted, start = book.key(GROUP, INBOX), 0.0, time.time() - count * apart_s
    deals = 0
    for n in range(count):
        texts = renamed(journals[n % len(journals)], pool, f"B{n}", start + n * apart_s, rng)
        deals += len(texts) - 1
        await book.redis.rpush(inbox, *texts)
        if n % 100 == 99 or n == count - 1:
            t0 = time.perf_counter()
            await memory.absorb(book, GROUP)
            counted += time.perf_counter() - t0
    print(f"{count} matches ({deals} deals) of {len(memory.GAMES)} games among {people_count} people counted: "
          f"{counted:.1f} s, {counted / count * 1000:.2f} ms per match with its deals")


async def queries(book: memory.Book, calls: int) -> None:
    """p50 and p99 of ranking and stats on the full chat, ``calls`` calls each."""
    who = await memory.who_of(book, GROUP, "bench:u0")
    for name, call in (("ranking bauer", lambda: memory.ranking(book, GROUP, "bauer")),
                       ("ranking rams", lambda: memory.ranking(book, GROUP, "rams")),
                       ("stats of one person, all games", lambda: memory.stats(book, GROUP, who)),
                       ("stats of one person, one game", lambda: memory.stats(book, GROUP, who, "bauerchen"))):
        times = []
        for _ in range(calls):
            t0 = time.perf_counter()
            await call()
            times.append(time.perf_counter() - t0)
        print(f"{name}: p50 {statistics.median(times) * 1000:.2f} ms  p99 {bench.pct(times, 99) * 1000:.2f} ms")


async def usage(book: memory.Book, count: int) -> None:
    """Redis memory of the chat's keys, per match."""
    sizes: dict[str, int] = {}
    async for key in book.redis.scan_iter(match=f"{book.base(GROUP)}*", count=1000):
        part = key.removeprefix(book.base(GROUP)).split(":")[0]
        sizes[part] = sizes.get(part, 0) + (await book.redis.memory_usage(key, samples=0) or 0)
    per_match = sizes.get("h", 0) + sizes.get("rh", 0)
    total = sum(sizes.values())
    kept = min(count, book.cap)
    print(f"Redis memory: history {sizes.get('h', 0) / kept:.0f} B + rating history {sizes.get('rh', 0) / kept:.0f} B "
          f"= {per_match / kept:.0f} B per match; the whole chat {total / 1e6:.2f} MB = {total / kept:.0f} B per match "
          f"(by key: {', '.join(f'{k} {v / 1e3:.0f} kB' for k, v in sorted(sizes.items()))})")


async def run(matches_count: int, people_count: int, saves: int, seeds: int, calls: int) -> None:
    prefix = f"bench{secrets.token_hex(4)}"
    redis = await connect(load_settings())
    store, book = Store(redis, prefix=prefix), memory.Book(redis, prefix)
    try:
        t0 = time.perf_counter()
        matches = seed_matches(seeds)
        print(f"{len(matches)} matches played by the engine in {time.perf_counter() - t0:.1f} s")
        await recording_cost(store, book, matches, saves)
        await fill(book, matches, matches_count, people_count)
        await queries(book, calls)
        await usage(book, matches_count)
    finally:
        keys = [k async for k in redis.scan_iter(match=f"{prefix}:*", count=1000)]
        for i in range(0, len(keys), 500):
            await redis.unlink(*keys[i:i + 500])
        await redis.aclose()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=10_000, help="matches recorded in the chat")
    p.add_argument("--people", type=int, default=12, help="people playing in the chat")
    p.add_argument("--saves", type=int, default=400, help="finishing saves timed with and without the journal")
    p.add_argument("--seeds", type=int, default=SEEDS, help="matches the engine plays per game")
    p.add_argument("--calls", type=int, default=200, help="calls timed per query")
    p.add_argument("--on", default="server", help="server (one started here) or env (REDIS_URL or embedded)")
    args = parse(p, matches=20, people=6, saves=5, seeds=1, calls=5, on="env")
    with bench.redis_for(args.on) as name:
        print(f"on {name}")
        asyncio.run(run(args.matches, args.people, args.saves, args.seeds, args.calls))


if __name__ == "__main__":
    main()
