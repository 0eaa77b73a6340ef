"""End to end: the real python-telegram-bot Application, service and store against the fake Bot API.

Simulated people open tables in a group, a forum topic and a private chat, join (one through
the deep link, never having started the bot), and play whole matches by pressing the buttons
the bot sent them. The transcript is then checked against what the store holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

import engine
from adapters.telegram import TelegramBot
from bot.ops.settings import load_settings
from bot.protocol import tokens
from bot.service import Service
from bot.table.record import Table
from bot.words import render
from bot.words.hand import seat_choices
from tests.fakes.telegram import FakeTelegram, FakeUser
from tests.fakes.telegram.harness import (
    FAST,
    PATIENCE,
    Players,
    alive,
    fake_for,
    let_windows_pass,
    newest,
    open_table,
    press_verb,
    running_bot,
    settled,
    table_tokens,
    terminate,
    tuning_env,
    version,
    watching,
)
from tests.servicekit import TurnWatch, hurried
from tests.servicekit import typed as typed_move
from tests.transcript import assert_log_sound, assert_results_told, results_posted, story_lines

ROOT = Path(__file__).resolve().parents[2]
GROUP = -100123
TOPIC = 77


async def stored(store, table_id: str) -> tuple[int, Table]:
    version_, data = await store.load(table_id)
    return version_, Table.load(data)


def finished(tg: FakeTelegram, chat_id: int, table_id: str):
    """A predicate: the table message in ``chat_id`` shows the final summary (its Rematch button)."""
    def check() -> bool:
        message = newest(tg, chat_id, table_id)
        return bool(message) and any(b.get("callback_data", "").split(":")[3:4] == ["rematch"] for b in message.buttons)
    return check


def assert_hands_private(tg: FakeTelegram, table: Table, chat_id: int) -> None:
    """Hands went only to their owners.

    No card button was ever shown in the public chat; only seated players got private messages
    of the table; every hand a player got names his own partner (partnership games).
    """
    for m in tg.chat(chat_id):
        for _, markup in m.history:
            for row in (markup or {}).get("inline_keyboard", []):
                for b in row:
                    t = tokens.parse(b.get("callback_data", ""))
                    assert not (t and (t.verb == "why" or t.arg.startswith("pl."))), f"a card button in public: {b}"
    seated = {int(s.user.split(":")[1]): i for i, s in enumerate(table.seats) if s.user}
    for user_id, msgs in tg.messages.items():
        if user_id > 0 and any(table.id in str(markup) for m in msgs.values() for _, markup in m.history):
            assert user_id in seated, f"{user_id} got a hand of a table he does not sit at"
    if table.game == "rams":
        return
    for user_id, seat in seated.items():
        partner = render.seat_name(table, (seat + 2) % 4)
        hands = [text for m in tg.chat(user_id) for text, _ in m.history
                 if "spielst mit" in text or "play with" in text]
        assert hands, f"no hand reached {user_id}"
        for text in hands:
            assert f"mit {partner} gegen" in text or f"with {partner} against" in text, (user_id, text)


async def assert_final_table(tg: FakeTelegram, store, table_id: str, chat_id: int) -> Table:
    """The table message shows exactly what the bot layer renders for the stored final state."""
    v, table = await stored(store, table_id)
    assert table.status == "finished"
    state = engine.from_json(table.state)
    expected = render.table_message(table, state, v, time.time())
    await tg.wait_for(lambda: newest(tg, chat_id, table_id).text == expected.text, what="the final summary")
    return table


async def test_a_whole_bauerchen_match_in_a_group(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch Lautern")
        anna, ben, dora = (tg.user(i, n, started=True) for i, n in ((11, "Anna"), (12, "Ben"), (14, "Dora")))
        cleo = tg.user(13, "Cleo", language_code="en")
        async with running_bot(tg, store, redis, key_prefix) as bot:
            anna.send(GROUP, "/neu bauerchen")
            tid = await tg.wait_for(lambda: _table_id(tg, GROUP), what="a table")
            for user in (ben, dora):
                seen = version(tg, GROUP, tid)
                assert not (await press_verb(tg, user, GROUP, tid, "join")).get("text")
                await tg.wait_for(lambda: version(tg, GROUP, tid) > seen, what="the join shown")
            # Cleo never talked to the bot: her press opens the private chat with a deep link.
            answer = await press_verb(tg, cleo, GROUP, tid, "join")
            assert answer["url"].startswith(f"https://t.me/{tg.username}?start=")
            _, table = await stored(store, tid)
            assert table.seat_of("telegram:13") is None
            seen = version(tg, GROUP, tid)
            cleo.follow(answer["url"])
            await tg.wait_for(lambda: version(tg, GROUP, tid) > seen, what="Cleo's join shown")
            _, table = await stored(store, tid)
            assert table.seat_of("telegram:13") is not None
            await press_verb(tg, anna, GROUP, tid, "start")
            players = Players(tg, [anna, ben, cleo, dora], tid, store, seed=7)
            await players.play(finished(tg, GROUP, tid), timeout=240)
            table = await assert_final_table(tg, store, tid, GROUP)
            assert_hands_private(tg, table, GROUP)
            await assert_log_sound(store, table, "telegram")
            assert "🏆" in newest(tg, GROUP, tid).text
            assert tg.violations == [], tg.violations[:3]
            refused = [a["text"] for _, _, a in players.presses if a.get("text")]
            assert all(len(t) < 200 for t in refused)
            def results() -> list[str]:
                return results_posted([m.text for m in tg.chat(GROUP)])
            await tg.wait_for(lambda: len(results()) >= table.deals, what="every deal's result posted")
            assert len(tg.chat(GROUP)) - len(results()) <= 3, [m.text for m in tg.chat(GROUP)]
            await assert_story_told(tg, store, table, GROUP, results())
            assert {c.get("language_code", "") for c in tg.calls_of("setMyCommands")} == {"de", ""}
            assert bot.username == tg.username


async def assert_story_told(tg: FakeTelegram, store, table: Table, chat_id: int, results: list[str]) -> None:
    """Each deal's result was posted as its own message; the table message told every call with its name."""
    expected, ended = await story_lines(store, table)
    assert_results_told(results, table, ended)
    shown = "\n".join(text for m in tg.chat(chat_id) for text, _ in m.history)
    named = [line for line in expected if not line.startswith(("Stich", "Trick"))]
    assert named and sum(line in shown for line in named) >= len(named) // 2, named[:5]


