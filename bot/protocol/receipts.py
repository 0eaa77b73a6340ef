"""Receipts: which calls of one outbox entry are done, so that the entry is acknowledged only when all are,
and a replayed entry skips the calls known to be made.

The outbox reader (:mod:`bot.store.outbox`) hands an entry's effects to an adapter's delivery inside
:func:`carrying`; every call the delivery queues meanwhile takes a :class:`Ticket` of the entry's
:class:`Receipt` (the n-th call queued for the entry is ticket ``n``: the same effects make the same
calls in the same order, in any process; a call a process does not queue, its message showing a newer
version there, takes its ticket all the same: :func:`adapters.common.slots.not_queued`). A call that
replaces a pending one of its message takes over its tickets (an edit coalesced to the newest). When a call
is made its tickets are recorded as sent (in Redis, before the entry is acknowledged); a call dropped on
purpose (a newer version is shown already) settles its tickets without a record. A replayed entry's
receipt knows the tickets recorded before: their calls are not made again.

A call that creates a message notes, before it is made, that it is about to (and right after the answer, the
message's id): the entry's *notes* (:class:`Journal`, kept with the entry in Redis). A replay that finds such a
note does not blindly create the message again (:mod:`adapters.common.once`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Journal", "Receipt", "Ticket", "carrying", "ticket"]

log = logging.getLogger(__name__)

_CURRENT: ContextVar[Receipt | None] = ContextVar("receipt", default=None)


class Journal(Protocol):
    """Where a sender notes the messages an outbox entry's calls create, and which message ids of a chat it knows."""

    name: str
    """The entry, unique among the outbox's entries (it names the nonces of its new messages)."""
    notes: dict[str, str]
    """What was noted for the entry's new messages before (a replay), by creation."""
    replayed: bool
    """Whether the entry was taken over from another reader (which may still note its messages meanwhile)."""

    async def note(self, creation: str, value: str) -> None:
        """Note ``value`` for one new message of the entry (kept until the entry is acknowledged)."""

    async def noted(self, creation: str) -> str | None:
        """What is noted for one new message of the entry now (another sender may have noted it since)."""

    async def newest(self, sequence: str) -> int:
        """The highest message id known in a sequence of message ids (0 if none)."""

    async def saw(self, sequence: str, message_id: int) -> None:
        """The bot made message ``message_id`` in ``sequence``."""

    async def known(self, sequence: str, above: int) -> set[int]:
        """The ids known in ``sequence`` above ``above`` (the bot's messages made since)."""


class Receipt:
    """The calls of one outbox entry.

    Args:
        known: the tickets recorded as sent before (a replay of the entry after its sender died).
        record: records a ticket as sent (awaited after the call, before the entry is acknowledged).
        settled: called once, when the entry's effects are queued and every call is made or dropped.
        holds: whether the reader still surely holds the entry (its lease has not run out); a call waits while not.
        journal: the entry's notes of the messages its calls create (``None``: none are kept).
    """

    def __init__(self, known: frozenset[str], record: Callable[[str], Awaitable[None]],
                 settled: Callable[[], None], holds: Callable[[], bool] = lambda: True,
                 journal: Journal | None = None) -> None:
        self.known = known
        self.holds = holds
        self.journal = journal
        self._record = record
        self._settled = settled
        self._issued = 0
        self._open = 0
        self._closed = False
        self.failed = False
        """A record failed: the entry is not acknowledged (whoever takes it over makes what is not known)."""
        self.revoked = False
        """Another reader took the entry over (this one lost its shard): its calls not yet made are not made here."""

    def ticket(self) -> Ticket:
        """The next call's ticket."""
        t = Ticket(self, str(self._issued))
        self._issued += 1
        self._open += 1
        return t

    def revoke(self) -> None:
        """Another reader took the entry over: make none of its calls still queued, record and acknowledge nothing."""
        self.revoked = True

    def close(self) -> None:
        """Every effect of the entry is queued: it settles when its calls have."""
        self._closed = True
        self._check()

    async def sent(self, t: Ticket) -> None:
        """The call of ``t`` was made (or failed for good): recorded, then settled."""
        if t.key not in self.known and not self.revoked:
            try:
                await self._record(t.key)
            except Exception as exc:  # noqa: BLE001  (Redis away: the entry stays pending, see :attr:`failed`)
                log.warning("the outbox could not record a call as sent: %s", type(exc).__name__)
                self.failed = True
        self.dropped(t)

    def dropped(self, t: Ticket) -> None:
        """The call of ``t`` is not made (its message shows a newer version, or it was known sent)."""
        self._open -= 1
        self._check()

    def _check(self) -> None:
        if self._closed and self._open == 0 and not self.failed and not self.revoked:
            self._closed = False  # once
            self._settled()


@dataclass(frozen=True, eq=False)
class Ticket:
    """One call of an outbox entry."""

    receipt: Receipt
    key: str

    @property
    def known(self) -> bool:
        """Whether the call was made before (recorded by a sender that died before the entry was acknowledged), or
        is another reader's to make now."""
        return self.key in self.receipt.known or self.receipt.revoked


@contextlib.contextmanager
def carrying(receipt: Receipt) -> Iterator[None]:
    """The calls queued inside take tickets of ``receipt``; it is closed at the end."""
    token = _CURRENT.set(receipt)
    try:
        yield
    finally:
        _CURRENT.reset(token)
        receipt.close()


def ticket() -> Ticket | None:
    """A ticket for a call queued now, if an outbox entry is being carried out."""
    receipt = _CURRENT.get()
    return receipt.ticket() if receipt is not None else None
