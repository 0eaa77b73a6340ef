"""The outbox and the delivery of outgoing effects, against the fake Bot API and a real Redis store."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace

import pytest
from telegram import Bot

from adapters.common.bounded import Bounded
from adapters.common.refs import MessageRef
from adapters.telegram.deliver import Delivery
from adapters.telegram.outbox import Job, Outbox, Pacer
from adapters.telegram.tuning import Tuning
from bot.ops.settings import load_settings
from bot.protocol import receipts
from bot.protocol.outgoing import Button, ChatRef, HandMessage, Notice, TableMessage, Toast, UserRef
from bot.store.connection import connect
from bot.store.ratelimit import Limiter
from bot.store.tables import Store
from tests.fakes.telegram import FakeTelegram
from tests.redis_servers import Server, skip_unless_installed

GROUP = -1001
TABLE = "T1"
FAST = Tuning(group_messages=20, group_window_s=2.0, chat_messages=1, chat_window_s=0.1)


def group_ref(chat_id: int = GROUP) -> ChatRef:
    return ChatRef("telegram", str(chat_id), title="Stammtisch Lautern")


def player(user_id: int, name: str) -> UserRef:
    return UserRef("telegram", str(user_id), name)


def table(text: str, version: int, chat: ChatRef | None = None, repost: bool = False) -> TableMessage:
    buttons = ((Button("Mitspielen", token=f"st1:{TABLE}:{version}:join:"),),)
    return TableMessage(chat or group_ref(), TABLE, text, buttons, repost)


def hand(user: UserRef, text: str, version: int) -> HandMessage:
    return HandMessage(user, group_ref(), TABLE, text, ((Button("A♠", token=f"st1:{TABLE}:{version}:play:AS"),),))


class GrantsPacer(Pacer):
    """The real pacer, noting the order in which the chats' calls were let go."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.granted: list[int] = []

    async def wait(self, chat_id: int) -> None:
        """The pacer's wait; then the chat is noted as let go."""
        await super().wait(chat_id)
        self.granted.append(chat_id)


class Rig:
    """A delivery on a real bot, talking to the fake server, keeping refs in the real store."""

    def __init__(self, tg: FakeTelegram, bot: Bot, store, tuning: Tuning, shared=None):
        self.tg = tg
        self.migrations: list[tuple[int, int]] = []
        self.pacer = GrantsPacer(tuning, shared)
        self.outbox = Outbox(self.pacer, self._migrated)
        self.delivery = Delivery(bot, store, self.outbox, lambda table_id: f"join_{table_id}", tg.username)

    async def _migrated(self, old: int, new: int) -> None:
        self.migrations.append((old, new))

    async def run(self, outs, **kw) -> None:
        self.delivery.carry_out(outs, **kw)
        await asyncio.wait_for(self.outbox.idle(), 10)


@pytest.fixture
async def tg():
    async with FakeTelegram(group_limit=(20, 2.0), chat_limit=(1, 0.1)) as server:
        server.group(GROUP, "Stammtisch Lautern")
        yield server


@pytest.fixture
async def rig(tg, store):
    assert await store.create(TABLE, f"telegram:{GROUP}:", "{}", [])
    async with Bot(tg.token, base_url=tg.base_url) as bot:
        await bot.initialize()
        yield Rig(tg, bot, store, FAST)


async def test_a_burst_of_table_renders_is_coalesced(tg, rig):
    await rig.run([table(f"Tisch v{v}", v) for v in range(1, 11)])
    assert [m.history for m in tg.chat(GROUP)] == [[("Tisch v10", tg.last(GROUP).markup)]]
    await asyncio.sleep(0.15)
    rig.delivery.carry_out([table("Tisch v11", 11)])
    await asyncio.sleep(0.02)
    rig.delivery.carry_out([table(f"Tisch v{v}", v) for v in range(12, 20)])
    await asyncio.wait_for(rig.outbox.idle(), 10)
    assert [text for text, _ in tg.last(GROUP).history] == ["Tisch v10", "Tisch v11", "Tisch v19"]
    assert tg.violations == []
    assert rig.outbox._queues == {}, "an idle chat keeps no queue (memory stays bounded)"


