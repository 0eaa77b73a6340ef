"""A player's private hand is not edited while his own seat's web page is open: he plays there.

The web table notes each such page in Redis with an expiry (:data:`bot.store.watchers.SEATED`), so a
chat adapter in any process can tell. His hand's edit stays pending in its chat's queue meanwhile, held
(:class:`adapters.common.slots.Slots`) and asked again every :data:`RECHECK_S`; newer versions take its
place. Once the page is closed (or its process gone and its note expired) the newest version goes as
one catch-up edit, and none if the chat shows it already. Whoever presses a button of the table in
the chat plays there: his hand of that table is not held from then on, page or not. The press's hands carry
that (:attr:`~bot.protocol.outgoing.HandMessage.in_chat`, :func:`in_chat`) to whichever process reads its
chat's outbox shard.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Protocol

from adapters.common.bounded import Bounded
from bot.protocol.outgoing import HandMessage, Outgoing, UserRef
from bot.protocol.unavailable import UNAVAILABLE

__all__ = ["OnWeb", "WebHolds", "RECHECK_S", "in_chat"]

RECHECK_S = 3.0
"""How often a held hand asks again whether its owner's page is still open (the catch-up comes this late)."""


class OnWeb(Protocol):
    """Whose own seat's web page is open, across processes (the service)."""

    async def on_web(self, table_id: str, user: UserRef) -> bool:
        """Whether ``user`` has his seat's page of the table open."""


class WebHolds:
    """The ``hold`` of each hand's job (see :class:`adapters.common.slots.Slots`).

    Args:
        source: whose page is open (the service); ``None``: no web table, nothing is held.
        recheck_s: how long a held hand waits before it asks again.
    """

    def __init__(self, source: OnWeb | None, recheck_s: float = RECHECK_S) -> None:
        self.source = source
        self.recheck_s = recheck_s
        self._here: Bounded[tuple[str, str], bool] = Bounded()

    def hold(self, hand: HandMessage) -> Callable[[], Awaitable[float]] | None:
        """A hand job's ``hold``: ``recheck_s`` while its owner's page of the table is open, else 0 (also when
        Redis cannot tell: then the edit goes); ``None`` if nothing is to be held (no web table, or he pressed
        a button of the table in the chat: this hand or one before says :attr:`~HandMessage.in_chat`)."""
        source, user, table_id = self.source, hand.user, hand.table_id
        if hand.in_chat:
            self._here[(user.key, table_id)] = True
        if source is None or (user.key, table_id) in self._here:
            return None

        async def hold() -> float:
            try:
                return self.recheck_s if await source.on_web(table_id, user) else 0.0
            except UNAVAILABLE:
                return 0.0
        return hold


def in_chat(outs: list[Outgoing], user: UserRef, table_id: str) -> list[Outgoing]:
    """The effects of ``user``'s press of a button of the table in his private chat, his hands of it marked
    :attr:`~bot.protocol.outgoing.HandMessage.in_chat`."""
    return [replace(o, in_chat=True) if isinstance(o, HandMessage) and o.user.key == user.key
            and o.table_id == table_id else o for o in outs]
