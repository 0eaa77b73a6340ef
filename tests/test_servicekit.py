"""The test kit's watchers of saves (:func:`tests.servicekit.on_saves`): any number of them share one subscription,
so benches that watch fifty tables three times each do not take every connection of the store's bounded pool."""

from __future__ import annotations

import asyncio
from collections import Counter

from bot.store.connection import MAX_CONNECTIONS, client_for
from bot.store.tables import Store
from tests.servicekit import on_saves


async def test_more_watchers_than_the_pool_has_connections_all_hear_their_saves(redis_url, redis, key_prefix):
    client = client_for(redis_url)
    store = Store(client, prefix=key_prefix)
    tables = [f"KitT{i}" for i in range(MAX_CONNECTIONS + 20)]
    looks: Counter[str] = Counter()
    changed = asyncio.Event()

    async def until(predicate) -> None:
        while not predicate():
            changed.clear()
            await changed.wait()

    def looker(table: str):
        async def look() -> None:
            looks[table] += 1
            changed.set()
        return look
    for table in tables:
        assert await store.create(table, f"test:{table}:", "{}", ["test:u1"])
    watchers = [asyncio.ensure_future(on_saves(store, table, looker(table))) for table in tables]
    try:
        await asyncio.wait_for(until(lambda: len(looks) == len(tables)), 60)  # each looked once, subscribed
        for table in tables:
            assert await store.save(table, 1, "{}", user_keys=["test:u1"], chat_key=f"test:{table}:")
        await asyncio.wait_for(until(lambda: all(looks[t] >= 2 for t in tables)), 60)
    finally:
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        await client.aclose()