async def test_a_group_table_in_play_waits_for_the_next_card_but_never_behind_a_notice(tg, store):
    """During a deal a group's table waits ``table_lazy_s`` so that the next card shares its edit;
    a message posted with it in the group does not let it wait, and a notice that comes while it
    waits does not go first (the table would be held back for the group's gap)."""
    anna = tg.user(11, "Anna", started=True)
    assert await store.create(TABLE, f"telegram:{GROUP}:", "{}", [])
    async with Bot(tg.token, base_url=tg.base_url) as bot:
        await bot.initialize()
        rig = Rig(tg, bot, store, FAST)
        rig.delivery.table_lazy_s = 60.0  # longer than any test: only a newer card or a notice lets it go
        await rig.run([table("Tisch v1", 1)])
        for v in (2, 3):  # two cards: the table waits, one edit shows both
            rig.delivery.carry_out([table(f"Tisch v{v}", v), hand(player(11, "Anna"), f"Anna v{v}", v)])
        await tg.wait_for(lambda: tg.chat(anna.id) and tg.last(anna.id).text == "Anna v3", what="the hand")
        rig.delivery.carry_out([Notice(group_ref(), "Anna ist lange nicht dran gewesen.")])
        await asyncio.wait_for(rig.outbox.idle(), 10)
        rig.delivery.carry_out([table("Tisch v4", 4), hand(player(11, "Anna"), "Anna v4", 4),
                                Notice(group_ref(), "Spiel 1 ist aus.")])
        await asyncio.wait_for(rig.outbox.idle(), 10)
    sent = [(m, p.get("text")) for _, m, p, status in tg.calls if status == 200 and p.get("chat_id") == GROUP]
    assert sent == [("sendMessage", "Tisch v1"), ("editMessageText", "Tisch v3"),
                    ("sendMessage", "Anna ist lange nicht dran gewesen."), ("editMessageText", "Tisch v4"),
                    ("sendMessage", "Spiel 1 ist aus.")]


async def test_a_stopping_bot_sends_at_once_what_would_linger_or_be_held(tg, rig):
    """When the bot stops (``flush``) a table waiting for the next card and a hand held for its owner's web page
    go at once instead of holding the stop for its whole flush time and then being dropped."""
    anna = tg.user(11, "Anna", started=True)
    rig.delivery.table_lazy_s = rig.delivery.lazy_s = 60.0  # longer than any test
    await rig.run([table("Tisch v1", 1)])
    rig.delivery.carry_out([table("Tisch v2", 2), replace(hand(player(11, "Anna"), "Anna v2", 2), partial=True)])

    async def page_open() -> float:
        return 60.0
    rig.outbox.put(Job(anna.id, "held", lambda chat_id: rig.delivery.bot.send_message(chat_id, "gehalten"),
                       hold=page_open))
    await asyncio.wait_for(rig.outbox.flush(), 10)
    assert tg.last(GROUP).text == "Tisch v2"
    assert [m.text for m in tg.chat(anna.id)] == ["Anna v2", "gehalten"]


