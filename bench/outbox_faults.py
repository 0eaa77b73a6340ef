"""The outbox's rows of the fault suite (:mod:`bench.faults`): senders killed mid-send, and a crash between a save and
its outbox write.

The row runs sender processes (``python -m tests.outbox_worker send``: an outbox reader and the real Telegram
delivery) against the fake Telegram server in this process, while this process writes effects to the outbox as
the tables' timers and web taps do:

**kill -9 of the sending process mid-send**: notices for four groups, a few a second each, two senders alive;
the one holding a busy shard is killed with SIGKILL ``kills`` times, a new one started each time. In the full
run a kill comes at a random moment after a call (also between Telegram's making a message and the record of
the call, or with the call in flight: the next sender finds that message, :mod:`adapters.telegram.adopt`);
with ``--quick`` it comes once every call made is recorded (the suite's check must not depend on luck).

**kill -9 between a change's save and its outbox write**: four people play Bauerchen in one group; the press
that ends a deal goes to a worker (``python -m tests.outbox_worker saved``) that kills itself right after the
press's save landed (the others are made here). This process fires the timers with its clock
:data:`~bot.service.change.SHOW_GUARD_S` ahead (the save's show guard comes due at once) and a sender shows
what they write.

Moves lost: notices never shown, or a table message that never showed its last version; moves doubled: notices
shown twice; the notes give the longest stall (from an effect's write to its showing at the fake). The rolling
restart of real processes is :mod:`bench.rolling`.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import time

import engine
from bot.ops.settings import load_settings
from bot.protocol import actarg, tokens
from bot.protocol.outgoing import ChatRef, Command, Notice, TableMessage, UserRef
from bot.service import Service
from bot.service.change import SHOW_GUARD_S
from bot.store.connection import client_for
from bot.store.outbox import Outbox
from bot.store.tables import Store
from bot.table.record import Table
from bot.words import hand, render
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.harness import version
from tests.outbox_worker import PACED
from tests.servicekit import awaited_press, button, say

__all__ = ["kill_senders", "kill_after_saves"]

_DRAIN_S = 120.0


async def _sender(url: str, prefix: str, tg: FakeTelegram) -> tuple[subprocess.Popen, str]:
    """A sender process, once ready, and its reader's name."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.outbox_worker", "send", url, prefix, tg.base_url, tg.token],
                            stdout=subprocess.PIPE, text=True)
    line = await asyncio.to_thread(proc.stdout.readline)
    if not line.startswith("ready "):
        proc.kill()
        raise RuntimeError(f"a sender did not start: {line!r}")
    return proc, line.split()[1]


async def _gone(procs: list[subprocess.Popen], client) -> None:
    """The senders killed, the client closed."""
    for p in procs:
        p.kill()
        p.wait()
    await client.aclose()


def _fake() -> FakeTelegram:
    return FakeTelegram(group_limit=(PACED.group_messages, PACED.group_window_s),
                        chat_limit=(PACED.chat_messages, PACED.chat_window_s))


class _Shown:
    """What the fake shows of the effects written: notices by text, each table's newest version."""

    def __init__(self, tg: FakeTelegram, groups: list[int]) -> None:
        self.tg, self.groups = tg, groups
        self.written: dict[str, float] = {}  # a notice's or a table version's text -> when it was written

    def notices(self) -> list[str]:
        """The notices posted (one per message)."""
        return [m.history[0][0] for g in self.groups for m in self.tg.chat(g) if m.history[0][0].startswith("N")]

    def stall(self) -> float:
        """The longest time from a text's write to the fake's call that showed it."""
        longest = 0.0
        seen: set[str] = set()
        for at, method, params, status in self.tg.calls:
            text = params.get("text", "") if status == 200 else ""
            if text in self.written and text not in seen:
                seen.add(text)
                longest = max(longest, at - self.written[text])
        return longest


