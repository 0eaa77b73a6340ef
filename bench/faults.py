"""Fault suite: real redis-server processes, real worker processes, faults injected; prints one table.

    .venv/bin/python bench/faults.py [--games 100] [--kills 25] [--presses 10000] [--fuzz 2000] [--flood 1000]
                                     [--finishes 20] [--deals 6] [--history 100000] [--drain-s 600] [--seed 1]
                                     [--slow-clients 300] [--slow-timeout-s 10] [--vacations 10]
                                     [--vacation-tables 50] [--sender-kills 100] [--restart-tables 50]
                                     [--guard-kills 100] [--rows moves,service,outbox,rolling,shards] [--quick]

Every row runs against a ``redis-server`` this script starts on 127.0.0.1 (ports 17000-17999, AOF
with ``appendfsync everysec``) and throws away afterwards:

- **kill -9 of workers**: ``--games`` tables are played by several worker processes (the
  service, as a platform adapter calls it: presses with platform update ids, and turn timers
  ticking with reminders after 1 s and automatic moves after 2 s). This script plays the
  platform: it kills a random worker with SIGKILL at random moments (``--kills`` times), starts a
  new one, and redelivers the update that was in flight, as Telegram does for an unanswered one.
- **Redis restarted mid-game**: during the same run Redis is stopped and started again.
- **duplicate and redelivered updates**: every answered update is delivered again with
  probability 0.3 (to a random worker).
- **kill -9 at the finishing move**: ``--finishes`` tables (Bauer with a short deck, to one Brot, four
  people) are played to the move that ends the match; that move goes to a worker process killed with
  SIGKILL at a chosen instruction, in turn: before the finishing save, right after it, after the
  service's answer but before the platform hears it, or at a random moment; the update is then
  redelivered to a new worker. The chat's memory must hold the match exactly once (in its history and in
  every player's figures).
- **concurrent presses**: 4 processes press ``--presses`` times in all on the same tables.
- **fuzzer**: hypothesis generates typed commands and button tokens (well-formed, stale,
  forged, garbage) for every entry point; no exception may escape and every table must replay.
- **privacy scan**: every group message of whole games of every game is checked for a card of
  a hand (and every group message the fuzzer produced).
- **platform limits**: ``--games`` tables of every game, of every size in turn, in both languages,
  with the longest names a player may have (letters, or emoji of two UTF-16 units each), played
  to their end with random moves; every message and button at every position is checked
  against Discord's 2,000 characters and 80 per label and Telegram's 4,096 UTF-16 units.
- **the memory's commands**: a group's history holds ``--history`` matches (100,000, the most the setting
  allows; 30 s apart, so the day of the run holds some 2,880), written as the memory keeps them in pipelined
  pieces; a member types ``abend``, ``export``, ``statistik``, ``rangliste``, ``verlauf``, ``bild``, ``saison``,
  ``statistik aus``/``an`` and ``vergessen`` (asked and confirmed) while a probe (a task sleeping 5 ms again
  and again) takes the event loop's longest stall; stuck counts commands that stalled it longer than 50 ms
  with the loop's own thread busy that long (a loaded machine's scheduling is not the bot's).
- **flood**: one member types ``--flood`` refused or answered commands in the group of a playing
  table, against the real Telegram adapter and the fake Telegram server (limits compressed 100x);
  the group may get at most his answers and one note, and a card played meanwhile must edit the
  table before the flood's messages.
- **web port slow clients**: the web table's server, with its times for headers and for a body set to
  ``--slow-timeout-s``, gets ``--slow-clients`` connections that send part of a request's headers and then
  nothing, and a third as many that trickle a byte every half of that time (their headers, or a body it
  does not read), from several addresses; meanwhile a page is loaded from another one. Every connection
  must be closed by the server within 1.5 times its time (the webhook port's 15 s for its 10).
- **kill -9 at a vacation's start and end**: one person's ``--vacation-tables`` Fernspiel tables (his turn at
  each) are held by ``urlaub 4`` and let go by ``urlaub aus``, ``--vacations`` times; each command goes to a
  worker that kills itself (SIGKILL) right before or after a random one of its table saves, then to a new one,
  and the next process ticks a lease later; meanwhile the clock runs past every timer of his turns.

- **the outbox** (:mod:`bench.outbox_faults`): the process that sends what the outbox holds is killed with
  SIGKILL mid-send ``--sender-kills`` times. Lost: a notice never shown; doubled: a notice shown twice; the notes
  give the longest stall.
- **rolling restart** (:mod:`bench.rolling`): three ``stammtisch run`` processes (Telegram by webhook behind one
  address) get SIGTERM one after another, each replaced before the next, while people play at ``--restart-tables``
  tables. Lost: a press taken whose move is not in its table, or never answered; doubled: a message sent twice, a
  table message posted again; the notes give the longest stall (a press to its group's table showing it).
- **a crash between a save and its outbox write** (:mod:`bench.outbox_faults`): ``--guard-kills`` presses are
  saved by a process that dies before their outbox write, and the save's show guard shows them. Lost: a notice
  never shown or a table message short of its last version; doubled: a notice shown twice.
- **rolling restart of Discord shards** (:mod:`bench.shards`): three ``stammtisch run`` processes, each one shard of
  three, are replaced one after another (the replacement of a shard serves before the old one gets SIGTERM) while
  people play at ``--restart-tables`` tables in guilds of every shard. Lost: an interaction Discord dropped (no
  session of its shard), never answered or refused as the bot's trouble, a press taken whose move is not in its
  table; doubled: a message posted twice, a table message posted again.

Columns: faults injected; moves lost (an update answered as applied, or dropped as a duplicate,
whose save is not in its table); moves doubled (an update applied twice, or a log entry twice);
tables stuck or corrupted (stored state != replay of its log, a playing table without a timer, a
table not finished once the faults stop; in the flood row, a table edit that waited behind the
flood); crashes (tracebacks, workers that died by themselves); leaks (keys without expiry, timers of
closed tables, hidden cards in group messages, messages over a platform's limit; in the flood row,
group messages beyond the bound and 429 answers; in the web port's rows, connections open past the bound,
and as stuck the page that did not come meanwhile). In the finishing row, "moves lost" counts matches the
memory does not hold, "moves doubled" matches it holds twice (or a player's figures counting one twice). In the
vacation row, "moves lost" counts timers lost (a table without the one turn timer its record asks for), "moves
doubled" timers fired during the vacation, "stuck" tables that do not show the vacation as it stands.

``--quick`` runs the small counts the test suite runs (``tests/e2e/test_faults.py``): every row still
starts real processes, so it takes minutes, not seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the project on the path, bench/ off it: its telegram.py would shadow the SDK the flood row runs
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench")]

import engine  # noqa: E402
from bench.quick import parse  # noqa: E402
from bot import memory  # noqa: E402
from bot.protocol import actarg, tokens  # noqa: E402
from bot.protocol.outgoing import ChatRef, Command, HandMessage, Notice, TableMessage, Toast  # noqa: E402
from bot.protocol.unavailable import UNAVAILABLE  # noqa: E402
from bot.store.connection import client_for  # noqa: E402
from bot.store.tables import Store  # noqa: E402
from bot.store.tourneys import KIND as TOURNEY  # noqa: E402
from bot.store.tourneys import TourneyStore  # noqa: E402
from bot.table import deadlines, forced, vacation  # noqa: E402
from bot.table.record import Table  # noqa: E402
from bot.table.tourney_record import Tourney  # noqa: E402
from bot.tournament import Tournament, result_of  # noqa: E402
from bot.tournament.results import deal_points  # noqa: E402
from bot.words.catalogs import language, languages  # noqa: E402
from bot.words.i18n import t  # noqa: E402
from bench import outbox_faults, rolling, shards  # noqa: E402
from tests.redis_servers import Server  # noqa: E402
from tests.renderkit import NAMES, fixed_messages, match_messages, over_limit, sizes  # noqa: E402
from tests.servicekit import (  # noqa: E402
    Players,
    act_buttons,
    audit,
    button,
    hammer,
    hurried,
    leaks,
    playable,
    press,
    public_text,
    say,
    secrets_of,
    service,
    table_msg,
    user,
)

GAMES = [("bauer", "short_deck=1 target_brote=1"), ("rams", "target=6"), ("bauerchen", ""),
         ("bauernstoss", "target=2")]
TIMER_GAME = ("bauer", "short_deck=1 target_brote=1")
BOT = "faults"
SORRY = {t(lang, "technical_problem") for lang in ("de", "en")}
COLUMNS = ["faults injected", "moves lost", "moves doubled", "tables stuck or corrupted", "crashes", "leaks"]
TIMERS = {"reminder_after": "1m", "autoplay_after": "2m", "quiet_hours": "off"}
EPOCH = float(os.environ.setdefault("FAULTS_BENCH_EPOCH", str(time.time())))
"""When the bench started: the workers it spawns inherit it, so all share one :func:`hurried` clock
(an hour a minute: no quiet hours, which it would soon reach)."""
LEASE_S = 60.0
"""A claimed timer's lease, on the :func:`hurried` clock: a second of real time."""
ROOMY = {"max_tables_per_user": 1000}
"""The same test users sit at every table of a run: the cap on a person's open tables must not bite."""


