"""The service records every finished deal and match in the chat's memory with the save that finishes it:
once, also when the finishing update is delivered again after the process died before marking it."""

from __future__ import annotations

from bot import memory
from bot.table.record import Table
from tests.bot.service.test_durability import redelivery
from tests.bot.service.test_service import open_group_table
from tests.servicekit import GROUP, Toast, of, press, service, user

G = f"{GROUP.platform}:{GROUP.chat_id}"


async def test_a_match_played_through_the_service_is_recorded_once(store, redis, key_prefix):
    svc = service(store, seed=11)
    players, table_id = await open_group_table(svc, "bauer", humans=2)
    finishing = None
    for i in range(5000):
        mover = await players.to_act()
        if mover is None:
            players.take(await svc.tick())
        else:
            u, b = mover
            cmd = redelivery(press(GROUP, u, b.token), f"m{i}")
            assert not of(await players.send(cmd), Toast)
            if Table.load((await store.load(table_id))[1]).status == "finished":
                finishing = cmd
                break
    assert finishing is not None, "the match did not end"
    await svc.tables.counted()
    await redis.delete(f"{key_prefix}:seen:{finishing.chat.platform}:b1:{finishing.update_id}")  # died before marking
    assert await service(store, seed=12).handle(finishing) == []
    table = Table.load((await store.load(table_id))[1])
    book = svc.tables.book
    (match,) = await memory.history(book, G)
    assert match.table == table_id and match.deals == table.deals
    assert [s.name for s in match.seats[:2]] == [user(0).name, user(1).name]
    anna = await memory.who_of(book, G, user(0).key)
    (mine,) = (await memory.stats(book, G, anna)).games
    assert (mine.game, mine.matches, mine.deals) == ("bauer", 1, table.deals)
    assert mine.won == int(table.state["match"]["winner"] == 0)