async def test_under_load_a_group_table_waits_for_the_tricks_last_card(tg, store):
    """A group's table during a trick waits ``table_lazy_s`` for the next card at a quiet table; once four fifths of
    the group's window are used, it waits for the trick's last card (up to ``trick_wait_s``) and goes with it: the
    group sees the whole trick in one edit."""
    anna = player(11, "Anna")
    tg.user(11, "Anna", started=True)
    assert await store.create(TABLE, f"telegram:{GROUP}:", "{}", [])
    async with Bot(tg.token, base_url=tg.base_url) as bot:
        await bot.initialize()
        rig = Rig(tg, bot, store, FAST.model_copy(update={"group_messages": 5, "group_window_s": 60.0}))
        rig.delivery.table_lazy_s, rig.delivery.trick_wait_s = 30.0, 60.0  # longer than any test
        await rig.run([table("Tisch v1", 1)])
        rig.delivery.carry_out([replace(table("Tisch v2", 2), in_trick=True), hand(anna, "Anna v2", 2)])
        waits = rig.outbox._queues[GROUP].due[f"tg:table:{TABLE}"] - time.monotonic()
        assert 20.0 < waits <= 30.0, "a quiet group: the table waits for the next card"
        rig.delivery.table_lazy_s = 0.0
        rig.delivery.carry_out([table("Tisch v3", 3), hand(anna, "Anna v3", 3)])
        await rig.run([Notice(group_ref(), "Anna ist lange nicht dran gewesen."),
                       Notice(group_ref(), "Ben ist lange nicht dran gewesen.")])  # 4 of the group's 5 used
        rig.delivery.table_lazy_s = 30.0
        for v in (4, 5):  # the trick's first cards: the table waits for its last
            rig.delivery.carry_out([replace(table(f"Tisch v{v}", v), in_trick=True), hand(anna, f"Anna v{v}", v)])
            waits = rig.outbox._queues[GROUP].due[f"tg:table:{TABLE}"] - time.monotonic()
            assert waits > 50.0, "four fifths of the group's window used: the table waits for the trick's end"
        await rig.run([table("Tisch v6", 6), hand(anna, "Anna v6", 6)])  # the trick's last card lets it go at once
    sent = [(m, p.get("text")) for _, m, p, status in tg.calls if status == 200 and p.get("chat_id") == GROUP]
    assert sent == [("sendMessage", "Tisch v1"), ("editMessageText", "Tisch v3"),
                    ("sendMessage", "Anna ist lange nicht dran gewesen."),
                    ("sendMessage", "Ben ist lange nicht dran gewesen."), ("editMessageText", "Tisch v6")]


async def test_a_result_waiting_for_the_group_goes_before_the_next_deals_cards(tg, store):
    """A notice that waits for the group's turn is not held back by a table edit queued after it,
    even one that may wait for the next card: the deal's result comes before the next deal's cards."""
    tg.user(11, "Anna", started=True)
    assert await store.create(TABLE, f"telegram:{GROUP}:", "{}", [])
    async with Bot(tg.token, base_url=tg.base_url) as bot:
        await bot.initialize()
        rig = Rig(tg, bot, store, FAST.model_copy(update={"group_messages": 4}))  # one message per 0.5 s
        rig.delivery.table_lazy_s = 1.0  # longer than the group's gap: the next card's table may still wait
        await rig.run([table("Tisch v1", 1)])
        rig.delivery.carry_out([table("Tisch v2", 2), hand(player(11, "Anna"), "Anna v2", 2),
                                Notice(group_ref(), "Spiel 1 ist aus.")])
        await tg.wait_for(lambda: tg.last(GROUP).text == "Tisch v2", what="the last card of the deal")
        rig.delivery.carry_out([table("Tisch v3", 3), hand(player(11, "Anna"), "Anna v3", 3)])
        await asyncio.wait_for(rig.outbox.idle(), 10)
    sent = [(m, p.get("text")) for _, m, p, status in tg.calls if status == 200 and p.get("chat_id") == GROUP]
    assert sent == [("sendMessage", "Tisch v1"), ("editMessageText", "Tisch v2"),
                    ("sendMessage", "Spiel 1 ist aus."), ("editMessageText", "Tisch v3")]


async def test_an_older_render_never_overwrites_a_newer_one(tg, rig):
    await rig.run([table("Tisch v5", 5)])
    await rig.run([table("Tisch v3", 3), table("Tisch v4", 4)])
    assert tg.last(GROUP).text == "Tisch v5" and len(tg.last(GROUP).history) == 1


