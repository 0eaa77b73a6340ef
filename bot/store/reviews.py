"""Reviews of finished deals in Redis: whose review is under way, and the reviews made, for a while.

Two kinds of small keys, each expiring:

==========================================  ======  ==================================================
``<prefix>:review:busy:<user key>``         string  his review is being made (:data:`BUSY_S` at most)
``<prefix>:{t:<id>}:review:<deal>:<seat>``  string  the review of a seat's deal, JSON (``ttl``)
==========================================  ======  ==================================================

The first keeps one person to one review at a time across processes; the second answers a second
asking (the chat's text again, the web table's steps) without searching again.
"""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis

__all__ = ["Reviews", "BUSY_S"]

BUSY_S = 120
"""The longest a person's review may be under way: a process that died making it frees him after this."""


class Reviews:
    """Whose review is under way, and the reviews made (see the module), in ``redis`` under the store's ``prefix``;
    a review made is kept ``ttl`` seconds."""

    def __init__(self, redis: Redis, prefix: str = "st", ttl: int = 86400) -> None:
        self._r = redis
        self._prefix = prefix
        self.ttl = ttl

    def _busy(self, user_key: str) -> str:
        return f"{self._prefix}:review:busy:{user_key}"

    def _made(self, table_id: str, deal: int, seat: int) -> str:
        return f"{self._prefix}:{{t:{table_id}}}:review:{deal}:{seat}"

    async def claim(self, user_key: str) -> bool:
        """Mark the user's review as under way; false if one is already."""
        return bool(await self._r.set(self._busy(user_key), "1", nx=True, ex=BUSY_S))

    async def release(self, user_key: str) -> None:
        """His review is done (or failed): he may ask for the next."""
        await self._r.delete(self._busy(user_key))

    async def get(self, table_id: str, deal: int, seat: int) -> list[dict[str, Any]] | None:
        """The review of ``seat`` in deal ``deal`` of the table, if it was made lately."""
        text = await self._r.get(self._made(table_id, deal, seat))
        return json.loads(text) if text is not None else None

    async def put(self, table_id: str, deal: int, seat: int, decisions: list[dict[str, Any]]) -> None:
        """Keep a review made, for :attr:`ttl` seconds."""
        await self._r.set(self._made(table_id, deal, seat), json.dumps(decisions, separators=(",", ":")), ex=self.ttl)
