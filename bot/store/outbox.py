"""The outbox: every effect for a chat platform goes through Redis to a process that runs that platform's adapter.

Layout (``st`` is the store's prefix, ``<p>`` a platform, ``<n>`` a shard ``0`` … ``shards - 1``):

- ``st:{ob:<p>:<n>}:s`` -- a stream of batches of effects, one entry per change and chat (field ``b``:
  :func:`bot.protocol.wire.pack`), read by the consumer group ``senders``. A chat always goes to the same
  shard (CRC-32 of its chat id; a hand goes with its table's group), so its batches keep their order.
  Capped at :data:`MAXLEN` entries (``XADD MAXLEN ~``); an acknowledged entry is deleted at once.
- ``st:{ob:<p>:<n>}:lease`` -- the process that reads the shard now (``SET NX PX``, renewed while it lives):
  one reader per shard keeps each chat's order; a reader that dies leaves its lease to expire and the
  next takes the shard over with what the dead one left pending (``XAUTOCLAIM``).
- ``st:{ob:<p>:<n>}:sent:<entry>`` -- the calls of an entry already made (:mod:`bot.protocol.receipts`),
  recorded before the entry is acknowledged, deleted with it, expiring after :data:`SENT_TTL_S`.
- ``st:{ob:<p>:<n>}:made:<entry>`` -- the entry's new messages (a hash by creation: ``?<id>`` before the call,
  the highest message id then known in its chat; ``=<id>`` the message made), kept and deleted like the record.
- ``st:{ob:<p>:ids:<sequence>}`` -- the newest :data:`IDS_KEPT` message ids the bot made in a sequence of
  message ids (a sorted set), for finding a message whose answer was lost (:mod:`adapters.common.once`).
- ``st:{ob:<p>:<n>}:w:<table id>`` -- the versions of a table whose effects are written (a sorted set of the
  last 64, :data:`MARKS_TTL`): the proof, in the shard's slot, that a save's show guard has nothing to show.
- ``st:{ob:<p>}:readers`` -- the readers alive (a sorted set by last beat), to share the shards between them.

Each shard has a hash tag of its own, so on Redis Cluster the shards spread over the nodes and every key
of a shard lives on one slot. The batch is written right after the change's save (not in its
transaction: the table's keys live on another slot). The save armed a show guard (:mod:`bot.store.tables`);
the write of the change's effects marks the table's version written and, in the same script, adds them to
the stream only if nobody marked it before (the guard, firing first, writes what it rebuilt the same way),
and on one Redis drops the guard too (on Cluster the service drops it after the write: a crash in between
lets it fire, find the mark and drop itself). So a process that dies between save and write leaves the
guard to show the change, and nothing is shown twice.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Collection, Mapping

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

from bot.protocol import wire
from bot.protocol.outgoing import Outgoing
from bot.store import scripts
from bot.store.timers import deadline_keys

__all__ = ["Outbox", "PLATFORMS", "SHARDS", "MAXLEN", "SENT_TTL_S", "MARKS_TTL", "GROUP", "IDS_KEPT"]

PLATFORMS = ("telegram", "discord")
"""The platforms whose effects go through the outbox (the web table reads the tables itself)."""
SHARDS = 8
MAXLEN = 10_000
"""The most entries one shard's stream keeps (the oldest go first; acknowledged ones are gone already)."""
SENT_TTL_S = 86_400
IDS_KEPT = 256
"""The most message ids of one sequence kept (the newest)."""
MARKS_TTL = 3600
"""Seconds a table's written versions are kept after its last write: longer than any show guard waits."""
GROUP = "senders"

