"""The bot-wide send limit in front of every chat's sender, fair between chats.

:class:`Gate` puts a bot-wide limit (about 30 messages a second per Telegram token,
:data:`TELEGRAM_GLOBAL`; Discord's global limit, :data:`DISCORD_GLOBAL`) in front of every
chat's sender: senders wait in one first-come queue, so each waiting chat gets a send before
any chat gets its next one, and a busy bot slows every chat down evenly instead of collecting
429 answers. With a :class:`~bot.store.ratelimit.Limiter` (handed in by the composition root as
``shared``) the limit holds for all processes of the bot together: its
window counts each call from the moment it *ended* (a call in flight counts as current, for at
most ``hold_s``), so however late a call reaches the platform, no window there sees more.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["SharedLimit", "Gate", "gated_turn", "near_full", "TELEGRAM_GLOBAL", "DISCORD_GLOBAL"]

TELEGRAM_GLOBAL = (30, 1.0)
"""Messages per second per Telegram bot token, in all chats together (Telegram's broadcast limit)."""
DISCORD_GLOBAL = (50, 1.0)
"""Requests per second per Discord bot token (Discord's global rate limit)."""
_IN_FLIGHT_POLL_S = 0.01


def near_full(used: int, limit: int) -> bool:
    """Whether ``used`` calls of a window that allows ``limit`` leave it close to full (four fifths or more: a single
    table at a brisk pace used 14 of a group's 20 at most)."""
    return 5 * used >= 4 * limit


class SharedLimit(Protocol):
    """A rate limit shared by every process (:class:`bot.store.ratelimit.Limiter`)."""

    async def wait_time(self, key: str, limit: int, window_s: float) -> float:
        """0 if a send under ``limit`` per ``window_s`` for ``key`` may go now (and record it), else the wait."""

    async def begin(self, key: str, limit: int, window_s: float, hold_s: float) -> tuple[float, str]:
        """``(0.0, ticket)`` if a call may start now (in flight until :meth:`end`), else ``(wait, "")``."""

    async def end(self, key: str, ticket: str) -> None:
        """The call started as ``ticket`` has ended."""


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

    def __init__(self, limit: int, window_s: float, shared: SharedLimit | None = None, key: str = "global",
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
        self._full_at = -math.inf  # when a sender last had to wait for room under the limit

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
                self._full_at = time.monotonic()
                await asyncio.sleep(wait)

    def busy(self) -> bool:
        """Whether the limit is close: four fifths of it used in this process's window, or a sender (of any
        process, through ``shared``) had to wait for room within the last window."""
        now = time.monotonic()
        recent = sum(1 for t in self._sent if t > now - self.window_s)
        return near_full(recent, self.limit) or now - self._full_at < self.window_s

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
