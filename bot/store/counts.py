"""How many tables are in each state, across all processes: one sorted set per state in Redis.

Each member is a table id scored by the time its keys expire (the store's lifetimes), so a count
is one ``ZCOUNT`` from now on and expired tables drop out without an event. Every note also
trims what has expired and sets the sets' own expiry, so nothing is left once tables are gone.
The sets share one hash tag (one Redis Cluster slot); they are written after the table's save,
outside its script: a crash between the two leaves a count off by one until that table's next
change or expiry, which is fine for a metric.
"""

from __future__ import annotations

from redis.asyncio import Redis

__all__ = ["TableCounts", "STATES"]

STATES = ("lobby", "playing", "finished", "aborted")
"""The states a table record can have (:attr:`bot.table.record.Table.status`)."""


class TableCounts:
    """Counts of tables by state.

    Args:
        redis: an asyncio client.
        prefix: the store's key prefix.
        finished_ttl: seconds the store keeps a finished (or aborted) table.
        abandoned_ttl: seconds the store keeps an open table after its last change.
    """

    def __init__(self, redis: Redis, prefix: str = "st", finished_ttl: int = 86400,
                 abandoned_ttl: int = 14 * 86400) -> None:
        self._r = redis
        self._keys = {state: f"{prefix}:{{stats}}:tables:{state}" for state in STATES}
        self._finished_ttl = finished_ttl
        self._abandoned_ttl = abandoned_ttl

    async def note(self, table_id: str, status: str, now: float) -> None:
        """The table was saved with ``status`` at ``now`` (epoch seconds)."""
        ttl = self._abandoned_ttl if status in ("lobby", "playing") else self._finished_ttl
        pipe = self._r.pipeline(transaction=False)
        for state, key in self._keys.items():
            if state == status:
                pipe.zadd(key, {table_id: now + ttl})
                pipe.expire(key, ttl)  # a state's ttl is fixed: the newest member expires last
            else:
                pipe.zrem(key, table_id)
            pipe.zremrangebyscore(key, "-inf", now)
        await pipe.execute()

    async def counts(self, now: float) -> dict[str, int]:
        """Tables kept now, by state."""
        pipe = self._r.pipeline(transaction=False)
        for key in self._keys.values():
            pipe.zcount(key, now, "+inf")
        return dict(zip(self._keys, await pipe.execute()))
