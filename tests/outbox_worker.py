"""A second OS process for the outbox tests.

``python -m tests.outbox_worker send URL PREFIX BASE_URL TOKEN`` reads the Telegram outbox of the store
with key prefix PREFIX and sends what it takes with the real delivery on the (fake) Bot API at BASE_URL,
until it is killed (SIGTERM: it stops as ``stammtisch run`` does, handing its shards over). Its first line
is ``ready`` and its reader's name.
``python -m tests.outbox_worker web URL PREFIX`` reads a line ``TOKEN SECRET`` and serves the web table (no
chat adapter) with the outbox and the turn timers; its first line is its port. Its clock goes an hour ahead when a line
comes on standard input (the tables' timers come due there and nowhere else).
``python -m tests.outbox_worker saved URL PREFIX COMMAND`` handles one button press (JSON: ``chat``, ``user``,
``name``, ``token``) in a Telegram chat with the outbox, and kills itself (SIGKILL) right after the press's save
landed: before its effects reach the outbox.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time

from telegram import Bot

from adapters.common.running import Ticker
from adapters.telegram.deliver import Delivery
from adapters.telegram.outbox import Outbox as Senders
from adapters.telegram.outbox import Pacer
from adapters.telegram.tuning import Tuning
from adapters.web import WebServer
from adapters.web.serve import through_outbox
from bot.ops.settings import HostPort, load_settings
from bot.protocol.outgoing import ChatRef, Command, UserRef
from bot.service import Service
from bot.store.connection import client_for
from bot.store.outbox import Outbox
from bot.store.outbox_reader import OutboxReader
from bot.store.tables import Store

PACED = Tuning(group_messages=20, group_window_s=2.0, chat_messages=1, chat_window_s=0.1)
"""A call to the group every tenth of a second: a kill finds the sender between two calls."""
LEASE_S = 1.0


async def _send(redis, prefix: str, base_url: str, token: str) -> None:
    async with Bot(token, base_url=base_url) as bot:
        senders = Senders(Pacer(PACED), lambda old, new: asyncio.sleep(0))
        delivery = Delivery(bot, Store(redis, prefix=prefix), senders, lambda table_id: table_id, bot.username)
        reader = OutboxReader(Outbox(redis, prefix), "telegram", delivery.carry_out, lease_s=LEASE_S)
        reader.start()
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        print("ready", reader.me, flush=True)
        await stop.wait()
        await reader.stop()  # what it took is sent meanwhile, 5 s at most; the rest is the next reader's
        await senders.close()


async def _web(redis, prefix: str) -> None:
    token, secret = (await asyncio.to_thread(sys.stdin.readline)).split()
    ahead = [0.0]
    store = Store(redis, prefix=prefix)
    service = Service(store, load_settings(telegram_token=token), clock=lambda: time.time() + ahead[0],
                      outbox=Outbox(redis, prefix))
    web = WebServer(service, HostPort("127.0.0.1", 0), secret.encode(), token, after=through_outbox(service))
    await web.start()
    ticker = Ticker(service, lambda outs: None, 0.05)
    ticker.start()
    print(web.port, flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    ahead[0] = 3600.0
    await asyncio.Event().wait()


class _DiesAfterTheSave(Store):
    """A store whose process is killed right after a save landed, before the change's outbox write."""

    async def save(self, *args, **kwargs):
        saved = await super().save(*args, **kwargs)
        if saved:
            os.kill(os.getpid(), signal.SIGKILL)
        return saved


async def _saved(redis, prefix: str, command: str) -> None:
    d = json.loads(command)
    service = Service(_DiesAfterTheSave(redis, prefix=prefix), load_settings(), outbox=Outbox(redis, prefix))
    await service.show(await service.handle(Command(ChatRef("telegram", d["chat"]),
                                                    UserRef("telegram", d["user"], d["name"]), token=d["token"])))


async def main(mode: str, url: str, prefix: str, args: list[str]) -> None:
    redis = client_for(url)
    try:
        await {"send": _send, "web": _web, "saved": _saved}[mode](redis, prefix, *args)
    finally:
        await redis.aclose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
