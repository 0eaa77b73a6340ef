"""The watchers of a table counted in Redis: pages noted and dropped, a page nobody renews drops out by
itself, and the key expires once nobody watches."""

from __future__ import annotations

from bot.store.watchers import WatcherCounts


async def test_pages_are_counted_until_dropped_or_not_renewed(redis, key_prefix):
    counts = WatcherCounts(redis, key_prefix, ttl_s=60)
    key = f"{key_prefix}:{{t:Tab1e}}:watchers"
    assert await counts.note("Tab1e", ["a:1", "a:2"], 1000.0) == 2
    assert await counts.note("Tab1e", ["b:1"], 1030.0) == 3  # another process's page
    assert 0 < await redis.ttl(key) <= 61
    assert await counts.note("Tab1e", [], 1030.0, gone=["a:2"]) == 2
    assert await counts.note("Tab1e", [], 1070.0) == 1  # a:1 was not renewed (its process died): b:1 is left
    assert await counts.note("Tab1e", ["b:1"], 1080.0) == 1  # renewed, not counted twice
    assert await counts.note("Tab1e", [], 1080.0, gone=["b:1"]) == 0 and not await redis.exists(key)
    assert await counts.note("Other1", [], 1080.0) == 0 and not await redis.exists(f"{key_prefix}:{{t:Other1}}:watchers")
