"""A player whose own seat's page of the web table is open gets no edits of his private hand in the chat
meanwhile (he plays on the page), and one catch-up edit once the page is closed. The page is noted in
Redis, so a chat adapter of any process holds the hand back."""

from __future__ import annotations

import time
from urllib.parse import quote

import aiohttp

from bot.protocol.outgoing import UserRef
from bot.store.watchers import WATCH_TTL_S
from tests.adapters.web.test_server import next_view, tap_of
from tests.adapters.web.test_web_in_chats import telegram_with_web
from tests.adapters.web.webkit import init_data
from tests.e2e.test_hand_edits import edits
from tests.fakes.telegram.harness import FAST, card_to_play, fake_for, newest, open_table, running_bot, settled, until
from tests.servicekit import TurnWatch

GROUP = -100556


async def test_no_hand_edit_while_his_page_is_open_and_one_when_it_closes(store, redis, key_prefix):
    async with telegram_with_web(store, redis, key_prefix, GROUP, 41) as (tg, users, bot, web):
        tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
        watch = TurnWatch(store, tid)
        await watch.look()
        if watch.state is not None and watch.state.phase == "name":  # the windows open once trump is named
            namer, hand, token = await card_to_play(tg, store, users, tid)
            await tg.wait_answer(namer.press(hand, data=token))
            await watch.look()
        user = next(u for u in users if watch.declares(u.id))
        await tg.wait_for(lambda: (m := newest(tg, user.id, tid)) and "Weiter" in [b["text"] for b in m.buttons],
                          what="his hand with »Weiter«")
        data = quote(init_data(user.id, time.time(), start_param=tid, bot_token=tg.token))
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"ws://127.0.0.1:{web.port}/ws?tg={data}") as ws:
                view = await next_view(ws)

                async def on_web() -> bool:
                    return await bot.service.on_web(tid, UserRef("telegram", str(user.id)))
                await until(on_web, "his page noted open")
                before = len(tg.calls)
                await ws.send_json(tap_of(view))  # »Weiter« on the page: his hand changes
                await next_view(ws, view["version"])

                async def held() -> bool:
                    return bot.outbox.holding(user.id)
                await until(held, "his hand's edit held back")
                assert edits(tg, user.id, before) == 0, "no edit of his hand while his page is open"
            await tg.wait_for(lambda: edits(tg, user.id, before), what="the catch-up edit")
            await settled(tg, bot)
        assert edits(tg, user.id, before) == 1, "one edit once the page is closed"
        assert "Weiter" not in [b["text"] for b in newest(tg, user.id, tid).buttons], "it shows his hand now"


async def test_a_press_in_his_chat_ends_the_hold_in_the_process_that_sends_his_hand(store, redis, key_prefix):
    web = {"telegram_webapp": "tisch", "web_url": "https://example.org/web"}
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        users = [tg.user(51 + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
        async with running_bot(tg, store, redis, key_prefix, webhook=True, **web) as sender, \
                running_bot(tg, store, redis, key_prefix, webhook=True, reads=False, **web):  # it gets the updates
            tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
            user, hand, token = await card_to_play(tg, store, users, tid)
            await sender.service.seated_pages(tid, [(f"telegram:{user.id}", "p")])  # his page is open
            before = len(tg.calls)
            await tg.wait_answer(user.press(hand, data=token))  # yet he plays in his chat
            await tg.wait_for(lambda: edits(tg, user.id, before), timeout=WATCH_TTL_S / 2,  # held: until it expires
                              what="his hand's edit, not held for his page: he plays in the chat")
