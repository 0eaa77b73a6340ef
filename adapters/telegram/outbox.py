"""The outbox: one sender task per chat that paces, coalesces and retries what the bot posts.

Every message or edit for a chat goes through that chat's queue of *slots*. A slot is what a
job updates (the table message, one player's hand, or a fresh notice): a newer job for a
pending slot replaces the older one in place, so a burst of moves becomes one edit. A job
that carries a version older than one already queued or sent for its slot is dropped, so a
late render never overwrites a newer one. The sender waits for the chat's pace (local and,
across processes, the shared limiter) and then for its turn under the bot-wide limit
(:class:`adapters.common.gate.Gate`, fair between chats) before each call, honours ``RetryAfter``, follows a
group's migration to a supergroup and retries network failures a few times. A job that is not
urgent may linger a moment so that the next one for its slot replaces it
(:class:`adapters.common.slots.Slots`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import timedelta

from telegram.error import ChatMigrated, NetworkError, RetryAfter, TelegramError, TimedOut

from adapters.common.bounded import Bounded
from adapters.common.gate import Gate, SharedLimit, gated_turn, near_full
from adapters.common.once import Lapsed
from adapters.common.slots import Queues, Slots, not_queued
from bot.protocol.unavailable import UNAVAILABLE

from .tuning import Tuning

__all__ = ["Job", "Outbox", "Pacer", "FIRST", "REPLY", "LAST"]

log = logging.getLogger(__name__)

_NETWORK_TRIES = 3
_REDIS_WAIT_S = 0.5
"""How long a chat's sender waits before it asks Redis for its turn again."""
_SWEEP_MIN = 1024
_LEASE_WAIT_S = 0.1
"""How long a call waits before it asks again whether its outbox entry's lease holds."""

FIRST, REPLY, LAST = 0, 1, 2
"""The ranks of a chat's jobs: the messages edited in place (the table, a hand) go first, then what
is posted for people (answers, reminders, notices), last the deals' results, which may pile up when
computers play on alone (see :class:`adapters.common.slots.Slots`)."""


@dataclass(frozen=True)
class Job:
    """One call for a chat: ``send(chat_id)`` performs it (the id may change by migration).

    ``slot`` names what the call updates; ``version`` is the table version it shows, if known.
    ``linger`` lets a job that is not urgent wait that many seconds for a newer job of its slot
    to replace it (a job never waits longer than the first lingering job of its slot asked).
    ``rank`` puts it behind every pending job of a lower rank (:data:`FIRST`, :data:`REPLY`, :data:`LAST`).
    ``hold``, if given, says how long the job must wait yet before it takes its turn (0: none; see
    :class:`adapters.common.slots.Slots`). ``restart``: its ``linger`` counts from now even if the job it replaces lingered already (it shows nothing
    stale that one did, such as a new deal's first cards in place of an emptied hand).
    """

    chat_id: int
    slot: str
    send: Callable[[int], Awaitable[None]]
    version: int | None = None
    linger: float = 0.0
    rank: int = 0
    restart: bool = False
    hold: Callable[[], Awaitable[float]] | None = None


