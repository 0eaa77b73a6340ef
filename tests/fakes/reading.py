"""A running bot's outbox reader, as ``stammtisch run`` starts one beside each chat adapter: what the service writes
to the platform's outbox in Redis (every press's, command's, tap's and timer's effects) is carried out by it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.store.outbox import Outbox
from bot.store.outbox_reader import OutboxReader

__all__ = ["reading", "drained"]


@asynccontextmanager
async def reading(bot, redis, key_prefix: str, platform: str) -> AsyncIterator[OutboxReader]:
    """``platform``'s outbox read for ``bot`` (started) until the block ends, then its calls made."""
    reader = OutboxReader(Outbox(redis, key_prefix), platform, bot.carry_out)
    reader.start()
    try:
        yield reader
    finally:
        await reader.stop()


async def drained(redis, key_prefix: str, platform: str) -> None:
    """Wait until ``platform``'s outbox holds no entry (each is deleted once its calls are made or queued)."""
    outbox = Outbox(redis, key_prefix)
    while any([await redis.xlen(outbox.stream(platform, shard)) for shard in range(outbox.shards)]):
        await asyncio.sleep(0.05)
