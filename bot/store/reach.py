"""Who the bot cannot write to privately: a platform's refusal remembered for a while, for every process.

When a platform refuses a private message (Telegram's 403: the user blocked the bot, or never started
it), the adapter notes it here, and until the note expires (:data:`TTL_S`) or the user writes to the bot
privately it sends him nothing privately: each try would only cost a call and be refused again. One small
key per user (``<prefix>:unreach:<user key>``, the reason as its value), expiring with the note.
"""

from __future__ import annotations

from redis.asyncio import Redis

__all__ = ["Reach", "TTL_S", "REASONS"]

TTL_S = 600
"""How long a refused private message is remembered: ten minutes."""
REASONS = frozenset({"blocked", "cannot_dm"})
"""Why he cannot be reached: he blocked the bot, or never started it."""


class Reach:
    """The users the bot cannot write to privately, with why (see the module).

    Args:
        redis: an asyncio client.
        prefix: the store's key prefix.
    """

    def __init__(self, redis: Redis, prefix: str = "st") -> None:
        self._r = redis
        self._prefix = prefix

    def _key(self, user_key: str) -> str:
        return f"{self._prefix}:unreach:{user_key}"

    async def refused(self, user_key: str) -> str | None:
        """Why a private message to the user was refused lately (:data:`REASONS`), or ``None``."""
        reason = await self._r.get(self._key(user_key))
        if isinstance(reason, bytes):
            reason = reason.decode()
        return reason if reason in REASONS else None

    async def note(self, user_key: str, reason: str) -> None:
        """A private message to the user was refused for ``reason``: remember it for :data:`TTL_S`."""
        if reason not in REASONS:
            raise ValueError(f"unknown reason {reason!r}")
        await self._r.set(self._key(user_key), reason, ex=TTL_S)

    async def reached(self, user_key: str) -> None:
        """The user wrote to the bot privately: he can be written to again."""
        await self._r.delete(self._key(user_key))
