"""Live news of saved tables: "table T is at version V", published on one Redis channel after every save.

:meth:`bot.store.tables.Store.save` calls :func:`publish` once its save landed (the one place a
table's version changes); any process that shows tables live (the web table) runs one
:class:`Feed`, which subscribes to the channel and hands each message to a callback. Pub/sub keeps
nothing: a subscriber that was away (its connection broke) is told so by ``on_gap`` once it is
subscribed again, and catches up from the stored tables. A publish that fails is logged and
counted, never failing the save it follows (the move is saved; live viewers see it with the next).
On Redis Cluster the feed is sharded pub/sub (``SPUBLISH``/``SSUBSCRIBE``): a message goes only to the
node that serves the channel's slot, not to every node of the cluster, and the feed subscribes there
(a slot that moves unsubscribes it, and it subscribes again, on the new node, as after a break); a single
server keeps plain pub/sub.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from bot.ops import metrics

__all__ = ["Feed", "channel", "publish", "parse"]

log = logging.getLogger(__name__)

_READ_S = 0.5
"""How long one read of the subscription waits (below the client's socket timeout)."""
_RETRY_S = (0.1, 0.5, 1.0, 2.0, 5.0)
"""Waits before subscribing again after the connection broke, longest last and then kept."""


def channel(prefix: str) -> str:
    """The channel the saves of the store with key prefix ``prefix`` are told on."""
    return f"{prefix}:moved"


def parse(data: str) -> tuple[str, int] | None:
    """``(table id, version)`` of a message, or ``None`` if it is not one."""
    table_id, _, version = data.partition(":")
    if not table_id or not table_id.isascii() or not table_id.isalnum() or not version.isdecimal():
        return None
    return table_id, int(version)


async def publish(redis: Redis, prefix: str, table_id: str, version: int) -> None:
    """Tell the subscribers that ``table_id`` is saved at ``version``; a failure is logged, never raised."""
    try:
        await redis.execute_command("SPUBLISH" if isinstance(redis, RedisCluster) else "PUBLISH", channel(prefix),
                                    f"{table_id}:{version}")
    except (RedisError, OSError, asyncio.TimeoutError) as exc:
        metrics.redis_error("publish")
        log.warning("the save of table %s at %d was not published: %s", table_id, version, type(exc).__name__)


async def _node(redis: Redis | RedisCluster, name: str) -> Redis:
    """A client that can subscribe to the channel ``name``: the store's own, or on Redis Cluster one of the node
    that serves the channel's slot."""
    if not isinstance(redis, RedisCluster):
        return redis
    await redis.initialize()  # the nodes are known once it is
    node = redis.get_node_from_key(name)
    kwargs = {k: v for k, v in redis.get_connection_kwargs().items()
              if k in ("username", "password", "ssl", "decode_responses", "socket_timeout", "socket_connect_timeout")}
    return Redis(host=node.host, port=node.port, **kwargs)


class Feed:
    """One subscription to the saves of a store, read by one task; ``on_move(table_id, version)`` for each.

    Args:
        redis: the store's client (a pub/sub connection of its own is taken from its pool; on Redis
            Cluster a client of one node is made for it).
        prefix: the store's key prefix.
        on_move: called for each saved version, on the event loop; it must not block.
        on_gap: called when the subscription is back after a break (messages may have been missed).
    """

    def __init__(self, redis: Redis, prefix: str, on_move: Callable[[str, int], None],
                 on_gap: Callable[[], None]) -> None:
        self._redis = redis
        self._channel = channel(prefix)
        self._on_move = on_move
        self._on_gap = on_gap
        self._task: asyncio.Task | None = None
        self.pubsub = None
        """The subscribed pub/sub connection while there is one."""

    async def start(self) -> None:
        """Subscribe, and return once the subscription is confirmed (no later save goes unheard)."""
        self.pubsub = await self._subscribed()
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def stop(self) -> None:
        """Stop reading and let go of the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _subscribed(self):
        """A pub/sub connection subscribed to the channel, its confirmation read."""
        sharded = isinstance(self._redis, RedisCluster)
        pubsub = (await _node(self._redis, self._channel)).pubsub()
        try:
            if sharded:  # redis-py's asyncio pub/sub has no ssubscribe(); its replies parse as any other
                await pubsub.execute_command("SSUBSCRIBE", self._channel)
            else:
                await pubsub.subscribe(self._channel)
            confirmed = "ssubscribe" if sharded else "subscribe"
            while (message := await pubsub.get_message(timeout=_READ_S)) is None or message["type"] != confirmed:
                pass
        except BaseException:
            await pubsub.aclose()
            raise
        return pubsub

    async def _read(self) -> None:
        broken = 0
        try:
            while True:
                try:
                    if self.pubsub is None:
                        self.pubsub = await self._subscribed()
                        broken = 0
                        self._on_gap()
                    message = await self.pubsub.get_message(timeout=_READ_S)
                    if message is not None and message["type"] == "sunsubscribe":  # its slot moved to another node
                        raise ConnectionError("the channel's slot moved")
                except (RedisError, OSError, asyncio.TimeoutError) as exc:
                    metrics.redis_error("feed")
                    if broken == 0:
                        log.warning("the live feed of saved tables broke (%s); subscribing again", type(exc).__name__)
                    await self._close()
                    await asyncio.sleep(_RETRY_S[min(broken, len(_RETRY_S) - 1)])
                    broken += 1
                    continue
                if message is not None and message["type"] in ("message", "smessage"):
                    moved = parse(message["data"]) if isinstance(message["data"], str) else None
                    if moved is not None:
                        self._on_move(*moved)
        finally:
            await self._close()

    async def _close(self) -> None:
        pubsub, self.pubsub = self.pubsub, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