async def _drained(client, outbox: Outbox, platform: str = "telegram") -> None:
    """Until every batch written is acknowledged (or :data:`_DRAIN_S` passed)."""
    end = time.monotonic() + _DRAIN_S
    while time.monotonic() < end:
        if not any([await client.xlen(outbox.stream(platform, n)) for n in range(outbox.shards)]):
            return
        await asyncio.sleep(0.05)


async def kill_senders(url: str, prefix: str, kills: int, seed: int, quick: bool, row) -> None:
    """Fill ``row`` (see the module): ``kills`` senders killed mid-send."""
    rng = random.Random(seed)
    client = client_for(url)
    outbox = Outbox(client, prefix)
    groups = [-1001000002000 - i for i in range(4)]  # supergroups: their message ids run per chat
    procs: list[subprocess.Popen] = []
    try:
        async with _fake() as tg:
            for g in groups:
                tg.group(g, f"Stammtisch {g}")
            shown = _Shown(tg, groups)
            writing = True

            async def write() -> None:
                n = 0
                while writing:
                    for g in groups:
                        text = f"N{n} {g}"
                        shown.written[text] = time.monotonic()
                        await outbox.put([Notice(ChatRef("telegram", str(g)), text)])
                        n += 1
                    await asyncio.sleep(0.25)

            async def calls() -> int:
                return sum(m == "sendMessage" and s == 200 for _, m, _, s in tg.calls)

            async def recorded() -> int:  # every notice a batch of its own: acknowledged once its call is recorded
                return len(shown.written) - sum([await client.xlen(outbox.stream("telegram", n))
                                                 for n in range(outbox.shards)])

            started = [await _sender(url, prefix, tg) for _ in range(2)]
            procs = [p for p, _ in started]
            names = {p.pid: name for p, name in started}
            writer = asyncio.ensure_future(write())
            try:
                for _ in range(kills):
                    before = await calls()
                    while await calls() <= before:  # a call made since the last kill
                        await asyncio.sleep(0.005)
                    if quick:
                        while await recorded() < await calls():
                            await asyncio.sleep(0.005)
                    else:
                        await asyncio.sleep(rng.uniform(0, PACED.chat_window_s * 2))
                    holders = set()
                    for n in range(outbox.shards):
                        if await client.xlen(outbox.stream("telegram", n)):
                            holders.add(await client.get(outbox.lease("telegram", n)))
                    victim = next((p for p in procs if names.get(p.pid) in holders), rng.choice(procs))
                    victim.send_signal(signal.SIGKILL)
                    await asyncio.to_thread(victim.wait)
                    row.faults += 1
                    procs.remove(victim)
                    proc, name = await _sender(url, prefix, tg)
                    names[proc.pid] = name
                    procs.append(proc)
            finally:
                writing = False
                await writer
            await _drained(client, outbox)
            notices = shown.notices()
            written = list(shown.written)
            row.lost += len(set(written) - set(notices))
            row.doubled += len(notices) - len(set(notices))
            row.notes.append(f"{len(written)} notices to {len(groups)} groups, {kills} senders killed "
                             f"({'once every call made was recorded' if quick else 'at random moments'}); "
                             f"longest stall {shown.stall():.1f} s (a killed sender's lease: 1 s here, 3 s in "
                             f"`stammtisch run`)")
    finally:
        await _gone(procs, client)


async def _opened(svc: Service, chat: ChatRef, users: list[UserRef]) -> str:
    """A Bauerchen table of ``users`` in ``chat``, started, its effects through the outbox; its id."""
    outs = await svc.handle(say(chat, users[0], "neu bauerchen"))
    await svc.show(outs)
    table = next(o for o in outs if isinstance(o, TableMessage))
    for u in users[1:]:
        outs = await svc.handle(Command(chat, u, token=button(table, "join").token, reachable=True))
        await svc.show(outs)
        table = next(o for o in outs if isinstance(o, TableMessage))
    await svc.show(await svc.handle(Command(chat, users[0], token=button(table, "start").token)))
    return table.table_id