async def test_an_edit_that_changes_nothing_is_not_sent_and_a_repost_posts_anew(tg, rig, store, caplog):
    await rig.run([table("Tisch", 1)])
    calls = len(tg.calls)
    await rig.run([table("Tisch", 1)])
    assert len(tg.calls) == calls, "the message shows this version already: no call"
    bare = TableMessage(group_ref(), TABLE, "Tisch", ())  # no version known: edited once (the buttons go)
    await rig.run([bare])
    calls = len(tg.calls)
    await rig.run([bare])
    assert len(tg.calls) == calls, "the message shows this text and these buttons already: no call"
    # A ref kept before its content was (an older release): the edit goes, and "not modified" is success.
    ref = MessageRef.parse(await store.get_ref(TABLE, "tg:table"))
    await store.set_ref(TABLE, "tg:table", str(ref._replace(shows="")))
    with caplog.at_level(logging.WARNING):
        await rig.run([bare])
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any(status == 400 for _, m, _, status in tg.calls if m == "editMessageText")
    await rig.run([table("Tisch neu", 2, repost=True)])
    assert [m.text for m in tg.chat(GROUP)] == ["Tisch", "Tisch neu"]
    await rig.run([table("Tisch 3", 3)])
    assert [m.text for m in tg.chat(GROUP)] == ["Tisch", "Tisch 3"]


async def test_a_deleted_table_message_is_posted_again(tg, rig):
    await rig.run([table("Tisch", 1)])
    tg.messages[GROUP].clear()
    await rig.run([table("Tisch 2", 2)])
    assert [m.text for m in tg.chat(GROUP)] == ["Tisch 2"]


async def test_hands_go_to_their_owners_edited_in_place(tg, rig):
    anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
    await rig.run([hand(player(11, "Anna"), "Anna: A♠ K♠", 1), hand(player(12, "Ben"), "Ben: B♣", 1)])
    await rig.run([hand(player(11, "Anna"), "Anna: K♠", 2)])
    assert [m.text for m in tg.chat(anna.id)] == ["Anna: K♠"] and [m.text for m in tg.chat(ben.id)] == ["Ben: B♣"]
    first = tg.last(anna.id).message_id
    await rig.run([replace(hand(player(11, "Anna"), "Anna: K♠ (again)", 2), notify=True)])  # he asked for it again
    assert [m.text for m in tg.chat(anna.id)] == ["Anna: K♠ (again)"], "posted anew, the old hand deleted"
    assert tg.deleted == [(anna.id, first)]


async def test_a_hand_of_first_cards_waits_for_the_rest(tg, rig):
    anna = tg.user(11, "Anna", started=True)
    rig.delivery.lazy_s = 60.0  # longer than any test: only the whole hand lets it go
    rig.delivery.carry_out([replace(hand(player(11, "Anna"), "Anna: B♣ A♠", 1), partial=True)])
    (due,) = rig.outbox._queues[anna.id].due.values()
    assert due > time.monotonic() + 30, "her first two cards may wait"
    await rig.run([hand(player(11, "Anna"), "Anna: B♣ A♠ K♠ 10♥ 9♦", 2)])
    assert [m.history for m in tg.chat(anna.id)] == [[("Anna: B♣ A♠ K♠ 10♥ 9♦", tg.last(anna.id).markup)]]


