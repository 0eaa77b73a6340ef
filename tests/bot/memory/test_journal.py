"""Recording exactly once: the journal rides on the save that finishes a deal or match, so a refused,
replayed or racing save records nothing more, and a landed one records everything once."""

from __future__ import annotations

import asyncio

import pytest

from bot.memory import Book, absorb, history, journal, stats, who_of
from bot.memory.journal import INBOX, decode
from bot.protocol.outgoing import ChatRef
from bot.store.connection import client_for
from bot.store.tables import Store
from tests.bot.memory.kit import GROUP, people, played, save_all
from tests.bot.store.test_cluster import Died, DiesAfterTheTablesScript, cluster  # noqa: F401  (a fixture)

G = GROUP.group


async def test_every_finished_deal_and_the_match_are_in_the_inbox_once(store, book, redis):
    steps = played("bauernstoss", people(2), seed=1)
    await save_all(store, book, steps)
    entries = [decode(t) for t in await redis.lrange(book.key(G, INBOX), 0, -1)]
    assert [e.kind for e in entries].count("match") == 1 and entries[-1].kind == "match"
    assert len({e.id for e in entries}) == len(entries)
    assert len([e for e in entries if e.kind == "deal"]) == steps[-1].table.deals


async def test_a_replayed_or_duplicate_save_records_nothing(store, book, redis):
    steps = played("bauer", people(4), seed=2)
    version = await save_all(store, book, steps[:-1])
    last = steps[-1]
    args = dict(status="finished", user_keys=last.table.user_keys(), chat_key=last.table.chat.key,
                journal=journal(book, last.table, last.news, last.at), update="test:b:99")
    assert await store.save(last.table.id, version, last.table.dump(), **args)
    before = await redis.llen(book.key(G, INBOX))
    again = await store.save(last.table.id, version, last.table.dump(), **args)  # the redelivered update
    assert not again and again.duplicate
    args["update"] = ""
    assert not await store.save(last.table.id, version, last.table.dump(), **args)  # a stale version
    assert await redis.llen(book.key(G, INBOX)) == before
    await absorb(book, G)
    assert [m.table for m in await history(book, G)] == [last.table.id]


async def test_two_processes_racing_with_the_finishing_save_record_it_once(store, book, redis):
    steps = played("bauerchen", people(4), seed=3)
    version = await save_all(store, book, steps[:-1])
    last = steps[-1]
    results = await asyncio.gather(*(store.save(last.table.id, version, last.table.dump(), status="finished",
                                                user_keys=last.table.user_keys(), chat_key=last.table.chat.key,
                                                journal=journal(book, last.table, last.news, last.at))
                                     for _ in range(5)))
    assert sum(map(bool, results)) == 1
    await absorb(book, G)
    who = await who_of(book, G, "test:u0")
    assert (await stats(book, G, who, "bauerchen")).games[0].matches == 1


async def test_a_change_that_finishes_nothing_has_no_journal(book):
    steps = played("rams", people(5), seed=4)
    assert journal(book, steps[0].table, [], steps[0].at) is None


# -- Redis Cluster: the journal crosses slots ------------------------------------------------------

@pytest.fixture
async def on_cluster(cluster, key_prefix):
    client = client_for(f"redis+cluster://127.0.0.1:{cluster.servers[0].port}")
    yield Store(client, prefix=key_prefix), Book(client, key_prefix)
    await client.aclose()


async def test_on_cluster_a_death_before_the_delivery_loses_nothing_and_a_second_delivery_adds_nothing(on_cluster,
                                                                                                         key_prefix):
    store, book = on_cluster
    steps = played("bauernstoss", people(2), seed=5, chat=ChatRef("test", f"c{key_prefix}"))
    group = steps[0].table.chat.group
    version = await save_all(store, book, steps[:-1])
    last = steps[-1]
    dying = DiesAfterTheTablesScript(store.redis, prefix=key_prefix)
    with pytest.raises(Died):
        await dying.save(last.table.id, version, last.table.dump(), status="finished",
                         user_keys=last.table.user_keys(), chat_key=last.table.chat.key,
                         journal=journal(book, last.table, last.news, last.at))
    inbox = book.key(group, INBOX)
    waiting = await store.redis.llen(inbox)
    assert not [decode(t) for t in await store.redis.lrange(inbox, 0, -1) if decode(t).kind == "match"]
    out = f"{key_prefix}:{{t:{last.table.id}}}:out"
    pending = await store.redis.lrange(out, 0, -1)
    assert pending, "the table's script kept the journal in the table's slot"
    for _ in range(2):  # the guard timer's resync, and once more as if the first died before it dropped them
        await store.reindex(last.table.id, version + 1, "finished", last.table.user_keys(), last.table.chat.key)
        await store.redis.rpush(out, *pending)
    await store.reindex(last.table.id, version + 1, "finished", last.table.user_keys(), last.table.chat.key)
    assert await store.redis.llen(out) == 0
    assert await store.redis.llen(inbox) == waiting + len(pending)
    assert await absorb(book, group) == waiting + len(pending)
    assert [m.table for m in await history(book, group)] == [last.table.id]
