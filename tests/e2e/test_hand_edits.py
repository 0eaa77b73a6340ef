"""A hand's edits on the fake Telegram: a hand that only loses choices (»Weiter« pressed, Ledig gone with the
first card) keeps its buttons and waits for its next change, so choices going one by one cost one edit."""

from __future__ import annotations

import time

from tests.fakes.telegram.harness import FAST, card_to_play, fake_for, let_windows_pass, newest, open_table, running_bot
from tests.servicekit import TurnWatch

GROUP = -100777
TUNING = FAST.model_copy(update={"lazy_s": 60.0})
"""A hand that only lost choices waits up to a minute for its next change (the test is over long before)."""


def edits(tg, chat_id: int, since: int) -> int:
    return sum(1 for _, m, p, status in tg.calls[since:]
               if m in ("sendMessage", "editMessageText") and int(p.get("chat_id", 0)) == chat_id and status == 200)


async def test_choices_that_go_one_by_one_ride_on_the_hands_next_card(store, redis, key_prefix):
    async with fake_for(TUNING) as tg:
        tg.group(GROUP, "Stammtisch")
        users = [tg.user(31 + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
        now = time.time()  # the service's clock stands still: no timer closes a window or plays a card
        async with running_bot(tg, store, redis, key_prefix, TUNING, clock=lambda: now):
            tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
            watch = TurnWatch(store, tid)
            await watch.look()
            if watch.state.phase == "name":  # the rest of the cards come once trump is named
                namer, hand, token = await card_to_play(tg, store, users, tid)
                await tg.wait_answer(namer.press(hand, data=token))
            await tg.wait_for(lambda: all(newest(tg, u.id, tid) for u in users), what="the four hands")
            dealt = len(tg.calls)
            await let_windows_pass(tg, store, tid, users)  # each hand that offered »Weiter« loses it
            leader, hand, token = await card_to_play(tg, store, users, tid)
            assert not (await tg.wait_answer(leader.press(hand, data=token))).get("text")  # Ledig goes from every hand
            second, hand, token = await card_to_play(tg, store, users, tid)
            shown = [b["text"] for b in hand.buttons]
            assert "Ledig" in shown and edits(tg, second.id, dealt) == 0, "his hand as dealt: no edit took Ledig away"
            assert not (await tg.wait_answer(second.press(hand, data=token))).get("text"), "a card of it plays"

            def labels() -> list[str]:
                return [b["text"] for b in newest(tg, second.id, tid).buttons]
            await tg.wait_for(lambda: len(labels()) < len(shown) - 1, what="the card and Ledig gone from his hand")
            assert "Ledig" not in labels() and "Weiter" not in labels(), "the choices gone went with the card"
            assert edits(tg, second.id, dealt) == 1, "one edit for his card and the choices gone before it"
            others = [u for u in users if u not in (leader, second)]
            assert [edits(tg, u.id, dealt) for u in others] == [0, 0], "the others' hands wait for their cards"