def _table_id(tg: FakeTelegram, chat_id: int, verb: str = "join") -> str | None:
    for m in tg.chat(chat_id):
        for b in m.buttons:
            t = tokens.parse(b.get("callback_data", ""))
            if t and t.verb == verb:
                return t.table
    return None


async def test_a_whole_rams_game_in_a_forum_topic_with_a_computer_player(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Jassrunde", forum=True)
        users = [tg.user(21 + i, n, language_code="en", started=True) for i, n in enumerate(["Urs", "Vreni", "Walter"])]
        async with running_bot(tg, store, redis, key_prefix):
            tid = await open_table(tg, GROUP, users[0], users[1:], "rams", command="/new", thread=TOPIC, computers=1)
            await Players(tg, users, tid, store, seed=3).play(finished(tg, GROUP, tid), timeout=240)
            table = await assert_final_table(tg, store, tid, GROUP)
            assert_hands_private(tg, table, GROUP)
            await assert_log_sound(store, table, "telegram")
            assert "Abrechnung" in newest(tg, GROUP, tid).text and table.seats[3].bot
            results = await tg.wait_for(lambda: (found := results_posted([m.text for m in tg.chat(GROUP)]))
                                        and len(found) >= table.deals and found, what="every deal's result posted")
            await assert_story_told(tg, store, table, GROUP, results)
            # the finished match's sheet is still there, German in the German group whatever the clients speak
            users[1].send(GROUP, "/zettel", thread=TOPIC)
            sheet = await tg.wait_for(lambda: next((m for m in tg.chat(GROUP) if m.text.startswith("📋 Zettel · Rams")),
                                                   None), what="the finished match's sheet")
            assert sheet.text.splitlines()[-1].startswith(f"{table.deals}. ")
            assert "Zusammen in der Kasse: " in newest(tg, GROUP, tid).text
            assert all(m.thread == TOPIC for m in tg.chat(GROUP))
            assert tg.violations == []


async def test_a_solo_table_in_the_private_chat_starts_against_the_computer(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        anna = tg.user(11, "Anna", started=True)
        async with running_bot(tg, store, redis, key_prefix):
            anna.send(None, "/neu bauerchen")
            tid = await tg.wait_for(lambda: _table_id(tg, anna.id, "act"), what="her hand")
            _, table = await stored(store, tid)
            assert table.status == "playing" and sum(s.bot for s in table.seats) == 3
            async with watching(store, tid) as latest:
                await Players(tg, [anna], tid, store, seed=5).play(lambda: latest() and latest().deals >= 1, timeout=60)


async def test_bad_presses_are_answered_and_change_nothing(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        users = [tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
        eve = tg.user(19, "Eve", started=True)
        async with running_bot(tg, store, redis, key_prefix):
            tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
            await tg.wait_for(lambda: any(newest(tg, u.id, tid) for u in users), what="a hand")
            to_act = await tg.wait_for(lambda: next((u for u in users if _act_buttons(tg, u, tid)
                                                     and "Du bist dran" in newest(tg, u.id, tid).text), None),
                                       what="a player to decide")
            hand = newest(tg, to_act.id, tid)
            data = next(d for d in _act_buttons(tg, to_act, tid) if ":act:pl." not in d)  # one of his choices
            v0, _ = await stored(store, tid)
            group_msg = newest(tg, GROUP, tid)
            for forged in ("", "x" * 64, "st1:ZZZZ:1:act:pl.AS", f"st1:{tid}:99999:act:pl.AS", "st1:<b>:1:x:y"):
                answer = await tg.wait_answer(eve.press(group_msg, data=forged or "-"))
                assert answer.get("text"), forged
            # A non-player presses a real card button (copied) on the group message.
            answer = await tg.wait_answer(eve.press(group_msg, data=data))
            assert answer.get("text")
            # A seated player who is not to act presses the same data.
            other = next(u for u in users if u is not to_act)
            assert (await tg.wait_answer(other.press(group_msg, data=data))).get("text")
            assert (await stored(store, tid))[0] == v0
            # The right press, then its replay as the same update, then the old button again.
            qid = to_act.press(hand, data=data)
            assert not (await tg.wait_answer(qid)).get("text")
            v1, _ = await stored(store, tid)
            assert v1 > v0
            pressed = tg.delivered[-1]
            tg.replay(pressed["update_id"])
            # the bot answers a press only after the service's verdict: a second answer means it decided the replay
            await tg.wait_for(lambda: answered(tg, pressed["callback_query"]["id"]) == 2, what="the replay decided")
            assert (await stored(store, tid))[0] == v1
            stale = await tg.wait_answer(to_act.press(hand, data=data))
            assert stale.get("text")
            assert (await stored(store, tid))[0] == v1


def _act_buttons(tg: FakeTelegram, user: FakeUser, tid: str) -> list[str]:
    message = newest(tg, user.id, tid)
    return [b["callback_data"] for b in (message.buttons if message else []) if ":act:" in b.get("callback_data", "")]


def telling(tg: FakeTelegram, handled: list[str]) -> type[Service]:
    """The real service, which also notes the update of each command it has handled and tells the fake: a
    verdict that shows nothing (a replayed update) is waited for by that."""
    class Telling(Service):
        async def handle(self, cmd):
            try:
                return await super().handle(cmd)
            finally:
                handled.append(cmd.update_id)
                tg.touch()
    return Telling


async def test_a_replayed_command_opens_one_table(store, redis, key_prefix):
    handled: list[str] = []
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna = tg.user(11, "Anna", started=True)
        async with running_bot(tg, store, redis, key_prefix, service=telling(tg, handled)):
            uid = anna.send(GROUP, "/neu bauerchen")
            await tg.wait_for(lambda: _table_id(tg, GROUP), what="a table")
            tg.replay(uid)
            await tg.wait_for(lambda: handled.count(str(uid)) == 2, what="the replay handled")
            assert len(tg.chat(GROUP)) == 1


async def test_a_blocked_player_is_told_in_the_group_and_gets_his_hand_back(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, ben, cleo, dora = (tg.user(11 + i, n, started=True)
                                 for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"]))
        async with running_bot(tg, store, redis, key_prefix):
            tid = await open_table(tg, GROUP, anna, [ben, cleo, dora], "bauerchen", before_start=ben.block)

            def note():
                return next((m for m in tg.chat(GROUP) if m.entities and m.entities[0]["user"]["id"] == ben.id), None)
            await Players(tg, [anna, cleo, dora], tid, store, seed=2).play(note, timeout=60)
            assert "blockiert" in note().text and note().entities[0]["type"] == "text_mention"
            # The game waits for him: nobody else can act.
            v, _ = await stored(store, tid)
            await asyncio.sleep(0.3)
            assert (await stored(store, tid))[0] == v
            before = sum(len(m.history) for m in tg.chat(ben.id))
            ben.follow(note().button("Karten")["url"])
            await tg.wait_for(lambda: sum(len(m.history) for m in tg.chat(ben.id)) > before, what="his hand again")
            async with watching(store, tid) as latest:
                await Players(tg, [anna, ben, cleo, dora], tid, store, seed=2).play(lambda: latest() and latest().deals >= 1)
            assert len([m for m in tg.chat(GROUP) if m.entities]) == 1


async def test_reminders_and_autoplay_appear_in_the_group(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        users = [tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
        async with running_bot(tg, store, redis, key_prefix, clock=hurried(), reminder_after="1m",
                               autoplay_after="2m"):
            tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
            reminder = await tg.wait_for(lambda: next((m for m in tg.chat(GROUP) if m.text.startswith("⏰")), None),
                                         what="a reminder")
            mentioned = reminder.entities[0]["user"]["id"]
            assert reminder.entities[0]["type"] == "text_mention" and mentioned in {u.id for u in users}
            await tg.wait_for(lambda: any(m.text.startswith("⏱") for m in tg.chat(GROUP)),
                              what="an automatic move")
            _ = tid


async def test_a_group_upgraded_to_a_supergroup_keeps_its_table(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(-555, "Stammtisch")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        async with running_bot(tg, store, redis, key_prefix):
            anna.send(-555, "/neu bauerchen")
            tid = await tg.wait_for(lambda: _table_id(tg, -555), what="a table")
            tg.migrate(-555, -100555)
            # updates are handled concurrently: wait until the migration moved the table (it reposts it)
            await tg.wait_for(lambda: newest(tg, -100555, tid), what="the table reposted in the supergroup")
            ben.send(-100555, "/mitspielen")
            await tg.wait_for(lambda: "Ben" in getattr(newest(tg, -100555, tid), "text", ""),
                              what="the table in the supergroup")
            _, table = await stored(store, tid)
            assert table.chat.chat_id == "-100555" and table.seat_of("telegram:12") is not None


async def test_two_webhook_workers_share_the_tables(store, redis, redis_url, key_prefix):
    # Three processes share two cores with whatever else runs: every wait ends on an event (or on a
    # worker's death); the long patience is only a safety net against a hang.
    async with fake_for(FAST, patience=PATIENCE) as tg:
        tg.group(GROUP, "Stammtisch")
        users = [tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"])]
        ports = [free_port(), free_port()]
        tg.webhook_targets = [f"http://127.0.0.1:{p}/tg" for p in ports]
        async with workers(tg, redis_url, key_prefix, ports) as procs:
            await tg.wait_for(alive(procs, lambda: len(tg.calls_of("setWebhook")) >= 2
                                    and all(listening(p) for p in ports)), what="two workers")
            async with aiohttp.ClientSession() as http:
                for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
                    async with http.post(tg.webhook_targets[0], json={"update_id": 1}, headers=headers) as resp:
                        assert resp.status == 403
            tid = await open_table(tg, GROUP, users[0], users[1:], "bauerchen")
            async with watching(store, tid) as latest:
                players = Players(tg, users, tid, store, seed=4)
                await players.play(alive(procs, lambda: latest() and latest().deals >= 1), timeout=PATIENCE)
                v = (await stored(store, tid))[0]
                presses = [u for u in tg.delivered if "callback_query" in u][-4:]
                for u in presses:
                    tg.replay(u["update_id"])
                # A worker answers a press only after the service's verdict: a second answer of
                # each replayed query means its worker has decided it.
                await tg.wait_for(alive(procs, lambda: all(answered(tg, u["callback_query"]["id"]) == 2
                                                           for u in presses)), what="the replays decided")
                assert (await stored(store, tid))[0] == v
        served = {url for _, url, status in tg.webhook_deliveries if status == 200}
        assert served == set(tg.webhook_targets)
        replayed = [d for d in tg.webhook_deliveries if d[0] in {u["update_id"] for u in presses}]
        assert {url for _, url, _ in replayed} == set(tg.webhook_targets)
        assert tg.violations == []
        _, table = await stored(store, tid)
        await assert_log_sound(store, table, "telegram")


def answered(tg: FakeTelegram, query_id: str) -> int:
    """How often the bot called answerCallbackQuery for ``query_id`` (accepted or not)."""
    return sum(1 for _, method, params, _ in tg.calls
               if method == "answerCallbackQuery" and params.get("callback_query_id") == query_id)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextlib.asynccontextmanager
async def workers(tg: FakeTelegram, redis_url: str, key_prefix: str, ports: list[int]):
    """Bot worker processes in webhook mode, one per port, on the test's Redis prefix."""
    env = {**os.environ, "REDIS_URL": redis_url, "STAMMTISCH_TEST_PREFIX": key_prefix, "TELEGRAM_TOKEN": tg.token,
           "TELEGRAM_API_BASE_URL": tg.base_url, "TELEGRAM_WEBHOOK_URL": "https://stammtisch.invalid/tg",
           "TELEGRAM_WEBHOOK_SECRET": "s3cret-Token_1-for-tests"}
    env.update(tuning_env(FAST))
    procs = [subprocess.Popen([sys.executable, "-m", "tests.fakes.telegram.worker"], cwd=ROOT,
                              env={**env, "TELEGRAM_WEBHOOK_LISTEN": f"127.0.0.1:{port}"}) for port in ports]
    try:
        yield procs
    finally:
        statuses = await asyncio.gather(*(terminate(p) for p in procs))
        assert statuses == [0] * len(procs), statuses


async def test_stammtisch_run_serves_telegram_by_long_polling(tmp_path):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna = tg.user(11, "Anna", started=True)
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env.update({"TELEGRAM_TOKEN": tg.token, "TELEGRAM_API_BASE_URL": tg.base_url,
                    "STAMMTISCH_DATA_DIR": str(tmp_path), "TELEGRAM_POLL_TIMEOUT_S": "1"})
        proc = subprocess.Popen([sys.executable, "-m", "bot.run.cli", "run"], cwd=ROOT, env=env)
        try:
            await tg.wait_for(lambda: len(tg.commands) == 2, what="the bot to start")
            assert tg.commands["de"][0]["command"] == "neu" and tg.commands[""][0]["command"] == "new"
            anna.send(GROUP, "/neu bauerchen")
            message = await tg.wait_for(lambda: newest(tg, GROUP, _table_id(tg, GROUP) or "-"), what="the table")
            assert "Bauerchen" in message.text
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0


async def test_a_slow_verdict_still_gets_the_press_answered_at_once(store, redis, key_prefix):
    class SlowService(Service):
        async def handle(self, cmd):
            if cmd.token:
                await asyncio.sleep(0.5)
            return await super().handle(cmd)

    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        conf = load_settings(telegram_token=tg.token, telegram_api_base_url=tg.base_url)
        bot = TelegramBot(conf, SlowService(store, conf), store, FAST.model_copy(update={"ack_deadline_s": 0.1}))
        await bot.start()
        try:
            anna.send(GROUP, "/neu bauerchen")
            tid = await tg.wait_for(lambda: _table_id(tg, GROUP), what="a table")
            seen = version(tg, GROUP, tid)
            answer = await tg.wait_answer(ben.press(newest(tg, GROUP, tid), data=f"st1:{tid}:{seen}:join:"))
            assert not answer.get("text")
            assert (await stored(store, tid))[1].seat_of("telegram:12") is None, "answered only after the verdict"
            await tg.wait_for(lambda: version(tg, GROUP, tid) > seen, what="the late join shown")
        finally:
            await bot.stop()


async def test_join_typed_by_someone_the_bot_cannot_write_to_sends_the_link_first(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, cleo = tg.user(11, "Anna", started=True), tg.user(13, "Cleo")
        async with running_bot(tg, store, redis, key_prefix):
            anna.send(GROUP, "/neu bauer")
            tid = await tg.wait_for(lambda: _table_id(tg, GROUP), what="a table")
            cleo.send(GROUP, "/mitspielen")
            note = await tg.wait_for(lambda: next((m for m in tg.chat(GROUP) if m.buttons and "url" in m.buttons[0]),
                                                  None), what="the link to the private chat")
            _, table = await stored(store, tid)
            assert table.seat_of("telegram:13") is None, "not seated before the bot can send the cards"
            cleo.follow(note.buttons[0]["url"])
            await tg.wait_for(lambda: "Cleo" in newest(tg, GROUP, tid).text, what="Cleo seated")


async def test_during_play_a_member_without_a_seat_changes_the_chats_settings_only_as_an_admin(store, redis,
                                                                                               key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna, cleo, dora = (tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Cleo", "Dora"]))
        tg.make_admin(GROUP, dora)
        async with running_bot(tg, store, redis, key_prefix):
            await open_table(tg, GROUP, anna, [], "bauer")

            def said(start: str):
                return lambda: next((m for m in tg.chat(GROUP) if m.text.startswith(start)), None)
            cleo.send(GROUP, "/ruhezeit 00:00-15:00")  # refused to her alone, in her private chat
            await tg.wait_for(lambda: any(m.text.startswith("Stammtisch: Während des Spiels stellen nur die Mitspieler")
                                          for m in tg.chat(cleo.id)), what="the refusal")
            dora.send(GROUP, "/zeitzone Europe/Zurich")
            await tg.wait_for(said("Zeitzone: Europe/Zurich"), what="the admin's time zone")
            anna.send(GROUP, "/ruhezeit aus")
            await tg.wait_for(said("Keine Ruhezeit"), what="the player's quiet hours")
            assert sorted(int(p["user_id"]) for p in tg.calls_of("getChatMember")) == [12, 13], \
                "asked for the members without a seat, not for the player"
            assert await store.get_chat_setting(f"telegram:{GROUP}:", "tz") == "Europe/Zurich"


async def test_the_lobby_never_fights_back_and_every_listed_command_works_as_typed(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        tg.group(GROUP - 1, "Jassrunde")
        anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
        async with running_bot(tg, store, redis, key_prefix):
            anna.send(GROUP, "/neu bauer")
            tid = await tg.wait_for(lambda: _table_id(tg, GROUP), what="a table")
            lobby = newest(tg, GROUP, tid)
            old_start = next(b["callback_data"] for b in lobby.buttons if ":start:" in b["callback_data"])
            seen = version(tg, GROUP, tid)
            await press_verb(tg, ben, GROUP, tid, "join")
            await tg.wait_for(lambda: version(tg, GROUP, tid) > seen, what="Ben's join shown")
            # "Los geht's" on the message from before Ben's join: a version behind, still meaningful
            assert not (await tg.wait_answer(anna.press(lobby, data=old_start))).get("text")
            await tg.wait_for(lambda: "Spiel 1" in newest(tg, GROUP, tid).text, what="the deal")
            # /tisch re-posts the table; the old message loses its buttons
            shown = newest(tg, GROUP, tid)
            anna.send(GROUP, "/tisch")
            await tg.wait_for(lambda: newest(tg, GROUP, tid).message_id != shown.message_id, what="the re-post")
            await tg.wait_for(lambda: not shown.buttons, what="the old message's buttons removed")
            # a move typed in the private chat reaches the one running table
            await let_windows_pass(tg, store, tid, [anna, ben])
            _, before = await stored(store, tid)
            state = engine.from_json(before.state)
            to_act = next(u for u in (anna, ben) if before.seat_of(f"telegram:{u.id}") == state.to_act)
            move = engine.legal_actions(state)[0]
            async with watching(store, tid) as latest:
                to_act.send(None, "/" + typed_move(move))
                await tg.wait_for(lambda: latest() is not None and latest().state != before.state, what="the move")
            assert not any("kein Tisch offen" in m.text for m in tg.chat(to_act.id))
            # /zettel and /los, listed by /hilfe, work as typed in a group
            anna.send(GROUP, "/zettel")
            await tg.wait_for(lambda: any(m.text.startswith("📋 Zettel · Bauer") for m in tg.chat(GROUP)),
                              what="the score sheet")
            ben.send(GROUP - 1, "/neu rams 3")
            rams = await tg.wait_for(lambda: _table_id(tg, GROUP - 1), what="a second table")
            ben.send(GROUP - 1, "/los")
            await tg.wait_for(lambda: "Spiel 1" in newest(tg, GROUP - 1, rams).text, what="the typed start")


async def test_a_card_edits_the_table_and_the_hand_it_left_and_a_refused_press_edits_nothing(store, redis, key_prefix):
    """In the play phase a card changes the group's table and its player's hand, not the next player's
    hand (unless it ends an offer of his, as the deal's first card ends Karten weg); a second tap on the hand the card left, and a press out of turn, are answered and send nothing."""
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        users = {u.id: u for u in (tg.user(11 + i, n, started=True) for i, n in enumerate(["Anna", "Ben", "Cleo", "Dora"]))}
        async with running_bot(tg, store, redis, key_prefix) as bot:
            tid = await open_table(tg, GROUP, users[11], [users[12], users[13], users[14]], "bauer")
            watch = TurnWatch(store, tid)

            async def card() -> tuple[FakeUser, object, str, str]:
                """The player to act, his hand message once it is current, a card he may play, the phase."""
                await let_windows_pass(tg, store, tid, list(users.values()))  # nobody goes alone here
                await watch.look()
                user = users[int(watch.to_act.partition(":")[2])]

                def ready():
                    m = newest(tg, user.id, tid)
                    acts = [t for t in table_tokens(m, tid) if t.verb == "act" and t.version >= watch.since
                            and t.arg in watch.allowed] if m else []
                    return (m, str(acts[0])) if acts else None
                message, token = await tg.wait_for(ready, what=f"{user.first_name}'s hand")
                _, table = await stored(store, tid)
                return user, message, token, table.state["phase"]

            def sent_since(before: int) -> list[tuple[str, int]]:
                return [(m, int(p["chat_id"])) for _, m, p, status in tg.calls[before:]
                        if m in ("sendMessage", "editMessageText", "editMessageReplyMarkup") and status == 200]

            cards = 0
            for _ in range(12):
                user, message, token, phase = await card()
                await settled(tg, bot)
                before, shown = len(tg.calls), version(tg, GROUP, tid)
                _, was = await stored(store, tid)
                assert not (await tg.wait_answer(user.press(message, data=token))).get("text")
                await tg.wait_for(lambda: version(tg, GROUP, tid) > shown, what="the table to show the card")
                await settled(tg, bot)
                _, table = await stored(store, tid)
                if phase == table.state["phase"] == "play":
                    old, new = engine.from_json(was.state), engine.from_json(table.state)
                    offers_gone = [int(table.seats[s].user.partition(":")[2]) for s in range(4)
                                   if seat_choices(old, s) != seat_choices(new, s)]  # Karten weg, with the first card
                    assert sorted(sent_since(before)) == sorted(
                        {("editMessageText", GROUP), ("editMessageText", user.id),
                         *(("editMessageText", uid) for uid in offers_gone)})
                    cards += 1
                    pressed = (user, message, token)
            assert cards >= 8
            user, message, token = pressed
            await watch.look()
            other = next(u for u in users.values() if not watch.turn_of(u.id) and newest(tg, u.id, tid).buttons)
            refused = [(user, message, token, "Schon gespielt."),  # the same card again, from the same message
                       (other, newest(tg, other.id, tid), newest(tg, other.id, tid).buttons[0]["callback_data"],
                        "Du bist nicht dran")]  # a card of his own hand while another is to act
            before = len(tg.calls)
            for who, where, data, text in refused:
                answer = await tg.wait_answer(who.press(where, data=data))
                assert answer.get("text", "").startswith(text), answer
            user, message, token, _ = await card()  # one more card: what is sent after it, all was sent
            shown = version(tg, GROUP, tid)
            assert not (await tg.wait_answer(user.press(message, data=token))).get("text")
            await tg.wait_for(lambda: version(tg, GROUP, tid) > shown, what="the table to show the card")
            await settled(tg, bot)
            assert sorted(sent_since(before)) == [("editMessageText", GROUP), ("editMessageText", user.id)], \
                "the refused presses sent nothing"
