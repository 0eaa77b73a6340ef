"""Paced, coalescing senders: one queue per channel, each message a slot of it.

Everything the bot posts or edits in a channel (the table message, a hand in a DM, a notice)
goes through that channel's queue (:class:`adapters.common.slots.Slots`). A newer job for a
pending slot replaces the older one, so a burst of moves becomes one edit, and a job that is not
urgent may linger a moment for a newer one; a job older than what its slot already shows is
dropped. The
sender spaces its calls to the channel evenly (``Tuning.gap``, and across processes through the
shared Redis limiter), so Discord's 429 is the exception, not the pacing: discord.py retries one
then, and the queue keeps coalescing meanwhile.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import aiohttp
import discord

from adapters.common.bounded import Bounded
from adapters.common.gate import Gate, SharedLimit, gated_turn
from adapters.common.slots import Queues, Slots, not_queued
from bot.protocol.unavailable import UNAVAILABLE

from .tuning import Tuning

__all__ = ["Job", "Outbox"]

log = logging.getLogger(__name__)

_TRIES = 3
_LEASE_WAIT_S = 0.1
"""How long a call waits before it asks again whether its outbox entry's lease holds."""
_REDIS_WAIT_S = 0.5
_RETRY_S = 0.5


AT_ONCE, BEHIND = 0, 1
"""The ranks of a channel's jobs: every job goes in its turn, but a table that waits behind its deal's result (for the
next deal's first move) lets every due job go before it (:class:`adapters.common.slots.Slots`)."""


@dataclass(frozen=True)
class Job:
    """One call to a channel: ``send()`` performs it; ``slot`` names the message it updates.

    ``version`` is the table version it shows, if known: an older one never replaces a newer.
    ``linger`` lets a job that is not urgent wait that many seconds for a newer one of its slot.
    ``hold``, if given, says how long it must wait yet before it takes its turn (0: none; see
    :class:`adapters.common.slots.Slots`). ``rank`` :data:`BEHIND` lets every due job of rank :data:`AT_ONCE` go
    before it, and with ``restart`` its ``linger`` counts from now even if the job it replaces lingered already (a
    table that waits behind its deal's result, which shows what that one did).
    """

    channel_id: int
    slot: str
    send: Callable[[], Awaitable[None]]
    version: int | None = None
    linger: float = 0.0
    hold: Callable[[], Awaitable[float]] | None = None
    rank: int = AT_ONCE
    restart: bool = False


