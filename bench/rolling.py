"""The fault suite's rolling restart (:mod:`bench.faults`): three real ``stammtisch run`` processes restarted one
after another while people play at ``tables`` tables.

The processes serve Telegram in webhook mode, each on a port of its own, behind one address: :class:`Proxy`, a
small reverse proxy in this process that passes each webhook POST to a process and, when its connection is
refused or reset, to the next (as nginx's ``proxy_next_upstream error timeout non_idempotent`` does: an update is
safe to pass twice, the bot skips an update id it has seen). The fake Telegram posts the updates to that address.
Four simulated people at each table press the buttons of their hands (a person thinks :data:`THINK_S` before a
press). Once play is under way each process in turn gets SIGTERM, its
replacement starts on the same port (as a process manager restarts a unit) and the next one's turn comes once the
replacement logs that it serves.

Counted: presses lost (answered without a refusal, yet their move is not in the table's log; or never answered;
and a table whose group message does not show its last move once the bot is done);
messages doubled (a message sent to a chat a second time in a row with the same text and buttons, or a group's
table message posted again). The notes give the longest stall (from a press's answer until its group's table
message showed its move; and without the time this process's event loop stood still meanwhile, as on a loaded
machine, where its people and the fake Telegram stand still too; and before the first SIGTERM, the machine's own
share), how long each SIGTERM took to end its process and each replacement to serve.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
from aiohttp import web

from bench.telegram import Stalls, lags
from bot.store.connection import client_for
from bot.store.tables import Store
from tests.fakes.telegram.harness import FAST, Players, fake_for, open_table, table_tokens, tuning_env, version
from tests.redis_servers import free_ports

__all__ = ["Proxy", "BotProcess", "bot_env", "ended", "settled", "one_row", "rolling_restart"]

ROOT = Path(__file__).resolve().parents[1]
THINK_S = (1.0, 3.0)
"""How long a person looks at his hand before a press (people press about one button every few seconds)."""
PLAY_S = 10.0
"""How long people play before the first restart and after the last."""
TUNING = FAST.model_copy(update={"global_window_s": 0.25})
"""The tests' shrunk windows and the token's 30 messages in a quarter second: 50 tables need more than one token's
budget (one serves about 16: bench/README.md, Capacity), and this row measures the restarts, not the budget."""
SECRET = "rolling-restart-secret-1"
"""The webhook's secret token (the fake Telegram sends it with every update)."""
_ANSWER_S = 30.0
"""How long a person waits for the answer to a press before he counts it as never answered."""
_SETTLE_S = 60.0
"""The longest wait, once people stop, for the bot to finish what they did."""
_PASSED = ("content-type", "x-telegram-bot-api-secret-token")
"""The headers of an update the proxy passes on."""
_SETTINGS = ("TELEGRAM_", "DISCORD_", "STAMMTISCH_")
"""The environment of this process not passed to the bot processes (theirs is the row's)."""
_DROPPED = re.compile(r"stopping: (\d+) queued calls not made")
"""The log line of a process whose flush ran out when it stopped."""
_QUIET_S = 2.0
"""The bot has finished once it made no call for this long."""


