"""A vacation on Telegram: his Fernspiel tables in three groups wait for him across a restart of the bot, a move
of his ends it, the budget refuses beyond its days, and each turn then gets at most two reminders. One that ends
by its day is told to him privately, once, in his language, with his turns; one he ended is not.

The real bot on the fake Bot API, time driven by a test clock (kill -9: ``bench/faults.py``'s vacation row).
"""

from __future__ import annotations

from bot.store.personal import VACATION
from tests.fakes.telegram.harness import FAST, card_to_play, fake_for, newest, open_table, running_bot, until
from tests.servicekit import TurnWatch

GROUPS = (-100801, -100802, -100803)
T0 = 1_800_039_600.0  # a Friday, 20:00 in Berlin: this turn's reminders and automatic move fall outside the quiet hours
DAY, HOUR = 86400.0, 3600.0
ANNA = "telegram:41"


async def _timers(redis, prefix: str, tids: list[str]) -> dict[str, list[tuple[str, float]]]:
    """Each table's stored turn timers: (kind, due)."""
    members = await redis.zrange(f"{prefix}:{{deadlines}}:due", 0, -1, withscores=True)
    found: dict[str, list[tuple[str, float]]] = {tid: [] for tid in tids}
    for member, due in members:
        tid, _, kind = member.split(":")
        if tid in found:
            found[tid].append((kind, due))
    return found


async def _turn_is_annas(store, tid: str) -> bool:
    watch = TurnWatch(store, tid)
    await watch.look()
    return watch.to_act == ANNA


def _texts(tg, chat_id: int) -> list[str]:
    return [m.text for m in tg.chat(chat_id)]


async def _answer(tg, user, words: str, expect: str) -> None:
    """``user`` writes ``words`` to the bot privately; it answers with a message that says ``expect``."""
    before = len(tg.chat(user.id))
    user.send(None, words)
    await tg.wait_for(lambda: any(expect in m.text for m in tg.chat(user.id)[before:]), what=f"{expect!r} for {words}")


def _shows_vacation(tg, group: int, tid: str) -> bool:
    return "im Urlaub bis Mo., 18.1." in newest(tg, group, tid).text


async def test_a_vacation_holds_his_tables_across_a_restart_and_a_move_of_his_ends_it(store, redis, key_prefix):
    now = [T0]
    async with fake_for(FAST) as tg:
        for group in GROUPS:
            tg.group(group, f"Runde {group}")
        anna = tg.user(41, "Anna", started=True)
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: now[0]):
            tids = [await open_table(tg, group, anna, [], "bauernstoss", "target=10", paces=1) for group in GROUPS]
            for tid in tids:
                await until(lambda tid=tid: _turn_is_annas(store, tid), "Anna's turn")
            before = await _timers(redis, key_prefix, tids)
            assert all(kinds == [("remind", T0 + 36 * HOUR)] for kinds in before.values()), before

            now[0] = T0 + HOUR
            await _answer(tg, anna, "/urlaub 40", "1 bis 30 Tage")
            await _answer(tg, anna, "/urlaub 3d", "bis Mo., 18.1.")
            for group, tid in zip(GROUPS, tids):
                await tg.wait_for(lambda g=group, t=tid: _shows_vacation(tg, g, t), what="the vacation on the table")
            held = await _timers(redis, key_prefix, tids)
            assert all(kinds == [("remind", T0 + 36 * HOUR + 3 * DAY)] for kinds in held.values()), held
            await _answer(tg, anna, "/urlaub", "27 Urlaubstage")

        now[0] = T0 + HOUR + 2 * DAY  # the bot was down: the first reminders and more came due meanwhile
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: now[0]) as bot:
            assert await bot.service.tick() == []
            assert await _timers(redis, key_prefix, tids) == held
            assert not any("⏰" in t or "⏱" in t for g in GROUPS for t in _texts(tg, g))

            _, hand, token = await card_to_play(tg, store, [anna], tids[0])
            await tg.wait_answer(anna.press(hand, data=token))  # a move of hers ends the vacation at every table
            for group, tid in zip(GROUPS, tids):
                await tg.wait_for(lambda g=group, t=tid: not _shows_vacation(tg, g, t), what="the vacation ended")
            back = await _timers(redis, key_prefix, tids[1:])
            assert all(kinds == [("remind", T0 + 36 * HOUR + 2 * DAY)] for kinds in back.values()), back
            await _answer(tg, anna, "/urlaub 29", "noch 28 von 30")

            group = GROUPS[1]
            for due in (36 * HOUR, 64.8 * HOUR, 72 * HOUR):  # the turn's stages, two days later
                seen = len(tg.chat(group))
                now[0] = T0 + 2 * DAY + due
                await tg.wait_for(lambda: len(tg.chat(group)) > seen and "⏰⏱"[due == 72 * HOUR] in tg.chat(group)[-1].text,
                                  what="the turn's next timer")
            reminders = [t for t in _texts(tg, group) if t.startswith("⏰")]
            assert len(reminders) == 2, reminders
        assert tg.violations == []


async def test_a_vacation_ended_by_its_day_is_told_to_him_privately_once_and_one_he_ended_is_not(
        store, redis, key_prefix):
    now = [T0]
    group = GROUPS[0]
    async with fake_for(FAST) as tg:
        tg.group(group, "Runde")
        anna = tg.user(41, "Anna", language_code="en", started=True)  # the group speaks German, she English
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: now[0]) as bot:
            tid = await open_table(tg, group, anna, [], "bauernstoss", "target=10", paces=1)
            await until(lambda: _turn_is_annas(store, tid), "Anna's turn")
            now[0] = T0 + HOUR
            anna.send(group, "/urlaub 1d")
            await tg.wait_for(lambda: "im Urlaub bis Sa., 16.1." in newest(tg, group, tid).text,
                              what="the vacation on the table")

            def told() -> list[str]:
                return [m.text for m in tg.chat(anna.id) if "vacation is over" in m.text]
            now[0] = T0 + HOUR + DAY  # its day came
            await tg.wait_for(told, what="the word that it is over")
            assert told() == ["👋 Welcome back! Your vacation is over; it is your turn at 1 table:\n"
                              "• Bauernstoß in Runde: the computer plays for you on 19 Jan 20:00"], told()

            await _answer(tg, anna, "/vacation 2d", "Enjoy your vacation")
            _, hand, token = await card_to_play(tg, store, [anna], tid)
            await tg.wait_answer(anna.press(hand, data=token))  # a move of hers ends this one: she knows

            async def ended() -> bool:
                return await store.personal.when(VACATION, ANNA) is None
            await until(ended, "her vacation's timer done")
            now[0] = T0 + HOUR + 4 * DAY  # both vacations' days long past
            await bot.service.tick()
            await _answer(tg, anna, "/vacation", "vacation days")  # her chat's messages come in order: after any word
            assert len(told()) == 1, told()
        assert tg.violations == []
