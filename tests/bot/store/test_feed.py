"""The feed of saved tables: every landed save is told once with its new version, a refused one never; a
subscriber whose connection broke is told so once it is back, and hears the saves after it."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.connection import client_for
from bot.store.feed import channel, parse
from bot.store.tables import Store
from tests.redis_servers import Cluster, skip_unless_installed

WAIT_S = 20.0


class Heard:
    """What a feed's callbacks were told, with an event to wait on."""

    def __init__(self) -> None:
        self.moves: list[tuple[str, int]] = []
        self.gaps = 0
        self.changed = asyncio.Event()

    def move(self, table: str, version: int) -> None:
        self.moves.append((table, version))
        self.changed.set()

    def gap(self) -> None:
        self.gaps += 1
        self.changed.set()

    async def until(self, predicate) -> None:
        async def wait() -> None:
            while not predicate():
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), WAIT_S)


async def save(store, table: str, version: int, chat: str = "test:c1:"):
    return await store.save(table, version, '{"v": %d}' % version, user_keys=["test:u1"], chat_key=chat)


async def test_every_landed_save_is_told_with_its_version(store):
    heard = Heard()
    feed = store.feed(heard.move, heard.gap)
    await feed.start()
    try:
        assert await store.create("FeedT1", "test:c1:", "{}", ["test:u1"])
        assert await save(store, "FeedT1", 1)
        assert not await save(store, "FeedT1", 1)  # a lost compare-and-set says nothing
        assert await save(store, "FeedT1", 2)
        await heard.until(lambda: len(heard.moves) >= 2)
        assert heard.moves == [("FeedT1", 2), ("FeedT1", 3)] and heard.gaps == 0
    finally:
        await feed.stop()


async def test_a_broken_subscription_comes_back_and_says_so(store, redis):
    heard = Heard()
    feed = store.feed(heard.move, heard.gap)
    await feed.start()
    try:
        assert await store.create("FeedT2", "test:c1:", "{}", ["test:u1"])
        # the feed's own connection is cut by the server (a network break, a restarted proxy)
        sockname = feed.pubsub.connection._writer.get_extra_info("sockname")
        if isinstance(sockname, tuple):  # TCP: exactly the feed's connection
            assert await redis.execute_command("CLIENT", "KILL", "ADDR", f"{sockname[0]}:{sockname[1]}", "SKIPME", "yes")
        else:  # the embedded Redis's Unix socket names no address: the subscribers (the feed alone here)
            assert await redis.execute_command("CLIENT", "KILL", "TYPE", "pubsub", "SKIPME", "yes")
        await heard.until(lambda: heard.gaps >= 1)
        assert await save(store, "FeedT2", 1)
        await heard.until(lambda: ("FeedT2", 2) in heard.moves)
    finally:
        await feed.stop()


@pytest.mark.parametrize(("data", "parsed"), [("T1:5", ("T1", 5)), ("T1:", None), (":5", None), ("T 1:5", None),
                                              ("T1:-5", None), ("T1:5:6", None), ("Tä:5", None)])
def test_a_message_is_a_table_and_a_version_or_nothing(data, parsed):
    assert parse(data) == parsed


async def test_the_saves_on_a_cluster_are_told_too(key_prefix):
    skip_unless_installed("redis-server", "redis-cli")
    with Cluster(3) as running:
        client = client_for(f"redis+cluster://127.0.0.1:{running.servers[0].port}")
        store = Store(client, prefix=key_prefix)
        heard = Heard()
        feed = store.feed(heard.move, heard.gap)
        await feed.start()
        try:  # sharded pub/sub: the channel is a shard channel, subscribed on the node of its slot
            assert (await client.execute_command("PUBSUB", "SHARDNUMSUB", channel(key_prefix)))[1] == 1
            tables = [f"FeedC{i}" for i in range(6)]  # over several slots, so over several nodes
            for i, table in enumerate(tables):
                assert await store.create(table, f"test:c{i}:", "{}", ["test:u1"])
                assert await save(store, table, 1, f"test:c{i}:")
            await heard.until(lambda: len(heard.moves) >= len(tables))
            assert sorted(heard.moves) == [(table, 2) for table in tables]
        finally:
            await feed.stop()
            await client.aclose()