class Proxy:
    """One address in front of the processes' webhook ports (a replacement listens on its predecessor's port)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.refused = 0
        self.broken = 0
        self._turn = itertools.count()
        self._runner: web.AppRunner | None = None
        self._http: aiohttp.ClientSession | None = None
        self.url = ""

    async def __aenter__(self) -> "Proxy":
        app = web.Application()
        app.router.add_post("/{path:.*}", self._pass)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/tg"
        self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True))  # no kept-alive upstream
        return self

    async def __aexit__(self, *exc) -> None:
        await self._http.close()
        await self._runner.cleanup()

    async def _pass(self, request: web.Request) -> web.Response:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() in _PASSED}
        first = next(self._turn)
        for i in range(len(self.ports)):
            port = self.ports[(first + i) % len(self.ports)]
            try:
                to = f"http://127.0.0.1:{port}{request.path}"
                async with self._http.post(to, data=body, headers=headers) as resp:
                    kind = {"Content-Type": resp.headers["Content-Type"]} if "Content-Type" in resp.headers else {}
                    return web.Response(status=resp.status, body=await resp.read(), headers=kind)
            except aiohttp.ClientConnectorError:  # not listening (stopped or not yet started): the next one
                self.refused += 1
            except aiohttp.ClientError:  # reset once sent (it waited in a closing port's backlog): the next one
                self.broken += 1
        return web.Response(status=502)


class BotProcess:
    """One ``stammtisch run`` with ``env``; :attr:`serving` is set once it logs ``marker`` (that it serves)."""

    def __init__(self, env: dict[str, str], marker: str = "serving Telegram") -> None:
        self.marker = marker
        self.serving = asyncio.Event()
        self.tail: list[str] = []
        self.dropped = 0
        """Calls it dropped when it stopped (its flush ran out)."""
        loop = asyncio.get_running_loop()
        self.proc = subprocess.Popen([sys.executable, "-m", "bot.run.cli", "run"], cwd=ROOT, text=True,
                                     env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._reader = threading.Thread(target=self._read, args=(loop,), daemon=True)
        self._reader.start()

    def _read(self, loop: asyncio.AbstractEventLoop) -> None:
        for line in self.proc.stderr:
            self.tail = (self.tail + [line.rstrip()])[-20:]
            if found := _DROPPED.search(line):
                self.dropped += int(found[1])
            if self.marker in line:
                loop.call_soon_threadsafe(self.serving.set)

    async def started(self) -> float:
        """Seconds until it serves (``RuntimeError`` if it exits first)."""
        t0 = time.monotonic()
        while not self.serving.is_set():
            if self.proc.poll() is not None:
                raise RuntimeError(f"a bot process exited with {self.proc.returncode}: " + " | ".join(self.tail))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.serving.wait(), 0.2)
        return time.monotonic() - t0

    async def stopped(self) -> float:
        """SIGTERM; seconds until it has ended (``RuntimeError`` unless it exits 0)."""
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        status = await asyncio.to_thread(self.proc.wait)
        await asyncio.to_thread(self._reader.join)  # its last lines read
        if status != 0:
            raise RuntimeError(f"a bot process stopped with {status}: " + " | ".join(self.tail))
        return time.monotonic() - t0


class _Patient(Players):
    """:class:`Players` who count a press never answered (after :data:`_ANSWER_S`) instead of waiting on."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.unanswered: list[str] = []

    async def press(self, user, message, token: str) -> dict:
        qid = user.press(message, data=token)
        try:
            return await self.tg.wait_answer(qid, _ANSWER_S)
        except AssertionError:
            self.unanswered.append(qid)
            return {"text": "(never answered)"}


def _doubled(tg, groups: dict[str, int]) -> int:
    """Messages sent to a chat a second time in a row with the same text and buttons, and table messages posted
    again in their group."""
    last: dict[object, tuple] = {}
    twice = 0
    for _, method, params, status in tg.calls:
        if method == "sendMessage" and status == 200:
            shown = (params.get("text"), json.dumps(params.get("reply_markup"), sort_keys=True))
            twice += last.get(params.get("chat_id")) == shown
            last[params.get("chat_id")] = shown
    for table_id, group in groups.items():
        twice += max(0, sum(1 for m in tg.chat(group) if table_tokens(m, table_id)) - 1)
    return twice


