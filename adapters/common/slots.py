"""One chat's queue of pending calls, a slot per message, shared by the Telegram and Discord outboxes,
and when a table message may linger in it.

A slot is what a job updates (the table message, a player's hand, a fresh notice). A newer job
for a pending slot replaces the older one and keeps its place, so a burst of moves becomes one
edit. A job that is not urgent may *linger* a moment so that the next one of its slot replaces
it, but only while its chat has nothing else to send: once any job is due, the chat's jobs go in
the order their slots were queued, lingering or not (a lingering job queued earlier holds older
news, and the chat's next turn is taken anyway; one queued later must not hold back a message that
waits already, such as a deal's result behind the next deal's cards). Jobs also have a *rank*
(the Telegram outbox puts the table and the hands first, then what is posted for people, then the
deals' results): the lowest rank among the due jobs goes first, so a chat's backlog of lesser
messages never holds back its table; the order above holds among that rank and the lingering jobs
of lower ones. A job may also be *held*: its ``hold()`` (if it has one) is asked before its turn is taken,
and while it answers a wait (its owner sees what it shows elsewhere, on the web table) it stays pending
without taking the chat's turn, asking again after that wait; a newer job of its slot ends the hold. Once the
chat is *hurried* (the process stops) no job lingers or is held: what is queued goes in its turn at once.

A job queued while an outbox entry is carried out takes its ticket (:mod:`bot.protocol.receipts`); a job
that replaces another takes over its tickets. The sender says when a job is done (:meth:`Slots.sent`) or
asks whether it was made before (:meth:`Slots.known`, a replayed entry); it makes the call inside
:meth:`Slots.flight`, so that a new message the call creates is made once (:mod:`adapters.common.once`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

from bot.protocol import receipts

from . import once
from bot.protocol.outgoing import HandMessage, JoinLink, Notice, Outgoing, TableMessage, Toast

__all__ = ["Slots", "Queues", "table_may_wait", "not_queued"]

J = TypeVar("J")


class Slots(Generic[J]):
    """The pending jobs of one chat by slot, when each is due, and the chat's sender task."""

    def __init__(self) -> None:
        self.pending: OrderedDict[str, J] = OrderedDict()
        self.due: dict[str, float] = {}
        self.rank: dict[str, int] = {}
        self.held: set[str] = set()
        self.hasty = False  # hurried: no job lingers or is held
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.tickets: dict[str, list[receipts.Ticket]] = {}  # the pending jobs' tickets, by slot
        self._flying: dict[str, list[receipts.Ticket]] = {}  # those of the jobs taken by the sender

    def __bool__(self) -> bool:
        """Whether a job is pending."""
        return bool(self.pending)

    def put(self, slot: str, job: J, linger: float = 0.0, rank: int = 0, restart: bool = False) -> None:
        """Queue ``job`` in place of a pending job of its slot; it is due after ``linger`` seconds, but
        never later than the first lingering job of its slot asked (with ``restart``: ``linger`` from now, for a
        job that shows nothing stale the pending one did); ``rank``: see the module."""
        self.pending[slot] = job
        linger = 0.0 if self.hasty else linger
        if (t := receipts.ticket()) is not None:
            self.tickets.setdefault(slot, []).append(t)
        since = math.inf if restart or slot in self.held else self.due.get(slot, math.inf)
        self.held.discard(slot)
        self.due[slot] = min(since, time.monotonic() + linger)
        self.rank[slot] = rank
        self.wake.set()

    def pop(self) -> tuple[str, J]:
        """Take the job to send now: the one queued first among the due jobs of the lowest rank due and
        the lingering jobs of no higher rank (a held job only once due)."""
        slot = self._next()
        job = self.pending.pop(slot)
        del self.due[slot], self.rank[slot]
        self.held.discard(slot)
        self._flying[slot] = self.tickets.pop(slot, [])
        return slot, job

    def taken(self, slot: str) -> bool:
        """Whether the sender has taken the job of ``slot`` and not yet finished it (its call may be in flight)."""
        return slot in self._flying

    def known(self, slot: str) -> bool:
        """Whether the job just taken for ``slot`` is not to be made here: every call it stands for was recorded
        as made by a sender that died before its entry was acknowledged, or is another reader's now."""
        flying = self._flying.get(slot)
        return bool(flying) and all(t.known for t in flying)

    def flight(self, slot: str) -> contextlib.AbstractContextManager[None]:
        """Make the call of the job just taken for ``slot`` inside: its new messages are its tickets'."""
        return once.flying(self._flying.get(slot, []))

    def leased(self, slot: str) -> bool:
        """Whether the job just taken for ``slot`` may be made now: no entry it stands for may be another reader's
        (its reader's lease ran out while the event loop stood still; it waits for the lease to be renewed or lost)."""
        return all(t.receipt.holds() or t.known for t in self._flying.get(slot, ()))

    async def sent(self, slot: str) -> None:
        """The job just taken for ``slot`` is done (made, or given up): its tickets are recorded and settled."""
        for t in self._flying.pop(slot, ()):
            await t.receipt.sent(t)

    def _next(self) -> str:
        now = time.monotonic()
        first = min((self.rank[s] for s, due in self.due.items() if due <= now), default=min(self.rank.values()))
        return next(s for s in self.pending if self.rank[s] <= first and (s not in self.held or self.due[s] <= now))

    async def hold_next(self) -> bool:
        """Ask the job to go next whether it must wait yet (its ``hold()``: seconds, 0 to go); if so, hold it
        that long and say ``True``. Any call it makes (Redis) may raise; a job without ``hold`` goes."""
        slot = self._next()
        job = self.pending[slot]
        hold: Callable[[], Awaitable[float]] | None = getattr(job, "hold", None)
        if hold is None or self.hasty:
            return False
        wait = await hold()
        if wait <= 0 or self.pending.get(slot) is not job:
            return False
        self.held.add(slot)
        self.due[slot] = time.monotonic() + wait
        return True

    def hurry(self) -> None:
        """From now on no job lingers or is held: the process stops, what is queued (a table waiting for the next
        card, a hand for its owner's turn or his web page to close) goes in its turn at once instead of being
        dropped when the sender stops."""
        self.hasty = True
        now = time.monotonic()
        self.due = dict.fromkeys(self.due, now)
        self.held.clear()
        self.wake.set()

    def drop(self, slot: str) -> None:
        """Forget the pending job of ``slot``, if any."""
        self.pending.pop(slot, None)
        self.due.pop(slot, None)
        self.rank.pop(slot, None)
        self.held.discard(slot)
        for t in self.tickets.pop(slot, ()):
            t.receipt.dropped(t)
        self.wake.set()

    def requeue(self, slot: str, job: J, rank: int = 0) -> None:
        """Put a job whose call failed back in front (of its ``rank``), due now, unless a newer one of its
        slot came meanwhile (which takes over its tickets)."""
        self.tickets[slot] = self._flying.pop(slot, []) + self.tickets.get(slot, [])
        if slot not in self.pending:
            self.pending[slot] = job
            self.pending.move_to_end(slot, last=False)
            self.due[slot] = time.monotonic()
            self.rank[slot] = rank

    def clear(self) -> list[J]:
        """Take every pending job out, in order (their tickets settle: the jobs are queued anew elsewhere)."""
        for t in [t for ts in self.tickets.values() for t in ts]:
            t.receipt.dropped(t)
        self.tickets.clear()
        jobs = list(self.pending.values())
        self.pending.clear()
        self.due.clear()
        self.rank.clear()
        self.held.clear()
        return jobs

    async def until_due(self) -> None:
        """Return once a pending job is due, or none is pending (a new or dropped job wakes the wait)."""
        while self.due and not any(due <= time.monotonic() for due in self.due.values()):
            self.wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), min(self.due.values()) - time.monotonic())


