"""A reader that stops gracefully hands its shards over: each at once unless what it took of it is still under way."""

from __future__ import annotations

import asyncio

from bot.protocol import receipts
from bot.protocol.outgoing import ChatRef, Notice
from bot.store.outbox import Outbox
from bot.store.outbox_reader import OutboxReader

LONG_S = 600.0
"""A lease and a flush that outlast the test: a shard handed over within it was handed over by the stop."""


PATIENCE_S = 60.0
"""How long it waits for anything before it fails: it catches a hang, it does not guess how fast a machine is."""


async def _until(check) -> None:
    """Until the coroutine ``check()`` says true (``TimeoutError`` after :data:`PATIENCE_S`)."""
    async def poll() -> None:
        while not await check():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(poll(), PATIENCE_S)


async def test_a_stopping_reader_hands_over_at_once_the_shards_with_nothing_under_way(redis, key_prefix):
    outbox = Outbox(redis, key_prefix, shards=2, platforms=("test",))
    chat = next(ChatRef("test", str(n)) for n in range(100) if outbox.shard_of(str(n)) == 0)
    calls: list[receipts.Ticket] = []  # the first reader's call, never made while the test looks
    first = OutboxReader(outbox, "test", lambda outs: calls.append(receipts.ticket()), lease_s=LONG_S, flush_s=LONG_S)
    first.start()
    await _until(lambda: _held_by(outbox, first.me, 2))
    await outbox.put([Notice(chat, "Ein Stich")])
    await _until(lambda: _true(calls))
    second = OutboxReader(outbox, "test", lambda outs: None, lease_s=0.3)
    second.start()
    stopping = asyncio.ensure_future(first.stop())
    try:
        await _until(lambda: _held_by(outbox, second.me, 1))
        assert await outbox.holder("test", 0) == first.me  # its entry under way: the shard stays its own meanwhile
        await calls[0].receipt.sent(calls[0])
        await stopping
        await _until(lambda: _held_by(outbox, second.me, 2))
    finally:
        stopping.cancel()
        await second.stop()


async def _held_by(outbox: Outbox, me: str, shards: int) -> bool:
    return sum([await outbox.holder("test", n) == me for n in range(outbox.shards)]) == shards


async def _true(value) -> bool:
    return bool(value)