async def rolling_restart(url: str, tables: int, quick: bool, row) -> None:
    """Fill ``row`` (see the module): three processes restarted one after another during ``tables`` tables, play
    going on for :data:`PLAY_S` before the first restart and after the last (with ``quick``, a second)."""
    play_s = 1.0 if quick else PLAY_S
    url = url.rsplit("/", 1)[0] + "/1"  # a database of its own: ``stammtisch run`` keeps its keys under ``st``
    client = client_for(url)
    store = Store(client)
    ports = free_ports(3)
    procs: list[BotProcess] = []
    try:
        async with fake_for(TUNING, patience=600) as tg, Proxy(list(ports)) as proxy:
            with tempfile.TemporaryDirectory() as data:
                env = bot_env(url, data, **tuning_env(TUNING), TELEGRAM_TOKEN=tg.token,
                              TELEGRAM_API_BASE_URL=tg.base_url, TELEGRAM_WEBHOOK_URL=proxy.url,
                              TELEGRAM_WEBHOOK_SECRET=SECRET)
                procs = [BotProcess(_listening(env, port)) for port in ports]
                await asyncio.gather(*(p.started() for p in procs))
                seated = []
                for i in range(tables):
                    group = tg.group(-1004000 - i, f"Stammtisch {i}")
                    users = [tg.user(40000 + 10 * i + k, name, started=True) for k, name in enumerate("ABCD")]
                    seated.append((group, users))
                opened = await asyncio.gather(*(open_table(tg, g, us[0], us[1:], "bauerchen") for g, us in seated))
                groups = dict(zip(opened, (g for g, _ in seated)))
                stop = [False]
                players = [_Patient(tg, us, tid, store, seed=i, careful=True, think=THINK_S)
                           for i, (tid, (_, us)) in enumerate(zip(opened, seated))]
                playing = asyncio.gather(*(p.play(lambda: stop[0], timeout=3600) for p in players))
                stopping, starting = [], []
                stalls = Stalls()  # this process's own: its people and the fake Telegram stand still then
                watcher = asyncio.ensure_future(stalls.watch())
                await asyncio.sleep(play_s)
                first_term = time.monotonic()
                gone = []
                for k in range(len(procs)):
                    stopping.append(await procs[k].stopped())
                    gone.append(procs[k])
                    row.faults += 1
                    procs[k] = BotProcess(_listening(env, ports[k]))
                    starting.append(await procs[k].started())
                await asyncio.sleep(play_s)
                stop[0] = True
                tg.touch()
                await playing
                watcher.cancel()
                await settled(lambda: tg.calls[-1][0] if tg.calls else None, tg.drained)
                made = {}
                for table_id in groups:
                    entries = [json.loads(e) for e in await store.log(table_id)]
                    made.update({(e["by"], e["cmd"]): e["v"] + 1 for e in entries})
                accepted = [(u, token) for p in players for u, token, answer in p.presses if not answer.get("text")]
                unanswered = [q for p in players for q in p.unanswered if q not in tg.answers]
                missing = sum((f"telegram:{u}", token) not in made for u, token in accepted)
                short = sum([version(tg, g, t) < (await store.load(t))[0] for t, g in groups.items()])
                row.lost += missing + len(unanswered) + short
                row.doubled += _doubled(tg, groups)
                behind = lags(tg, groups, made, time.monotonic())
                row.notes.append(
                    f"{tables} tables, {len(accepted)} presses taken ({missing} not in their table, "
                    f"{len(unanswered)} never answered; {short} table messages short of their last move); "
                    f"longest stall "
                    f"{max((lag for _, lag in behind), default=0):.1f} s (without this process's own stalls "
                    f"{max((lag - stalls.within(t, t + lag) for t, lag in behind), default=0):.1f} s; before the "
                    f"first SIGTERM {max((lag for t, lag in behind if t < first_term), default=0):.1f} s); "
                    f"SIGTERM to exit "
                    f"{', '.join(f'{s:.1f}' for s in stopping)} s; start to serving "
                    f"{', '.join(f'{s:.1f}' for s in starting)} s; proxy: {proxy.refused} refused, {proxy.broken} "
                    f"reset; updates delivered again {sum(1 for *_, s in tg.webhook_deliveries if s != 200)}; "
                    f"calls dropped by a stopping process {sum(p.dropped for p in gone)}")
    finally:
        await ended(procs, client)


def bot_env(url: str, data: str, **settings: str) -> dict[str, str]:
    """The environment of a bot process: this one's without its bot settings, Redis at ``url``, its data in
    ``data``, logging at INFO (:class:`BotProcess` reads it), and ``settings``."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith(_SETTINGS)}, "REDIS_URL": url,
            "STAMMTISCH_DATA_DIR": data, "STAMMTISCH_LOG_LEVEL": "INFO", **settings}


def _listening(env: dict[str, str], port: int) -> dict[str, str]:
    return {**env, "TELEGRAM_WEBHOOK_LISTEN": f"127.0.0.1:{port}"}


async def ended(procs: list[BotProcess], client) -> None:
    """Kill the processes still running; empty the row's database."""
    for p in procs:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()
    await client.flushdb()
    await client.aclose()


async def settled(last: Callable[[], float | None], drained: Callable[[float], Awaitable] | None = None) -> None:
    """Until every update is delivered (``drained``) and the bot made no call for :data:`_QUIET_S` (``last``: when
    it made its last, ``None``: none); at most :data:`_SETTLE_S`."""
    end = time.monotonic() + _SETTLE_S
    while time.monotonic() < end:
        if drained is not None:
            await drained(end - time.monotonic())
        if (at := last()) is None or time.monotonic() - at > _QUIET_S:
            return
        await asyncio.sleep(_QUIET_S / 4)



def one_row(doc: str, name: str, fill: Callable[[str, int, bool, object], Awaitable[None]]) -> None:
    """Run one row alone (``--tables 50``, ``--quick``) on a Redis server of its own and print it: its name is
    ``name`` with ``{tables}`` filled in, ``fill(url, tables, quick, row)`` fills it."""
    import argparse

    from bench.faults import Row, table
    from bench.quick import parse
    from tests.redis_servers import Server

    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--tables", type=int, default=50)
    args = parse(p, tables=4)
    row = Row(name.format(tables=args.tables))

    async def run() -> None:
        with Server() as server:
            await fill(server.url, args.tables, args.quick, row)
    asyncio.run(run())
    print(table([row]))


def main() -> None:
    """``.venv/bin/python -m bench.rolling [--tables 50] [--quick]``: the row alone, on a Redis server of its own."""
    one_row(__doc__, "rolling restart of three processes during {tables} tables", rolling_restart)


if __name__ == "__main__":
    main()