async def test_no_process_edits_a_hand_to_what_it_shows_already(tg, rig, store):
    """A hand whose text and buttons did not change at a newer version is not edited, by this
    process or another one (the refs in Redis keep what it shows), and an older render stays out."""
    async def show(process: Rig, out: HandMessage, version: int) -> None:
        process.delivery.hand(out, version)
        await asyncio.wait_for(process.outbox.idle(), 10)

    anna = tg.user(11, "Anna", started=True)
    waiting = HandMessage(player(11, "Anna"), group_ref(), TABLE, "Anna: A♠ K♠ (Ben ist dran)", ())
    await show(rig, waiting, 1)
    other = Rig(tg, rig.delivery.bot, store, FAST)
    calls = len(tg.calls)
    for process, version in ((rig, 2), (other, 3), (other, 4), (rig, 5)):
        await show(process, waiting, version)
    assert len(tg.calls) == calls, "the same hand at later versions: no call"
    await show(other, replace(waiting, text="Anna: A♠ K♠ (Cleo ist dran)"), 4)
    assert len(tg.calls) == calls, "an older render is not sent"
    await show(other, replace(waiting, text="Anna: A♠ K♠ (Dora ist dran)"), 6)
    assert [m.history for m in tg.chat(anna.id)] == [[("Anna: A♠ K♠ (Ben ist dran)", None),
                                                       ("Anna: A♠ K♠ (Dora ist dran)", None)]]


async def test_a_notifying_hand_is_posted_anew_and_the_old_one_deleted_or_disarmed(tg, rig):
    anna = tg.user(11, "Anna", started=True)
    await rig.run([hand(player(11, "Anna"), "Anna: A♠ K♠", 1)])
    await rig.run([replace(hand(player(11, "Anna"), "Anna: A♠ K♠, du bist dran", 2), notify=True)])
    assert [m.text for m in tg.chat(anna.id)] == ["Anna: A♠ K♠, du bist dran"]
    assert [m for _, m, _, status in tg.calls if status == 200 and m != "getMe"] == [
        "sendMessage", "sendMessage", "deleteMessage"], "one new message, nothing edited"
    tg.fail_deletes = True  # Telegram refuses to delete messages older than 48 hours
    await rig.run([replace(hand(player(11, "Anna"), "Anna: K♠, du bist dran", 4), notify=True)])
    old, new = tg.chat(anna.id)
    assert old.markup is None and new.text == "Anna: K♠, du bist dran" and new.buttons


async def test_an_unreachable_player_is_told_once_in_the_group_how_to_get_his_hand(tg, rig):
    cleo = tg.user(13, "Cleo", language_code="en")
    rig.delivery.langs["13"] = "en"
    await rig.run([hand(player(13, "Cleo"), "Cleo: A♠", 1)])
    await rig.run([hand(player(13, "Cleo"), "Cleo: A♠ K♠", 2)])
    notes = tg.chat(GROUP)
    assert len(notes) == 1 and "so I can send you your cards" in notes[0].text
    assert notes[0].entities[0]["type"] == "text_mention" and notes[0].entities[0]["user"]["id"] == 13
    url = notes[0].button("My cards")["url"]
    assert url == f"https://t.me/{tg.username}?start=join_{TABLE}"
    cleo.start()
    await rig.run([hand(player(13, "Cleo"), "Cleo: K♠", 3)])
    assert tg.last(cleo.id).text == "Cleo: K♠"
    cleo.block()
    await rig.run([hand(player(13, "Cleo"), "Cleo: -", 4)])
    assert "block" in tg.last(GROUP).text and len(tg.chat(GROUP)) == 2


async def test_notices_mention_and_toasts_outside_a_press_are_posted(tg, rig):
    await rig.run([Notice(group_ref(), "Anna, du bist dran.", (player(11, "Anna"),)),
                   Toast(player(11, "Anna"), group_ref(), "Hier ist kein Tisch.")])
    first, second = tg.chat(GROUP)
    assert first.entities == [{"type": "text_mention", "offset": 0, "length": 4,
                               "user": {"id": 11, "is_bot": False, "first_name": "Anna"}}]
    assert second.text == "Hier ist kein Tisch."


