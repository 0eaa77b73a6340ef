"""Redis down or hung, end to end: the real bot on the fake Telegram against a real redis-server that
the test stops, freezes and starts again. Presses and typed commands are answered "try again", the
outage is logged once, and the bot goes on by itself when Redis is back."""

from __future__ import annotations

import logging

from bot.ops.settings import load_settings
from bot.store.connection import connect
from bot.store.tables import Store
from bot.words.i18n import t
from tests.fakes.telegram.harness import FAST, fake_for, newest, open_table, running_bot, table_tokens
from tests.redis_servers import Server, skip_unless_installed

GROUP = -100321
SORRY = t("de", "technical_problem")


async def test_redis_down_or_hung_is_answered_and_the_bot_recovers(key_prefix, caplog):
    skip_unless_installed()
    caplog.set_level(logging.INFO)
    with Server() as server:
        client = await connect(load_settings(redis_url=server.url, redis_timeout_s=0.5))
        store = Store(client, prefix=key_prefix)
        try:
            async with fake_for(FAST) as tg:
                tg.group(GROUP, "Stammtisch")
                anna, ben = tg.user(11, "Anna", started=True), tg.user(12, "Ben", started=True)
                async with running_bot(tg, store, client, key_prefix):
                    tid = await open_table(tg, GROUP, anna, [ben], "bauer", computers=2)
                    def hand_button() -> tuple | None:
                        table = newest(tg, GROUP, tid)
                        found = [str(tok) for tok in table_tokens(table, tid) if tok.verb == "hand"] if table else []
                        return (table, found[0]) if found else None
                    table, button = await tg.wait_for(hand_button, what="the started table's hand button")

                    async def press() -> dict:
                        return await tg.wait_answer(anna.press(table, data=button))

                    def apologies() -> int:  # a typed command's refusal goes to the sender's private chat
                        return sum(m.text.endswith(SORRY) for m in tg.chat(GROUP) + tg.chat(anna.id))

                    assert not (await press()).get("text")
                    for outage, recover in ((server.stop, server.start), (server.pause, server.resume)):
                        outage()
                        assert (await press()).get("text") == SORRY
                        before = apologies()
                        anna.send(GROUP, "/tisch")
                        await tg.wait_for(lambda: apologies() > before, what="the apology for a typed command")
                        recover()
                        assert not (await press()).get("text"), "back by itself"
                    assert (await store.load(tid)) is not None
        finally:
            await client.aclose()
    lines = [r.getMessage() for r in caplog.records]
    assert sum("Redis is unavailable" in line and r.name == "bot.service"
               for line, r in zip(lines, caplog.records)) == 2, lines
    assert sum("Redis is available again" in line and r.name == "bot.service"
               for line, r in zip(lines, caplog.records)) == 2
