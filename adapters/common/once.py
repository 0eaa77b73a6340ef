"""A new message that an outbox entry's call creates is made once, even if its sender dies in the middle.

A sender makes a job's call inside :func:`flying` with the job's tickets (:mod:`bot.protocol.receipts`); each
new message the call makes takes the next :class:`Creation` of the job's first ticket (:func:`creation`): the
same effects make the same creations in any process, so a replay of the entry knows them by name. A creation
gives the platform an idempotency key where it has one (Discord's ``nonce``: :attr:`Creation.nonce`), and notes
in the entry's journal, before the call, that it is about to be made (with the newest message id then known
in its chat) and, right after the answer, which message it made. A replay that finds the message noted takes
it; one that finds only the intent looks for the message before it makes another
(:mod:`adapters.telegram.adopt`). A message no replay can look for (a Telegram file, a forum topic) is made with
:func:`make`: taken if noted made, made again only if its answer was lost.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from bot.protocol.receipts import Journal, Ticket

__all__ = ["Creation", "Lapsed", "creation", "flying", "make", "nonce"]


class Lapsed(Exception):
    """The lease of the entry whose message is about to be made may have run out (another reader may carry the
    entry out now): the call waits for the lease to be renewed, or is not made if it was lost."""


class _Flight:
    """The job whose call is being made: its first ticket and how many messages it made so far."""

    def __init__(self, ticket: Ticket, journal: Journal) -> None:
        self.ticket = ticket
        self.journal = journal
        self.made = 0


_FLIGHT: ContextVar[_Flight | None] = ContextVar("flight", default=None)


@contextlib.contextmanager
def flying(tickets: Sequence[Ticket]) -> Iterator[None]:
    """The call made inside is the one of a job with ``tickets`` (none: not an outbox entry's)."""
    journal = tickets[0].receipt.journal if tickets else None
    token = _FLIGHT.set(_Flight(tickets[0], journal) if journal is not None else None)
    try:
        yield
    finally:
        _FLIGHT.reset(token)


def creation() -> Creation | None:
    """The next new message of the call being made, if it is an outbox entry's."""
    flight = _FLIGHT.get()
    if flight is None:
        return None
    receipt = flight.ticket.receipt
    made = Creation(flight.journal, f"{flight.ticket.key}.{flight.made}",
                    lambda: receipt.holds() and not receipt.revoked)
    flight.made += 1
    return made


def nonce() -> str | None:
    """The idempotency key of the next new message of the call being made, if it is an outbox entry's."""
    made = creation()
    return made.nonce if made is not None else None


async def make(call: Callable[[], Awaitable[Any]], ident: str = "message_id") -> int:
    """Make the next new message of the call being made with ``call``, unless a sender before noted it made: its id
    (the attribute ``ident`` of what ``call`` returns, or the noted one). Only one whose sender died between the
    call and its note is made again."""
    made = creation()
    if made is None:
        return getattr(await call(), ident)
    if made.journal.replayed:
        await made.refresh()
    if (found := made.made()) is not None:
        return found
    made.fence()
    found = getattr(await call(), ident)
    await made.done(found)
    return found


@dataclass(frozen=True)
class Creation:
    """One new message of an outbox entry, named by its ticket and its place among the ticket's new messages."""

    journal: Journal
    key: str
    holds: Callable[[], bool] = lambda: True
    """Whether its entry's reader surely holds the entry still."""

    @property
    def nonce(self) -> str:
        """A key unique to this message among all the outbox's (24 characters: Discord takes at most 25)."""
        return hashlib.blake2b(f"{self.journal.name}:{self.key}".encode(), digest_size=12).hexdigest()

    def made(self) -> int | None:
        """The message made, if a sender noted it before."""
        return self._noted("=")

    def intended(self) -> int | None:
        """If a sender was about to make it before, but noted no answer: the newest message id it knew then."""
        return self._noted("?")

    async def refresh(self) -> None:
        """Read its note again (a sender whose lease ran out may have noted the message made since)."""
        value = await self.journal.noted(self.key)
        if value is not None:
            self.journal.notes[self.key] = value

    def _noted(self, mark: str) -> int | None:
        value = self.journal.notes.get(self.key, "")
        return int(value[1:]) if value.startswith(mark) else None

    async def intend(self, newest: int) -> None:
        """The call is about to be made; ``newest``: the highest message id known in its chat now."""
        await self.journal.note(self.key, f"?{newest}")
        self.journal.notes[self.key] = f"?{newest}"  # a retry here looks for it too (its answer may be lost)

    def fence(self) -> None:
        """Raise :class:`Lapsed` unless its entry's reader surely holds the entry (right before the call)."""
        if not self.holds():
            raise Lapsed(self.key)

    async def done(self, message_id: int) -> None:
        """The call made message ``message_id``."""
        await self.journal.note(self.key, f"={message_id}")
        self.journal.notes[self.key] = f"={message_id}"
