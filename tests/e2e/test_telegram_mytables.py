"""»Meine Tische« on Telegram end to end: the real bot on the fake Bot API, a person at tables in three groups
and his private chat, his turns first, each row leading to its table; pages; nothing listed in a group."""

from __future__ import annotations

import math
from datetime import timedelta

from bot.protocol import tokens
from bot.protocol.outgoing import ChatRef
from bot.table.record import Seat, Table
from bot.words import t
from tests.fakes.telegram.harness import (FAST, fake_for, let_windows_pass, newest, press_verb, running_bot,
                                         settled, table_tokens, version)

SUPER_A, SUPER_B, BASIC = -1001001, -1001002, -4003
T0 = 1_800_000_000.0


async def _open(tg, chat_id: int, him, others=(), computers: int = 3, pace: str = "", known=()) -> str:
    """He opens a Bauer table in ``chat_id``, ``others`` join, computers fill the rest, at ``pace``; started
    (``known``: his tables before, whose hands his private chat shows)."""
    before = {m.message_id for m in tg.chat(chat_id)}
    him.send(chat_id, "/neu bauer")

    def opened():
        found = [tok for m in tg.chat(chat_id) if m.message_id not in before
                 for b in m.buttons if (tok := tokens.parse(b.get("callback_data", ""))) and tok.table not in known]
        return found[0].table if found else None
    tid = await tg.wait_for(opened, what=f"a table in {chat_id}")
    if chat_id == him.id:  # his private chat's table starts at once, against the computers
        return tid
    for user, verb in [(u, "join") for u in others] + [(him, "bot")] * computers:
        seen = version(tg, chat_id, tid)
        await press_verb(tg, user, chat_id, tid, verb)
        await tg.wait_for(lambda: version(tg, chat_id, tid) > seen, what=f"the {verb}")
    if pace:
        seen = version(tg, chat_id, tid)
        him.send(chat_id, f"/tempo {pace}")
        await tg.wait_for(lambda: version(tg, chat_id, tid) > seen, what="the pace")
    await press_verb(tg, him, chat_id, tid, "start")
    return tid


def _listing(tg, chat_id: int, after: int):
    """The newest »Meine Tische« message in ``chat_id`` posted after message ``after``."""
    head = t("de", "mt.head", n=0).split("(")[0]
    found = [m for m in tg.chat(chat_id) if m.message_id > after and m.text.startswith(head)]
    return found[-1] if found else None