@dataclass
class Row:
    """One line of the table."""

    name: str
    faults: int = 0
    lost: int = 0
    doubled: int = 0
    stuck: int = 0
    crashes: int = 0
    leaks: int = 0
    notes: list[str] = field(default_factory=list)

    def cells(self) -> list:
        """The row's figures in :data:`COLUMNS` order."""
        return [self.faults, self.lost, self.doubled, self.stuck, self.crashes, self.leaks]


# ---------------------------------------------------------------------------------------- worker
def _command(d: dict) -> Command:
    chat = ChatRef("test", d["chat"])
    return Command(chat, user(d["user"]), verb=d.get("verb", ""), token=d.get("token", ""), update_id=d["update"],
                   bot=BOT)


def _outcome(effects: list) -> str:
    toasts = [e for e in effects if isinstance(e, Toast)]
    if not effects:
        return "dup"
    if any(e.text in SORRY for e in toasts):
        return "sorry"
    return "refused" if toasts else "applied"


async def _worker(url: str, prefix: str, name: str, seed: int, tables: dict[str, str]) -> None:
    """Play the tables as their people do, tick the timers, and handle the updates redelivered on stdin.

    Prints one JSON line per update before it is handled (``send``) and after (``ack``).
    """
    client = client_for(url, timeout=2.0)
    store = Store(client, prefix=prefix, lease_s=LEASE_S)
    svc = service(store, seed=seed, clock=hurried(EPOCH), **TIMERS)
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[dict] = asyncio.Queue()
    count = 0
    pressed = [tid for tid, chat in tables.items() if chat.startswith("c")]

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(inbox.put_nowait, json.loads(line))
    threading.Thread(target=read, daemon=True).start()

    def say_line(**kw) -> None:
        sys.stdout.write(json.dumps(kw) + "\n")
        sys.stdout.flush()

    async def deliver(d: dict) -> None:
        say_line(send=d["update"], cmd=d)
        say_line(ack=d["update"], outcome=_outcome(await svc.handle(_command(d))))

    async def ticker() -> None:
        while True:
            try:
                if await store.due(time.time(), limit=1):
                    say_line(tick=1)  # the platform may kill this process now, in the middle of the tick
            except UNAVAILABLE:
                pass
            await svc.tick()
            await asyncio.sleep(0.01 + 0.02 * rng.random())

    async def redelivered() -> None:
        while True:
            await deliver(await inbox.get())

    async def player() -> None:
        nonlocal count
        while True:
            table_id = rng.choice(pressed)
            try:  # the players' own look at the table (not the service) waits out a Redis restart
                loaded = await store.load(table_id)
            except UNAVAILABLE:
                await asyncio.sleep(0.1)
                continue
            if loaded is None or Table.load(loaded[1]).status != "playing":
                await asyncio.sleep(0.01)
                continue
            data = Table.load(loaded[1])
            seat = data.declare[0] if data.declare else data.state.get("to_act")  # "Weiter" before the first lead
            if seat is None or not data.seats[seat].user or rng.random() < 0.2:  # some turns wait for the timer
                await asyncio.sleep(0.02)
                continue
            who = int(data.seats[seat].user.split(":")[1][1:])
            chat = ChatRef("test", tables[table_id])
            hands = [e for e in await svc.handle(Command(chat, user(who), verb="hand")) if isinstance(e, HandMessage)]
            allowed = playable(data)[1]
            buttons = act_buttons(hands[0], allowed) if hands else []
            if data.declare and hands:
                buttons = [b for row in hands[0].buttons for b in row if ":let_pass:" in b.token]
            if buttons:
                count += 1
                await deliver({"chat": tables[table_id], "user": who, "token": rng.choice(buttons).token,
                               "update": f"{name}.{count}"})
    await asyncio.gather(ticker(), redelivered(), player())