async def test_retry_after_is_honoured(tg, rig):
    tg.chat_limit = (1, 0.5)
    await rig.run([Notice(group_ref(), "eins"), Notice(group_ref(), "zwei")])
    assert [m.text for m in tg.chat(GROUP)] == ["eins", "zwei"]
    assert len(tg.violations) == 1


async def test_a_migrated_group_gets_its_messages_at_the_new_id(tg, rig):
    tg.migrate(GROUP, -100777)
    await rig.run([table("Tisch", 1), Notice(group_ref(), "Hallo")])
    assert rig.migrations == [(GROUP, -100777)]
    assert [m.text for m in tg.chat(-100777)] == ["Tisch", "Hallo"]
    await rig.run([table("Tisch 2", 2)])
    assert [m.text for m in tg.chat(-100777)] == ["Tisch 2", "Hallo"]


async def test_the_shared_limiter_paces_two_outboxes_together(tg, store, redis, key_prefix):
    assert await store.create(TABLE, f"telegram:{GROUP}:", "{}", [])
    slow = Tuning(group_messages=20, group_window_s=2.0, chat_messages=1, chat_window_s=0.1)
    async with Bot(tg.token, base_url=tg.base_url) as bot:
        rigs = [Rig(tg, bot, store, slow, Limiter(redis, prefix=key_prefix)) for _ in range(2)]
        for i in range(4):
            for r in rigs:
                r.delivery.carry_out([Notice(group_ref(), f"{i} from {id(r)}")])
        await asyncio.wait_for(asyncio.gather(*(r.outbox.idle() for r in rigs)), 20)
    assert len(tg.chat(GROUP)) == 8 and tg.violations == []


