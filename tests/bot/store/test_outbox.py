"""The outbox in Redis: batches written by one process are carried out by the reader of another, in order,
and a sender killed mid-send neither loses nor doubles a message (real Redis, the real Telegram delivery on
the fake Bot API, the sender a process of its own killed with SIGKILL)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from typing import get_args

from bot.protocol import wire
from bot.protocol.outgoing import (Attachment, Button, ChatRef, FileMessage, HandMessage, ListedTable, Notice, OpenTopic,
                                   JoinLink, Outgoing, PrivateText, TableList, TableMessage, Toast, UserRef)
from bot.store.outbox import Outbox
from tests.fakes.telegram import FakeTelegram
from tests.outbox_worker import PACED

GROUP = -1001
CHAT = ChatRef("telegram", str(GROUP), title="Stammtisch Lautern")
ANNA = UserRef("telegram", "11", "Anna")


def test_effects_come_back_as_they_went():
    outs = [TableMessage(CHAT, "T1", "Tisch", ((Button("A♠", token="st1:T1:3:play:AS"), Button("Web", url="https://x")),),
                         story=("Anna spielt",)),
            HandMessage(ANNA, CHAT, "T1", "Hand", notify=True, playable=("st1:T1:3:play:AS",)),
            Notice(CHAT, "Anna ist dran", (ANNA,), "T1"),
            FileMessage(CHAT, (Attachment("chart.png", b"\x89PNG", picture=True),), "Tabelle"),
            PrivateText(ANNA, CHAT, "Deine Nachbesprechung", "T1"), Toast(ANNA, CHAT, "Du kannst: K♣", True, "T1"),
            JoinLink(ANNA, CHAT, "T1", "join-T1", "Mitspielen"), OpenTopic(CHAT, "T1", "Bauer"),
            TableList(ANNA, ChatRef("telegram", "11", private=True), "Deine Tische",
                      (ListedTable("T1", CHAT, "1. Bauer", "zum Tisch", Button("Hand", token="st1:T1:3:hand:")),
                       ListedTable("T2", CHAT, "2. Rams", "zum Tisch")), (Button("▶", token="st1:mine:1:tables:"),))]
    assert wire.unpack(wire.pack(outs)) == outs
    assert {type(o) for o in outs} == set(get_args(Outgoing)), "every kind of effect can travel"


async def _spawn(*args: str) -> subprocess.Popen:
    """A worker of :mod:`tests.outbox_worker`, once it says it is ready (the fake answers it meanwhile)."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.outbox_worker", *args], stdout=subprocess.PIPE, text=True)
    assert (await asyncio.to_thread(proc.stdout.readline)).startswith("ready ")
    return proc


def _gone(proc: subprocess.Popen) -> None:
    """The worker killed (SIGKILL), if it still runs."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()


async def _taken_over(args: tuple[str, ...], redis, stream: str) -> None:
    """Another sender takes the stream over and carries out every batch of it (it is gone then)."""
    second = await _spawn(*args)
    try:
        while await redis.xlen(stream):  # every batch acknowledged: nothing more is sent
            await asyncio.sleep(0.01)
    finally:
        _gone(second)


async def test_a_sender_killed_mid_send_neither_loses_nor_doubles(redis, redis_url, key_prefix):
    """Six notices in one batch and six batches of one: the first sender is killed after some of the batch's
    calls are made and recorded (the batch not yet acknowledged) and with batches read but not sent; the
    next takes the shard over, sends what was not made, once."""
    outbox = Outbox(redis, key_prefix)
    async with FakeTelegram(group_limit=(PACED.group_messages, PACED.group_window_s),
                            chat_limit=(PACED.chat_messages, PACED.chat_window_s)) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        texts = [f"Nachricht {i}" for i in range(12)]
        await outbox.put([Notice(CHAT, text) for text in texts[:6]])
        for text in texts[6:]:
            await outbox.put([Notice(CHAT, text)])
        args = ("send", redis_url, key_prefix, tg.base_url, tg.token)
        first = await _spawn(*args)
        try:
            entry = (await redis.xrange(outbox.stream("telegram", outbox.shard_of(str(GROUP))), count=1))[0][0]
            sent = outbox.sent_key("telegram", outbox.shard_of(str(GROUP)), entry)
            while await redis.scard(sent) < 3:  # three calls of the batch made and recorded, three to go
                await asyncio.sleep(0.005)
            first.send_signal(signal.SIGKILL)
            first.wait()
            made = len(tg.chat(GROUP))
            await _taken_over(args, redis, outbox.stream("telegram", outbox.shard_of(str(GROUP))))
        finally:
            _gone(first)
        shown = [m.history[0][0] for m in tg.chat(GROUP)]
        assert 3 <= made < len(texts)
        assert sorted(shown) == sorted(texts), "lost or doubled"
        assert shown == texts, "out of order"


async def test_a_sender_killed_after_telegram_made_its_messages_makes_none_again(redis, redis_url, key_prefix):
    """Telegram makes a notice in a supergroup and a hand in a private chat, but their answers never reach the
    sender, which is killed: the next sender finds both messages (the ids after the newest known when they were
    noted: Anna's and Ben's own messages take ids of the bot's one sequence of private chats before her hand)
    and posts neither again."""
    outbox = Outbox(redis, key_prefix)
    group = -1001000004000
    async with FakeTelegram(group_limit=(PACED.group_messages, PACED.group_window_s),
                            chat_limit=(PACED.chat_messages, PACED.chat_window_s)) as tg:
        tg.group(group, "Stammtisch Lautern")
        chat = ChatRef("telegram", str(group))
        anna, ben = tg.user(11, "Anna"), tg.user(12, "Ben")
        anna.start()
        ben.start()
        tg.withhold = asyncio.Event()
        await outbox.put([Notice(chat, "Anna ist dran"), HandMessage(ANNA, chat, "T1", "Anna: A♠ K♠")])
        args = ("send", redis_url, key_prefix, tg.base_url, tg.token)
        first = await _spawn(*args)
        try:
            await tg.wait_for(lambda: tg.chat(group) and tg.chat(anna.id), what="both messages made")
        finally:
            _gone(first)
        tg.withhold.set()
        tg.withhold = None
        await _taken_over(args, redis, outbox.stream("telegram", outbox.shard_of(str(group))))
        assert [m.text for m in tg.chat(group)] == ["Anna ist dran"]
        assert [m.text for m in tg.chat(anna.id)] == ["Anna: A♠ K♠"]
        assert len(tg.calls_of("sendMessage")) == 2, "each made once"