def _ends_deal(state, seat: int, token: str) -> bool:
    """Whether pressing ``token`` for ``seat`` ends the deal."""
    tok = tokens.parse(token)
    action = actarg.decode(tok.arg) if tok and tok.verb == "act" else None
    return action is not None and state.to_act == seat and engine.is_over(engine.apply(state, seat, action)[0])


def _killed_after_save(url: str, prefix: str, chat: ChatRef, who: UserRef, token: str) -> bool:
    """A worker presses ``token`` for ``who`` and kills itself after the save; whether it was killed (saved)."""
    d = {"chat": chat.chat_id, "user": who.user_id, "name": who.name, "token": token}
    proc = subprocess.run([sys.executable, "-m", "tests.outbox_worker", "saved", url, prefix, json.dumps(d)],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode == -signal.SIGKILL


async def kill_after_saves(url: str, prefix: str, kills: int, seed: int, row) -> None:
    """Fill ``row`` (see the module): ``kills`` presses whose process died between the save and the outbox write."""
    rng = random.Random(seed)
    client = client_for(url)
    healer = Service(Store(client, prefix=prefix), load_settings(), outbox=Outbox(client, prefix))
    group = -1004000
    procs: list[subprocess.Popen] = []
    try:
        async with _fake() as tg:
            tg.group(group, "Stammtisch Wache")
            chat = ChatRef("telegram", str(group), title="Stammtisch Wache")
            users = [UserRef("telegram", str(u.id), u.first_name) for u in
                     (tg.user(51 + i, n, started=True) for i, n in enumerate(("Anna", "Ben", "Cleo", "Dora")))]
            procs.append((await _sender(url, prefix, tg))[0])
            table_id, results, stalls = await _opened(healer, chat, users), [], []
            while row.faults < kills:
                loaded = await healer.store.fetch(table_id)
                table = Table.load(loaded.data)
                if table.status != "playing":
                    table_id = await _opened(healer, chat, users)
                    continue
                state = engine.from_json(table.state)
                hands = {table.user(s).key: hand.hand_message(table, state, s, loaded.version) for s in table.humans()}
                who, pressed = awaited_press(table, hands, rng)
                seat = table.seat_of(who)
                if not _ends_deal(state, seat, pressed.token):
                    await healer.show(await healer.handle(Command(chat, table.user(seat), token=pressed.token)))
                    continue
                if not await asyncio.to_thread(_killed_after_save, url, prefix, chat, table.user(seat), pressed.token):
                    row.notes.append("a press was not saved")
                    break
                row.faults += 1
                died = time.monotonic()
                saved = await healer.store.fetch(table_id)
                after = Table.load(saved.data)
                results.append(render.result_text(after, after.sheet[-1], after.sheet_dropped + len(after.sheet)))
                await healer.tick(time.time() + SHOW_GUARD_S + 1)
                while version(tg, group, table_id) < saved.version and time.monotonic() < died + _DRAIN_S:
                    await asyncio.sleep(0.02)
                row.lost += version(tg, group, table_id) < saved.version
                stalls.append(time.monotonic() - died)
            await _drained(client, healer.outbox)
            shown = [m.history[0][0] for m in tg.chat(group)]  # results waiting together are posted as one message
            for text in set(results):  # two deals may end alike
                times, due = sum(m.count(text) for m in shown), results.count(text)
                row.lost += max(0, due - times)
                row.doubled += max(0, times - due)
                if times > due:
                    row.notes.append(f"shown {times} times, ended {due}: {text.splitlines()[0]}")
            row.notes.append(f"{row.faults} deals' last cards saved by a process killed before their outbox write; "
                             f"each table and result shown {max(stalls, default=0):.1f} s at most after the kill (its "
                             f"guard come due at once: in `stammtisch run` it waits {SHOW_GUARD_S:g} s)")
    finally:
        await _gone(procs, client)