class Pacer:
    """Spaces the calls to each chat by its smallest gap, here and (with ``shared``) across processes,
    and keeps all chats together under the bot-wide limit.

    Every chat gets one call per ``tuning.chat_window_s``; a group also no more than
    ``tuning.group_messages`` in any ``tuning.group_window_s`` (a sliding window, as Telegram
    counts), not one per fixed share of it: a group that used little of its minute may get a
    deal's result right after its table, and only a group that used it all waits for its window.
    The local gap and window count from the end of each call, so network jitter never brings two
    calls closer at Telegram's side; the shared windows add ``tuning.slack_s`` for the same reason.
    A chat's entries are kept only while they still matter (a future moment, a call within the
    group window): older ones are dropped whenever the entries have doubled since the last sweep,
    so the memory follows the chats active within the last window, not every chat ever served.

    Args:
        tuning: the limits.
        shared: the Redis limiter shared by every process, if any.
        bot_id: the bot's id, naming its bot-wide limit in Redis.
    """

    def __init__(self, tuning: Tuning, shared: SharedLimit | None = None, bot_id: str = ""):
        self.tuning = tuning
        self.shared = shared
        self.gate = Gate(tuning.global_messages, tuning.global_window_s, shared, f"tg:global:{bot_id}")
        self._next: dict[int, float] = {}
        self._recent: dict[int, deque[float]] = {}  # a group's last calls (their ends), at most group_messages
        self._tickets: dict[int, str] = {}  # the call in flight of each chat's sender
        self._calls: dict[int, list[tuple[str, str]]] = {}  # its shared windows' keys and tickets
        self._sweep_at = _SWEEP_MIN

    async def wait(self, chat_id: int) -> None:
        """Return when a call to ``chat_id`` may go out; then :meth:`sent` must follow.

        The bot-wide turn comes first and the chat's shared window is taken right before the
        call, so no wait in the queue comes between the chat's booking and its call (another
        process could send to the chat in that time).
        """
        while True:
            delay = self._next.get(chat_id, 0.0) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            ticket, wait = await gated_turn(self.gate, lambda: self._window(chat_id))
            if wait <= 0:
                self._tickets[chat_id] = ticket
                return
            self._book(chat_id, time.monotonic() + wait)

    async def _window(self, chat_id: int) -> float:
        """The wait the shared windows ask for (the chat's first: a refusal there books nothing in the
        group's window, and a group's refusal leaves at most one call's gap booked in the chat's).

        A call they let go counts in them from its end (:meth:`sent`; in flight it counts as current, for
        at most the gate's ``hold_s``), as in the bot-wide window: however late a call of one process
        reaches Telegram, another process's next call to the chat leaves a window after it.
        """
        if self.shared is None:
            return 0.0
        t = self.tuning
        windows = [(f"tg:{chat_id}", t.chat_messages, t.chat_window_s)]
        if chat_id < 0:
            windows.append((f"tg:group:{chat_id}", t.group_messages, t.group_window_s))
        calls = self._calls.setdefault(chat_id, [])
        try:
            for key, limit, window_s in windows:
                wait, ticket = await self.shared.begin(key, limit, window_s + t.slack_s, self.gate.hold_s)
                if wait > 0:
                    await self._ended(chat_id)  # what was let go counts from now: no call follows
                    return wait
                calls.append((key, ticket))
        except BaseException:
            await self._ended(chat_id)
            raise
        return 0.0

    async def _ended(self, chat_id: int) -> None:
        """The chat's call let go by the shared windows has ended (or does not go): it counts from now."""
        for key, ticket in self._calls.pop(chat_id, ()):
            if ticket:
                await self.shared.end(key, ticket)

    async def sent(self, chat_id: int) -> None:
        """A call to ``chat_id`` has just finished: book the chat's next free moment."""
        await self.gate.done(self._tickets.pop(chat_id, ""))
        await self._ended(chat_id)
        now = time.monotonic()
        at = now + self.tuning.chat_window_s / self.tuning.chat_messages
        if chat_id < 0:
            recent = self._recent.setdefault(chat_id, deque(maxlen=self.tuning.group_messages))
            recent.append(now)
            if len(recent) == recent.maxlen:
                at = max(at, recent[0] + self.tuning.group_window_s)
        self._book(chat_id, at)

    def crowded(self, chat_id: int) -> bool:
        """Whether calls to ``chat_id`` are about to queue: four fifths of a group's window used (its calls are
        all made here: the process that reads the chat's outbox shard), or the bot-wide limit close
        (:meth:`~adapters.common.gate.Gate.busy`)."""
        now = time.monotonic()
        used = sum(1 for t in self._recent.get(chat_id, ()) if t > now - self.tuning.group_window_s)
        return chat_id < 0 and near_full(used, self.tuning.group_messages) or self.gate.busy()

    def hold(self, chat_id: int, seconds: float) -> None:
        """Send nothing to ``chat_id`` for ``seconds`` (Telegram asked us to wait)."""
        self._book(chat_id, time.monotonic() + seconds)

    def __len__(self) -> int:
        """How many chats the pacer keeps an entry for."""
        return len(self._next.keys() | self._recent.keys())

    def _book(self, chat_id: int, at: float) -> None:
        self._next[chat_id] = max(self._next.get(chat_id, 0.0), at)
        if len(self._next) + len(self._recent) >= self._sweep_at:
            now = time.monotonic()
            self._next = {c: t for c, t in self._next.items() if t > now}
            self._recent = {c: r for c, r in self._recent.items() if r[-1] > now - self.tuning.group_window_s}
            self._sweep_at = max(_SWEEP_MIN, 2 * (len(self._next) + len(self._recent)))


def _seconds(retry_after: int | float | timedelta) -> float:
    return retry_after.total_seconds() if isinstance(retry_after, timedelta) else float(retry_after)