class Queues(dict[int, Slots]):
    """The queues of a process's chats, by chat id (an idle chat's is removed by its sender). Once hurried (the
    process stops) every queue is, also one made later: what is queued meanwhile goes at once too."""

    hasty = False

    def of(self, chat_id: int) -> Slots:
        """The queue of ``chat_id``, made if it has none (hurried once the chats are)."""
        queue = self.setdefault(chat_id, Slots())
        if self.hasty:
            queue.hurry()
        return queue

    def hurry(self) -> None:
        """From now on no job of any chat lingers or is held (:meth:`Slots.hurry`)."""
        self.hasty = True
        for queue in self.values():
            queue.hurry()


def not_queued() -> None:
    """A job is not queued (its message shows a newer version already): while an outbox entry is carried out it
    takes its ticket all the same, settled at once, so that the entry's other calls take the tickets they take in
    any process (a replay in a process that knows other versions skips and makes the same calls by ticket)."""
    if (t := receipts.ticket()) is not None:
        t.receipt.dropped(t)


def table_may_wait(table: TableMessage, outs: Sequence[Outgoing], behind_results: bool = False) -> bool:
    """Whether a table message may linger for the next card among the effects ``outs`` of one change.

    Only while a deal is played (the effects carry a hand: a card or decision), only if nothing is
    posted in its chat with it (such a message takes the chat's next turn, and the table goes first;
    ``at_once`` says one was posted already), and never when it is posted anew. With ``behind_results``
    a deal's result (:attr:`~bot.protocol.outgoing.Notice.result`) is no such post: the adapter lets it go
    first, as it shows how the deal ended, and the table lingers behind it for the next deal's first move.
    """
    posted_in = {o.chat.chat_id for o in outs if isinstance(o, (Notice, Toast, JoinLink))
                 and not (behind_results and isinstance(o, Notice) and o.result)}
    return (not table.repost and not table.at_once and table.chat.chat_id not in posted_in
            and any(isinstance(o, HandMessage) for o in outs))
