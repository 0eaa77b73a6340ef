"""Tournaments in Redis: a versioned record per tournament, its results set once per pairing, chat indexes.

The store knows nothing of the tournament model: a record is an opaque JSON string with a version.
Key layout (``st`` the prefix, ``<id>`` a tournament id of :data:`ID_LENGTH` characters, never a
table's; one hash tag per tournament, so its keys share one Redis Cluster slot):

================================  ======  ==========================================================
``st:{t:<id>}:rec``               hash    ``version``, ``data`` (the record), ``kind`` (``tourney``)
``st:{t:<id>}:res``               hash    pairing id -> its result (JSON), written once (``HSETNX``)
``st:{t:<id>}:msg``               hash    message refs (the standings message), as a table's
``st:tourchat:<chat key>``        string  the chat's (or topic's) open tournament
``st:tourdone:<chat key>``        string  the chat's (or topic's) last finished tournament, as long as it is kept
``st:tourin:<platform:chat>``     set     the open tournaments of a chat and all its topics
================================  ======  ==========================================================

Every key expires: a save sets the tournament's lifetime (its round's deadline plus a margin,
given by the caller), and the results, refs and indexes follow it. The rec key sits where a table's
would (``{t:<id>}:rec``), so the adapters' message refs (:meth:`bot.store.tables.Store.set_ref`)
serve the standings message as they serve a table message.
"""

from __future__ import annotations

import secrets
import string

from bot.store.records import Record
from bot.store.tables import Store

__all__ = ["TourneyStore", "ID_LENGTH", "KIND"]

ID_LENGTH = 10
"""A tournament id's length: longer than a table id (8), so the two never meet."""
KIND = "tourney"
"""The ``kind`` field of a tournament's record, and its timer's kind in the store's deadlines."""
_BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase

_SAVE = r"""
local version = redis.call('HGET', KEYS[1], 'version')
if tonumber(ARGV[1]) == 0 then
  if version then return 0 end
elseif version ~= ARGV[1] then
  return 0
end
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'version', tonumber(ARGV[1]) + 1, 'data', ARGV[2], 'kind', ARGV[4])
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('EXPIRE', KEYS[i], ttl) end
end
return 1
"""
"""Compare-and-set of the record (version 0: create), all the tournament's keys expire with it."""

_IN_CHAT = r"""
if ARGV[2] == '1' then
  if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[4]) and redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then
    return 0
  end
  redis.call('SADD', KEYS[1], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
else
  redis.call('SREM', KEYS[1], ARGV[1])
end
return 1
"""
"""Note an open tournament among its chat's (refused at the cap), or drop a closed one."""

_HELD = r"""
local held = redis.call('GET', KEYS[1])
if ARGV[2] == '1' then
  if held and held ~= ARGV[1] then return 0 end
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
elseif held == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 1
"""
"""Take (or keep) the topic for an open tournament unless it holds another, or free it of a closed one."""


class TourneyStore:
    """Tournament records with compare-and-set, their results written once per pairing, and chat indexes.

    Args:
        store: the tables' store, whose Redis, key prefix and timers the tournaments share.
    """

    def __init__(self, store: Store) -> None:
        self.tables = store
        self._r = store.redis
        self._prefix = store.prefix
        self._save = self._r.register_script(_SAVE)
        self._in_chat = self._r.register_script(_IN_CHAT)
        self._held = self._r.register_script(_HELD)

    @staticmethod
    def new_id() -> str:
        """A fresh random tournament id: :data:`ID_LENGTH` base62 characters."""
        return "".join(secrets.choice(_BASE62) for _ in range(ID_LENGTH))

    def _key(self, tourney_id: str, part: str) -> str:
        if len(tourney_id) != ID_LENGTH or not tourney_id.isascii() or not tourney_id.isalnum():
            raise ValueError(f"bad tournament id {tourney_id!r}")
        return f"{self._prefix}:{{t:{tourney_id}}}:{part}"

    # -- the record ------------------------------------------------------------------------

    async def fetch(self, tourney_id: str) -> Record | None:
        """The tournament's version and record (``rev`` unused, ``""``), or ``None`` if there is none."""
        version, data, kind = await self._r.hmget(self._key(tourney_id, "rec"), ["version", "data", "kind"])
        return None if version is None or kind != KIND else Record(int(version), data, "")

    async def save(self, tourney_id: str, expected_version: int, data_json: str, ttl: int) -> bool:
        """Replace the record if it is still at ``expected_version`` (0: create it); every key of the
        tournament then expires ``ttl`` seconds from now. False, writing nothing, if it moved on."""
        keys = [self._key(tourney_id, part) for part in ("rec", "res", "msg")]
        return bool(await self._save(keys=keys, args=[int(expected_version), data_json, max(1, int(ttl)), KIND]))

    # -- results ---------------------------------------------------------------------------

    async def report(self, tourney_id: str, pairing: str, result_json: str) -> bool:
        """Keep a pairing's result unless one is kept already: True for exactly one caller per pairing."""
        key = self._key(tourney_id, "res")
        async with self._r.pipeline(transaction=True) as pipe:
            pipe.hsetnx(key, pairing, result_json)
            pipe.ttl(self._key(tourney_id, "rec"))
            first, ttl = await pipe.execute()
        if ttl and ttl > 0:
            await self._r.expire(key, ttl)
        return bool(first)

    async def results(self, tourney_id: str) -> dict[str, str]:
        """Every kept result: pairing id -> its JSON."""
        return await self._r.hgetall(self._key(tourney_id, "res"))

    # -- chat indexes ----------------------------------------------------------------------

    async def index(self, chat_key: str, chat: str, tourney_id: str, is_open: bool, ttl: int, most: int) -> int:
        """Note an open tournament as the one of ``chat_key`` (``chat``: the chat with all its topics, where
        at most ``most`` may be open), or drop a closed one from both.

        Two single-key steps (each key may live in its own Redis Cluster slot); a topic that turns out
        to be taken undoes the first.

        Returns:
            1 if done, 0 if the topic holds another open tournament, -1 if the chat holds ``most``.
        """
        topic, counted = f"{self._prefix}:tourchat:{chat_key}", f"{self._prefix}:tourin:{chat}"
        args = [tourney_id, int(is_open), max(1, int(ttl)), int(most)]
        if not is_open:
            await self._held(keys=[topic], args=args)
            await self._in_chat(keys=[counted], args=args)
            return 1
        gone = [i for i in await self._r.smembers(counted) if not await self._r.exists(self._key(i, "rec"))]
        if gone:  # a tournament whose keys expired counts no more
            await self._r.srem(counted, *gone)
        if not await self._in_chat(keys=[counted], args=args):
            return -1
        if not await self._held(keys=[topic], args=args):
            await self._in_chat(keys=[counted], args=[tourney_id, 0, 1, 0])
            return 0
        return 1

    async def for_chat(self, chat_key: str) -> str | None:
        """The open tournament of the chat or topic, if any."""
        return await self._r.get(f"{self._prefix}:tourchat:{chat_key}")

    async def keep_finished(self, chat_key: str, tourney_id: str, ttl: int) -> None:
        """Note the tournament that finished in the chat or topic, for ``ttl`` seconds (as long as it is kept)."""
        await self._r.set(f"{self._prefix}:tourdone:{chat_key}", tourney_id, ex=max(1, int(ttl)))

    async def finished_for(self, chat_key: str) -> str | None:
        """The tournament that finished last in the chat or topic, while it is kept."""
        return await self._r.get(f"{self._prefix}:tourdone:{chat_key}")
