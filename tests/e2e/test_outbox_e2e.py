"""Two processes on one Redis: one serves the web table alone, the other runs the Telegram adapter (on the fake)
and reads the Telegram outbox. A tap on the web-only process and a timer it fires show in the group's table
message and the hands within a second: their effects go through the outbox, not through the process that
made them."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from urllib.parse import quote

import aiohttp

from bot.store.outbox import Outbox
from bot.store.outbox_reader import OutboxReader
from tests.adapters.web.test_server import next_view, tap_of
from tests.adapters.web.webkit import SECRET, init_data
from tests.fakes.telegram.harness import FAST, fake_for, open_table, running_bot, version, web_tapper

GROUP = -100777
SHOWN_S = 1.0
"""How soon what the web-only process did must show in the chats."""


def _private(tg, users) -> int:
    """How many messages and edits the players' private chats have seen."""
    return sum(len(m.history) for u in users for m in tg.chat(u.id))


async def test_a_tap_and_a_timer_on_a_web_only_process_show_in_the_group_and_the_hands(store, redis, redis_url,
                                                                                        key_prefix):
    web = subprocess.Popen([sys.executable, "-m", "tests.outbox_worker", "web", redis_url, key_prefix],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        async with fake_for(FAST) as tg:
            web.stdin.write(f"{tg.token} {SECRET.decode()}\n")  # not in its arguments, which others may read
            web.stdin.flush()
            tg.group(GROUP, "Stammtisch Lautern")
            users = [tg.user(31 + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
            now = time.time()  # this process's clock stands still: no timer fires here
            async with running_bot(tg, store, redis, key_prefix, clock=lambda: now) as bot:
                reader = OutboxReader(Outbox(redis, key_prefix), "telegram", bot.carry_out, lease_s=0.5)
                reader.start()
                try:
                    port = int(await asyncio.to_thread(web.stdout.readline))
                    tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
                    user = await web_tapper(store, tid, users)
                    data = quote(init_data(user.id, time.time(), start_param=tid, bot_token=tg.token))
                    async with aiohttp.ClientSession() as http, \
                            http.ws_connect(f"ws://127.0.0.1:{port}/ws?tg={data}") as ws:
                        view = await next_view(ws)
                        seen, hands = version(tg, GROUP, tid), _private(tg, users)
                        await ws.send_json(tap_of(view))
                        await tg.wait_for(lambda: version(tg, GROUP, tid) > seen and _private(tg, users) > hands,
                                          timeout=SHOWN_S, what="the tap in the group and the hands")
                    seen, hands = version(tg, GROUP, tid), _private(tg, users)
                    web.stdin.write("later\n")  # its clock goes an hour on: the turn's timers come due there
                    web.stdin.flush()
                    await tg.wait_for(lambda: version(tg, GROUP, tid) > seen and _private(tg, users) > hands,
                                      timeout=SHOWN_S, what="the timer's move in the group and the hands")
                finally:
                    await reader.stop()
    finally:
        web.kill()
        web.wait()
