"""People's vacations in Redis: the running one and the days taken in a year, changed atomically.

Two keys per person, in one slot (``{u:<user key>}``): ``<prefix>:{u:<user key>}:vac`` (hash: ``start``,
``until``, ``days``, ``zone``, ``year``, ``lang``, and ``told`` once he knows it ended; it lives until a week after
its end) and
``<prefix>:{u:<user key>}:vacdays:<year>`` (the days taken in that calendar year, UTC; it lives 400 days).
A start checks and spends the budget and writes the vacation in one script; an early end gives back the
unused whole days (the day begun counts) in one script. What the vacation does to his tables follows from
these keys (:mod:`bot.service.vacation`), guarded by his ``vacation`` timer (:mod:`bot.store.personal`).
"""

from __future__ import annotations

import time
from typing import NamedTuple

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from bot.store import scripts

__all__ = ["Vacations", "Vacation", "Started"]

_DAY = 86400
_KEEP_AFTER = 7 * _DAY
_COUNT_TTL = 400 * _DAY


class Vacation(NamedTuple):
    """A person's vacation: from ``start`` to ``until`` (epoch seconds), ``days`` booked, shown in ``zone``; ``lang``:
    the language he asked for it in; ``told``: he knows it ended."""

    start: float
    until: float
    days: int
    zone: str
    lang: str = ""
    told: bool = False

    def runs(self, now: float) -> bool:
        """Whether it runs at ``now``."""
        return self.start <= now < self.until


class Started(NamedTuple):
    """What a start came to: ``ok``; else ``until`` of the one that runs already (0: refused for the budget);
    ``left``: the year's days left."""

    ok: bool
    until: float
    left: int


def year_of(ts: float) -> int:
    """The calendar year (UTC) a vacation starting at ``ts`` counts in."""
    return time.gmtime(ts).tm_year


class Vacations:
    """The vacations of people (see the module).

    Args:
        redis: an asyncio client that decodes replies.
        prefix: the store's key prefix.
    """

    def __init__(self, redis: Redis | RedisCluster, prefix: str) -> None:
        self._r = redis
        self._prefix = prefix
        self._start = redis.register_script(scripts.VACATION_START)
        self._end = redis.register_script(scripts.VACATION_END)
        self._over = redis.register_script(scripts.VACATION_OVER)

    def _keys(self, user_key: str, year: int) -> list[str]:
        base = f"{self._prefix}:{{u:{user_key}}}"
        return [f"{base}:vac", f"{base}:vacdays:{int(year)}"]

    async def get(self, user_key: str) -> Vacation | None:
        """The person's vacation (running, or ended within a week), else ``None``."""
        fields = ["start", "until", "days", "zone", "lang", "told"]
        start, until, days, zone, lang, told = await self._r.hmget(self._keys(user_key, 0)[0], fields)
        if start is None or until is None:
            return None
        return Vacation(float(start), float(until), int(days or 0), zone or "", lang or "", bool(told))

    async def left(self, user_key: str, year: int, budget: int) -> int:
        """How many of the ``budget`` days of ``year`` the person has not taken."""
        return max(0, budget - int(await self._r.get(self._keys(user_key, year)[1]) or 0))

    async def start(self, user_key: str, now: float, days: int, budget: int, zone: str, lang: str = "") -> Started:
        """Begin a vacation of ``days`` days at ``now``, if none runs and the year's ``budget`` allows it (asked for
        in ``lang``)."""
        year, until = year_of(now), now + days * _DAY
        args = [repr(float(now)), repr(float(until)), int(days), int(budget), zone, year, _COUNT_TTL,
                int(until + _KEEP_AFTER), lang]
        code, value = await self._start(keys=self._keys(user_key, year), args=args)
        if code == 1:
            return Started(True, until, int(value))
        if code == -1:
            return Started(False, float(value), await self.left(user_key, year, budget))
        return Started(False, 0.0, int(value))

    async def end(self, user_key: str, now: float) -> int | None:
        """End the running vacation at ``now``: the whole days given back, ``None`` if none ran."""
        vacation = await self.get(user_key)
        if vacation is None:
            return None
        back = await self._end(keys=self._keys(user_key, year_of(vacation.start)), args=[repr(float(now)), _KEEP_AFTER])
        return None if back < 0 else int(back)

    async def over(self, user_key: str, now: float) -> bool:
        """Whether to tell him that his vacation is over: True once (for one caller), for a vacation that ended by
        its day before ``now``; never for one he ended himself (:meth:`end`)."""
        return bool(await self._over(keys=self._keys(user_key, 0)[:1], args=[repr(float(now))]))
