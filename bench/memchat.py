"""The group's memory as the chat sees it: the answers to its commands on a chat of 10,000 matches, whole.

    .venv/bin/python bench/memchat.py [--matches 10000] [--people 12] [--seeds 30] [--calls 100] [--on server|env]
                                      [--quick]

The chat is filled as ``bench/memory.py`` fills it; then each command goes through the real service
(parsing, the memory's queries, the words), as a typed command in the group: ``statistik NAME``,
``rangliste bauer``, ``verlauf``, ``verlauf NR``, ``abend``: p50 and p99 of ``--calls`` calls each, and the
longest answer in characters (every one must fit one message, 2,000). ``export`` and ``bild`` once each
(they are limited to once a minute per chat): their time and their files' sizes against the platforms'
limits (Discord 10 MB a message, Telegram 50 MB a document and 10 MB a photo).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import service as bench  # noqa: E402  (bench/service.py: pct, redis_for)
from memory import CHAT, SEEDS, fill, seed_matches  # noqa: E402  (bench/memory.py fills the chat)

from bench.quick import parse  # noqa: E402

from bot.ops.settings import load_settings  # noqa: E402
from bot.protocol.outgoing import FILES_MAX_BYTES, Command, FileMessage, Notice, UserRef  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store.connection import connect  # noqa: E402
from bot.store.tables import Store  # noqa: E402

async def answer(svc: Service, line: str, n: int) -> tuple[float, list]:
    """Seconds one typed command took, and its effects."""
    verb, *args = line.split()
    cmd = Command(CHAT, UserRef("bench", f"u{n % 12}", f"Person {n % 12}"), verb=verb, args=tuple(args))
    t0 = time.perf_counter()
    out = await svc.handle(cmd)
    return time.perf_counter() - t0, out


async def run(matches_count: int, people_count: int, seeds: int, calls: int) -> None:
    prefix = f"bench{secrets.token_hex(4)}"
    settings = load_settings(answers_per_minute=1000)
    redis = await connect(settings)
    svc = Service(Store(redis, prefix=prefix), settings)
    try:
        # a second apart: »abend« finds them today whenever it runs (10 minutes apart, a run after midnight in the
        # chat's time zone found none)
        await fill(svc.tables.book, seed_matches(seeds), matches_count, people_count, apart_s=1.0)
        newest = matches_count
        for line in ("statistik Person 3", "rangliste bauer", "verlauf", f"verlauf {newest}", "abend"):
            times, longest = [], 0
            for n in range(calls):
                took, out = await answer(svc, line, n)
                (notice,) = [o for o in out if isinstance(o, Notice)] or [None]
                assert notice is not None, (line, out)
                times.append(took)
                longest = max(longest, len(notice.text))
            print(f"{line}: p50 {statistics.median(times) * 1000:.1f} ms  p99 {bench.pct(times, 99) * 1000:.1f} ms  "
                  f"longest answer {longest} characters")
        for line in ("export", "bild bauer"):
            took, out = await answer(svc, line, 0)
            files = [f for o in out if isinstance(o, FileMessage) for f in o.files]
            assert files, (line, out)
            sizes = ", ".join(f"{f.filename} {len(f.data) / 1e6:.2f} MB" for f in files)
            print(f"{line}: {took * 1000:.0f} ms  {sizes} (together {sum(len(f.data) for f in files) / 1e6:.2f} MB, "
                  f"bound {FILES_MAX_BYTES / 1e6:.0f} MB)")
    finally:
        await redis.unlink(*[k async for k in redis.scan_iter(match=f"{prefix}:*", count=1000)] or ["-"])
        await redis.aclose()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, default, what in (("--matches", 10_000, "matches recorded in the chat"),
                                ("--people", 12, "people playing in the chat")):
        p.add_argument(flag, type=int, default=default, help=what)
    p.add_argument("--seeds", type=int, default=SEEDS, help="matches the engine plays per game")
    p.add_argument("--calls", type=int, default=100, help="calls timed per text command")
    p.add_argument("--on", default="server", help="server (one started here) or env (REDIS_URL or embedded)")
    args = parse(p, matches=20, people=6, seeds=1, calls=5, on="env")
    with bench.redis_for(args.on) as name:
        print(f"on {name}")
        asyncio.run(run(args.matches, args.people, args.seeds, args.calls))


if __name__ == "__main__":
    main()
