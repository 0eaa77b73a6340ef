"""The window before the first lead closed by its timer on the fake Telegram: nobody pressed »Weiter«, the wait
ran out, and the person to lead gets a hand he can lead from, and the deal goes on."""

from __future__ import annotations

import time

from tests.fakes.telegram.harness import FAST, card_to_play, fake_for, newest, open_table, running_bot, until
from tests.servicekit import TurnWatch

GROUP = -100778


async def test_a_window_closed_by_its_timer_leaves_the_leader_a_hand_to_lead_from(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        users = [tg.user(41 + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
        now = [time.time()]
        async with running_bot(tg, store, redis, key_prefix, FAST, clock=lambda: now[0]):
            tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
            watch = TurnWatch(store, tid)
            await watch.look()
            if watch.state.phase == "name":
                namer, hand, token = await card_to_play(tg, store, users, tid)
                await tg.wait_answer(namer.press(hand, data=token))
            await tg.wait_for(lambda: all(newest(tg, u.id, tid) for u in users), what="the four hands")
            await watch.look()
            assert watch.declaring, "somebody's window before the first lead is open"
            seen = watch.version
            now[0] += 3600  # nobody presses »Weiter«: the window's wait runs out, its timer closes it

            async def closed() -> bool:
                await watch.look()
                return watch.version > seen and not watch.declaring
            await until(closed, "the window closed by its timer")
            for _ in range(3):  # the leader leads, the next two follow: each from the hand he was shown
                user, hand, token = await card_to_play(tg, store, users, tid)
                assert not (await tg.wait_answer(user.press(hand, data=token))).get("text")
