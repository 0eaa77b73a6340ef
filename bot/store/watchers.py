"""Who watches a table, counted across all processes: one sorted set per table in Redis.

Each member is one open watcher's page (its process's name and a number), scored by the time it
expires unless its process renews it (the web table renews its pages every few seconds). A count is
one ``ZCOUNT`` from now on, so the pages of a process that died drop out by themselves within the
time to live; every note trims what expired and sets the key's own expiry, so nothing is left once
nobody watches. The key shares the table's hash tag (one Redis Cluster slot).
"""

from __future__ import annotations

from collections.abc import Iterable

from redis.asyncio import Redis

from bot.store.records import table_id as _table_id

__all__ = ["WatcherCounts", "WATCH_TTL_S"]

WATCH_TTL_S = 60
"""How long a watcher's page counts after its process last renewed it."""


class WatcherCounts:
    """The count of open watchers' pages per table.

    Args:
        redis: an asyncio client.
        prefix: the store's key prefix.
        ttl_s: how long a page counts after it was last noted.
    """

    def __init__(self, redis: Redis, prefix: str = "st", ttl_s: float = WATCH_TTL_S) -> None:
        self._r = redis
        self._prefix = prefix
        self.ttl_s = ttl_s

    def _key(self, table: str) -> str:
        return f"{self._prefix}:{{t:{_table_id(table)}}}:watchers"

    async def note(self, table: str, pages: Iterable[str], now: float, gone: Iterable[str] = ()) -> int:
        """``pages`` watch ``table`` (added, or renewed) as of ``now``, those ``gone`` no more; how many watch it."""
        key, pages, gone = self._key(table), list(pages), list(gone)
        pipe = self._r.pipeline(transaction=True)
        if gone:
            pipe.zrem(key, *gone)
        pipe.zremrangebyscore(key, "-inf", now)
        if pages:
            pipe.zadd(key, {page: now + self.ttl_s for page in pages})
            pipe.expire(key, int(self.ttl_s) + 1)  # every member expires by then
        pipe.zcard(key)
        return (await pipe.execute())[-1]