class Outbox:
    """The per-chat queues and their sender tasks.

    Args:
        pacer: spaces the calls per chat.
        on_migrated: awaited with (old chat id, new chat id) when Telegram says a group became
            a supergroup; the pending jobs move to the new id.
    """

    def __init__(self, pacer: Pacer, on_migrated: Callable[[int, int], Awaitable[None]]):
        self.pacer = pacer
        self.on_migrated = on_migrated
        self._queues: Queues = Queues()
        self._shown: Bounded[tuple[int, str], int] = Bounded()
        self._moved: Bounded[int, int] = Bounded()

    def put(self, job: Job) -> None:
        """Queue ``job``, replacing a pending job of its slot; drop it if a newer version is known."""
        chat_id = self._moved.get(job.chat_id, job.chat_id)
        if chat_id != job.chat_id:
            job = replace(job, chat_id=chat_id)
        q = self._queues.of(chat_id)
        if job.version is not None:
            old = q.pending.get(job.slot)
            newest = max(v for v in (self._shown.get((chat_id, job.slot)), old and old.version, -1) if v is not None)
            if job.version < newest:
                not_queued()
                return
        q.put(job.slot, job, job.linger, job.rank, job.restart)
        if q.task is None or q.task.done():
            q.task = asyncio.get_running_loop().create_task(self._run(chat_id, q), context=contextvars.Context())

    async def turn(self, chat_id: int) -> None:
        """Inside a job's call: the call just made took the chat's turn, wait for the next one (a call that looks
        for a lost message before it posts it: :mod:`.adopt`)."""
        await self.pacer.sent(chat_id)
        await self.pacer.wait(chat_id)

    def loaded(self, chat_id: int) -> bool:
        """Whether ``chat_id`` is under load: a job of its queue is due and waits for its turn, or its window or the
        bot-wide one is close to full (:meth:`Pacer.crowded`)."""
        q = self._queues.get(chat_id)
        now = time.monotonic()
        return bool(q) and any(due <= now for slot, due in q.due.items() if slot not in q.held) \
            or self.pacer.crowded(chat_id)

    def holding(self, chat_id: int) -> bool:
        """Whether a job for ``chat_id`` is held back (its owner's web page is open)."""
        q = self._queues.get(chat_id)
        return bool(q and q.held)

    async def idle(self) -> None:
        """Wait until every queue is empty and every sender has finished."""
        while True:
            tasks = [q.task for q in self._queues.values() if q.task and not q.task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def flush(self) -> None:
        """Send everything queued, and what is queued meanwhile, without lingering or holding (the bot stops), and
        wait until it is sent."""
        self._queues.hurry()
        await self.idle()

    async def close(self) -> int:
        """Stop every sender; jobs still pending are dropped: how many."""
        dropped = sum(len(q.pending) for q in self._queues.values() if q.task and not q.task.done())
        tasks = [q.task for q in self._queues.values() if q.task and not q.task.done()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return dropped

    async def _run(self, chat_id: int, q: Slots[Job]) -> None:
        tries = 0
        while q:
            await q.until_due()
            if await q.hold_next():  # its owner sees it on the web table: no turn taken for it
                continue
            try:
                await self.pacer.wait(chat_id)
            except UNAVAILABLE as exc:  # the shared limits are in Redis: wait for it, the jobs stay queued
                log.warning("pacing chat %s needs Redis (%s), waiting", chat_id, exc)
                self.pacer.hold(chat_id, _REDIS_WAIT_S)
                continue
            slot, job = q.pop()
            if not q.leased(slot):  # its outbox lease is due for renewal: it waits for it (or for another reader)
                await self.pacer.sent(chat_id)
                q.requeue(slot, job, job.rank)
                self.pacer.hold(chat_id, _LEASE_WAIT_S)
                continue
            try:
                try:
                    if not q.known(slot):  # a replayed outbox entry's call made before is not made again
                        with q.flight(slot):
                            await job.send(chat_id)
                    await q.sent(slot)  # recorded at once: a kill doubles the call only within this one write
                finally:
                    await self.pacer.sent(chat_id)
            except Lapsed:  # its entry's lease may have run out: the message waits for it (or another reader)
                q.requeue(slot, job, job.rank)
                self.pacer.hold(chat_id, _LEASE_WAIT_S)
                continue
            except RetryAfter as exc:
                log.warning("telegram asks to wait %s s for chat %s", exc.retry_after, chat_id)
                self.pacer.hold(chat_id, _seconds(exc.retry_after))
                q.requeue(slot, job, job.rank)
                continue
            except ChatMigrated as exc:
                q.requeue(slot, job, job.rank)
                await self._migrate(chat_id, int(exc.new_chat_id), q)
                return
            except (TimedOut, NetworkError, *UNAVAILABLE) as exc:  # the platform's network, or Redis for the refs
                tries += 1
                if tries < _NETWORK_TRIES:
                    log.warning("network error for chat %s (%s), retrying", chat_id, exc)
                    self.pacer.hold(chat_id, 0.5 * tries)
                    q.requeue(slot, job, job.rank)
                    continue
                log.error("giving up a message to chat %s: %s", chat_id, exc)
            except TelegramError as exc:
                log.error("telegram refused a message to chat %s: %s", chat_id, exc)
            tries = 0
            await q.sent(slot)
            if job.version is not None:
                self._shown[(chat_id, slot)] = max(job.version, self._shown.get((chat_id, slot), -1))
        if self._queues.get(chat_id) is q:  # idle: a later job starts a new queue
            del self._queues[chat_id]

    async def _migrate(self, old: int, new: int, q: Slots[Job]) -> None:
        self._moved[old] = new
        jobs = q.clear()
        try:
            await self.on_migrated(old, new)
        except Exception:  # the table moves on the next command; the jobs still go to the new chat
            log.exception("moving the tables of chat %s to %s failed", old, new)
        for job in jobs:
            self.put(job)