@pytest.mark.parametrize("processes", [1, 2])
async def test_a_group_gets_no_more_than_its_window_allows(store, redis, key_prefix, processes):
    """A group's calls are not spaced by a share of its window but counted in it, here and across
    processes: a burst goes at the chat's pace until the window is full, then waits for it."""
    assert await store.create(TABLE, f"telegram:{GROUP}:", "{}", [])
    tuning = Tuning(group_messages=3, group_window_s=0.5, chat_messages=1, chat_window_s=0.02, slack_s=0.1)
    async with FakeTelegram(group_limit=(3, 0.5), chat_limit=(1, 0.02)) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            shared = Limiter(redis, prefix=key_prefix) if processes > 1 else None
            rigs = [Rig(tg, bot, store, tuning, shared) for _ in range(processes)]
            for i in range(10 // processes):
                for r in rigs:
                    r.delivery.carry_out([Notice(group_ref(), f"{i} from {id(r)}")])
            await asyncio.wait_for(asyncio.gather(*(r.outbox.idle() for r in rigs)), 30)
        assert len(tg.chat(GROUP)) == 10 and tg.violations == [], "the fake counts the group's window: no 429"


def test_bounded_forgets_the_oldest_writes():
    memory = Bounded(size=3)
    for i in range(5):
        memory[i] = i
    memory[2] = 20
    assert list(memory.items()) == [(3, 3), (4, 4), (2, 20)]


async def test_the_pacer_forgets_chats_whose_moment_has_passed():
    pacer = Pacer(Tuning(chat_window_s=0.001, group_window_s=0.02))
    for chat in range(1, 20_001):
        await pacer.sent(chat)
        if chat % 1000 == 0:
            time.sleep(0.002)  # the earlier chats' next free moment has passed
    assert len(pacer) < 2100, len(pacer)


async def test_a_burst_of_50_tables_from_two_processes_stays_under_the_global_limit(store, redis, key_prefix):
    tuning = Tuning(group_messages=20, group_window_s=0.6, chat_messages=1, chat_window_s=0.03, slack_s=0.03,
                    global_messages=30, global_window_s=1.0)
    groups = [-2000 - i for i in range(50)]
    async with FakeTelegram(group_limit=(20, 0.6), chat_limit=(1, 0.03), global_limit=(30, 1.0)) as tg:
        for g in groups:
            tg.group(g, f"Tisch {g}")
            assert await store.create(f"B{-g}", f"telegram:{g}:", "{}", [])
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            await bot.initialize()
            shared = Limiter(redis, prefix=key_prefix)
            rigs = [Rig(tg, bot, store, tuning, shared) for _ in range(2)]  # two processes, one token
            for i, g in enumerate(groups):
                chat, rig = group_ref(g), rigs[i % 2]
                rig.delivery.carry_out([TableMessage(chat, f"B{-g}", "Tisch", ()), Notice(chat, "Los geht's")])
            await asyncio.wait_for(asyncio.gather(*(r.outbox.idle() for r in rigs)), 60)
    sends = [int(p["chat_id"]) for _, m, p, status in tg.calls if m == "sendMessage" and status == 200]
    assert len(sends) == 100 and tg.violations == [], "the fake enforces 30 a second in all chats: no 429"
    for rig in rigs:  # each process lets its waiting chats go in turn (the order calls arrive in may jitter)
        assert len(set(rig.pacer.granted[:25])) == 25, "first messages before second ones"


async def test_a_redis_error_in_a_delivery_requeues_the_message(tg, key_prefix, caplog):
    """The refs are in Redis: while it is away the table message waits, and it goes out once Redis is back."""
    skip_unless_installed()
    with Server() as server:
        client = await connect(load_settings(redis_url=server.url, redis_timeout_s=0.3))
        try:
            store = Store(client, prefix=key_prefix)
            async with Bot(tg.token, base_url=tg.base_url) as bot:
                rig = Rig(tg, bot, store, Tuning(chat_window_s=0.01, group_window_s=0.2))
                server.stop()
                with caplog.at_level(logging.WARNING, logger="adapters.telegram.outbox"):
                    rig.delivery.carry_out([TableMessage(group_ref(), TABLE, "Tisch", ())])
                    async def first_try_failed() -> None:
                        while not any("retrying" in r.getMessage() for r in caplog.records):
                            await asyncio.sleep(0.01)
                    await asyncio.wait_for(first_try_failed(), 10)
                    server.start()
                    await asyncio.wait_for(rig.outbox.idle(), 20)
        finally:
            await client.aclose()
    assert [m.text for m in tg.chat(GROUP)] == ["Tisch"]


async def test_closing_says_how_many_calls_it_dropped():
    """A stopping bot logs what its flush left unmade (``TelegramBot.stop``): the calls still queued."""
    outbox = Outbox(Pacer(FAST), lambda old, new: asyncio.sleep(0))
    started, never = asyncio.Event(), asyncio.Event()

    async def stuck(chat_id: int) -> None:
        started.set()
        await never.wait()
    outbox.put(Job(GROUP, "table", stuck))
    await started.wait()
    outbox.put(Job(GROUP, "notice", stuck))
    outbox.put(Job(GROUP, "hand", stuck))
    assert await outbox.close() == 2  # a call under way is not counted: it was made or not, as it stood


async def test_a_replay_takes_the_tickets_of_its_calls_whatever_this_process_shows(tg, rig):
    """An entry of a table version older than the one this process shows, and a notice: the dead sender made and
    recorded the table's call (ticket 0), not the notice's (ticket 1). Here the table's edit is not queued, but it
    takes its ticket all the same: the notice keeps ticket 1 and is posted (once)."""
    await rig.run([table("Tisch v2", 2)])
    settled = asyncio.Event()
    receipt = receipts.Receipt(frozenset({"0"}), lambda call: asyncio.sleep(0), settled.set)
    with receipts.carrying(receipt):
        rig.delivery.carry_out([table("Tisch v1", 1), Notice(group_ref(), "Anna ist dran")])
    await asyncio.wait_for(settled.wait(), 10)
    assert [m.text for m in tg.chat(GROUP)] == ["Tisch v2", "Anna ist dran"]
