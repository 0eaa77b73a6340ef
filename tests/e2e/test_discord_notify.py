"""Turn notifications on Discord: a slow player's turn arrives as a new DM, a fast game only edits.

The real discord.py client and service against the fake Discord, time driven by a test clock.
"""

from __future__ import annotations

import time

from bot.ops.settings import load_settings
from bot.service import Service
from tests.fakes.discord.harness import (FAST, fake_for, hand_of, let_windows_pass, open_table, press, running_bot,
                                        settled, table_tokens, version)
from tests.servicekit import TurnWatch

GUILD = 82_000_000_000_000_000
CHANNEL = 82_000_000_000_000_100
T0 = 1_800_000_000.0


async def test_a_slow_turn_is_a_new_dm_and_a_fast_one_an_edit(store, redis, key_prefix):
    now = [T0]
    async with fake_for(FAST) as fake:
        fake.guild(GUILD, "Stammtisch Lautern", {CHANNEL: "karten"})
        members = [fake.member(2000 + i, n) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
        by_key = {f"discord:{m.id}": m for m in members}
        service = Service(store, load_settings(), clock=lambda: now[0])
        async with running_bot(fake, store, redis, key_prefix, service=service) as bot:
            tid = await open_table(fake, CHANNEL, members[0], members[1:], "bauer")

            watch = TurnWatch(store, tid)

            async def to_act():
                await let_windows_pass(fake, store, CHANNEL, tid, members)  # nobody goes alone: the play is this test's
                await watch.look()
                return watch.since, by_key[watch.to_act], watch.allowed

            async def hand_for(since, member, allowed=None):
                def ready():
                    m = hand_of(fake, member, CHANNEL, tid)
                    acts = [t for t in table_tokens(m, tid) if t.verb == "act" and t.version >= since
                            and (allowed is None or t.arg in allowed)] if m else []
                    return (m, acts[0]) if acts else None
                return await fake.wait_for(ready, what=f"{member.name}'s hand of version {since}")

            async def move(step: float) -> tuple[str, str, list[int]]:
                """The player to act presses a card after ``step`` seconds; who, who is next, new DMs."""
                valid, member, allowed = await to_act()
                message, token = await hand_for(valid, member, allowed)
                since, shown = time.monotonic(), version(fake, CHANNEL, tid)
                now[0] += step
                await press(fake, member, message, str(token))
                await fake.wait_for(lambda: version(fake, CHANNEL, tid) > shown, what="the table to show the move")
                await settled(bot)  # what the move sent was queued with the table message
                _, nxt, _ = await to_act()
                dm_channels = {c: u for u, c in fake.dm_of.items()}
                posts = [dm_channels[c.channel] for c in fake.rest_calls(since)
                         if c.method == "POST" and c.channel in dm_channels and c.status == 200]
                return member.name, nxt.name, posts

            await fake.wait_for(lambda: all(hand_of(fake, m, CHANNEL, tid) for m in members), what="every hand")
            await settled(bot)
            fast = [await move(3) for _ in range(8)]
            assert all(posts == [] for _, _, posts in fast), f"fast play only edits: {fast}"
            slow = [await move(600) for _ in range(8)]
            for who, nxt, posts in slow:
                expected = [] if who == nxt else [next(m.id for m in members if m.name == nxt)]
                assert posts == expected, (who, nxt, posts, slow)
            assert any(posts for _, _, posts in slow)
            for m in members:  # each old hand was deleted: one hand message per player
                assert len(fake.dms(m.id)) == 1, [x.content for x in fake.dms(m.id)]
