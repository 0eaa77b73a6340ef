"""The Redis store: versioned table records, move logs, indexes, message refs and turn timers.

The store knows nothing of the table model: a record is an opaque JSON string with a version.
Key layout (``st`` is the prefix, ``<id>`` a table id, one hash tag per table so that a table's
keys share one Redis Cluster slot):

==============================  ======  ===============================================================
``st:{t:<id>}:rec``             hash    ``version``, ``data`` (the record), ``users`` (seated user keys)
``st:{t:<id>}:log``             list    the move log, one JSON string per entry
``st:{t:<id>}:msg``             hash    platform message refs, for editing in place
``st:chat:<chat key>``          string  the chat's open table
``st:user:<user key>``          set     the user's open tables
``st:chatcfg:<chat key>``       hash    chat settings (language), kept without expiry
``st:seen:<update key>``        string  a platform update already handled
``st:{deadlines}:due``          zset    timers, member ``<id>:<version>:<kind>``, score the due time
``st:{deadlines}:tables``       hash    table id -> its members in ``due`` (space separated)
==============================  ======  ===============================================================

Lifetimes: an open table's keys, its chat index and its users' sets expire ``abandoned_ttl``
after the last change; a finished table's keys expire ``finished_ttl`` after it ends, and it
leaves the chat and user indexes and loses its timers at once.

Redis Cluster: each Lua script declares the keys it touches, except that :meth:`Store.create`
and :meth:`Store.save` also update the chat and user indexes, whose keys they derive from the
prefix, and :meth:`Store.save` sets the turn timer too (the deadline keys, declared, live in a
slot of their own). One script keeps a table, its indexes and its timer consistent in one round
trip, which is what the deployments in view (the embedded server, one Redis) need. On Cluster the
table's part (one slot) stays as it is and the index and timer updates move to a second call
after a successful save.
"""

from __future__ import annotations

import re
import secrets
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from redis.asyncio import Redis

__all__ = ["Store", "Saved", "MAX_LOG_PER_SAVE"]

MAX_LOG_PER_SAVE = 1000
"""At most this many log entries per save (a Lua ``unpack`` limit, far above any real move)."""

_BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
_TABLE_ID = re.compile(r"[0-9A-Za-z]{1,16}")
_USER_KEY = re.compile(r"\S+")
_KIND = re.compile(r"[a-z_]{1,16}")
_PREFIX = re.compile(r"[^{}\s]+")

# Seats and unseats users: SADD and refresh the TTL while open, SREM when finished.
_INDEX_USERS = r"""
local function index_users(prefix, id, users, ttl, open)
  local seated = {}
  for u in string.gmatch(users, '%S+') do
    seated[u] = true
    local key = prefix .. ':user:' .. u
    if open then
      redis.call('SADD', key, id)
      redis.call('EXPIRE', key, ttl)
    else
      redis.call('SREM', key, id)
    end
  end
  return seated
end
"""

# Sets a timer (member '<id>:<version>:<kind>' due at ``at``) unless the table has one for a newer
# version, dropping those of older versions; and drops all of a table's timers.
_TIMERS = r"""
local function schedule_timer(due, tables, id, version, member, at)
  local members = redis.call('HGET', tables, id) or ''
  for m in string.gmatch(members, '%S+') do
    if tonumber(string.match(m, '^[^:]+:(%d+):')) > version then return 0 end
  end
  local keep = {}
  for m in string.gmatch(members, '%S+') do
    if tonumber(string.match(m, '^[^:]+:(%d+):')) < version then
      redis.call('ZREM', due, m)
    elseif m ~= member then
      keep[#keep + 1] = m
    end
  end
  keep[#keep + 1] = member
  redis.call('ZADD', due, at, member)
  redis.call('HSET', tables, id, table.concat(keep, ' '))
  return 1
end

local function cancel_timers(due, tables, id)
  local n = 0
  for m in string.gmatch(redis.call('HGET', tables, id) or '', '%S+') do
    n = n + redis.call('ZREM', due, m)
  end
  redis.call('HDEL', tables, id)
  return n
end
"""

