"""The web table beside the real Telegram adapter on the fake Telegram: the group's table message opens the
Mini App at the table, and a card tapped on the page shows in the group and the hands as a press there does."""

from __future__ import annotations

import time
from contextlib import asynccontextmanager
from urllib.parse import quote

import aiohttp

from adapters.web import WebServer
from adapters.web.serve import through_outbox
from bot.ops.settings import HostPort
from tests.adapters.web.test_server import next_view, tap_of
from tests.adapters.web.webkit import SECRET, init_data
from tests.fakes.telegram.harness import FAST, fake_for, newest, open_table, running_bot, version, web_tapper

GROUP = -100555


@asynccontextmanager
async def telegram_with_web(store, redis, key_prefix: str, group: int, first_id: int):
    """The fake Telegram with a group and four people (ids from ``first_id``), the bot on it with the Mini App
    set, and the web table beside it whose taps show in the chats: (fake, people, bot, web server). The
    service's clock stands still: no timer moves a table but the presses and taps."""
    async with fake_for(FAST) as tg:
        tg.group(group, "Stammtisch Lautern")
        users = [tg.user(first_id + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora"))]
        now = time.time()
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: now, telegram_webapp="tisch",
                               web_url="https://example.org/web") as bot:
            web = WebServer(bot.service, HostPort("127.0.0.1", 0), SECRET, tg.token,
                            after=through_outbox(bot.service))
            await web.start()
            try:
                yield tg, users, bot, web
            finally:
                await web.stop()


async def test_a_tap_on_the_mini_app_shows_in_the_group(store, redis, key_prefix):
    async with telegram_with_web(store, redis, key_prefix, GROUP, 21) as (tg, users, bot, web):
        tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
        link = f"https://t.me/{tg.username}/tisch?startapp={tid}"
        await tg.wait_for(lambda: any(b.get("url") == link for b in newest(tg, GROUP, tid).buttons),
                          what="the table's »Am Tisch ansehen« button")
        user = await web_tapper(store, tid, users)
        data = quote(init_data(user.id, time.time(), start_param=tid, bot_token=tg.token))
        async with aiohttp.ClientSession() as http, \
                http.ws_connect(f"ws://127.0.0.1:{web.port}/ws?tg={data}") as ws:
            view = await next_view(ws)
            seen = version(tg, GROUP, tid)
            await ws.send_json(tap_of(view))
            await next_view(ws, view["version"])
            await tg.wait_for(lambda: version(tg, GROUP, tid) > seen, what="the group's table to show the tap")
