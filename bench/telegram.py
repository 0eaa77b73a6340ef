"""Telegram API calls per card and peak message rates in a fast 4-player game; prints figures.

Four simulated people play as fast as they can by pressing the buttons in their private chats;
the real bot (python-telegram-bot, service, store on a real Redis) talks to the fake Bot API
server of the tests, which enforces Telegram's limits (20 messages a minute per group, one a
second per chat) and answers 429 when they are exceeded. ``--scale`` shrinks every window by
the same factor (1 = Telegram's real limits; 0.1 plays ten times faster at the same ratios).

    .venv/bin/python bench/telegram.py [--game bauerchen] [--deals 2] [--scale 0.25] [--humans 4]

Printed: API calls per card played (every call but getUpdates and the start-up calls), the peak
number of messages to the group in any group window and to one chat in any chat window, and
the number of 429 answers. Aim: at most 2 calls per card, the peaks within the limits, no 429.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # not bench/, whose telegram.py would shadow the SDK

from bot.redis_conn import connect  # noqa: E402
from bot.settings import load_settings  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.fake_telegram.harness import FAST, Players, fake_for, open_table, running_bot, watching  # noqa: E402

GROUP = -100200300
START_UP = {"getMe", "getUpdates", "setMyCommands", "deleteWebhook", "setWebhook"}
SENDS = {"sendMessage", "editMessageText"}


def peak(times: list[float], window: float) -> int:
    """The largest number of ``times`` within any window of ``window`` seconds."""
    times, best, lo = sorted(times), 0, 0
    for hi, t in enumerate(times):
        while times[lo] <= t - window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


async def bench(game: str, deals: int, scale: float, humans: int = 4) -> dict:
    """Play ``deals`` deals of ``game`` with ``humans`` fast people and computer players in the other seats."""
    tuning = FAST.model_copy(update={"group_window_s": 60.0 * scale, "chat_window_s": 1.0 * scale,
                                     "slack_s": 0.02 * scale, "lazy_s": 2.0 * scale, "tick_interval_s": 1.0})
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(data_dir=Path(tmp))
        redis = await connect(settings)
        prefix = f"bench{secrets.token_hex(4)}"
        store = Store(redis, prefix=prefix)
        try:
            async with fake_for(tuning) as tg:
                tg.group(GROUP, "Stammtisch Bench")
                users = [tg.user(21 + i, name, started=True) for i, name in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
                users = users[:humans]
                async with running_bot(tg, store, redis, prefix, tuning):
                    table_id = await open_table(tg, GROUP, users[0], users[1:], game, computers=4 - humans)
                    first = len(tg.calls)
                    t0 = time.monotonic()

                    players = Players(tg, users, table_id, seed=1, careful=True)
                    async with watching(store, table_id) as latest:
                        await players.play(lambda: latest() is not None and (latest().deals >= deals or
                                                                             latest().status != "playing"),
                                           timeout=3600)
                    elapsed = time.monotonic() - t0
                    calls = [c for c in tg.calls[first:] if c[1] not in START_UP]
                    moves = [m for e in await store.log(table_id) for m in json.loads(e)["moves"]]
                    cards = sum(1 for m in moves if m.get("a", {}).get("action") == "play")
        finally:
            keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
            if keys:
                await redis.unlink(*keys)
            await redis.aclose()
    sends = [(t, p["chat_id"]) for t, m, p, status in calls if m in SENDS and status == 200]
    chats = {c for _, c in sends}
    return {
        "game": game, "humans": humans, "deals": deals, "scale": scale, "seconds": round(elapsed, 1), "cards": cards,
        "api_calls": len(calls), "calls_per_card": round(len(calls) / max(cards, 1), 2),
        "by_method": {m: sum(1 for c in calls if c[1] == m) for m in sorted({c[1] for c in calls})},
        "group_messages": sum(1 for _, c in sends if int(c) == GROUP),
        "private_messages": sum(1 for _, c in sends if int(c) != GROUP),
        "peak_group_per_window": peak([t for t, c in sends if int(c) == GROUP], tuning.group_window_s),
        "group_limit": f"{tuning.group_messages} per {tuning.group_window_s:g} s",
        "peak_chat_per_window": max((peak([t for t, c in sends if c == chat], tuning.chat_window_s) for chat in chats),
                                    default=0),
        "chat_limit": f"{tuning.chat_messages} per {tuning.chat_window_s:g} s",
        "answers_429": len(tg.violations),
    }


def main() -> None:
    """Parse the arguments, run the benchmark, print the figures as JSON."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="bauerchen")
    p.add_argument("--deals", type=int, default=2)
    p.add_argument("--scale", type=float, default=0.25, help="window scale: 1 = Telegram's real limits")
    p.add_argument("--humans", type=int, default=4, choices=range(1, 5),
                   help="people at the table; computers sit in the other seats")
    args = p.parse_args()
    print(json.dumps(asyncio.run(bench(args.game, args.deals, args.scale, args.humans)), indent=2))


if __name__ == "__main__":
    main()
