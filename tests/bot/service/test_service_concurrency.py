"""Many tasks and two OS processes press buttons on the same tables at once.

Afterwards every table's move log is audited: versions 1, 2, 3 ... each once, every move legal when
replayed, the stored state equal to the replay, and every press that was answered as applied is
in the log exactly once (nothing lost, nothing applied twice).
"""

from __future__ import annotations

import asyncio
import json

from bot.protocol.outgoing import ChatRef
from tests.service_worker import play_together
from tests.servicekit import audit, button, hammer, press, say, service, table_msg, user

GAMES = [("bauer", "short_deck=1 target_brote=1"), ("rams", "target=6"), ("bauerchen", ""), ("bauernstoss", "target=4")]


async def open_tables(store, games) -> dict[str, ChatRef]:
    svc = service(store, seed=1)
    chat_of = {}
    for i, (game, options) in enumerate(games):
        chat = ChatRef("test", f"c{i}")
        effects = await svc.handle(say(chat, user(0), f"neu {game} {options}".strip()))
        table = table_msg(effects)
        for k in (1, 2, 3):
            table = table_msg(await svc.handle(press(chat, user(k), button(table, "join").token)))
        effects = await svc.handle(press(chat, user(0), button(table, "start").token))
        chat_of[table.table_id] = chat
    return chat_of


async def applied_in_log(store, table_id: str) -> int:
    return sum(":act:" in json.loads(e)["cmd"] for e in await store.log(table_id))


async def test_many_tasks_on_the_same_tables(store):
    chat_of = await open_tables(store, GAMES)
    users = [user(i) for i in range(4)]
    # two services on one store, as two workers in one process would be
    results = await asyncio.gather(hammer(service(store, seed=2), store, chat_of, users, seed=3),
                                   hammer(service(store, seed=4), store, chat_of, users, seed=5))
    applied = sum(r["applied"] for r in results)
    assert sum(r["refused"] for r in results) > 0, "no race happened"
    logged = 0
    for table_id in chat_of:
        counts = await audit(store, table_id)
        assert counts["table"].status == "finished"
        logged += await applied_in_log(store, table_id)
    assert applied == logged


async def test_two_processes_on_the_same_tables(store, redis_url, key_prefix):
    chat_of = await open_tables(store, GAMES[:2])
    results = play_together(redis_url, key_prefix, (10, 20), [f"{t}:{c.chat_id}" for t, c in chat_of.items()])
    assert all(r["applied"] > 0 for r in results), results
    logged = 0
    for table_id in chat_of:
        counts = await audit(store, table_id)
        assert counts["table"].status == "finished"
        logged += await applied_in_log(store, table_id)
    assert sum(r["applied"] for r in results) == logged
