"""One process's reader of a platform's outbox: it leases shards, takes over what a dead reader left pending,
reads the new batches and hands them to the adapter's delivery, acknowledging each when its calls are made.

The shards are shared between the readers alive: each takes at most its share (the shards divided by the
readers that beat lately, rounded up) and keeps what it holds while it lives. A reader that stops
gracefully reads no more, leaves the readers at once and each lease as soon as the calls of what it took of
that shard are made (at most ``flush_s``); one that dies leaves them to expire (``lease_s``). Either way the
next reader claims the entries left unacknowledged and carries them out again, skipping the calls recorded as made
(:mod:`bot.protocol.receipts`); a new message whose call was made but not recorded is found, not made again
(the entry's notes: :class:`EntryJournal`, :mod:`adapters.common.once`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Callable

from bot.ops import metrics
from bot.protocol import receipts, wire
from bot.protocol.outgoing import Outgoing
from bot.protocol.unavailable import UNAVAILABLE

from .outbox import Outbox

__all__ = ["OutboxReader", "EntryJournal", "reading"]

log = logging.getLogger(__name__)

_BLOCK_MS = 400
"""How long one read waits for a new entry (below the client's reply timeout)."""


class EntryJournal:
    """The notes of one entry's new messages and the message ids known of its platform, in the outbox
    (a :class:`~bot.protocol.receipts.Journal`)."""

    def __init__(self, outbox: Outbox, platform: str, shard: int, entry: str, notes: dict[str, str],
                 replayed: bool) -> None:
        self.outbox, self.platform, self.shard, self.entry = outbox, platform, shard, entry
        self.name = f"{outbox.stream(platform, shard)}:{entry}"
        self.notes = notes
        self.replayed = replayed

    async def note(self, creation: str, value: str) -> None:
        """See :meth:`bot.protocol.receipts.Journal.note`."""
        await self.outbox.note(self.platform, self.shard, self.entry, creation, value)

    async def noted(self, creation: str) -> str | None:
        """See :meth:`bot.protocol.receipts.Journal.noted`."""
        return await self.outbox.noted(self.platform, self.shard, self.entry, creation)

    async def newest(self, sequence: str) -> int:
        """See :meth:`bot.protocol.receipts.Journal.newest`."""
        return await self.outbox.newest(self.platform, sequence)

    async def saw(self, sequence: str, message_id: int) -> None:
        """See :meth:`bot.protocol.receipts.Journal.saw`."""
        await self.outbox.saw(self.platform, sequence, message_id)

    async def known(self, sequence: str, above: int) -> set[int]:
        """See :meth:`bot.protocol.receipts.Journal.known`."""
        return await self.outbox.known_ids(self.platform, sequence, above)


class OutboxReader:
    """Reads ``platform``'s outbox for this process.

    Args:
        outbox: the streams.
        platform: whose effects.
        carry_out: the adapter's delivery: it queues the calls of a batch (synchronously).
        ready: whether the adapter can take batches now (it has started); no shard is taken before.
        lease_s: how long a lease lasts without renewal (a dead reader's shards wait that long).
        flush_s: how long a stopping reader waits for the calls of what it took.
    """

    def __init__(self, outbox: Outbox, platform: str, carry_out: Callable[[list[Outgoing]], None],
                 ready: Callable[[], bool] = lambda: True, lease_s: float = 3.0, flush_s: float = 5.0) -> None:
        self.outbox = outbox
        self.platform = platform
        self.carry_out = carry_out
        self.ready = ready
        self.lease_s = lease_s
        self.flush_s = flush_s
        self.me = f"{platform}-{secrets.token_hex(6)}"
        self._shards: dict[int, asyncio.Task] = {}
        self._open: dict[tuple[int, str], asyncio.Event] = {}  # entries taken and not acknowledged
        self._receipts: dict[tuple[int, str], receipts.Receipt] = {}
        self._until: dict[int, float] = {}  # the shards held: until when their lease surely holds (monotonic)
        self._free: set[int] = set()  # shards beyond this reader's share found free at the last beat
        self._stop = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._acks: set[asyncio.Task] = set()

    def start(self) -> None:
        """Start leasing and reading."""
        self._task = asyncio.get_running_loop().create_task(self._lease_loop())

    async def stop(self) -> None:
        """Read no more, let the calls of what was taken be made (at most ``flush_s``), leave the leases."""
        self._stop.set()
        if self._task is not None:
            await self._task

    async def _lease_loop(self) -> None:
        beat_s = self.lease_s / 3
        try:
            while not self._stop.is_set():
                try:
                    await self._lease()
                except UNAVAILABLE as exc:
                    metrics.redis_error("outbox")
                    log.warning("the %s outbox's leases need Redis: %s", self.platform, type(exc).__name__)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), beat_s)
        finally:
            await self._leave()

    async def _lease(self) -> None:
        """Renew the shards held, take free ones up to this reader's share (beyond it, one left free since the
        last beat: a dead reader's, while it still counts as alive), stop reading those lost."""
        if not self.ready():
            return
        alive = await self.outbox.beat(self.platform, self.me, time.time(), 2 * self.lease_s)
        share = math.ceil(self.outbox.shards / max(1, alive))
        free = set()
        for shard in range(self.outbox.shards):
            held = shard in self._shards
            if not held and len(self._shards) >= share:
                if shard in self._free or not await self.outbox.holder(self.platform, shard):
                    free.add(shard)
                if shard not in self._free:
                    continue
            asked = time.monotonic()
            if await self.outbox.take(self.platform, shard, self.me, self.lease_s):
                self._until[shard] = asked + self.lease_s
                if not held or self._shards[shard].done():
                    self._shards[shard] = asyncio.get_running_loop().create_task(self._read(shard))
            elif held:
                log.warning("lost the lease of %s outbox shard %d", self.platform, shard)
                self._until.pop(shard, None)
                self._shards.pop(shard).cancel()
                for key in [k for k in self._open if k[0] == shard]:  # the next reader makes their calls
                    self._receipts.pop(key).revoke()
                    self._open.pop(key).set()
        self._free = free

    def _holds(self, shard: int) -> bool:
        """Whether this reader's lease of ``shard`` surely holds now (counted from before it was asked for: Redis
        counts from later), so that no call is made for a shard another reader may have taken meanwhile."""
        return self._until.get(shard, 0.0) > time.monotonic()

    async def _leave(self) -> None:
        """Read no more; leave the readers at once (the others' share grows at their next beat) and each shard as
        soon as what was taken of it is carried out (at most ``flush_s``): a shard with nothing under way at once."""
        for task in self._shards.values():
            task.cancel()
        await asyncio.gather(*self._shards.values(), return_exceptions=True)
        with contextlib.suppress(*UNAVAILABLE):
            await self.outbox.leave(self.platform, self.me)
        await asyncio.gather(*(self._hand_over(shard) for shard in self._shards))
        self._shards.clear()

    async def _hand_over(self, shard: int) -> None:
        """Leave the shard's lease once its entries taken are acknowledged (or ``flush_s`` passed)."""
        waits = [done.wait() for (of, _), done in self._open.items() if of == shard]
        if waits:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*waits), self.flush_s)
        with contextlib.suppress(*UNAVAILABLE):
            await self.outbox.give_up(self.platform, shard, self.me)

    async def _read(self, shard: int) -> None:
        """Carry out what is pending in the shard (taken over), then what comes, in order."""
        while True:
            try:
                await self.outbox.ensure_group(self.platform, shard)
                await self._claim(shard, 0)
                claimed = time.monotonic()
                while True:
                    for entry, fields in await self.outbox.read(self.platform, shard, self.me, _BLOCK_MS):
                        await self._carry(shard, entry, fields)
                    if time.monotonic() - claimed > self.lease_s:
                        await self._claim(shard, int(self.lease_s * 1000))
                        claimed = time.monotonic()
            except UNAVAILABLE as exc:
                metrics.redis_error("outbox")
                log.warning("reading %s outbox shard %d needs Redis: %s", self.platform, shard, type(exc).__name__)
                await asyncio.sleep(self.lease_s / 3)

    async def _claim(self, shard: int, idle_ms: int) -> None:
        """Take over and carry out what is pending in the shard for another reader since ``idle_ms`` (all of it
        when the shard is taken; then, now and then, what a reader that lost the shard read before it knew)."""
        start = "0-0"
        while True:
            start, entries = await self.outbox.pending(self.platform, shard, self.me, start, idle_ms)
            for entry, fields in entries:
                await self._carry(shard, entry, fields, replay=True)
            if start == "0-0":
                return

    async def _carry(self, shard: int, entry: str, fields: dict, replay: bool = False) -> None:
        """Hand one entry's batch to the delivery under its receipt (not one this reader carries already)."""
        if (shard, entry) in self._open:
            return
        while not self.ready():  # the adapter restarts: the entry waits for it
            await asyncio.sleep(self.lease_s / 3)
        try:
            outs = wire.unpack(fields.get("b", ""))
        except ValueError as exc:
            log.error("dropping a broken %s outbox entry %s: %s", self.platform, entry, exc)
            await self.outbox.ack(self.platform, shard, entry)
            return
        known = await self.outbox.known(self.platform, shard, entry) if replay else frozenset()
        notes = await self.outbox.notes(self.platform, shard, entry) if replay else {}
        done = self._open[(shard, entry)] = asyncio.Event()

        async def record(call: str) -> None:
            await self.outbox.record(self.platform, shard, entry, call)

        def settled() -> None:
            task = asyncio.get_running_loop().create_task(self._ack(shard, entry, done))
            self._acks.add(task)
            task.add_done_callback(self._acks.discard)

        journal = EntryJournal(self.outbox, self.platform, shard, entry, notes, replay)
        receipt = self._receipts[(shard, entry)] = receipts.Receipt(known, record, settled,
                                                                    lambda: self._holds(shard), journal)
        with receipts.carrying(receipt):
            try:
                self.carry_out(outs)
            except Exception:  # noqa: BLE001  (it stays pending: whoever takes the shard over tries again)
                receipt.failed = True
                log.exception("carrying out %s outbox entry %s failed", self.platform, entry)

    async def _ack(self, shard: int, entry: str, done: asyncio.Event) -> None:
        try:
            await self.outbox.ack(self.platform, shard, entry)
        except UNAVAILABLE as exc:  # it stays pending: whoever takes the shard over skips its calls made
            log.warning("could not acknowledge %s outbox entry %s: %s", self.platform, entry, type(exc).__name__)
        finally:
            self._open.pop((shard, entry), None)
            self._receipts.pop((shard, entry), None)
            done.set()


async def reading(outbox: Outbox, platform: str, deliveries: dict[str, Callable[[list[Outgoing]], None]],
                  stop: asyncio.Event) -> None:
    """Carry out ``platform``'s effects from the outbox, whichever process made them, through the delivery its
    running adapter puts into ``deliveries``, until ``stop`` is set."""
    reader = OutboxReader(outbox, platform, lambda outs: deliveries[platform](outs), lambda: platform in deliveries)
    reader.start()
    await stop.wait()
    await reader.stop()
