"""The tables' turn timers in Redis: one sorted set of due members shared by every table, leased to act on.

Turn timers are leases: :meth:`Timers.claim` does not remove a due member but moves it
``lease_s`` into the future, so a process that dies while acting on it loses nothing: the member
comes due again. The save that consumes it (any save of a newer version of the table) drops it in
the same script; a timer that turned out to have nothing to do is dropped with :meth:`Timers.done`.

The two deadline keys (``st:{deadlines}:due``, a zset of members ``<id>:<version>:<kind>`` scored by
their due time, and ``st:{deadlines}:tables``, table id -> its members) have no expiry; a member
leaves them when a save of a newer version of its table (or its end) drops it, when it is done, or
when it fires and finds its table gone.
"""

from __future__ import annotations

import re
import time

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from bot.store import scripts
from bot.store.records import table_id as _table_id

__all__ = ["Timers", "deadline_keys", "SHOW"]

SHOW = "show"
"""The kind of a save's show guard (:mod:`bot.store.tables`): neither a newer version nor the table's end drops it."""
_KIND = re.compile(r"[a-z_]{1,16}")


def deadline_keys(prefix: str) -> tuple[str, str]:
    """The two deadline keys under ``prefix``: the due members, and each table's members."""
    return f"{prefix}:{{deadlines}}:due", f"{prefix}:{{deadlines}}:tables"


class Timers:
    """The timers of :class:`~bot.store.tables.Store` (which saves and drops them with a table's save)."""

    def _init_timers(self, redis: Redis | RedisCluster, prefix: str, lease_s: float) -> None:
        """The deadline keys under ``prefix`` and their scripts; a claimed timer comes due again ``lease_s`` later."""
        self._lease_s = lease_s
        self._due, self._due_tables = deadline_keys(prefix)
        self._schedule = redis.register_script(scripts.SCHEDULE)
        self._claim = redis.register_script(scripts.CLAIM)
        self._drop = redis.register_script(scripts.DROP)

    def _member(self, table_id: str, version: int, kind: str) -> str:
        _table_id(table_id)
        if not _KIND.fullmatch(kind) or version < 0:
            raise ValueError(f"bad timer {kind!r} at version {version}")
        return f"{table_id}:{int(version)}:{kind}"

    async def schedule(self, table_id: str, version: int, kind: str, due_ts: float, replaces: str = "") -> bool:
        """Set the table's ``kind`` timer for ``version`` to fire at ``due_ts`` (epoch seconds).

        Timers of older versions of the table are dropped; timers of the same version stay (a
        reminder and an automatic move may both wait) unless named by ``replaces`` (the kind of a
        timer this one follows, dropped in the same step), and setting one again moves it.

        Returns:
            False, changing nothing, if the table already has a timer for a newer version.
        """
        member = self._member(table_id, version, kind)
        also = self._member(table_id, version, replaces) if replaces else ""
        args = [table_id, int(version), member, float(due_ts), also]
        return bool(await self._schedule(keys=[self._due, self._due_tables], args=args))

    async def due(self, now: float, limit: int = 100) -> list[tuple[str, int, str]]:
        """Timers due at ``now`` (epoch seconds), earliest first: ``(table_id, version, kind)``."""
        members = await self._r.zrangebyscore(self._due, "-inf", now, start=0, num=limit)
        return [(t, int(v), k) for t, v, k in (m.split(":") for m in members)]

    async def count_due(self, now: float) -> int:
        """How many timers are due at ``now`` (epoch seconds) and not leased."""
        return await self._r.zcount(self._due, "-inf", now)

    async def claim(self, table_id: str, version: int, kind: str, now: float | None = None) -> bool:
        """Lease a due timer to act on it: True for exactly one caller, however many race for it.

        The timer stays stored, due again ``lease_s`` after ``now`` (default: the clock), until the
        save that carries it out (a save of a newer version) or :meth:`done` drops it.
        """
        now = time.time() if now is None else now
        member = self._member(table_id, version, kind)
        return bool(await self._claim(keys=[self._due], args=[member, float(now), float(now) + self._lease_s]))

    async def done(self, table_id: str, version: int, kind: str) -> bool:
        """Drop a timer that had nothing (more) to do; True if it was there."""
        member = self._member(table_id, version, kind)
        return bool(await self._drop(keys=[self._due, self._due_tables], args=[table_id, member]))

    async def cancel(self, table_id: str) -> int:
        """Drop all of the table's timers; returns how many there were."""
        return await self._drop(keys=[self._due, self._due_tables], args=[_table_id(table_id), ""])
