"""A running bot's outbox reader, as ``stammtisch run`` starts one beside each chat adapter: what the service writes
to the platform's outbox in Redis (every press's, command's, tap's and timer's effects) is carried out by it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.store.outbox import Outbox
from bot.store.outbox_reader import OutboxReader

__all__ = ["reading"]


@asynccontextmanager
async def reading(bot, redis, key_prefix: str, platform: str) -> AsyncIterator[OutboxReader]:
    """``platform``'s outbox read for ``bot`` (started) until the block ends, then its calls made."""
    reader = OutboxReader(Outbox(redis, key_prefix), platform, bot.carry_out)
    reader.start()
    try:
        yield reader
    finally:
        await reader.stop()
