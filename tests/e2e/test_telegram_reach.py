"""End to end on the fake Bot API: whoever the bot cannot write to privately, in a group.

Issue 30, item 8: a person the bot cannot write to gets in the group as many answers as the README
promises (5 a minute, then one "nicht so schnell"), and once Telegram refused a private message to him
the bot stops trying (each try would only be refused again) until he writes to it privately.
"""

from __future__ import annotations

from tests.fakes.telegram.harness import FAST, fake_for, handled, newest, open_table, running_bot, settled

GROUP = -100654
BUDGET = 5
"""The default answers per person and minute in a group (``answers_per_minute``)."""
PRIVATE = ("sendMessage", "editMessageText", "sendChatAction", "deleteMessage")
"""The calls that write to a private chat."""


async def test_whoever_cannot_be_written_to_gets_every_answer_the_budget_allows_in_the_group(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        anna = tg.user(11, "Anna", started=True)
        zed = tg.user(21, "Zed")  # he never started the bot
        async with running_bot(tg, store, redis, key_prefix) as bot:
            await open_table(tg, GROUP, anna, [], "bauer", computers=3)
            await settled(tg, bot)
            before = len(tg.chat(GROUP))
            for _ in range(BUDGET + 3):
                zed.send(GROUP, "/spiel B♣")
            await settled(tg, bot)
    told = [m.text for m in tg.chat(GROUP)[before:]]
    assert told == ["Du sitzt nicht an diesem Tisch."] * BUDGET + [
        "Zed, nicht so schnell: eine Minute lang antworte ich dir hier nicht mehr."], told


async def test_the_bot_stops_writing_to_whoever_blocked_it_until_he_writes_to_it(store, redis, key_prefix):
    async with fake_for(FAST) as tg:
        tg.group(GROUP, "Stammtisch")
        kurt = tg.user(31, "Kurt", started=True)
        async with running_bot(tg, store, redis, key_prefix) as bot:
            tid = await open_table(tg, GROUP, kurt, [], "bauer", computers=3)
            first = await tg.wait_for(lambda: tg.chat(kurt.id), what="his hand")
            await settled(tg, bot)
            kurt.block()
            mark = len(tg.calls)
            for text in ("/hand", "/spiel B♣", "/hand", "/weg", "/hand", "/mitspielen"):
                kurt.send(GROUP, text)
                await settled(tg, bot)
            tried = [m for _, m, p, status in tg.calls[mark:] if m in PRIVATE and int(p.get("chat_id", 0)) == kurt.id]
            assert tried == ["sendMessage"], tried  # refused once (403), then not tried again
            joins = [m.text for m in tg.chat(GROUP) if "blockiert" in m.text]
            assert len(joins) == 1, joins  # the group was told once how he gets his cards
            assert not any("Stammtisch" in m.text for m in tg.chat(kurt.id)[1:])

            await handled(tg, store, [kurt.send(None, "/start")])  # he unblocked the bot: Telegram sends /start
            kurt.send(GROUP, "/hand")
            await settled(tg, bot)
            again = newest(tg, kurt.id, tid)
            assert again.message_id > first[0].message_id, "his hand came again"
