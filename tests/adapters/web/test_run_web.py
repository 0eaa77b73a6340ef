"""``stammtisch run`` with a web table and no chat token: it serves the page and ticks the turn timers, so the
computer seats of a table move with nobody in a chat."""

from __future__ import annotations

import asyncio
import secrets
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

from bot.protocol.outgoing import ChatRef, Command, UserRef
from bot.store.connection import client_for
from bot.store.tables import Store
from tests.adapters.web.test_home import player  # noqa: F401  (the fixture: an environment of his own)
from tests.servicekit import Players, press, say, service

WAIT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status == 200
    except (urllib.error.URLError, ConnectionError):
        return False


async def until(condition, what: str) -> None:
    """Wait until ``condition()`` (a coroutine function) holds, at most :data:`WAIT_S`."""
    async def check() -> None:
        while not await condition():
            await asyncio.sleep(0.05)
    try:
        await asyncio.wait_for(check(), WAIT_S)
    except asyncio.TimeoutError:
        raise AssertionError(f"waited in vain for {what}") from None


async def test_run_with_only_a_web_table_serves_it_and_moves_the_computers(player, redis_url):  # noqa: F811
    port = free_port()
    env = dict(player, STAMMTISCH_WEB_LISTEN=f"127.0.0.1:{port}", STAMMTISCH_WEB_TICK_INTERVAL_S="0.2")
    me = UserRef("web", f"run{secrets.token_hex(4)}", "Anna")
    chat = ChatRef("web", me.user_id, title="Anna", private=True)
    client = client_for(redis_url)
    store = Store(client)  # the run's own keys: no prefix
    svc = service(store, seed=2)
    players = Players(svc, chat, [me], seed=2)
    run = None
    try:
        await players.send(say(chat, me, "neu bauer"))
        while (mover := await players.to_act()) is not None:  # his moves: then the computers are to act
            await players.send(press(chat, mover[0], mover[1].token))
        table = players.table.table_id
        version = (await store.load(table))[0]
        run = subprocess.Popen([sys.executable, "-m", "bot.run.cli", "run"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
        await until(lambda: asyncio.to_thread(answers, f"http://127.0.0.1:{port}/"), "the web table's page")

        async def moved() -> bool:
            return (await store.load(table))[0] > version
        await until(moved, "a computer seat to move")
        run.send_signal(signal.SIGINT)
        assert await asyncio.to_thread(run.wait, WAIT_S) == 0
    finally:
        if run is not None and run.poll() is None:
            run.kill()
        if run is not None:
            run.communicate()
        await svc.handle(Command(chat, me, verb="abbrechen"))
        await client.aclose()
