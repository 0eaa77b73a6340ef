"""A person's own timers, beside the tables': his daily digest and the end of his vacation.

One sorted set ``<prefix>:{deadlines}:people`` (the deadlines' slot), members ``<kind>:<user key>``
scored by their due time (epoch seconds). Like the tables' timers they are leases: :meth:`PersonalTimers.claim`
moves a due member ``lease_s`` into the future instead of taking it, so a process that dies while acting on
it loses nothing; the handler then sets it again (:meth:`schedule`) or drops it (:meth:`done`, only if
nobody set it anew meanwhile). The set has no expiry: a member is one per person and kind, and leaves it
when it fires and finds nothing (more) to do (his setting expired, his vacation is over).
"""

from __future__ import annotations

import re

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from bot.store import scripts

__all__ = ["PersonalTimers", "KINDS", "DIGEST", "VACATION"]

DIGEST, VACATION = "digest", "vacation"
KINDS = frozenset({DIGEST, VACATION})
"""The kinds of a person's timers: his daily digest, his vacation's guard."""
_USER_KEY = re.compile(r"[a-z]{1,16}:[^\s{}]{1,64}")


class PersonalTimers:
    """A person's timers (see the module).

    Args:
        redis: an asyncio client that decodes replies.
        prefix: the store's key prefix.
        lease_s: seconds a claimed timer waits before it comes due again.
    """

    def __init__(self, redis: Redis | RedisCluster, prefix: str, lease_s: float) -> None:
        self._r = redis
        self._due = f"{prefix}:{{deadlines}}:people"
        self._lease_s = lease_s
        self._claim = redis.register_script(scripts.CLAIM)
        self._drop = redis.register_script(scripts.DROP_IF_AT)

    @staticmethod
    def _member(kind: str, user_key: str) -> str:
        if kind not in KINDS or not _USER_KEY.fullmatch(user_key):
            raise ValueError(f"bad personal timer {kind!r} of {user_key!r}")
        return f"{kind}:{user_key}"

    async def schedule(self, kind: str, user_key: str, due_ts: float) -> None:
        """Set ``user_key``'s ``kind`` timer to fire at ``due_ts`` (setting it again moves it)."""
        await self._r.zadd(self._due, {self._member(kind, user_key): float(due_ts)})

    async def guard(self, kind: str, user_key: str, now: float) -> float:
        """Set ``user_key``'s ``kind`` timer to come due ``lease_s`` after ``now``, before a step that should
        move or drop it (if the process dies first, it comes due and the step is done again); when it is due."""
        due = float(now) + self._lease_s
        await self.schedule(kind, user_key, due)
        return due

    async def when(self, kind: str, user_key: str) -> float | None:
        """When ``user_key``'s ``kind`` timer fires (a leased one: when its lease ends), else ``None``."""
        return await self._r.zscore(self._due, self._member(kind, user_key))

    async def due(self, now: float, limit: int = 100) -> list[tuple[str, str]]:
        """The timers due at ``now``, earliest first: ``(kind, user key)``."""
        members = await self._r.zrangebyscore(self._due, "-inf", now, start=0, num=limit)
        return [tuple(m.split(":", 1)) for m in members]

    async def claim(self, kind: str, user_key: str, now: float) -> float | None:
        """Lease a due timer: for exactly one caller the lease's end (due again then), else ``None``."""
        until = float(now) + self._lease_s
        if await self._claim(keys=[self._due], args=[self._member(kind, user_key), float(now), until]):
            return until
        return None

    async def done(self, kind: str, user_key: str, leased: float) -> bool:
        """Drop the timer claimed with the lease's end ``leased``, unless it was set anew meanwhile."""
        return bool(await self._drop(keys=[self._due], args=[self._member(kind, user_key), repr(float(leased))]))