# ---------------------------------------------------------------------------------------- platform
class _Platform:
    """The workers and what they were sent and answered; kills, restarts and redelivers."""

    def __init__(self, url: str, prefix: str, tables: dict[str, str], workers: int, seed: int):
        self.url, self.prefix, self.tables = url, prefix, tables
        self.rng = random.Random(seed)
        self.sent: dict[str, dict] = {}
        self.outcomes: dict[str, list[str]] = {}
        self.inflight: dict[int, set[str]] = {}
        self.procs: dict[int, subprocess.Popen] = {}
        self.killed: set[int] = set()
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.serial = 0
        self._redelivered: set[str] = set()
        self.kill_in_tick = threading.Event()
        self.ticked: queue.Queue[int] = queue.Queue()
        for _ in range(workers):
            self.spawn()

    def command(self, name: str) -> list[str]:
        """The command line of the worker called ``name``."""
        table_args = [f"{tid}:{chat}" for tid, chat in self.tables.items()]
        return [sys.executable, __file__, "worker", self.url, self.prefix, name, str(self.rng.randrange(10**9)),
                *table_args]

    def spawn(self) -> None:
        """Start one more worker."""
        self.serial += 1
        n = self.serial
        proc = subprocess.Popen(self.command(f"w{n}"), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.procs[n], self.inflight[n] = proc, set()
        threading.Thread(target=self._read, args=(n, proc), daemon=True).start()
        threading.Thread(target=self._errors, args=(proc,), daemon=True).start()

    def _read(self, n: int, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            msg = json.loads(line)
            with self.lock:
                if "tick" in msg:
                    if self.kill_in_tick.is_set():
                        self.kill_in_tick.clear()
                        time.sleep(0.004 * self.rng.random())
                        os.kill(proc.pid, signal.SIGKILL)
                        self.ticked.put(n)
                elif "send" in msg:
                    self.sent.setdefault(msg["send"], msg["cmd"])
                    self.inflight[n].add(msg["send"])
                else:
                    self.inflight[n].discard(msg["ack"])
                    self.outcomes.setdefault(msg["ack"], []).append(msg["outcome"])

    def _errors(self, proc: subprocess.Popen) -> None:
        text = proc.stderr.read()
        if "Traceback" in text:
            self.errors.append(text[-2000:])

    def alive(self) -> list[int]:
        """The workers running."""
        return [n for n, p in self.procs.items() if p.poll() is None]

    def deliver(self, update: str) -> None:
        """Deliver ``update`` (again) to a random running worker."""
        n = self.rng.choice(self.alive())
        self.procs[n].stdin.write(json.dumps(self.sent[update]) + "\n")
        self.procs[n].stdin.flush()

    def kill(self) -> None:
        """kill -9 a worker in the middle of a tick (or a random one if none ticks within a second),
        start another, and redeliver what it had in flight."""
        self.kill_in_tick.set()
        try:
            n = self.ticked.get(timeout=1.0)
        except queue.Empty:
            self.kill_in_tick.clear()
            n = self.rng.choice(self.alive())
            os.kill(self.procs[n].pid, signal.SIGKILL)
        if n in self.killed:  # a tick's kill raced the timeout's and hit the same worker: handled already
            return
        self.procs[n].wait()
        self.killed.add(n)
        self.spawn()
        with self.lock:
            pending = sorted(self.inflight.pop(n))
        for update in pending:
            self.deliver(update)

    def redeliver_some(self, p: float) -> int:
        """Deliver every answered update again with probability ``p``; how many."""
        with self.lock:
            answered = [u for u, o in self.outcomes.items() if o and u not in self._redelivered]
        chosen = [u for u in answered if self.rng.random() < p]
        self._redelivered.update(answered)
        for update in chosen:
            self.deliver(update)
        return len(chosen)

    def stop(self) -> int:
        """Stop every worker; how many died by themselves (not killed here)."""
        died = [n for n, p in self.procs.items() if p.poll() is not None and n not in self.killed]
        for p in self.procs.values():
            if p.poll() is None:
                p.kill()
            p.wait()
        return len(died)


async def _open(store: Store, games: int, seed: int) -> dict[str, str]:
    """``games`` started group tables: table id -> chat id. Even ones seat four people who press; odd
    ones (chat ids ``t<i>``) seat two people who never press, and two computers: the timers play them."""
    svc = service(store, seed=seed, clock=hurried(EPOCH), **TIMERS, **ROOMY)
    tables = {}
    for i in range(games):
        game, options = GAMES[i % len(GAMES)] if i % 2 == 0 else TIMER_GAME
        chat = ChatRef("test", f"{'ct'[i % 2]}{i}")
        table_id, _ = await _start(svc.handle, chat, f"neu {game} {options}", *((4, 0) if i % 2 == 0 else (2, 2)))
        tables[table_id] = chat.chat_id
    return tables


async def _start(send, chat: ChatRef, line: str, humans: int, computers: int = 0) -> tuple[str, list]:
    """Open a table with ``line`` in ``chat``: ``humans`` test users join, the opener adds
    ``computers`` and starts. ``send`` hands a command to the service. Returns the table id and the
    start's effects."""
    table = table_msg(await send(say(chat, user(0), line.strip())))
    for k in range(1, humans):
        table = table_msg(await send(press(chat, user(k), button(table, "join").token)))
    for _ in range(computers):
        table = table_msg(await send(press(chat, user(0), button(table, "bot").token)))
    return table.table_id, await send(press(chat, user(0), button(table, "start").token))


async def _check_tables(store: Store, tables: dict[str, str]) -> tuple[int, list[str]]:
    """Tables corrupted (log does not replay to the stored state) or not finished."""
    bad, notes = 0, []
    for table_id in tables:
        try:
            counts = await audit(store, table_id)
            if counts["table"].status != "finished":
                bad += 1
                notes.append(f"{table_id} not finished")
        except AssertionError as exc:
            bad += 1
            notes.append(f"{table_id} corrupted: {str(exc)[:120]}")
    return bad, notes


async def _leaks(store: Store, client, prefix: str) -> tuple[int, list[str]]:
    """Keys that never expire (other than the two shared deadline keys) and timers of closed tables (and
    tournaments)."""
    keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
    forever = [k for k in keys if ":{deadlines}:" not in k and await client.ttl(k) == -1]
    timers = []
    for table_id, version, kind in await store.due(time.time() + 10**8, limit=10**6):
        loaded = await store.load(table_id)
        record = Tourney if kind == TOURNEY else Table
        if loaded is None or not record.load(loaded[1]).open:
            timers.append(f"{table_id}:{version}:{kind}")
    notes = [f"no expiry: {k}" for k in forever[:5]] + [f"timer left: {m}" for m in timers[:5]]
    return len(forever) + len(timers), notes


async def _kills(server: Server, prefix: str, games: int, kills: int, workers: int, seed: int,
                 drain_s: float) -> list[Row]:
    client = client_for(server.url)
    store = Store(client, prefix=prefix, lease_s=LEASE_S)
    tables = await _open(store, games, seed)
    platform = _Platform(server.url, prefix, tables, workers, seed)
    rng = random.Random(seed)
    kill_row, redis_row, dup_row = Row("kill -9 of a worker (moves, timers)"), Row("Redis restarted mid-game"), \
        Row("duplicate and redelivered updates")
    try:
        for i in range(kills):
            await asyncio.sleep(0.1 + 0.2 * rng.random())
            await asyncio.to_thread(platform.kill)
            kill_row.faults += 1
            dup_row.faults += platform.redeliver_some(0.3)
            if i == kills // 2:
                server.stop()
                await asyncio.sleep(0.5)
                server.start()
                redis_row.faults += 1
        deadline = time.monotonic() + drain_s
        while time.monotonic() < deadline:
            statuses = [await store.load(tid) for tid in tables]
            if all(s is not None and Table.load(s[1]).status == "finished" for s in statuses):
                break
            dup_row.faults += platform.redeliver_some(0.3)
            await asyncio.sleep(0.5)
        await asyncio.sleep(1.0)  # the last redeliveries are answered
        crashed = platform.stop()
        with platform.lock:
            outcomes = {u: list(o) for u, o in platform.outcomes.items()}
        for update, cmd in platform.sent.items():
            table_id = next(tid for tid, chat in tables.items() if chat == cmd["chat"])
            got = outcomes.get(update, [])
            applied = await store.applied(table_id, f"test:{BOT}:{update}")
            row = dup_row if len(got) > 1 else kill_row
            # dropped as a duplicate counts as done only where its first handling saved (not a refusal
            # whose worker was killed before it could tell)
            saved = await store.seen(f"test:{BOT}:{update}") == "1"
            answered = "applied" in got or "dup" in got and saved and not {"refused", "sorry"} & set(got)
            if answered and not applied:  # answered as done (or dropped as done) but not in the table
                row.notes.append(f"update {update} answered {got} but not applied")
                row.lost += 1
            if got.count("applied") > 1:
                row.doubled += 1
        timer_moves = 0
        # a hand's button stays valid while the hand only gains or loses choices, so one person may press one
        # token in several updates (Retour, then again once the others answered it): doubled are the log entries
        # of a person's token beyond the updates that pressed it
        sent = Counter((user(c["user"]).key, c["token"]) for c in platform.sent.values() if c.get("token"))
        for table_id in tables:
            entries = [json.loads(e) for e in await store.log(table_id)]
            logged = Counter((e["by"], e["cmd"]) for e in entries if e["cmd"].startswith("st1:"))
            over = {k: n - sent[k] for k, n in logged.items() if sent[k] and n > sent[k]}
            kill_row.doubled += sum(over.values())
            kill_row.notes += [f"table {table_id}: {by} {cmd} logged {logged[by, cmd]} times, pressed in "
                               f"{sent[by, cmd]} updates" for by, cmd in over]
            timer_moves += sum(e["cmd"] == "timer" for e in entries)
        kill_row.stuck, notes = await _check_tables(store, tables)
        kill_row.notes += notes
        kill_row.crashes = crashed + len(platform.errors)
        kill_row.notes += [e.splitlines()[-1] for e in platform.errors[:3]]
        kill_row.leaks, notes = await _leaks(store, client, prefix)
        kill_row.notes += notes
        kill_row.notes.append(f"{len(platform.sent)} updates, {timer_moves} saves by timers")
    finally:
        platform.stop()
        await client.aclose()
    return [kill_row, redis_row, dup_row]


# ---------------------------------------------------------------------------------------- the finishing move
KILL_POINTS = ("before the save", "after the save", "before the answer", "at random")
"""Where the worker handling a finishing move is killed, in turn (see :class:`_Killing`)."""
FINISH_GAME = ("bauer", "short_deck=1 target_brote=1")


class _Killing(Store):
    """The store of a worker that kills its own process (SIGKILL) at the finishing save: before it or right
    after it (``point`` one of :data:`KILL_POINTS`; others save as the store does)."""

    def __init__(self, *args, point: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.point = point

    async def save(self, *args, **kwargs):
        """The store's save, with the process killed before or after the save that finishes a table."""
        finishing = kwargs.get("status") == "finished"
        if finishing and self.point == "before the save":
            os.kill(os.getpid(), signal.SIGKILL)
        saved = await super().save(*args, **kwargs)
        if finishing and self.point == "after the save":
            os.kill(os.getpid(), signal.SIGKILL)
        return saved


async def _finisher(url: str, prefix: str, point: str, command: dict) -> None:
    """Handle one update (the finishing move) as a worker does; killed at ``point``, else it answers and ends."""
    client = client_for(url, timeout=2.0)
    store = _Killing(client, prefix=prefix, lease_s=LEASE_S, point=point)
    svc = service(store, seed=0)
    print(json.dumps({"send": command["update"]}), flush=True)
    effects = await svc.handle(_command(command))
    if point == "before the answer":
        os.kill(os.getpid(), signal.SIGKILL)
    await svc.tables.counted()
    print(json.dumps({"ack": command["update"], "outcome": _outcome(effects)}), flush=True)
    await client.aclose()


async def _to_finishing_move(svc, chat: ChatRef, seed: int) -> tuple[str, dict]:
    """Open a table in ``chat`` and play it up to the move that ends the match: the table id and that move as
    the command a worker is sent."""
    table_id, _ = await _start(svc.handle, chat, f"neu {FINISH_GAME[0]} {FINISH_GAME[1]}", 4)
    players = Players(svc, chat, [user(k) for k in range(4)], seed=seed)
    players.take(await svc.handle(Command(chat, user(0), verb="tisch")))
    for k in range(4):
        players.take(await svc.handle(Command(chat, user(k), verb="hand")))
    for _ in range(2000):
        mover = await players.to_act()
        if mover is None:
            players.take(await svc.tick())
            continue
        who, pressed = mover
        tok = tokens.parse(pressed.token)
        data = Table.load((await svc.store.load(table_id))[1])
        action = actarg.decode(tok.arg) if tok.verb == "act" else None
        if action is not None and data.state and data.state.get("to_act") == data.seat_of(who.key):
            after, _ = engine.apply(engine.from_json(data.state), data.seat_of(who.key), action)
            while (then := forced.move(after)) is not None:  # the last trick plays itself
                after, _ = engine.apply(after, after.to_act, then)
            if engine.match_over(after):
                return table_id, {"chat": chat.chat_id, "user": int(who.user_id[1:]), "token": pressed.token,
                                  "update": f"finish.{chat.chat_id}"}
        await players.send(press(chat, who, pressed.token))
    raise AssertionError(f"no finishing move at {table_id}")


def _handle_in_worker(url: str, prefix: str, point: str, command: dict, rng: random.Random) -> tuple[str, str]:
    """Send ``command`` to a new worker that is killed at ``point``; how it ended (``killed``, ``answered``)
    and its standard error."""
    proc = subprocess.Popen([sys.executable, __file__, "finisher", url, prefix, point, json.dumps(command)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    if point == "at random":
        proc.stdout.readline()  # it has the update: the kill comes while it handles it, or just after
        time.sleep(rng.uniform(0.0, 0.03))
        proc.kill()
    out, err = proc.communicate(timeout=120)
    return ("killed" if proc.returncode == -signal.SIGKILL else "answered"), err


async def _finishing(server: Server, prefix: str, finishes: int, seed: int) -> Row:
    """Each finishing move handled by a worker killed at one of :data:`KILL_POINTS`, then redelivered: the
    chat's memory holds each match once."""
    client = client_for(server.url)
    store = Store(client, prefix=prefix, lease_s=LEASE_S)
    book = memory.Book(client, prefix)
    row = Row("kill -9 at the finishing move, redelivered")
    rng = random.Random(seed)
    svc = service(store, seed=seed, **ROOMY)
    ends: dict[str, int] = {}
    try:
        for i in range(finishes):
            chat = ChatRef("test", f"fin{i}", title="Stammtisch")
            table_id, command = await _to_finishing_move(svc, chat, seed + i)
            point = KILL_POINTS[i % len(KILL_POINTS)]
            ended, err = await asyncio.to_thread(_handle_in_worker, server.url, prefix, point, command, rng)
            row.faults += ended == "killed"
            ends[f"{point}: {ended}"] = ends.get(f"{point}: {ended}", 0) + 1
            _, err_again = await asyncio.to_thread(_handle_in_worker, server.url, prefix, "", command, rng)
            for text in (err, err_again):
                if "Traceback" in text:
                    row.crashes += 1
                    row.notes.append(text.strip().splitlines()[-1][:160])
            table = Table.load((await store.load(table_id))[1])
            row.stuck += table.status != "finished"
            group = f"{chat.platform}:{chat.chat_id}"
            kept = [m.table for m in await memory.history(book, group, limit=10)]
            row.lost += kept.count(table_id) == 0
            row.doubled += kept.count(table_id) > 1
            for k in range(4):
                who = await memory.who_of(book, group, user(k).key)
                games = (await memory.stats(book, group, who, "bauer")).games if who else []
                row.doubled += sum(g.matches > 1 for g in games)
                row.lost += not games or games[0].matches == 0
        keys = [k async for k in client.scan_iter(match=f"{prefix}:{{m:*", count=1000)]
        forever = [k for k in keys if await client.ttl(k) == -1]
        row.leaks = len(forever)
        row.notes += [f"no expiry: {k}" for k in forever[:3]]
        row.notes.append("kills: " + ", ".join(f"{k} {n}" for k, n in sorted(ends.items())))
    finally:
        await client.aclose()
    return row


# ---------------------------------------------------------------------------------------- tournament
async def _tick_worker(url: str, prefix: str, seed: int) -> None:
    """Only tick the timers: a tournament's tables play by them (its people never press) and it reads their ends.

    Prints ``{"tick": 1}`` before a tick with something due, so the platform may kill it in the middle.
    """
    store = Store(client_for(url, timeout=2.0), prefix=prefix, lease_s=LEASE_S)
    svc = service(store, seed=seed, clock=hurried(EPOCH), **TIMERS)
    rng = random.Random(seed)
    while True:
        try:
            if await store.due(hurried(EPOCH)(), limit=1):
                sys.stdout.write(json.dumps({"tick": 1}) + "\n")
                sys.stdout.flush()
        except UNAVAILABLE:
            pass
        await svc.tick()
        await asyncio.sleep(0.01 + 0.02 * rng.random())


class _Ticking(_Platform):
    """Workers that only tick the timers (:func:`_tick_worker`)."""

    def command(self, name: str) -> list[str]:
        """The command line of a ticking worker."""
        return [sys.executable, __file__, "ticker", self.url, self.prefix, str(self.rng.randrange(10**9))]


async def _tourney(server: Server, prefix: str, teams: int, kills: int, workers: int, seed: int,
                   drain_s: float) -> Row:
    """A tournament of ``teams`` teams whose matches the timers play while workers are killed (-9) ``kills`` times
    at random moments, in the middle of a tick too: every finished table's result must count exactly once."""
    client = client_for(server.url)
    store = Store(client, prefix=prefix, lease_s=LEASE_S)
    row = Row("kill -9 during a tournament's matches")
    svc = service(store, seed=seed, clock=hurried(EPOCH), **TIMERS, **ROOMY)
    chat = ChatRef("test", "tourney")
    game, options = TIMER_GAME
    out = await svc.handle(say(chat, user(0), f"turnier neu {game} schweizer runde=30d {options}"))
    tid = next(o.table_id for o in out if isinstance(o, TableMessage))
    for k in range(teams):
        shown = table_msg(await svc.handle(say(chat, user(2 * k), f"turnier anmelden @partner{k}")))
        confirm = [b.token for row in shown.buttons for b in row if ":tn_ok:" in b.token][-1]
        await svc.handle(press(chat, user(2 * k + 1), confirm))
    await svc.handle(say(chat, user(0), "turnier los"))
    platform = _Ticking(server.url, prefix, {}, workers, seed)
    rng = random.Random(seed)
    tourneys = TourneyStore(store)
    try:
        deadline = time.monotonic() + drain_s
        while time.monotonic() < deadline:
            tourney = Tourney.load((await tourneys.fetch(tid)).data)
            if tourney.status == "finished":
                break
            await asyncio.sleep(0.5 + 1.5 * rng.random())  # a worker starts in about a second
            if row.faults < kills:
                await asyncio.to_thread(platform.kill)
                row.faults += 1
        row.crashes = platform.stop() + len(platform.errors)
        row.notes += [e.splitlines()[-1] for e in platform.errors[:3]]
        tourney = Tourney.load((await tourneys.fetch(tid)).data)
        if tourney.status != "finished":
            row.stuck += 1
            row.notes.append(f"the tournament stopped in round {tourney.round}")
        row.lost, row.doubled, notes = await _tourney_results(store, tourney)
        row.notes += notes
        stuck, notes = await _check_tables(store, {t: chat.chat_id for t in tourney.tables.values()})
        row.stuck += stuck
        row.notes += notes
        row.leaks, notes = await _leaks(store, client, prefix)
        row.notes += notes
        row.notes.append(f"{len(tourney.tables)} matches, {len(tourney.core['results'])} results")
    finally:
        platform.stop()
        await client.aclose()
    return row


async def _tourney_results(store: Store, tourney: Tourney) -> tuple[int, int, list[str]]:
    """Results lost (a finished table whose result the tournament does not hold as the table says, a result kept
    once but not counted) and doubled (an entrant counted in more matches than his results name)."""
    lost, notes = 0, []
    counted = tourney.core["results"]
    kept = await TourneyStore(store).results(tourney.id)
    for key, table_id in tourney.tables.items():
        table = Table.load((await store.load(table_id))[1])
        if table.status != "finished":
            continue  # counted as stuck
        pairing = next(p for p in tourney.core["pairings"] if f"{p['round']}.{p['slot']}" == key)
        points = [0, 0]
        for record in table.sheet:
            points = [a + b for a, b in zip(points, deal_points(tourney.game, record.get("result")))]
        told = result_of(tourney.game, key, pairing["sides"], table.state["match"], points).model_dump(mode="json")
        if counted.get(key) != told or key not in kept:
            lost += 1
            notes.append(f"match {key}: the table says {told}, the tournament {counted.get(key)}")
    core = Tournament.model_validate(tourney.core)
    played = {s.entrant: s.played for s in (core.final_ranking() if core.is_over else core.standings())}
    named = {e: sum(e in [s["entrant"] for s in r["sides"]] for r in counted.values()) for e in played}
    doubled = sum(played[e] > named[e] for e in played)
    notes += [f"{e} counted in {played[e]} matches, named in {named[e]} results"
              for e in played if played[e] > named[e]]
    return lost, doubled, notes


# ---------------------------------------------------------------------------------------- presses
async def _presses(server: Server, prefix: str, presses: int, seed: int) -> Row:
    client = client_for(server.url)
    store = Store(client, prefix=prefix)
    row = Row("concurrent presses, 4 processes")
    try:
        svc = service(store, seed=seed, **ROOMY)
        chat_of = {}
        for i in range(max(4, presses // 250)):  # enough tables for the presses before they end
            chat = ChatRef("test", f"p{i}")
            table_id, _ = await _start(svc.handle, chat, "neu bauernstoss", 4)
            chat_of[table_id] = chat.chat_id
        args = [f"{t}:{c}" for t, c in chat_of.items()]
        procs = [subprocess.Popen([sys.executable, __file__, "hammer", server.url, prefix, str(seed + i),
                                   str(presses // 4), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, cwd=ROOT) for i in range(4)]
        outs = [p.communicate(timeout=1800) for p in procs]
        row.crashes = sum(p.returncode != 0 for p in procs)
        row.notes += [err.strip().splitlines()[-1] for (_, err), p in zip(outs, procs) if p.returncode and err.strip()]
        results = [json.loads(out) for (out, _), p in zip(outs, procs) if p.returncode == 0]
        row.faults = sum(r["presses"] for r in results)
        applied = sum(r["applied"] for r in results)
        logged = 0
        for table_id in chat_of:
            try:
                await audit(store, table_id)
            except AssertionError:
                row.stuck += 1
            logged += sum(":act:" in json.loads(e)["cmd"] for e in await store.log(table_id))
        row.lost, row.doubled = max(0, applied - logged), max(0, logged - applied)
        row.leaks = (await _leaks(store, client, prefix))[0]
    finally:
        await client.aclose()
    return row


async def _hammer(url: str, prefix: str, seed: int, max_presses: int, tables: list[str]) -> None:
    client = client_for(url)
    store = Store(client, prefix=prefix)
    chat_of = {t: ChatRef("test", c) for t, c in (x.split(":") for x in tables)}
    counts = await hammer(service(store, seed=seed), store, chat_of, [user(i) for i in range(4)], seed,
                          max_presses=max_presses)
    print(json.dumps(counts))
    await client.aclose()


# ---------------------------------------------------------------------------------------- privacy and fuzz
def _public_leaks(effects: list, data: Table | None, typed: str = "") -> int:
    """Group messages about the table among ``effects`` that show a card hidden at ``data`` (the table as
    it is now). The help text is about no table; a refusal may echo what was typed (``typed``) and
    the examples its text always gives (``spiel B♣``)."""
    if data is None or not data.state or data.status != "playing":
        return 0
    secret = secrets_of(data)[3]
    echoed = {label for label in secret if label in typed or any(label in text for lang in languages()
                                                                   for text in language(lang).texts())}
    public = [e for e in effects if not e.chat.private and (isinstance(e, (TableMessage, Toast))
                                                            or isinstance(e, Notice) and e.table_id)]
    return sum(bool(leaks(public_text(e, data), secret - echoed if isinstance(e, Toast) else secret)) for e in public)


async def _privacy(server: Server, prefix: str, deals: int, seed: int) -> Row:
    client = client_for(server.url)
    store = Store(client, prefix=prefix)
    row = Row("privacy scan of group messages")
    try:
        svc = service(store, seed=seed)
        for i, (game, n) in enumerate([("bauernstoss", 4), ("alter_schafkopf", 4), ("bauerchen", 4), ("bauer", 4),
                                       ("rams", 5)]):
            chat = ChatRef("test", f"v{i}", title="Stammtisch")
            players = Players(svc, chat, [user(k) for k in range(n)], seed=seed + i, typing=0.3)
            table_id, effects = await _start(players.send, chat, f"neu {game} {n}", n)
            while True:
                data = Table.load((await store.load(table_id))[1])
                row.faults += sum(not getattr(e, "chat", chat).private for e in effects)
                row.leaks += _public_leaks(effects, data)
                if data.status != "playing" or data.deals >= deals:
                    break
                effects = await players.step()
    finally:
        await client.aclose()
    return row


def _limits(tables: int, seed: int) -> Row:
    """Messages over a platform's limit among everything ``tables`` tables of every game show."""
    row = Row("platform limits of messages")
    rng = random.Random(seed)
    longest: dict[str, int] = {}
    shown = [(kind, text) for lang in ("de", "en") for kind, text in fixed_messages(lang)]
    for game in engine.game_ids():
        combos = [(n, lang, name) for n in sizes(game) for lang in ("de", "en") for name in NAMES.values()]
        shown = itertools.chain(shown, *(match_messages(game, *combos[i % len(combos)], rng) for i in range(tables)))
    for kind, text in shown:
        row.faults += 1
        row.leaks += bool(over_limit(kind, text))
        longest[kind] = max(longest.get(kind, 0), len(text))
    row.notes.append("longest in characters: " + ", ".join(f"{kind} {n}" for kind, n in sorted(longest.items())))
    return row


async def _fuzz(server: Server, prefix: str, examples: int, seed: int) -> Row:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from bot.words import textcmd

    client = client_for(server.url)
    store = Store(client, prefix=prefix)
    row = Row("fuzzer over commands and buttons")
    svc = service(store, seed=seed)
    tables = await _open(store, 2, seed)
    words = sorted({w for ws in (*textcmd.TABLE_VERBS.values(), *textcmd.MEMORY_VERBS.values(),
                                 *textcmd.ACTION_WORDS.values()) for w in ws})
    verbs_ = ["act", "why", "hand", "join", "leave", "bot", "botx", "start", "rules", "opts", "opt", "rematch", "new",
              "ranking", "tonight", "stats"]
    texts = st.text(max_size=40) | st.sampled_from(["AS", "10♥", "B♣", "JC", "-1", "99999999999", "1e308", "\n",
                                                    "target=1000000000", "unit=1e308", "pl.AS", "x" * 5000])
    ids = st.sampled_from(list(tables)) | st.text("0123456789ABCxyz", min_size=1, max_size=17)
    token = st.builds(lambda tid, v, verb, arg: f"st1:{tid}:{v}:{verb}:{arg}", ids,
                      st.integers(-1, 60) | st.just(10**12), st.sampled_from(verbs_) | st.text(max_size=5),
                      texts) | texts
    chat = st.sampled_from(["c0", "c1", "elsewhere"]).map(lambda c: ChatRef("test", c)) | \
        st.integers(0, 5).map(lambda k: ChatRef("test", f"u{k}", private=True))
    typed = st.builds(lambda c, u, verb, args: Command(c, user(u), verb=verb, args=tuple(args)), chat,
                      st.integers(0, 5), st.sampled_from(words) | texts, st.lists(texts, max_size=4))
    pressed = st.builds(lambda c, u, tok: Command(c, user(u), token=tok), chat, st.integers(0, 5), token)
    loop = asyncio.get_running_loop()
    crashes: list[str] = []

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(typed, pressed))
    def one(cmd: Command) -> None:
        row.faults += 1
        future = asyncio.run_coroutine_threadsafe(svc.handle(cmd), loop)
        try:
            effects = future.result(timeout=60)
        except Exception as exc:  # noqa: BLE001  (counted: an exception escaped the service)
            crashes.append(f"{type(exc).__name__}: {exc}"[:200])
            return
        chat_table = {c: tid for tid, c in tables.items()}.get(cmd.chat.chat_id)
        if chat_table:
            loaded = asyncio.run_coroutine_threadsafe(store.load(chat_table), loop).result(timeout=60)
            leaked = _public_leaks(effects, Table.load(loaded[1]) if loaded else None,
                                   " ".join((cmd.verb, *cmd.args, cmd.token)))
            row.leaks += leaked
            row.notes += [f"{cmd!r} showed a hidden card"] * bool(leaked)
        long = [e for e in effects if len(getattr(e, "text", "")) > 4096]
        row.leaks += len(long)
        row.notes += [f"{cmd!r}"[:200] + f" gave a text of {len(e.text)} characters" for e in long]

    try:
        await asyncio.to_thread(one)
        row.crashes = len(crashes)
        row.notes += crashes[:3]
        for table_id in tables:
            try:
                await audit(store, table_id)
            except AssertionError as exc:
                row.stuck += 1
                row.notes.append(str(exc)[:120])
    finally:
        await client.aclose()
    return row


# ---------------------------------------------------------------------------------------- flood
FLOOD_BOUND = 6
"""Group messages one member's flood may cost: his answers (``answers_per_minute``, 5 by default) and one note."""


async def _flood(server: Server, prefix: str, commands: int) -> Row:
    """One member who never wrote to the bot (so nothing can go to him privately) types ``commands`` refused or
    answered commands (``/spiel B♣``, ``/hilfe``) in the group of a playing table, on the fake Telegram with
    Telegram's limits compressed 100x; a card played meanwhile must edit the table before the flood.

    Leaks: group messages beyond :data:`FLOOD_BOUND`, and calls the fake refused with 429. Stuck: the table
    edit went after more than the one message in flight of the flood, counted from the moment its job was due in
    the group's queue (the card's effects come through the outbox in Redis, and during a deal the table waits
    ``table_lazy_s`` for the next card, while older messages may go: both are part of the edit's delay, not of the
    queue's order). The notes give both figures and the delay of the edit, with and without it.
    """
    from tests.fakes.telegram.harness import (
        FAST,
        PATIENCE,
        card_to_play,
        fake_for,
        let_windows_pass,
        markup_version,
        open_table,
        running_bot,
        settled,
        version,
    )

    client = client_for(server.url)
    store = Store(client, prefix=prefix)
    row = Row(f"flood: {commands} typed commands of a member")
    group = -1000777

    async def card(people: list) -> tuple[float, float, int]:
        """A card played: the seconds until the bot has decided it (its press answered), from then until the
        group's table shows it, and the posts in the group in that time."""
        user, hand, token = await card_to_play(tg, store, people, table_id)
        saved, _ = await store.load(table_id)  # the group may still be shown an older version's edit meanwhile
        pressed, at = len(tg.calls), time.monotonic()
        query = user.press(hand, data=token)
        await tg.wait_answer(query)
        await tg.wait_for(lambda: version(tg, group, table_id) > saved, what="the table to show the card")
        calls = tg.calls[pressed:]
        answer = next(i for i, (_, m, p, _) in enumerate(calls) if m == "answerCallbackQuery"
                      and p["callback_query_id"] == query)
        edit = next(i for i, (_, m, p, ok) in enumerate(calls) if i > answer and m == "editMessageText" and ok == 200
                    and int(p["chat_id"]) == group and markup_version(p.get("reply_markup"), table_id) > saved)
        due = next(t for n, t in queued if n > pressed + answer)  # the card's effects are put after its answer
        posts = sum(m == "sendMessage" and ok == 200 and int(p["chat_id"]) == group and t >= due
                    for t, m, p, ok in calls[answer:edit])
        return calls[answer][0] - at, calls[edit][0] - calls[answer][0], posts
    try:
        async with fake_for(FAST, patience=PATIENCE) as tg:
            tg.group(group, "Stammtisch")
            people = [tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
            zed = tg.user(21, "Zed")
            async with running_bot(tg, store, client, prefix) as bot:
                queued: list[tuple[int, float]] = []  # each job of the group's table: the calls made, when due
                put = bot.outbox.put

                def noted(job) -> None:
                    if job.chat_id == group and job.slot.startswith("tg:table"):
                        queued.append((len(tg.calls), time.monotonic() + job.linger))
                    put(job)
                bot.outbox.put = noted
                table_id = await open_table(tg, group, people[0], people[1:], "bauer")
                await settled(tg, bot)  # the deal shown: the card's edit is the next one
                _, quiet, _ = await card(people)
                await let_windows_pass(tg, store, table_id, people)  # trump named: the moment before the first lead
                await settled(tg, bot)
                start, before = len(tg.calls), len(tg.chat(group))
                flood = [zed.send(group, "/spiel B♣" if k % 2 else "/hilfe") for k in range(commands)]
                row.faults = len(flood)
                await tg.wait_for(lambda: len(tg.chat(group)) > before, what="the first answer to the flood")
                intake, delay, behind = await card(people)
                await settled(tg, bot)  # every command of the flood answered
            sent = sum(m == "sendMessage" and ok == 200 and int(p["chat_id"]) == group
                       for _, m, p, ok in tg.calls[start:])
            row.leaks = max(0, sent - FLOOD_BOUND) + len(tg.violations)
            row.stuck = int(behind > 1)
            row.notes.append(f"{sent} group messages for {commands} commands (bound {FLOOD_BOUND}); the next table "
                             f"edit {delay * 1000:.0f} ms after the card was decided ({quiet * 1000:.0f} ms without "
                             f"the flood), {behind} of the flood's messages before it; deciding the card took "
                             f"{intake * 1000:.0f} ms behind the flood's updates; limits 100x compressed "
                             f"({FAST.group_messages} per {FAST.group_window_s} s), {len(tg.violations)} 429s")
    finally:
        await client.aclose()
    return row


# ---------------------------------------------------------------------------------------- web port
async def _slow_web(server: Server, prefix: str, held: int, timeout_s: float) -> list[Row]:
    """Slow clients of the web port, with its times for headers and for a body set to ``timeout_s``: ``held``
    connections that send part of a request's headers and then nothing, and a third as many that trickle a
    byte every half ``timeout_s`` (half of them their headers, half a body the server does not read), from
    several addresses, each under its count of waiting connections; meanwhile a page is loaded from another.

    Leaks: connections still open 1.5 ``timeout_s`` after they opened (the webhook port's 15 s for its 10).
    Stuck: the page loaded meanwhile did not come (200). Crashes: answers with a status of 500 or more.
    """
    from adapters.web import Tuning, WebServer
    from bot.ops.settings import HostPort

    tuning = Tuning(header_timeout_s=timeout_s, body_timeout_s=timeout_s)
    bound_s, every_s = 1.5 * timeout_s, timeout_s / 2
    client = client_for(server.url)
    web = WebServer(service(Store(client, prefix=prefix)), HostPort("127.0.0.1", 0), os.urandom(32), tuning=tuning)
    rows = {"partial": Row(f"web port: {held} partial headers"),
            "trickle": Row(f"web port: {held // 3} clients trickling")}
    closed: dict[str, list[float | None]] = {kind: [] for kind in rows}

    async def one(kind: str, address: str, sent: bytes, trickled: bytes) -> None:
        """A connection from ``address`` that sends ``sent`` at once and ``trickled`` a byte every ``every_s``."""
        reader, writer = await asyncio.open_connection("127.0.0.1", web.port, local_addr=(address, 0))
        opened = time.monotonic()

        async def trickle() -> None:
            writer.write(sent)
            for i in range(len(trickled)):
                await asyncio.sleep(every_s)
                writer.write(trickled[i:i + 1])
                await writer.drain()
        feeding = asyncio.create_task(trickle())
        answer = b""
        try:
            async with asyncio.timeout(bound_s):
                while chunk := await reader.read(65536):
                    answer += chunk
            closed[kind].append(time.monotonic() - opened)
        except ConnectionResetError:
            closed[kind].append(time.monotonic() - opened)
        except TimeoutError:
            closed[kind].append(None)
        finally:
            feeding.cancel()
            writer.close()
        rows[kind].crashes += answer[9:10] == b"5" and answer[9:12] != b"503"

    async def page() -> tuple[int, float]:
        """The page's script loaded from an address of its own: its status and milliseconds."""
        started = time.monotonic()
        reader, writer = await asyncio.open_connection("127.0.0.1", web.port, local_addr=("127.0.0.250", 0))
        writer.write(b"GET /static/table.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(), bound_s)
        writer.close()
        return int(answer.split(b" ", 2)[1]), (time.monotonic() - started) * 1000

    each = tuning.waiting_per_ip - 4
    partial = [("partial", f"127.0.0.{2 + i // each}", b"GET / HTTP/1.1\r\nHost: x\r\n", b"") for i in range(held)]
    at = 3 + held // each
    trickling = [("trickle", f"127.0.0.{at + i % 2}", b"", b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 1000) if i % 4 < 2
                 else ("trickle", f"127.0.0.{at + i % 2}",
                       b"POST /api/view HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", b"a" * 1000)
                 for i in range(held // 3)]
    await web.start()
    try:
        attack = [asyncio.create_task(one(*c)) for c in partial + trickling]
        while web.door.count < len(attack) and not all(t.done() for t in attack):
            await asyncio.sleep(0.01)  # every slow connection is in: now the page
        status, ms = await page()
        await asyncio.gather(*attack)
    finally:
        await web.stop()
        await client.aclose()
    for kind, row in rows.items():
        times = [t for t in closed[kind] if t is not None]
        row.faults = len(closed[kind])
        row.leaks = len(closed[kind]) - len(times)
        row.stuck = int(status != 200)
        spread = f"after {min(times):.1f} to {max(times):.1f} s" if times else "none"
        row.notes.append(f"{len(times)} of {row.faults} closed by the server, {spread} (bound {bound_s:.1f} s: the "
                         f"times for headers and body {timeout_s:g} s); meanwhile the page from another address: "
                         f"{status} in {ms:.0f} ms")
    return list(rows.values())


# ---------------------------------------------------------------------------------------- the memory's commands
STALL_GOAL_S = 0.05
"""The longest the memory's commands may hold the event loop (every table waits meanwhile)."""
MEMORY_COMMANDS = ("abend", "export", "statistik", "statistik Anna", "rangliste bauer", "verlauf", "verlauf bauer",
                   "bild bauer", "saison", "statistik aus", "statistik an", "vergessen", "vergessen")
"""Anna's commands, the last two forgetting her (asked, then confirmed)."""


class LoopLag:
    """A task that sleeps 5 ms again and again and keeps its longest overshoot (a stall of the event loop), with
    the CPU time the loop's own thread spent in it: a stall the bot caused, not a busy machine's scheduling."""

    def __init__(self) -> None:
        self.longest, self.busy, self.over_goal = 0.0, 0.0, 0
        self._task: asyncio.Task | None = None

    async def _probe(self) -> None:
        while True:
            wall, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0.005)
            lag, spent = time.perf_counter() - wall - 0.005, time.thread_time() - cpu
            if lag > self.longest:
                self.longest, self.busy = lag, spent
            self.over_goal += min(lag, spent) > STALL_GOAL_S

    def __enter__(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._probe())
        return self

    def __exit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def _memory_commands(server: Server, prefix: str, matches: int, seed: int) -> Row:
    """The memory's commands (``abend``, ``export``, ``statistik`` …) typed in a group whose history holds
    ``matches`` matches, while a probe measures the event loop's longest stall. Faults: the commands; stuck:
    commands during which the loop stalled longer than :data:`STALL_GOAL_S`; leaks: keys without expiry."""
    from tests.bot.memory.kit import people, played, save_all, write_history

    client = client_for(server.url)
    store = Store(client, prefix=prefix)
    svc = service(store, seed=seed, answers_per_minute=1000, memory_matches=max(100, matches))
    book, chat = svc.tables.book, ChatRef("bench", "memory", title="Stammtisch Lautern")
    row = Row(f"memory's commands on {matches:,} matches")
    try:
        built = time.perf_counter()
        first = [played(game, people(5 if game == "rams" else 4), seed=seed + i, chat=chat, table_id=f"R{i}",
                        start=time.time() - 3600, options=opts)
                 for i, (game, opts) in enumerate([("bauer", {"short_deck": True, "target_brote": 1}),
                                                   ("rams", {"target": 6})])]
        for steps in first:
            await save_all(store, book, steps)
        await memory.absorb(book, chat.group)
        records = [json.loads(text) for text in await client.lrange(book.key(chat.group, "h"), 0, -1)]
        await client.delete(book.key(chat.group, "h"))
        await write_history(book, chat.group, records, matches, time.time(), spacing=30)  # ~2,880 a day
        built = time.perf_counter() - built
        worst: dict[str, float] = {}
        for line in MEMORY_COMMANDS:
            with LoopLag() as lag:
                took = time.perf_counter()
                effects = await svc.handle(say(chat, user(0), line))
                took = time.perf_counter() - took
            row.faults += 1
            row.stuck += lag.over_goal > 0
            row.crashes += any(isinstance(e, Toast) and e.text in SORRY | {t("de", "failed")} for e in effects)
            worst[line] = lag.longest
            row.notes.append(f"{line}: {took * 1000:.0f} ms, longest stall {lag.longest * 1000:.1f} ms "
                             f"({lag.busy * 1000:.1f} ms of it the loop's own CPU)")
        row.leaks, notes = await _leaks(store, client, prefix)
        row.notes += notes
        line, stall = max(worst.items(), key=lambda kv: kv[1])
        row.notes.append(f"longest stall {stall * 1000:.1f} ms ({line}; goal {STALL_GOAL_S * 1000:.0f} ms); "
                         f"history of {matches:,} matches written in {built:.1f} s")
    finally:
        await client.aclose()
    return row


# ---------------------------------------------------------------------------------------- vacations
VACATION_T0 = 1_800_039_600.0
"""The vacation row's clock starts on a Friday, 20:00 in Berlin."""
VACATION = {"quiet_hours": "off", "vacation_days": 366, **ROOMY}
"""No quiet hours to move the timers, and a budget for every round."""
DAY = 86400.0


class _SavesKilling(Store):
    """The store of a worker that kills its own process (SIGKILL) right before or after its ``at``-th table save
    (counted from 0; -1: never)."""

    def __init__(self, *args, at: int = -1, after: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.at, self.after, self.saves = at, after, 0

    async def save(self, *args, **kwargs):
        """The store's save, with the process killed at the chosen one."""
        if self.saves == self.at and not self.after:
            os.kill(os.getpid(), signal.SIGKILL)
        saved = await super().save(*args, **kwargs)
        if self.saves == self.at and self.after:
            os.kill(os.getpid(), signal.SIGKILL)
        self.saves += 1
        return saved


async def _vacationer(url: str, prefix: str, at: int, after: bool, now: float, words: str) -> None:
    """Handle one typed ``urlaub`` command as a worker does at the clock reading ``now``, killed at a table save."""
    client = client_for(url, timeout=2.0)
    store = _SavesKilling(client, prefix=prefix, lease_s=LEASE_S, at=at, after=after)
    svc = service(store, seed=0, clock=lambda: now, **VACATION)
    effects = await svc.handle(say(ChatRef("test", "vac-private", private=True), user(0), words))
    print(json.dumps({"outcome": _outcome(effects)}), flush=True)
    await client.aclose()


def _vacation_in_worker(url: str, prefix: str, at: int, after: bool, now: float, words: str) -> tuple[bool, str]:
    """Send ``words`` to a new worker killed at its ``at``-th table save; whether it was killed, its standard error."""
    proc = subprocess.Popen([sys.executable, __file__, "vacationer", url, prefix, str(at), str(int(after)), repr(now),
                             words], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    _, err = proc.communicate(timeout=120)
    return proc.returncode == -signal.SIGKILL, err


async def _vacation_tables(svc, n: int) -> list[str]:
    """``n`` Fernspiel tables in groups of their own, each of user 0 and three computers, his turn at each."""
    person, tables = user(0), []
    for i in range(n):
        chat = ChatRef("test", f"vac{i}")
        await svc.handle(say(chat, person, "neu bauernstoss target=2"))
        shown = table_msg(await svc.handle(say(chat, person, "tempo fernspiel")))
        await svc.handle(press(chat, person, button(shown, "start").token))
        tables.append(shown.table_id)
    for _ in range(1000):
        if all([await _his_turn(svc.store, tid) for tid in tables]):
            return tables
        await svc.tick()
    raise AssertionError("the computers did not come to his turns")


async def _his_turn(store: Store, table_id: str) -> Table | None:
    """The table if it is user 0's turn there (and nobody played for him), else ``None``."""
    table = Table.load((await store.load(table_id))[1])
    seat = table.state.get("to_act") if table.state else None
    return table if seat is not None and table.seats[seat].user == user(0).key and not table.seats[seat].auto else None


async def _vacation_timers(store: Store, client, prefix: str, tables: list[str], now: float,
                           away: bool) -> tuple[int, int, list[str]]:
    """Timers lost (a table of his without its one turn timer, or with one its record does not ask for) and tables
    that do not know how the vacation stands (``away``: it runs)."""
    lost, wrong, notes = 0, 0, []
    due = f"{prefix}:{{deadlines}}:due"
    stored: dict[str, list[tuple[str, float]]] = {tid: [] for tid in tables}
    for table_id, version, kind in await store.due(now + 10**9, limit=10**6):
        if table_id in stored:
            stored[table_id].append((kind, await client.zscore(due, f"{table_id}:{version}:{kind}")))
    for table_id in tables:
        table = await _his_turn(store, table_id)
        if table is None:
            continue  # counted as fired
        seat = table.state["to_act"]
        expected = deadlines.next_timer(table, seat, now)
        if len(stored[table_id]) != 1 or stored[table_id][0][0] != expected[0] or \
                abs(stored[table_id][0][1] - expected[1]) > LEASE_S + 2:
            lost += 1
            notes.append(f"{table_id}: timers {stored[table_id]}, its record asks for {expected}")
        if (vacation.running(table, user(0).key, now) is not None) != away:
            wrong += 1
            notes.append(f"{table_id} does not show the vacation as {'running' if away else 'over'}")
    return lost, wrong, notes


async def _vacations(server: Server, prefix: str, n: int, rounds: int, seed: int) -> Row:
    """One person's vacation over his ``n`` Fernspiel tables, begun and ended ``rounds`` times, each by a worker
    killed at a random table save (or not at all) and then redelivered; the next process's tick heals what is
    left. Lost: timers lost; doubled: timers fired during the vacation (a reminder, a move for him)."""
    client = client_for(server.url)
    store = Store(client, prefix=prefix, lease_s=LEASE_S)
    row = Row(f"kill -9 at a vacation's start/end, {n} tables")
    now = [VACATION_T0]
    svc = service(store, seed=seed, clock=lambda: now[0], **VACATION)
    rng = random.Random(seed)
    kills = {"start": 0, "end": 0}

    async def killed_then_again(words: str) -> None:
        for at in (rng.randrange(n + 2), -1):
            killed, err = await asyncio.to_thread(_vacation_in_worker, server.url, prefix, at, rng.random() < 0.5,
                                                  now[0], words)
            row.faults += killed
            kills["start" if words[-1].isdigit() else "end"] += killed
            if "Traceback" in err:
                row.crashes += 1
                row.notes.append(err.strip().splitlines()[-1][:160])
        now[0] += LEASE_S + 1  # a claimed guard's lease has passed: the next process's tick does what was left
        fired = await svc.tick()
        if away := words[-1].isdigit():
            row.doubled += sum(isinstance(o, Notice) and o.text[:1] in "⏰⏱" for o in fired)
        lost, wrong, notes = await _vacation_timers(store, client, prefix, tables, now[0], away)
        row.lost, row.stuck, row.notes = row.lost + lost, row.stuck + wrong, row.notes + notes[:3]

    try:
        tables = await _vacation_tables(svc, n)
        for _ in range(rounds):
            await killed_then_again("urlaub 4")
            for _ in range(3):  # his turns' reminders and automatic moves came due meanwhile, without the vacation
                now[0] += DAY
                fired = await svc.tick()
                row.doubled += sum(isinstance(o, Notice) and o.text[:1] in "⏰⏱" for o in fired)
            row.doubled += sum([await _his_turn(store, tid) is None for tid in tables])
            await killed_then_again("urlaub aus")
            now[0] += 3600
        row.leaks, notes = await _leaks(store, client, prefix)
        row.notes += notes
        row.notes.append(f"{rounds} vacations, workers killed at {kills['start']} starts and {kills['end']} ends")
    finally:
        await client.aclose()
    return row


# ---------------------------------------------------------------------------------------- the run
GROUPS = ("moves", "service", "outbox", "rolling", "shards")
"""The groups of rows ``--rows`` picks: the moves' rows (kills, finishing moves, presses, fuzz, privacy, and the
messages' limits), the service's (flood, tournament, web port, memory, vacations), the outbox's two kill rows, the
rolling restart of Telegram processes, the one of Discord shards."""


async def run(games: int = 100, kills: int = 25, workers: int = 3, presses: int = 10_000, fuzz: int = 2000,
              deals: int = 6, seed: int = 1, drain_s: float = 600.0, flood: int = 1000, finishes: int = 20,
              slow_clients: int = 300, slow_timeout_s: float = 10.0, history: int = 100_000, vacations: int = 10,
              vacation_tables: int = 50, sender_kills: int = 100, restart_tables: int = 50, guard_kills: int = 100,
              quick: bool = False, groups: tuple[str, ...] = GROUPS) -> list[Row]:
    """Run the fault rows of ``groups`` (:data:`GROUPS`) against a redis-server of its own; returns the rows."""
    rows: list[Row] = []
    with Server() as server:
        if "moves" in groups:
            rows += await _kills(server, "fk", games, kills, workers, seed, drain_s)
            rows.append(await _finishing(server, "fe", finishes, seed))
            rows.append(await _presses(server, "fp", presses, seed))
            rows.append(await _fuzz(server, "ff", fuzz, seed))
            rows.append(await _privacy(server, "fv", deals, seed))
        if "service" in groups:
            rows.append(await _flood(server, "fl", flood))
            rows.append(await _tourney(server, "ft", min(16, max(4, games // 4)), kills, workers, seed, drain_s))
            rows += await _slow_web(server, "fw", slow_clients, slow_timeout_s)
            rows.append(await _memory_commands(server, "fm", history, seed))
            rows.append(await _vacations(server, "fu", vacation_tables, vacations, seed))
        if "outbox" in groups:
            rows.append(Row(f"kill -9 of the sending process mid-send, {sender_kills} times"))
            await outbox_faults.kill_senders(server.url, "fo", sender_kills, seed, quick, rows[-1])
            rows.append(Row(f"kill -9 between save and outbox write, {guard_kills} times"))
            await outbox_faults.kill_after_saves(server.url, "fg", guard_kills, seed, rows[-1])
        if "rolling" in groups:
            rows.append(Row(f"rolling restart of three processes during {restart_tables} tables"))
            await rolling.rolling_restart(server.url, restart_tables, quick, rows[-1])
        if "shards" in groups:
            rows.append(Row(f"rolling restart of three Discord shards during {restart_tables} tables"))
            await shards.rolling_shards(server.url, restart_tables, quick, rows[-1])
    if "moves" in groups:
        rows.append(_limits(games, seed))
    return rows


def table(rows: list[Row]) -> str:
    """The rows as one text table."""
    width = max(len(r.name) for r in rows)
    lines = [f"{'':{width}}  " + "  ".join(COLUMNS), "-" * (width + 2 + len("  ".join(COLUMNS)))]
    for r in rows:
        lines.append(f"{r.name:{width}}  " + "  ".join(f"{v:>{len(c)}}" for v, c in zip(r.cells(), COLUMNS)))
    notes = [f"  {r.name}: {n}" for r in rows for n in r.notes]
    return "\n".join(lines + (["notes:", *notes] if notes else []))


def _groups(text: str) -> tuple[str, ...]:
    """``--rows``: known groups of rows, comma-separated."""
    picked = tuple(g.strip() for g in text.split(",") if g.strip())
    if not picked or any(g not in GROUPS for g in picked):
        raise argparse.ArgumentTypeError(f"pick among {', '.join(GROUPS)}")
    return picked


def main() -> None:
    """The command line: the bench, or one of its worker processes."""
    if sys.argv[1:2] == ["worker"]:
        url, prefix, name, seed, *tables = sys.argv[2:]
        asyncio.run(_worker(url, prefix, name, int(seed), dict(x.split(":") for x in tables)))
        return
    if sys.argv[1:2] == ["finisher"]:
        url, prefix, point, command = sys.argv[2:]
        asyncio.run(_finisher(url, prefix, point, json.loads(command)))
        return
    if sys.argv[1:2] == ["vacationer"]:
        url, prefix, at, after, now, words = sys.argv[2:]
        asyncio.run(_vacationer(url, prefix, int(at), after == "1", float(now), words))
        return
    if sys.argv[1:2] == ["ticker"]:
        url, prefix, seed = sys.argv[2:]
        asyncio.run(_tick_worker(url, prefix, int(seed)))
        return
    if sys.argv[1:2] == ["hammer"]:
        url, prefix, seed, max_presses, *tables = sys.argv[2:]
        asyncio.run(_hammer(url, prefix, int(seed), int(max_presses), tables))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--kills", type=int, default=25)
    p.add_argument("--workers", type=int, default=3)
    p.add_argument("--presses", type=int, default=10_000)
    p.add_argument("--fuzz", type=int, default=2000)
    p.add_argument("--flood", type=int, default=1000)
    p.add_argument("--finishes", type=int, default=20, help="matches killed at their finishing move")
    p.add_argument("--deals", type=int, default=6, help="deals of every game the privacy scan plays")
    p.add_argument("--drain-s", type=float, default=600.0, help="the longest wait for the tables to finish")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--slow-clients", type=int, default=300, help="web port connections that send half a request")
    p.add_argument("--slow-timeout-s", type=float, default=10.0, help="the web port's times for headers and body")
    p.add_argument("--history", type=int, default=100_000, help="matches in the history the memory's commands read")
    p.add_argument("--vacations", type=int, default=10, help="vacations begun and ended, each with a worker killed")
    p.add_argument("--vacation-tables", type=int, default=50, help="the Fernspiel tables the vacations hold")
    p.add_argument("--sender-kills", type=int, default=100, help="outbox senders killed mid-send")
    p.add_argument("--restart-tables", type=int, default=50, help="tables played while three processes restart")
    p.add_argument("--rows", default=",".join(GROUPS), type=_groups,
                   help=f"the groups of rows to run, comma-separated (default: all of {', '.join(GROUPS)})")
    p.add_argument("--guard-kills", type=int, default=100, help="presses killed between their save and outbox write")
    a = parse(p, games=4, kills=4, presses=200, fuzz=60, deals=1, drain_s=60.0, seed=7, finishes=2,
              slow_clients=12, slow_timeout_s=1.0, history=1000, vacations=1, vacation_tables=4, sender_kills=1,
              restart_tables=4, guard_kills=1, flood=300)
    started = time.monotonic()
    rows = asyncio.run(run(a.games, a.kills, a.workers, a.presses, a.fuzz, a.deals, a.seed, a.drain_s, a.flood,
                           a.finishes, a.slow_clients, a.slow_timeout_s, a.history, a.vacations, a.vacation_tables,
                           a.sender_kills, a.restart_tables, a.guard_kills, a.quick, a.rows))
    print(table(rows))
    print(f"({time.monotonic() - started:.0f} s; games {a.games}, kills {a.kills}, workers {a.workers}, "
          f"presses {a.presses}, fuzz examples {a.fuzz}, flood {a.flood}, finishes {a.finishes}, "
          f"slow clients {a.slow_clients} with {a.slow_timeout_s:g} s, history {a.history}, "
          f"vacations {a.vacations} over {a.vacation_tables} tables)")


if __name__ == "__main__":
    main()