# KEYS: the shard's stream, [due, tables: one Redis, to drop the show guards]. ARGV: maxlen, the marks' key
# without the table id, their ttl, then per entry: table id ('' for none), k, its k versions, the packed batch.
# An entry of a table is added only if one of its versions was not marked written yet.
_WRITE = scripts.TIMERS + r"""
local disarm, i = #KEYS == 3, 4
while i <= #ARGV do
  local id, k = ARGV[i], tonumber(ARGV[i + 1])
  local fresh, marks = k == 0, ARGV[2] .. id
  for j = i + 2, i + 1 + k do
    if redis.call('ZADD', marks, 'NX', ARGV[j], ARGV[j]) == 1 then fresh = true end
    local member = id .. ':' .. ARGV[j] .. ':show'
    if disarm then keep_timers(KEYS[2], KEYS[3], id, function(m) return m == member end) end
  end
  if k > 0 then
    redis.call('ZREMRANGEBYRANK', marks, 0, -65)
    redis.call('EXPIRE', marks, ARGV[3])
  end
  if fresh then redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'b', ARGV[i + 2 + k]) end
  i = i + 3 + k
end
return 1
"""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Outbox:
    """The outbox streams on one Redis, for writing batches and for the readers' reads.

    Args:
        redis: the store's client (decoding replies).
        prefix: the store's key prefix.
        shards: how many streams each platform's effects spread over.
        platforms: the platforms whose effects it takes.
    """

    def __init__(self, redis: Redis | RedisCluster, prefix: str = "st", shards: int = SHARDS,
                 platforms: tuple[str, ...] = PLATFORMS) -> None:
        self.redis = redis
        self.prefix = prefix
        self.shards = shards
        self.platforms = platforms
        self.cluster = isinstance(redis, RedisCluster)
        """On Cluster the write cannot drop the show guards (another slot): the caller drops them after it."""
        self._write = redis.register_script(_WRITE)

    def _tag(self, platform: str, shard: int) -> str:
        return f"{self.prefix}:{{ob:{platform}:{shard}}}"

    def stream(self, platform: str, shard: int) -> str:
        """The stream of one shard."""
        return f"{self._tag(platform, shard)}:s"

    def lease(self, platform: str, shard: int) -> str:
        """The key naming the process that reads one shard."""
        return f"{self._tag(platform, shard)}:lease"

    def sent_key(self, platform: str, shard: int, entry: str) -> str:
        """The calls made of one entry."""
        return f"{self._tag(platform, shard)}:sent:{entry}"

    def notes_key(self, platform: str, shard: int, entry: str) -> str:
        """The new messages of one entry."""
        return f"{self._tag(platform, shard)}:made:{entry}"

    def ids_key(self, platform: str, sequence: str) -> str:
        """The message ids the bot made lately in one sequence."""
        return f"{self.prefix}:{{ob:{platform}:ids:{sequence}}}"

    def readers(self, platform: str) -> str:
        """The readers of a platform alive, by last beat."""
        return f"{self.prefix}:{{ob:{platform}}}:readers"

    def shard_of(self, chat_id: str) -> int:
        """The shard of a chat."""
        return zlib.crc32(chat_id.encode()) % self.shards

    async def put(self, outs: list[Outgoing], guards: Mapping[str, Collection[int]] | None = None) -> list[Outgoing]:
        """Write the effects for the outbox's platforms, a batch per chat shard in their order, one script each;
        the others (for no platform of the outbox) are returned.

        ``guards`` names, by table, the saved versions whose show guards these effects disarm: a guarded table's
        effects are an entry of their own, written only if one of its versions was not written yet (its guard
        fired first), and mark them written.
        """
        guards = guards or {}
        batches: dict[tuple[str, int], dict[str, list[Outgoing]]] = defaultdict(lambda: defaultdict(list))
        rest = []
        for out in outs:
            platform = out.chat.platform
            if platform in self.platforms:
                table = getattr(out, "table_id", "")
                batches[(platform, self.shard_of(out.chat.chat_id))][table if table in guards else ""].append(out)
            else:
                rest.append(out)
        disarm = [] if self.cluster else list(deadline_keys(self.prefix))
        for (platform, shard), entries in batches.items():
            args: list = [MAXLEN, f"{self._tag(platform, shard)}:w:", MARKS_TTL]
            for table, batch in entries.items():
                versions = sorted(guards.get(table, ())) if table else []
                args += [table, len(versions), *versions, wire.pack(batch)]
            await self._write(keys=[self.stream(platform, shard), *disarm], args=args)
        return rest

    async def ensure_group(self, platform: str, shard: int) -> None:
        """The shard's stream and its consumer group exist (reading from its first entry)."""
        try:
            await self.redis.xgroup_create(self.stream(platform, shard), GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def take(self, platform: str, shard: int, me: str, lease_s: float) -> bool:
        """Take or keep the shard's lease for ``lease_s``; whether ``me`` holds it."""
        key, ms = self.lease(platform, shard), int(lease_s * 1000)
        if await self.redis.set(key, me, nx=True, px=ms):
            return True
        return bool(await self.redis.eval(_RENEW, 1, key, me, ms))

    async def holder(self, platform: str, shard: int) -> str | None:
        """The reader that holds the shard's lease, if any."""
        return await self.redis.get(self.lease(platform, shard))

    async def give_up(self, platform: str, shard: int, me: str) -> None:
        """Leave the shard's lease (if ``me`` holds it) for the next reader."""
        await self.redis.eval(_RELEASE, 1, self.lease(platform, shard), me)

    async def beat(self, platform: str, me: str, now: float, stale_s: float) -> int:
        """``me`` reads ``platform``'s outbox at ``now``; how many readers beat within ``stale_s``."""
        key = self.readers(platform)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {me: now})
            pipe.zremrangebyscore(key, "-inf", now - stale_s)
            pipe.zcard(key)
            pipe.expire(key, max(1, int(stale_s * 10)))
            _, _, alive, _ = await pipe.execute()
        return alive

    async def leave(self, platform: str, me: str) -> None:
        """``me`` reads no more."""
        await self.redis.zrem(self.readers(platform), me)

    async def pending(self, platform: str, shard: int, me: str, start: str, idle_ms: int = 0, count: int = 100
                      ) -> tuple[str, list[tuple[str, dict]]]:
        """Claim for ``me`` what is pending in the shard from ``start`` (any reader's, a dead one's too) and was
        delivered at least ``idle_ms`` ago; the next start (``"0-0"`` at the end) and the claimed entries, in order."""
        reply = await self.redis.xautoclaim(self.stream(platform, shard), GROUP, me, idle_ms, start, count=count)
        return reply[0], [e for e in reply[1] if e[1]]  # a deleted entry comes back empty

    async def read(self, platform: str, shard: int, me: str, block_ms: int, count: int = 100
                   ) -> list[tuple[str, dict]]:
        """New entries of the shard for ``me``, waiting up to ``block_ms`` for one."""
        reply = await self.redis.xreadgroup(GROUP, me, {self.stream(platform, shard): ">"}, count=count,
                                            block=block_ms)
        return reply[0][1] if reply else []

    async def known(self, platform: str, shard: int, entry: str) -> frozenset[str]:
        """The calls of ``entry`` recorded as made."""
        return frozenset(await self.redis.smembers(self.sent_key(platform, shard, entry)))

    async def record(self, platform: str, shard: int, entry: str, call: str) -> None:
        """The call ``call`` of ``entry`` was made."""
        key = self.sent_key(platform, shard, entry)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(key, call)
            pipe.expire(key, SENT_TTL_S)
            await pipe.execute()

    async def notes(self, platform: str, shard: int, entry: str) -> dict[str, str]:
        """What was noted of ``entry``'s new messages, by creation."""
        return await self.redis.hgetall(self.notes_key(platform, shard, entry))

    async def noted(self, platform: str, shard: int, entry: str, creation: str) -> str | None:
        """What is noted for one new message of ``entry``."""
        return await self.redis.hget(self.notes_key(platform, shard, entry), creation)

    async def note(self, platform: str, shard: int, entry: str, creation: str, value: str) -> None:
        """Note ``value`` for one new message of ``entry``."""
        key = self.notes_key(platform, shard, entry)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, creation, value)
            pipe.expire(key, SENT_TTL_S)
            await pipe.execute()

    async def newest(self, platform: str, sequence: str) -> int:
        """The highest message id the bot made lately in ``sequence`` (0: none known)."""
        top = await self.redis.zrange(self.ids_key(platform, sequence), -1, -1, withscores=True)
        return int(top[0][1]) if top else 0

    async def saw(self, platform: str, sequence: str, message_id: int) -> None:
        """The bot made ``message_id`` in ``sequence``."""
        key = self.ids_key(platform, sequence)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {str(message_id): message_id})
            pipe.zremrangebyrank(key, 0, -IDS_KEPT - 1)
            pipe.expire(key, SENT_TTL_S)
            await pipe.execute()

    async def known_ids(self, platform: str, sequence: str, above: int) -> set[int]:
        """The message ids the bot made lately in ``sequence`` above ``above``."""
        return {int(i) for i in await self.redis.zrangebyscore(self.ids_key(platform, sequence), f"({above}", "+inf")}

    async def ack(self, platform: str, shard: int, entry: str) -> None:
        """Every call of ``entry`` is made: it is acknowledged and gone, with its record."""
        stream = self.stream(platform, shard)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xack(stream, GROUP, entry)
            pipe.xdel(stream, entry)
            pipe.delete(self.sent_key(platform, shard, entry), self.notes_key(platform, shard, entry))
            await pipe.execute()
