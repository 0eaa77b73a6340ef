"""Turn notifications end to end: the real bot on the fake Bot API, time driven by a test clock."""

from __future__ import annotations

from tests.fakes.telegram.harness import (FAST, fake_for, let_windows_pass, newest, open_table, running_bot, settled,
                                         table_tokens, version)
from tests.servicekit import TurnWatch

GROUP = -100777
T0 = 1_800_000_000.0


async def test_a_slow_game_notifies_once_per_turn_and_a_fast_one_never(store, redis, key_prefix):
    now = [T0]
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        users = [tg.user(31 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
        by_key = {f"telegram:{u.id}": u for u in users}
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: now[0]) as bot:
            tid = await open_table(tg, GROUP, users[0], users[1:], "bauer")

            watch = TurnWatch(store, tid)

            async def to_act():
                await let_windows_pass(tg, store, tid, users)  # nobody goes alone: the play is this test's
                await watch.look()
                return watch.since, by_key[watch.to_act], watch.allowed

            async def hand_for(since, user, allowed=None):
                def ready():
                    m = newest(tg, user.id, tid)
                    acts = [t for t in table_tokens(m, tid) if t.verb == "act" and t.version >= since
                            and (allowed is None or t.arg in allowed)] if m else []
                    return (m, acts[0]) if acts else None
                return await tg.wait_for(ready, what=f"{user.first_name}'s hand of version {since}")

            async def move(step: float) -> tuple[str, str, list[int]]:
                """The player to act presses a card after ``step`` seconds; who, who is next, new private posts."""
                valid, user, allowed = await to_act()
                message, token = await hand_for(valid, user, allowed)
                before, shown = len(tg.calls), version(tg, GROUP, tid)
                now[0] += step
                await tg.wait_answer(user.press(message, data=str(token)))
                await tg.wait_for(lambda: version(tg, GROUP, tid) > shown, what="the table to show the move")
                await settled(tg, bot)  # what the move sent was queued with the table message
                _, nxt, _ = await to_act()
                posts = [int(p["chat_id"]) for _, m, p, status in tg.calls[before:]
                         if m == "sendMessage" and status == 200 and int(p["chat_id"]) > 0]
                return user.first_name, nxt.first_name, posts

            await tg.wait_for(lambda: all(tg.chat(u.id) for u in users), what="every hand")
            await settled(tg, bot)
            fast = [await move(3) for _ in range(10)]
            assert all(posts == [] for _, _, posts in fast), f"fast play only edits: {fast}"
            slow = [await move(600) for _ in range(10)]
            for who, nxt, posts in slow:
                expected = [] if who == nxt else [by_name(users, nxt).id]
                assert posts == expected, (who, nxt, posts, slow)
            assert any(posts for _, _, posts in slow)
            for u in users:  # each old hand was deleted: one hand message per player
                assert len(tg.chat(u.id)) == 1
        assert tg.violations == []


def by_name(users, name):
    return next(u for u in users if u.first_name == name)