class Outbox:
    """The per-channel queues and their sender tasks.

    Args:
        tuning: the pacing.
        shared: the limiter shared by all processes; ``None`` paces this process only.
    """

    def __init__(self, tuning: Tuning, shared: SharedLimit | None = None, bot_id: str = "") -> None:
        self.tuning = tuning
        self.shared = shared
        self.gate = Gate(tuning.global_messages, tuning.global_window_s, shared, f"dc:global:{bot_id}")
        self._pending: Queues = Queues()
        self._next: Bounded[int, float] = Bounded()
        self._shown: Bounded[tuple[int, str], int] = Bounded()
        self._answered: Bounded[tuple[int, str], int] = Bounded()

    def put(self, job: Job) -> None:
        """Queue ``job`` in place of a pending job of its slot, unless its slot shows a newer version."""
        if job.version is not None and job.version < self.newest(job.channel_id, job.slot):
            not_queued()
            return
        queue = self._pending.of(job.channel_id)
        queue.put(job.slot, job, job.linger, job.rank, job.restart)
        if queue.task is None or queue.task.done():
            queue.task = asyncio.get_running_loop().create_task(self._run(job.channel_id, queue),
                                                                 context=contextvars.Context())

    def newest(self, channel_id: int, slot: str) -> int:
        """The newest version known shown or pending for a slot (-1 if none)."""
        queue = self._pending.get(channel_id)
        pending = queue.pending.get(slot) if queue else None
        known = [self._shown.get((channel_id, slot), -1), pending.version if pending else None]
        return max(v for v in known if v is not None)

    def shown(self, channel_id: int, slot: str, version: int | None) -> None:
        """A slot now shows ``version`` (it was updated outside the queue): drop pending jobs not newer."""
        if version is None:
            return
        queue = self._pending.get(channel_id)
        if queue is not None and queue.taken(slot):  # a call in flight may show an older version after the answer
            self._answered.pop((channel_id, slot), None)
        else:
            self._answered[(channel_id, slot)] = version
        self._shown[(channel_id, slot)] = max(version, self._shown.get((channel_id, slot), -1))
        job = queue.pending.get(slot) if queue else None
        if job is not None and job.version is not None and job.version <= version:
            queue.drop(slot)

    def answered(self, channel_id: int, slot: str, version: int) -> bool:
        """Whether an interaction's answer showed ``version`` in a slot (:meth:`shown`) while no call of it was in
        flight: true once, for the copy of that change."""
        if self._answered.get((channel_id, slot)) != version:
            return False
        del self._answered[(channel_id, slot)]
        return True

    async def idle(self) -> None:
        """Wait until every queue is empty and every sender has finished."""
        while tasks := self._running():
            await asyncio.gather(*tasks, return_exceptions=True)

    async def flush(self) -> None:
        """Send everything queued, and what is queued meanwhile, without lingering or holding (the bot stops), and
        wait until it is sent."""
        self._pending.hurry()
        await self.idle()

    async def close(self) -> None:
        """Stop every sender; jobs still pending are dropped."""
        tasks = self._running()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _running(self) -> list[asyncio.Task]:
        return [q.task for q in self._pending.values() if q.task is not None and not q.task.done()]

    async def _pace(self, channel_id: int) -> str:
        """Wait for the bot-wide turn and the channel's window; the bot-wide ticket of the call."""
        while True:
            delay = self._next.get(channel_id, 0.0) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            ticket, wait = await gated_turn(self.gate, lambda: self._window(channel_id))
            if wait <= 0:
                return ticket
            self._next[channel_id] = time.monotonic() + wait

    async def _window(self, channel_id: int) -> float:
        if self.shared is None:
            return 0.0
        return await self.shared.wait_time(f"dc:{channel_id}", 1, self.tuning.gap + self.tuning.slack_s)

    async def _run(self, channel_id: int, queue: Slots[Job]) -> None:
        tries = 0
        while queue:
            await queue.until_due()
            if not queue:
                break
            if await queue.hold_next():  # its owner sees it on the web table: no turn taken for it
                continue
            try:
                ticket = await self._pace(channel_id)
            except UNAVAILABLE as exc:  # the shared limits are in Redis: wait for it, the jobs stay queued
                log.warning("pacing channel %s needs Redis (%s), waiting", channel_id, exc)
                self._next[channel_id] = time.monotonic() + _REDIS_WAIT_S
                continue
            if not queue:  # its job was dropped meanwhile (an answer showed it); one may come while the turn goes back
                await self.gate.done(ticket)
                continue
            slot, job = queue.pop()
            hold = self.tuning.gap
            try:
                if not queue.leased(slot):  # its outbox lease is due for renewal: it waits for it (or another reader)
                    queue.requeue(slot, job)
                    hold = max(hold, _LEASE_WAIT_S)
                    continue
                if not queue.known(slot):  # a replayed outbox entry's call made before is not made again
                    with queue.flight(slot):
                        await job.send()
                await queue.sent(slot)  # recorded at once: a kill doubles the call only within this one write
            except UNAVAILABLE as exc:  # Redis keeps the refs: the job waits for it, however long
                log.warning("sending to channel %s needs Redis (%s), waiting", channel_id, exc)
                queue.requeue(slot, job)
                hold = max(hold, _REDIS_WAIT_S)
                continue
            except (aiohttp.ClientError, asyncio.TimeoutError, discord.DiscordServerError) as exc:
                tries += 1
                if tries < _TRIES:
                    log.warning("sending to channel %s failed (%s), trying again", channel_id, exc)
                    queue.requeue(slot, job)
                    hold = max(hold, _RETRY_S * tries)
                    continue
                log.error("giving up a message to channel %s: %s", channel_id, exc)
            except discord.HTTPException as exc:
                log.error("discord refused a message to channel %s: %s", channel_id, exc)
            finally:
                await self.gate.done(ticket)
                self._next[channel_id] = time.monotonic() + hold
            tries = 0
            await queue.sent(slot)
            if job.version is not None:
                self._shown[(channel_id, slot)] = max(job.version, self._shown.get((channel_id, slot), -1))
        if self._pending.get(channel_id) is queue and not queue:  # idle: a later job starts a new sender
            del self._pending[channel_id]
