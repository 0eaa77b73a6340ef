"""Two processes on one Redis. One serves the web table alone, the other runs the Telegram adapter (on the fake)
and reads the Telegram outbox: a tap on the web-only process and a timer it fires show in the group's table
message and the hands within a second. One runs the Telegram adapter and gets the presses, the other reads the
outbox: the presses show through the reader. Effects go through the outbox, not through the process that made
them."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from urllib.parse import quote

import aiohttp
from prometheus_client import REGISTRY

from bot.protocol import wire
from bot.protocol.outgoing import TableMessage
from bot.store.outbox import Outbox
from tests.adapters.web.test_server import next_view, tap_of
from tests.adapters.web.webkit import SECRET, init_data
from tests.fakes.reading import reading
from tests.fakes.telegram.harness import (FAST, card_to_play, fake_for, open_table, running_bot, until, version,
                                          web_tapper, written)

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
            async with running_bot(tg, store, redis, key_prefix, clock=lambda: now):  # it reads the outbox
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
        web.kill()
        web.wait()


def _chat_calls() -> float:
    """How many messages and edits this process has sent to Telegram."""
    return sum(REGISTRY.get_sample_value("stammtisch_platform_api_calls_total",
                                         {"platform": "telegram", "method": m, "outcome": "ok"}) or 0.0
               for m in ("sendMessage", "editMessageText", "deleteMessage", "editMessageReplyMarkup"))


async def test_a_press_on_one_process_shows_through_the_process_that_reads_the_outbox(store, redis, redis_url,
                                                                                     key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        users = [tg.user(41 + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
        sender = subprocess.Popen([sys.executable, "-m", "tests.outbox_worker", "send", redis_url, key_prefix,
                                   tg.base_url, tg.token], stdout=subprocess.PIPE, text=True)
        try:
            assert (await asyncio.to_thread(sender.stdout.readline)).startswith("ready")
            now = time.time()
            async with running_bot(tg, store, redis, key_prefix, clock=lambda: now, reads=False):
                made = _chat_calls()
                tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
                user, hand, token = await card_to_play(tg, store, users, tid)
                seen, hands = version(tg, GROUP, tid), _private(tg, users)
                user.press(hand, data=token)
                await tg.wait_for(lambda: version(tg, GROUP, tid) > seen and _private(tg, users) > hands,
                                  what="the press in the group and the hands")
                assert _chat_calls() == made, "the process that got the presses sent nothing to the chats itself"
        finally:
            sender.kill()
            sender.wait()


async def test_a_timer_and_a_command_for_one_chat_go_through_its_shard_in_the_order_made(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        users = [tg.user(61 + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
        ahead = [0.0]
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: time.time() + ahead[0],
                               reads=False) as bot:
            async with reading(bot, redis, key_prefix, "telegram"):  # no reader from here on, for a while
                tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
            outbox = Outbox(redis, key_prefix)
            stream = outbox.stream("telegram", outbox.shard_of(str(GROUP)))
            ahead[0] = 2 * 86400.0  # the turn's timers come due (a reminder, the automatic move)

            async def entries(n: int) -> bool:
                return await redis.xlen(stream) >= n
            await until(lambda: entries(1), "the timer's effects in the outbox")
            users[0].send(GROUP, "/tisch")
            await written(tg, bot)
            batches = [wire.unpack(fields["b"]) for _, fields in await redis.xrange(stream)]
            reposts = [any(isinstance(o, TableMessage) and o.repost for o in b) for b in batches]
            assert len(reposts) >= 2 and reposts[-1] and not any(reposts[:-1]), "the timer's batch, then the command's"
            seen, posted = version(tg, GROUP, tid), len(tg.chat(GROUP))
            async with reading(bot, redis, key_prefix, "telegram"):
                await tg.wait_for(lambda: version(tg, GROUP, tid) > seen and len(tg.chat(GROUP)) > posted,
                                  what="the timer's move and the table posted anew")
