"""Who watches a table, counted across all processes: one sorted set per table in Redis.

Each member is one open watcher's page (its process's name and a number), scored by the time it
expires unless its process renews it (the web table renews its pages every few seconds). The same
kind of set, under another name, notes the players whose own seat's page is open (:data:`SEATED`:
each member names the player first, :func:`seated_page`), so a chat adapter in any process holds back
the edits of his private hand meanwhile. A count is
one ``ZCOUNT`` from now on, so the pages of a process that died drop out by themselves within the
time to live; every note trims what expired and sets the key's own expiry, so nothing is left once
nobody watches. The key shares the table's hash tag (one Redis Cluster slot).
"""

from __future__ import annotations

from collections.abc import Iterable

from redis.asyncio import Redis

from bot.store.records import table_id as _table_id

__all__ = ["WatcherCounts", "WATCH_TTL_S", "SEATED", "seated_page"]

WATCH_TTL_S = 60
"""How long a watcher's page counts after its process last renewed it."""


SEATED = "seated"
"""The name of the set of players' own pages (:class:`WatcherCounts` with ``kind=SEATED``)."""


def seated_page(user_key: str, page: str) -> str:
    """The member that notes ``user_key``'s own seat's ``page`` open (his key first)."""
    return f"{user_key}|{page}"


class WatcherCounts:
    """The count of open watchers' pages per table.

    Args:
        redis: an asyncio client.
        prefix: the store's key prefix.
        ttl_s: how long a page counts after it was last noted.
        kind: the name of the set: ``"watchers"``, or :data:`SEATED` for the players' own pages.
    """

    def __init__(self, redis: Redis, prefix: str = "st", ttl_s: float = WATCH_TTL_S, kind: str = "watchers") -> None:
        self._r = redis
        self._prefix = prefix
        self.ttl_s = ttl_s
        self._kind = kind

    def _key(self, table: str) -> str:
        return f"{self._prefix}:{{t:{_table_id(table)}}}:{self._kind}"

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

    async def holds(self, table: str, user_key: str, now: float) -> bool:
        """Whether a page of ``user_key`` (:func:`seated_page`) counts at ``table`` as of ``now``."""
        pages = await self._r.zrangebyscore(self._key(table), f"({now}", "+inf")
        mine = seated_page(user_key, "").encode()
        return any((p if isinstance(p, bytes) else p.encode()).startswith(mine) for p in pages)