async def test_his_tables_in_three_groups_and_his_private_chat_his_turns_first_each_leading_there(
        store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        for chat_id, title in ((SUPER_A, "Stammtisch"), (SUPER_B, "Skatrunde"), (BASIC, "Familie")):
            tg.group(chat_id, title)
        him = tg.user(41, "Hans", started=True)
        anna = tg.user(42, "Anna", started=True)
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: T0,
                               autoplay_after=timedelta(hours=1)) as bot:
            tids = {SUPER_A: await _open(tg, SUPER_A, him, [anna], computers=2),
                    SUPER_B: await _open(tg, SUPER_B, him, pace="schnell"),
                    BASIC: await _open(tg, BASIC, him, pace="fernspiel")}
            tids[him.id] = await _open(tg, him.id, him, known=set(tids.values()))
            for chat_id, tid in tids.items():
                await let_windows_pass(tg, store, tid, [him, anna])
            last = tg.chat(him.id)[-1].message_id
            him.send(him.id, "/tische")
            listing = await tg.wait_for(lambda: _listing(tg, him.id, last), what="his tables")
            tables = {tid: Table.load((await store.load(tid))[1]) for tid in tids.values()}  # the clock stands still

            def urgency(tb: Table) -> tuple:
                mine = tb.state["to_act"] == tb.seat_of(f"telegram:{him.id}")
                return (0, tb.since + tb.auto, tb.id) if mine else (1, tb.since, tb.id)
            expected = sorted(tids.values(), key=lambda tid: urgency(tables[tid]))
            assert expected[0] == tids[SUPER_B], "the fast table's automatic move comes first"
            lines = listing.text.split("\n")[1:]
            assert len(lines) == 4, listing.text
            by_chat = {SUPER_A: "Stammtisch", SUPER_B: "Skatrunde", BASIC: "Familie", him.id: t("de", "mt.private")}
            shown = [next(c for c, title in by_chat.items() if f" · {title} · " in line) for line in lines]
            assert [tids[c] for c in shown] == expected, listing.text
            assert t("de", "mt.yours_left", left="10 Min.") in lines[0]
            for no, chat_id in enumerate(shown, start=1):
                button = listing.buttons[no - 1]
                if chat_id in (SUPER_A, SUPER_B):  # a supergroup's table message, by its link
                    message = newest(tg, chat_id, tids[chat_id])
                    assert button["url"] == f"https://t.me/c/{str(chat_id)[4:]}/{message.message_id}", button
                else:  # no link to a basic group's message, nor to his own chat's: his hand again
                    tok = tokens.parse(button["callback_data"])
                    assert (tok.table, tok.verb) == (tids[chat_id], "hand"), button
            away = (t("de", "away.since", name="Hans", ago="1 Min."), t("de", "away.auto", left="3 Tg."))
            await tg.wait_for(lambda: all(part in newest(tg, BASIC, tids[BASIC]).text for part in away),
                              what="the Fernspiel table's message saying since when it waits on him")
            basic_row = shown.index(BASIC)
            hands = len(tg.chat(him.id))
            await tg.wait_answer(him.press(listing, data=listing.buttons[basic_row]["callback_data"]))
            await tg.wait_for(lambda: any(table_tokens(m, tids[BASIC]) for m in tg.chat(him.id)[hands:]),
                              what="his hand of the basic group's table again")

            group_before = len(tg.chat(SUPER_A))
            last = tg.chat(him.id)[-1].message_id
            him.send(SUPER_A, "/tische")
            await tg.wait_for(lambda: any(t("de", "mt.only_private") in m.text for m in tg.chat(him.id)
                                          if m.message_id > last), what="the hint to ask privately")
            await settled(tg, bot)
            assert _listing(tg, him.id, last) is None and _listing(tg, SUPER_A, 0) is None
            assert all("Skatrunde" not in m.text for m in tg.chat(SUPER_A)[group_before:]), "nothing listed there"
        assert tg.violations == []


async def test_his_tables_beyond_a_page_turn_by_buttons_and_stop_at_the_cap(store, redis, key_prefix):
    cap = 10
    async with fake_for(FAST) as tg:
        him = tg.user(51, "Hans", started=True)
        for i in range(cap + 2):  # more tables than the cap allows (an index older than a lowered cap)
            chat = ChatRef("telegram", str(-1002000 - i), title=f"Runde {i}")
            table = Table(id=store.new_id(), chat=chat, game="bauer", n=4, opener=f"telegram:{him.id}",
                          seats=[Seat(user=f"telegram:{him.id}", name="Hans")] + [Seat(bot=True)] * 3,
                          created=T0 + i)
            await store.create(table.id, chat.key, table.dump(), table.user_keys())
        async with running_bot(tg, store, redis, key_prefix, clock=lambda: T0, max_tables_per_user=cap) as bot:
            him.send(him.id, "/tische")
            first = await tg.wait_for(lambda: _listing(tg, him.id, 0), what="the first page")
            pages = math.ceil(cap / 8)
            assert t("de", "mt.page", page=1, pages=pages) in first.text
            assert [line.split(".")[0] for line in first.text.split("\n")[1:]] == [str(n) for n in range(1, 9)]
            next_button = first.button(t("de", "mt.next"))
            await tg.wait_answer(him.press(first, data=next_button["callback_data"]))
            await tg.wait_for(lambda: t("de", "mt.page", page=2, pages=pages) in first.text, what="the second page")
            assert [line.split(".")[0] for line in first.text.split("\n")[1:]] == ["9", "10"], first.text
            assert first.button(t("de", "mt.prev")) and not any(t("de", "mt.next") in b["text"] for b in first.buttons)
            forged = tokens.make("mine", 99, "tables")  # a page past the last: the last
            await tg.wait_answer(him.press(first, data=forged))
            await settled(tg, bot)
            assert t("de", "mt.page", page=2, pages=pages) in first.text
            assert _listing(tg, him.id, first.message_id) is None, "each page in place of the one pressed on"
        assert tg.violations == []
