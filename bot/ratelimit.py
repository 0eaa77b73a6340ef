"""A send-rate limiter in Redis, shared by every process that sends to the same chats.

A sliding-window log: each allowed send is a member of a sorted set scored by the server's clock
(``TIME``, so processes on different hosts agree), and a send is allowed only while fewer than
``limit`` sends lie in the last ``window_s``. Unlike a token bucket or GCRA, which let a burst
plus the steady rate through in one window, this never allows more than ``limit`` in any window
of that length, which is what Telegram's limits ask for. It costs one small set per key (at most
``limit`` members, expiring with the window).

:class:`Gate` puts a bot-wide limit (about 30 messages a second per Telegram token,
:data:`TELEGRAM_GLOBAL`; Discord's global limit, :data:`DISCORD_GLOBAL`) in front of every
chat's sender: senders wait in one first-come queue, so each waiting chat gets a send before
any chat gets its next one, and a busy bot slows every chat down evenly instead of collecting
429 answers. With a :class:`Limiter` the limit holds for all processes of the bot together: its
window counts each call from the moment it *ended* (a call in flight counts as current, for at
most ``hold_s``), so however late a call reaches the platform, no window there sees more.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis
from redis.exceptions import TimeoutError

from .outage import UNAVAILABLE, Outage

__all__ = ["Limiter", "Gate", "gated_turn", "TELEGRAM_GLOBAL", "DISCORD_GLOBAL"]

TELEGRAM_GLOBAL = (30, 1.0)
"""Messages per second per Telegram bot token, in all chats together (Telegram's broadcast limit)."""
DISCORD_GLOBAL = (50, 1.0)
"""Requests per second per Discord bot token (Discord's global rate limit)."""
_IN_FLIGHT_POLL_S = 0.01

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


class Gate:
    """A bot-wide send limit with fair, first-come queueing between the chats' senders.

    Each call counts from its end (a call in flight counts as current), in this process and,
    with ``shared``, in Redis for all processes, so network jitter never brings more than
    ``limit`` calls into one window at the platform's side.

    Args:
        limit: sends allowed per window in all chats together.
        window_s: the window in seconds.
        shared: the Redis limiter that makes the limit hold across processes; ``None`` keeps
            it in this process only.
        key: the limiter key, one per bot token (e.g. ``tg:global:<bot id>``).
        hold_s: the longest a call counts as in flight (a process that dies mid-call frees
            its place after that).
    """

    def __init__(self, limit: int, window_s: float, shared: Limiter | None = None, key: str = "global",
                 hold_s: float = 30.0) -> None:
        if limit < 1 or window_s <= 0:
            raise ValueError("limit must be at least 1 and window_s positive")
        self.limit = limit
        self.window_s = window_s
        self.shared = shared
        self.key = key
        self.hold_s = hold_s
        self._queue = asyncio.Lock()  # wakes its waiters first come, first served
        self._sent: list[float] = []  # when each recent call ended; inf while it is in flight

    async def acquire(self) -> str:
        """Wait for this sender's turn and for room under the limit; then the call is in flight.

        Returns:
            The call's ticket: give it to :meth:`done` when the call has ended.
        """
        async with self._queue:
            while True:
                wait, ticket = self._local_wait(), ""
                if wait <= 0 and self.shared is not None:
                    wait, ticket = await self.shared.begin(self.key, self.limit, self.window_s, self.hold_s)
                if wait <= 0:
                    self._sent.append(math.inf)
                    return ticket
                await asyncio.sleep(wait)

    async def done(self, ticket: str) -> None:
        """The call granted by :meth:`acquire` with ``ticket`` has ended (successfully or not)."""
        if math.inf in self._sent:
            self._sent[self._sent.index(math.inf)] = time.monotonic()
        if ticket:
            await self.shared.end(self.key, ticket)

    def _local_wait(self) -> float:
        now = time.monotonic()
        self._sent = [t for t in self._sent if t > now - self.window_s]
        if len(self._sent) < self.limit:
            return 0.0
        first = min(self._sent)
        return first + self.window_s - now if first < math.inf else _IN_FLIGHT_POLL_S


async def gated_turn(gate: Gate, window: Callable[[], Awaitable[float]]) -> tuple[str, float]:
    """Take the bot-wide turn first, then the chat's own window, so no queueing comes between them.

    Args:
        gate: the bot-wide limit.
        window: books the chat's next call; returns 0 if it may go now, else how long to wait.

    Returns:
        ``(ticket, 0.0)`` when the call may go (give the ticket to :meth:`Gate.done` after it), or
        ``("", wait)`` when the chat must wait first (the bot-wide turn was given back).
    """
    ticket = await gate.acquire()
    try:
        wait = await window()
    except BaseException:  # cancelled or Redis failed: the turn is given back
        await gate.done(ticket)
        raise
    if wait <= 0:
        return ticket, 0.0
    await gate.done(ticket)  # the turn goes unused: another process wrote to this chat just now
    return "", wait