# KEYS: rec. ARGV: id, data, ttl, prefix, chat key, users.
_CREATE = _INDEX_USERS + r"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if not redis.call('SET', ARGV[4] .. ':chat:' .. ARGV[5], ARGV[1], 'NX', 'EX', ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], 'version', 1, 'data', ARGV[2], 'users', ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[3])
index_users(ARGV[4], ARGV[1], ARGV[6], ARGV[3], true)
return 1
"""

# KEYS: rec, log, msg, due, tables. ARGV: expected version, data, open (1/0), ttl, id, prefix, chat key,
# users, timer member ('' for none), timer due time, log entries... Returns 1, 0 (no such table) or
# the stored version and data.
_SAVE = _INDEX_USERS + _TIMERS + r"""
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 0 end
if version ~= ARGV[1] then return {version, redis.call('HGET', KEYS[1], 'data')} end
local open, ttl, id, prefix = ARGV[3] == '1', ARGV[4], ARGV[5], ARGV[6]
local before = redis.call('HGET', KEYS[1], 'users') or ''
redis.call('HSET', KEYS[1], 'version', tonumber(version) + 1, 'data', ARGV[2], 'users', ARGV[8])
if #ARGV > 10 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 11)) end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ttl) end
local chat = prefix .. ':chat:' .. ARGV[7]
local holder = redis.call('GET', chat)
if not open then
  if holder == id then redis.call('DEL', chat) end
elseif not holder or holder == id then
  redis.call('SET', chat, id, 'EX', ttl)
end
local seated = index_users(prefix, id, ARGV[8], ttl, open)
for u in string.gmatch(before, '%S+') do
  if not seated[u] then redis.call('SREM', prefix .. ':user:' .. u, id) end
end
if not open then
  cancel_timers(KEYS[4], KEYS[5], id)
elseif ARGV[9] ~= '' then
  schedule_timer(KEYS[4], KEYS[5], id, tonumber(version) + 1, ARGV[9], ARGV[10])
end
return 1
"""

# KEYS: chat index. ARGV: id.
_RELEASE = r"""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: rec, msg. ARGV: field, value. The refs live as long as the record.
_SET_REF = r"""
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
"""

# KEYS: due, tables. ARGV: id, version, member, due time.
_SCHEDULE = _TIMERS + r"""
return schedule_timer(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4])
"""

# KEYS: due, tables. ARGV: id, member.
_CLAIM = r"""
if redis.call('ZREM', KEYS[1], ARGV[2]) == 0 then return 0 end
local keep = {}
for m in string.gmatch(redis.call('HGET', KEYS[2], ARGV[1]) or '', '%S+') do
  if m ~= ARGV[2] then keep[#keep + 1] = m end
end
if #keep == 0 then
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], table.concat(keep, ' '))
end
return 1
"""

# KEYS: due, tables. ARGV: id.
_CANCEL = _TIMERS + r"""
return cancel_timers(KEYS[1], KEYS[2], ARGV[1])
"""


@dataclass(frozen=True)
class Saved:
    """What :meth:`Store.save` did; true if it saved.

    Attributes:
        ok: whether the record was replaced.
        current: when it was not, the stored version and record (``None``: there is no such
            table), so that the caller can try again without loading.
    """

    ok: bool
    current: tuple[int, str] | None = None

    def __bool__(self) -> bool:
        return self.ok


def _table_id(table_id: str) -> str:
    if not _TABLE_ID.fullmatch(table_id):
        raise ValueError(f"bad table id {table_id!r}")
    return table_id


def _users(user_keys: Sequence[str]) -> str:
    for key in user_keys:
        if not _USER_KEY.fullmatch(key):
            raise ValueError(f"bad user key {key!r}")
    return " ".join(dict.fromkeys(user_keys))


