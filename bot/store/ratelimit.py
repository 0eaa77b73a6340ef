"""A send-rate limiter in Redis, shared by every process that sends to the same chats.

A sliding-window log: each allowed send is a member of a sorted set scored by the server's clock
(``TIME``, so processes on different hosts agree), and a send is allowed only while fewer than
``limit`` sends lie in the last ``window_s``. Unlike a token bucket or GCRA, which let a burst
plus the steady rate through in one window, this never allows more than ``limit`` in any window
of that length, which is what Telegram's limits ask for. It costs one small set per key (at most
``limit`` members, expiring with the window).
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from redis.asyncio import Redis
from redis.exceptions import TimeoutError

from bot.protocol.unavailable import UNAVAILABLE
from bot.store.outage import Outage

__all__ = ["Limiter", "HUNG_S"]


log = logging.getLogger(__name__)

HUNG_S = 3.0
"""Seconds of timeouts after which the limiter treats Redis as hung (see :meth:`Limiter.wait_time`)."""

# KEYS: the window. ARGV: limit, window (µs), member. Returns 0 (sent, recorded) or µs to wait.
_WINDOW = r"""
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tonumber(oldest[2]) + window - now
"""


# KEYS: the window. ARGV: limit, window (µs), hold (µs), member. Returns 0 (call in flight,
# recorded as ending at the latest after hold) or µs to wait.
_BEGIN = r"""
local limit, window, hold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now + hold, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil((window + hold) / 1000))
  return 0
end
local oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
if oldest > now then
  return 10000
end
return oldest + window - now
"""

# KEYS: the window. ARGV: member. The call has ended now.
_END = r"""
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], 'XX', tonumber(t[1]) * 1000000 + tonumber(t[2]), ARGV[1])
return 0
"""


class Limiter:
    """At most ``limit`` sends per ``window_s`` seconds per key, across all processes.

    Args:
        redis: an asyncio Redis client.
        prefix: the first part of the limiter's keys (``<prefix>:rl:<key>``).
    """

    def __init__(self, redis: Redis, prefix: str = "st") -> None:
        self._prefix = prefix
        self._window = redis.register_script(_WINDOW)
        self._outage = Outage(log)
        self._begin = redis.register_script(_BEGIN)
        self._end = redis.register_script(_END)

    async def wait_time(self, key: str, limit: int, window_s: float) -> float:
        """Try to send now.

        Args:
            key: what is limited, e.g. ``group:<chat id>`` or ``chat:<chat id>``.
            limit: sends allowed per window (at least 1).
            window_s: the window in seconds.

        Returns:
            0.0 if the send is allowed, and then it is recorded; otherwise the seconds until it
            would be, and nothing is recorded. While Redis is down (refuses connections) every
            send is allowed (each process still paces its own sends), so that "try again" answers
            go out. A timeout means wait one window and ask again, so a slow Redis never lets
            processes exceed the limit together; after ``HUNG_S`` of timeouts Redis counts as hung
            and sends are allowed as while it is down.
        """
        if limit < 1 or window_s <= 0:
            raise ValueError("limit must be at least 1 and window_s positive")
        try:
            micros = await self._window(keys=[f"{self._prefix}:rl:{key}"],
                                        args=[int(limit), round(window_s * 1e6), secrets.token_hex(8)])
        except UNAVAILABLE as exc:
            return self._failed(exc, window_s)
        self._outage.worked()
        return micros / 1e6

    def _failed(self, exc: Exception, window_s: float) -> float:
        """The wait after a failed call: a timeout is waited out (a window) until Redis seems hung."""
        self._outage.failed(exc)
        if isinstance(exc, TimeoutError):
            return 0.0 if self._outage.lasted() > HUNG_S else window_s
        return 0.0

    async def begin(self, key: str, limit: int, window_s: float, hold_s: float) -> tuple[float, str]:
        """Try to start a call now, counting it from its end (see :meth:`end`).

        Returns:
            ``(0.0, member)`` if the call may go (it counts as in flight until :meth:`end`, or
            at most ``hold_s``); else ``(seconds to wait, "")``.
        """
        if limit < 1 or window_s <= 0 or hold_s <= 0:
            raise ValueError("limit must be at least 1, window_s and hold_s positive")
        member = secrets.token_hex(8)
        try:
            micros = await self._begin(keys=[f"{self._prefix}:rl:{key}"],
                                       args=[int(limit), round(window_s * 1e6), round(hold_s * 1e6), member])
        except UNAVAILABLE as exc:  # like wait_time
            wait = self._failed(exc, window_s)
            return wait, ""
        self._outage.worked()
        return (0.0, member) if micros <= 0 else (micros / 1e6, "")

    async def end(self, key: str, member: str) -> None:
        """The call :meth:`begin` granted as ``member`` has ended: it counts from now."""
        try:
            await self._end(keys=[f"{self._prefix}:rl:{key}"], args=[member])
        except UNAVAILABLE as exc:  # it counts as in flight until its hold ends
            self._outage.failed(exc)

    async def acquire(self, key: str, limit: int, window_s: float) -> None:
        """Wait until a send is allowed under :meth:`wait_time`'s rule, and record it."""
        while (wait := await self.wait_time(key, limit, window_s)) > 0:
            await asyncio.sleep(wait)
