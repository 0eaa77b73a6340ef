"""A player's private hand is not edited while his own seat's web page is open: he plays there.

The web table notes each such page in Redis with an expiry (:data:`bot.store.watchers.SEATED`), so a
chat adapter in any process can tell. His hand's edit stays pending in its chat's queue meanwhile, held
(:class:`adapters.common.slots.Slots`) and asked again every :data:`RECHECK_S`; newer versions take its
place. Once the page is closed (or its process gone and its note expired) the newest version goes as
one catch-up edit, and none if the chat shows it already.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.protocol.outgoing import UserRef
from bot.protocol.unavailable import UNAVAILABLE

__all__ = ["OnWeb", "web_hold", "RECHECK_S"]

RECHECK_S = 3.0
"""How often a held hand asks again whether its owner's page is still open (the catch-up comes this late)."""


class OnWeb(Protocol):
    """Whose own seat's web page is open, across processes (the service)."""

    async def on_web(self, table_id: str, user: UserRef) -> bool:
        """Whether ``user`` has his seat's page of the table open."""


def web_hold(source: OnWeb | None, table_id: str, user: UserRef,
             recheck_s: float = RECHECK_S) -> Callable[[], Awaitable[float]] | None:
    """A job's ``hold``: ``recheck_s`` while ``user``'s page of the table is open, else 0 (also when Redis cannot
    tell: then the edit goes). ``None`` without a source (no web table)."""
    if source is None:
        return None

    async def hold() -> float:
        try:
            return recheck_s if await source.on_web(table_id, user) else 0.0
        except UNAVAILABLE:
            return 0.0
    return hold