class Store:
    """Tables in Redis: records with compare-and-set, move logs, indexes, message refs, timers.

    Args:
        redis: an asyncio client that decodes replies (``decode_responses=True``), as
            :func:`bot.redis_conn.connect` returns.
        prefix: the first part of every key (tests use a unique one each).
        finished_ttl: seconds a finished table is kept.
        abandoned_ttl: seconds an open table is kept after its last change.
    """

    def __init__(self, redis: Redis, prefix: str = "st", finished_ttl: int = 86400,
                 abandoned_ttl: int = 14 * 86400) -> None:
        if not redis.get_connection_kwargs().get("decode_responses"):
            raise ValueError("the store needs a client with decode_responses=True")
        if not _PREFIX.fullmatch(prefix):
            raise ValueError(f"bad key prefix {prefix!r}")
        self._r = redis
        self._prefix = prefix
        self._finished_ttl = finished_ttl
        self._abandoned_ttl = abandoned_ttl
        self._due = f"{prefix}:{{deadlines}}:due"
        self._due_tables = f"{prefix}:{{deadlines}}:tables"
        self._create = redis.register_script(_CREATE)
        self._save = redis.register_script(_SAVE)
        self._release = redis.register_script(_RELEASE)
        self._set_ref = redis.register_script(_SET_REF)
        self._schedule = redis.register_script(_SCHEDULE)
        self._claim = redis.register_script(_CLAIM)
        self._cancel = redis.register_script(_CANCEL)

    def _key(self, table_id: str, part: str) -> str:
        return f"{self._prefix}:{{t:{_table_id(table_id)}}}:{part}"

    @staticmethod
    def new_id() -> str:
        """A fresh random table id: 8 base62 characters."""
        return "".join(secrets.choice(_BASE62) for _ in range(8))

    # -- records ---------------------------------------------------------------------------

    async def create(self, table_id: str, chat_key: str, data_json: str, user_keys: Sequence[str]) -> bool:
        """Store a new table at version 1 as the chat's open table, seating ``user_keys``.

        Returns:
            False, writing nothing, if the chat already has an open table (or the id is taken).
        """
        args = [table_id, data_json, self._abandoned_ttl, self._prefix, chat_key, _users(user_keys)]
        return bool(await self._create(keys=[self._key(table_id, "rec")], args=args))

    async def load(self, table_id: str) -> tuple[int, str] | None:
        """The table's version and record, or None if there is no such table (or it expired)."""
        version, data = await self._r.hmget(self._key(table_id, "rec"), ["version", "data"])
        return None if version is None else (int(version), data)

    async def save(self, table_id: str, expected_version: int, data_json: str, *, log: Sequence[str] = (),
                   status: Literal["open", "finished"] = "open", user_keys: Sequence[str],
                   chat_key: str, timer: tuple[str, float] | None = None) -> Saved:
        """Replace the record if it is still at ``expected_version``; all or nothing, in one script.

        On success the version becomes ``expected_version + 1``, ``log`` is appended to the move
        log, and the lifetimes and indexes follow ``status``: an open table keeps (or takes, if it is
        free) the chat's index and is in the sets of ``user_keys`` (users seated before but not any
        more leave it), all refreshed to ``abandoned_ttl``; a finished one leaves the chat and user
        indexes, loses its timers and its keys expire after ``finished_ttl``.

        Args:
            table_id: the table.
            expected_version: the version the caller loaded.
            data_json: the new record.
            log: move log entries to append.
            status: "open" or "finished".
            user_keys: the users seated now.
            chat_key: the table's chat.
            timer: ``(kind, due_ts)``: set the open table's ``kind`` timer for the new version, as
                :meth:`schedule` does, in the same script.

        Returns:
            A :class:`Saved` that is false, writing nothing, if the stored version differs (it
            then holds the stored record) or the table is gone.
        """
        if status not in ("open", "finished"):
            raise ValueError(f"bad status {status!r}")
        if len(log) > MAX_LOG_PER_SAVE:
            raise ValueError(f"at most {MAX_LOG_PER_SAVE} log entries per save")
        is_open = status == "open"
        member, due_ts = ("", 0.0) if timer is None else (self._member(table_id, expected_version + 1, timer[0]),
                                                          float(timer[1]))
        keys = [*(self._key(table_id, part) for part in ("rec", "log", "msg")), self._due, self._due_tables]
        args = [int(expected_version), data_json, int(is_open),
                self._abandoned_ttl if is_open else self._finished_ttl,
                table_id, self._prefix, chat_key, _users(user_keys), member, due_ts, *log]
        result = await self._save(keys=keys, args=args)
        if isinstance(result, list):
            return Saved(False, (int(result[0]), result[1]))
        return Saved(result == 1)

    async def log(self, table_id: str) -> list[str]:
        """The table's move log, oldest first."""
        return await self._r.lrange(self._key(table_id, "log"), 0, -1)

    async def memory_usage(self, table_id: str) -> int:
        """Bytes Redis uses for the table's record key (0 if there is none)."""
        return await self._r.memory_usage(self._key(table_id, "rec"), samples=0) or 0

    # -- indexes ---------------------------------------------------------------------------

    async def table_for_chat(self, chat_key: str) -> str | None:
        """The chat's open table, if any."""
        return await self._r.get(f"{self._prefix}:chat:{chat_key}")

    async def release_chat(self, chat_key: str, table_id: str) -> bool:
        """Free the chat's index if it still names ``table_id``; True if it did."""
        return bool(await self._release(keys=[f"{self._prefix}:chat:{chat_key}"], args=[table_id]))

    async def tables_for_user(self, user_key: str) -> list[str]:
        """The user's open tables, sorted; tables that expired meanwhile are dropped from the index."""
        key = f"{self._prefix}:user:{user_key}"
        ids = sorted(await self._r.smembers(key))
        if not ids:
            return []
        async with self._r.pipeline(transaction=False) as pipe:
            for table_id in ids:
                pipe.exists(self._key(table_id, "rec"))
            alive = await pipe.execute()
        gone = [table_id for table_id, n in zip(ids, alive) if not n]
        if gone:
            await self._r.srem(key, *gone)
        return [table_id for table_id, n in zip(ids, alive) if n]

    # -- updates, message refs, chat settings ---------------------------------------------

    async def first_delivery(self, update_key: str, ttl: int = 86400) -> bool:
        """True the first time ``update_key`` is seen within ``ttl`` seconds, False on redelivery."""
        return bool(await self._r.set(f"{self._prefix}:seen:{update_key}", 1, nx=True, ex=ttl))

    async def get_ref(self, table_id: str, key: str) -> str | None:
        """A platform message ref stored for the table (e.g. the table message's id)."""
        return await self._r.hget(self._key(table_id, "msg"), key)

    async def set_ref(self, table_id: str, key: str, value: str) -> bool:
        """Store a message ref; it expires with the table. False (nothing stored) if the table is gone."""
        keys = [self._key(table_id, "rec"), self._key(table_id, "msg")]
        return bool(await self._set_ref(keys=keys, args=[key, value]))

    async def get_chat_setting(self, chat_key: str, name: str) -> str | None:
        """A setting the chat chose (e.g. ``lang``), or None."""
        return await self._r.hget(f"{self._prefix}:chatcfg:{chat_key}", name)

    async def set_chat_setting(self, chat_key: str, name: str, value: str) -> None:
        """Remember a chat's setting (kept without expiry)."""
        await self._r.hset(f"{self._prefix}:chatcfg:{chat_key}", name, value)

    # -- timers ----------------------------------------------------------------------------

    def _member(self, table_id: str, version: int, kind: str) -> str:
        _table_id(table_id)
        if not _KIND.fullmatch(kind) or version < 0:
            raise ValueError(f"bad timer {kind!r} at version {version}")
        return f"{table_id}:{int(version)}:{kind}"

    async def schedule(self, table_id: str, version: int, kind: str, due_ts: float) -> bool:
        """Set the table's ``kind`` timer for ``version`` to fire at ``due_ts`` (epoch seconds).

        Timers of older versions of the table are dropped; timers of the same version stay (a
        reminder and an autoplay may both wait), and setting one again moves it.

        Returns:
            False, changing nothing, if the table already has a timer for a newer version.
        """
        member = self._member(table_id, version, kind)
        args = [table_id, int(version), member, float(due_ts)]
        return bool(await self._schedule(keys=[self._due, self._due_tables], args=args))

    async def due(self, now: float, limit: int = 100) -> list[tuple[str, int, str]]:
        """Timers due at ``now`` (epoch seconds), earliest first: ``(table_id, version, kind)``."""
        members = await self._r.zrangebyscore(self._due, "-inf", now, start=0, num=limit)
        return [(t, int(v), k) for t, v, k in (m.split(":") for m in members)]

    async def claim(self, table_id: str, version: int, kind: str) -> bool:
        """Take a timer to act on it: True for exactly one caller, however many race for it."""
        member = self._member(table_id, version, kind)
        return bool(await self._claim(keys=[self._due, self._due_tables], args=[table_id, member]))

    async def cancel(self, table_id: str) -> int:
        """Drop all of the table's timers; returns how many there were."""
        return await self._cancel(keys=[self._due, self._due_tables], args=[_table_id(table_id)])
