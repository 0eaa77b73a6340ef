"""The Redis store: versioned table records, move logs, indexes, message refs and turn timers.

The store knows nothing of the table model: a record is an opaque JSON string with a version.
Key layout (``st`` is the prefix, ``<id>`` a table id, one hash tag per table so that a table's
keys share one Redis Cluster slot):

==============================  ======  ===============================================================
``st:{t:<id>}:rec``             hash    ``version``, ``rev`` (random per save), ``data`` (the record),
                                        ``users`` (seated user keys)
``st:{t:<id>}:log``             list    the move log, one JSON string per entry
``st:{t:<id>}:msg``             hash    platform message refs, for editing in place
``st:{t:<id>}:seen:<update>``   string  an update this table's save consumed (atomic dedupe)
``st:chat:<chat key>``          string  the chat's open table
``st:user:<user key>``          set     the user's open tables
``st:chatcfg:<chat key>``       hash    chat settings (language), ``settings_ttl`` after the last change
``st:seen:<update key>``        string  a platform update already answered (``seen_ttl``)
``st:{deadlines}:due``          zset    timers, member ``<id>:<version>:<kind>``, score the due time
``st:{deadlines}:tables``       hash    table id -> its members in ``due`` (space separated)
==============================  ======  ===============================================================

Lifetimes: an open table's keys, its chat index and its users' sets expire ``abandoned_ttl``
after the last change; a finished table's keys expire ``finished_ttl`` after it ends, and it
leaves the chat and user indexes and loses its timers at once. Chat settings expire
``settings_ttl`` after their last change, update markers ``seen_ttl`` after they were written. The
two deadline keys are shared by all tables and have no expiry; a member leaves them when a save of
a newer version of its table (or its end) drops it, when it is done, or when it fires and finds its
table gone, so none outlives its table by more than its due time.

Turn timers are leases: :meth:`Store.claim` does not remove a due member but moves it
``lease_s`` into the future, so a process that dies while acting on it loses nothing: the member
comes due again. The save that consumes it (any save of a newer version of the table) drops it in
the same script; a timer that turned out to have nothing to do is dropped with :meth:`Store.done`.

Compare-and-set: every save writes a fresh random ``rev`` and is refused unless the caller names
the stored ``rev`` (and version). A version number alone is not enough once Redis has lost
acknowledged writes (a crash before the fsync, a failover to a replica): two processes can then
hold different records under one version, and only the revision tells them apart.

Redis Cluster (``redis+cluster://`` URLs, see :func:`bot.store.connection.client_for`): every key of a
table carries the hash tag ``{t:<id>}`` and so lives in one slot; the deadline keys share the tag
``{deadlines}``; every other key (chat and user indexes, settings, markers, limiter windows) is
touched by single-key commands or scripts only. On one Redis a create or save is one script
(table, indexes and timer together). On Cluster a save runs in three steps: (1) a guard timer
(kind ``sync``, the expected version, due ``lease_s`` from now) is set in the deadlines; (2) the
table's script, in its slot, compares and writes record, log and update marker; (3) the chat
index, the user sets and the timers follow (:meth:`Store.reindex`), which also drops the guard.
A crash between the steps cannot lose a move: the move is in the record and the log, written
atomically in step 2 (the indexes and timers are derived from the record). Nor a timer: after a
crash between 2 and 3 the guard comes due, and the service (seeing the table moved past the
guard's version) runs step 3 again from the stored record; a guard whose save did not land finds
the version unchanged and is dropped. A create writes the table first and then takes the chat's
index (``SET NX``), deleting the table if the chat is taken; a crash in between leaves a table no
chat names, which expires.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import string
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

__all__ = ["Store", "Saved", "Record", "MAX_LOG_PER_SAVE", "new_rev"]

MAX_LOG_PER_SAVE = 1000
"""At most this many log entries per save (a Lua ``unpack`` limit, far above any real move)."""

_BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
_TABLE_ID = re.compile(r"[0-9A-Za-z]{1,16}")
_USER_KEY = re.compile(r"\S+")
_KIND = re.compile(r"[a-z_]{1,16}")
_PREFIX = re.compile(r"[^{}\s]+")
_UPDATE = re.compile(r"[^{}\s]{1,200}")

# Seats and unseats one user: SADD and refresh the TTL while open, SREM when finished.
_INDEX_USER = r"""
local function index_user(key, id, ttl, open)
  if open then
    redis.call('SADD', key, id)
    redis.call('EXPIRE', key, ttl)
  else
    redis.call('SREM', key, id)
  end
end
"""

# The chat's index follows its table: an open table keeps it (or takes it, if it is free), a
# finished one gives it up.
_INDEX_CHAT = r"""
local function index_chat(chat, id, ttl, open)
  local holder = redis.call('GET', chat)
  if not open then
    if holder == id then redis.call('DEL', chat) end
  elseif not holder or holder == id then
    redis.call('SET', chat, id, 'EX', ttl)
  end
end
"""

# Timers of a table: members '<id>:<version>:<kind>' in ``due``, listed per table in ``tables``.
# keep_timers drops the members ``drop(m)`` selects and returns the others; schedule_timer sets a
# timer (member ``member`` due at ``at``) unless the table has one for a newer version, dropping
# those of older versions (and ``also``, a member of this version, if given); timers_after_save
# does what a save of version ``new`` asks: drop them all (a finished table), or the older ones
# and set ``member`` if given.
_TIMERS = r"""
local function member_version(m)
  return tonumber(string.match(m, '^[^:]+:(%d+):'))
end

local function keep_timers(due, tables, id, drop)
  local keep = {}
  for m in string.gmatch(redis.call('HGET', tables, id) or '', '%S+') do
    if drop(m) then redis.call('ZREM', due, m) else keep[#keep + 1] = m end
  end
  if #keep == 0 then redis.call('HDEL', tables, id) else redis.call('HSET', tables, id, table.concat(keep, ' ')) end
  return keep
end

local function schedule_timer(due, tables, id, version, member, at, also)
  for m in string.gmatch(redis.call('HGET', tables, id) or '', '%S+') do
    if member_version(m) > version then return 0 end
  end
  local keep = keep_timers(due, tables, id, function(m)
    return member_version(m) < version or m == member or m == also
  end)
  keep[#keep + 1] = member
  redis.call('ZADD', due, at, member)
  redis.call('HSET', tables, id, table.concat(keep, ' '))
  return 1
end

local function timers_after_save(due, tables, id, new, open, member, at)
  if not open then
    keep_timers(due, tables, id, function(m) return true end)
  elseif member ~= '' then
    schedule_timer(due, tables, id, new, member, at, '')
  else
    keep_timers(due, tables, id, function(m) return member_version(m) < new end)
  end
end
"""

# write_table stores a new table at version 1; save_table replaces the record if it is at the
# expected version and revision. rec, log, msg and the seen marker (nil for none) share the table's
# slot. save_table returns 1 and the users seated before, 0 (no such table), -1 (the update was
# applied already) or the stored version, data and revision.
_TABLE = r"""
local function write_table(rec, seen, data, users, rev, ttl, seen_ttl)
  redis.call('HSET', rec, 'version', 1, 'rev', rev, 'data', data, 'users', users)
  redis.call('EXPIRE', rec, ttl)
  if seen then redis.call('SET', seen, 1, 'EX', seen_ttl) end
end

local function save_table(rec, log, msg, seen, version, rev, new_rev, data, users, ttl, seen_ttl, entries)
  local stored = redis.call('HGET', rec, 'version')
  if not stored then return 0 end
  if seen and redis.call('EXISTS', seen) == 1 then return -1 end
  local stored_rev = redis.call('HGET', rec, 'rev') or ''
  if stored ~= version or (rev ~= '' and stored_rev ~= rev) then
    return {stored, redis.call('HGET', rec, 'data'), stored_rev}
  end
  local before = redis.call('HGET', rec, 'users') or ''
  redis.call('HSET', rec, 'version', tonumber(stored) + 1, 'rev', new_rev, 'data', data, 'users', users)
  if #entries > 0 then redis.call('RPUSH', log, unpack(entries)) end
  for _, key in ipairs({rec, log, msg}) do redis.call('EXPIRE', key, ttl) end
  if seen then redis.call('SET', seen, 1, 'EX', seen_ttl) end
  return 1, before
end
"""

# The seat indexes of one save: users seated now per ``open``, users seated before but not now leave.
_INDEX_USERS = _INDEX_USER + r"""
local function index_users(prefix, id, users, before, ttl, open)
  local seated = {}
  for u in string.gmatch(users, '%S+') do
    seated[u] = true
    index_user(prefix .. ':user:' .. u, id, ttl, open)
  end
  for u in string.gmatch(before, '%S+') do
    if not seated[u] then redis.call('SREM', prefix .. ':user:' .. u, id) end
  end
end
"""

# One Redis: the whole create in one script. KEYS: rec, [seen marker]. ARGV: id, data, ttl, prefix,
# chat key, users, rev, seen ttl.
_CREATE = _TABLE + _INDEX_USERS + r"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if not redis.call('SET', ARGV[4] .. ':chat:' .. ARGV[5], ARGV[1], 'NX', 'EX', ARGV[3]) then return 0 end
write_table(KEYS[1], KEYS[2], ARGV[2], ARGV[6], ARGV[7], ARGV[3], ARGV[8])
index_users(ARGV[4], ARGV[1], ARGV[6], '', ARGV[3], true)
return 1
"""

# One Redis: the whole save in one script. KEYS: rec, log, msg, due, tables, [seen marker]. ARGV:
# expected version, expected rev ('' for any), new rev, data, open (1/0), ttl, id, prefix, chat key,
# users, timer member ('' for none), timer due time, seen ttl, log entries... Returns 1, 0 (no such
# table), -1 (the update was applied already) or the stored version, data and rev.
_SAVE = _TABLE + _INDEX_USERS + _INDEX_CHAT + _TIMERS + r"""
local result, before = save_table(KEYS[1], KEYS[2], KEYS[3], KEYS[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[10],
                                  ARGV[6], ARGV[13], {unpack(ARGV, 14)})
if result ~= 1 then return result end
local open, ttl, id, prefix = ARGV[5] == '1', ARGV[6], ARGV[7], ARGV[8]
index_chat(prefix .. ':chat:' .. ARGV[9], id, ttl, open)
index_users(prefix, id, ARGV[10], before, ttl, open)
timers_after_save(KEYS[4], KEYS[5], id, tonumber(ARGV[1]) + 1, open, ARGV[11], ARGV[12])
return 1
"""

# Cluster: the table's part of a create (one slot). KEYS: rec, [seen marker]. ARGV: data, users, rev,
# ttl, seen ttl.
_CREATE_TABLE = _TABLE + r"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
write_table(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
return 1
"""

# Cluster: the table's part of a save (one slot). KEYS: rec, log, msg, [seen marker]. ARGV: expected
# version, expected rev, new rev, data, users, ttl, seen ttl, log entries... Returns what save_table
# does, success as {1, users seated before}.
_SAVE_TABLE = _TABLE + r"""
local result, before = save_table(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5],
                                  ARGV[6], ARGV[7], {unpack(ARGV, 8)})
if result == 1 then return {1, before} end
return result
"""

# Cluster: one index key after a save. KEYS: the chat index. ARGV: id, ttl, open (1/0).
_CHAT_AFTER = _INDEX_CHAT + r"""
index_chat(KEYS[1], ARGV[1], ARGV[2], ARGV[3] == '1')
return 1
"""

# KEYS: a user's set. ARGV: id, ttl, open (1/0: seated at an open table, or not any more).
_USER_AFTER = _INDEX_USER + r"""
index_user(KEYS[1], ARGV[1], ARGV[2], ARGV[3] == '1')
return 1
"""

# KEYS: due, tables. ARGV: id, new version, open (1/0), timer member ('' for none), due time.
_TIMERS_AFTER = _TIMERS + r"""
timers_after_save(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1', ARGV[4], ARGV[5])
return 1
"""

# KEYS: the chat's settings. ARGV: name, value, ttl.
_SET_SETTING = r"""
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('EXPIRE', KEYS[1], ARGV[3])
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

# KEYS: due, tables. ARGV: id, version, member, due time, member this one replaces ('' for none).
_SCHEDULE = _TIMERS + r"""
return schedule_timer(KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5])
"""

# KEYS: due. ARGV: member, now, lease end. The member must be due; it comes due again at the lease end.
_CLAIM = r"""
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
return 1
"""

# KEYS: due, tables. ARGV: id, member ('' for all of the table's). Returns how many were dropped.
_DROP = _TIMERS + r"""
local before = redis.call('ZCARD', KEYS[1])
keep_timers(KEYS[1], KEYS[2], ARGV[1], function(m) return ARGV[2] == '' or m == ARGV[2] end)
return before - redis.call('ZCARD', KEYS[1])
"""


class Record(NamedTuple):
    """A stored table: its version, record and revision (``""`` for a record saved before revisions)."""

    version: int
    data: str
    rev: str


@dataclass(frozen=True)
class Saved:
    """What :meth:`Store.save` did; true if it saved.

    Attributes:
        ok: whether the record was replaced.
        current: when it was not, the stored record (``None``: there is no such table, or the
            update was applied already), so that the caller can try again without loading.
        rev: when it was, the new revision.
        duplicate: the save was refused because its update was applied already.
    """

    ok: bool
    current: Record | None = None
    rev: str = ""
    duplicate: bool = False

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


def _update(update_key: str) -> str:
    if not _UPDATE.fullmatch(update_key):
        raise ValueError(f"bad update key {update_key!r}")
    return update_key


def _saved(result, rev: str) -> Saved:
    """The :class:`Saved` of a save script's reply (``rev``: the revision it wrote)."""
    if isinstance(result, list):
        return Saved(False, Record(int(result[0]), result[1], result[2]))
    return Saved(result == 1, rev=rev if result == 1 else "", duplicate=result == -1)


def new_rev() -> str:
    """A fresh revision id: 16 hex digits."""
    return secrets.token_hex(8)


class Store:
    """Tables in Redis: records with compare-and-set, move logs, indexes, message refs, timers.

    Args:
        redis: an asyncio client that decodes replies (``decode_responses=True``), as
            :func:`bot.store.connection.connect` returns.
        prefix: the first part of every key (tests use a unique one each).
        finished_ttl: seconds a finished table is kept.
        abandoned_ttl: seconds an open table is kept after its last change.
        settings_ttl: seconds a chat's settings are kept after their last change.
        seen_ttl: seconds an update is remembered as handled.
        lease_s: seconds a claimed timer waits before it comes due again (unless its save lands).
    """

    def __init__(self, redis: Redis | RedisCluster, prefix: str = "st", finished_ttl: int = 86400,
                 abandoned_ttl: int = 14 * 86400, settings_ttl: int = 365 * 86400, seen_ttl: int = 86400,
                 lease_s: float = 60.0) -> None:
        if not redis.get_connection_kwargs().get("decode_responses"):
            raise ValueError("the store needs a client with decode_responses=True")
        if not _PREFIX.fullmatch(prefix):
            raise ValueError(f"bad key prefix {prefix!r}")
        self._r = redis
        self._prefix = prefix
        self._finished_ttl = finished_ttl
        self._abandoned_ttl = abandoned_ttl
        self._settings_ttl = settings_ttl
        self._seen_ttl = seen_ttl
        self._lease_s = lease_s
        self._due = f"{prefix}:{{deadlines}}:due"
        self._due_tables = f"{prefix}:{{deadlines}}:tables"
        self._create = redis.register_script(_CREATE)
        self._save = redis.register_script(_SAVE)
        self._release = redis.register_script(_RELEASE)
        self._set_ref = redis.register_script(_SET_REF)
        self._schedule = redis.register_script(_SCHEDULE)
        self._claim = redis.register_script(_CLAIM)
        self._drop = redis.register_script(_DROP)
        self._set_setting = redis.register_script(_SET_SETTING)
        self.cluster = isinstance(redis, RedisCluster)
        """Whether the store runs on Redis Cluster (see the module's docstring)."""
        self._create_table = redis.register_script(_CREATE_TABLE)
        self._save_table = redis.register_script(_SAVE_TABLE)
        self._chat_after = redis.register_script(_CHAT_AFTER)
        self._user_after = redis.register_script(_USER_AFTER)
        self._timers_after = redis.register_script(_TIMERS_AFTER)

    def _key(self, table_id: str, part: str) -> str:
        return f"{self._prefix}:{{t:{_table_id(table_id)}}}:{part}"

    def _chat_key(self, chat_key: str) -> str:
        return f"{self._prefix}:chat:{chat_key}"

    def _seen_key(self, table_id: str, update_key: str) -> str:
        return self._key(table_id, f"seen:{_update(update_key)}")

    @staticmethod
    def new_id() -> str:
        """A fresh random table id: 8 base62 characters."""
        return "".join(secrets.choice(_BASE62) for _ in range(8))

    # -- records ---------------------------------------------------------------------------

    async def create(self, table_id: str, chat_key: str, data_json: str, user_keys: Sequence[str],
                     update: str = "") -> bool:
        """Store a new table at version 1 as the chat's open table, seating ``user_keys``.

        Args:
            table_id: the new table's id.
            chat_key: its chat.
            data_json: the record.
            user_keys: the users seated.
            update: the platform update that asks for it: marked as applied to this table in the
                same script (see :meth:`applied`).

        Returns:
            False, writing nothing, if the chat already has an open table (or the id is taken).
        """
        keys = [self._key(table_id, "rec"), *([self._seen_key(table_id, update)] if update else [])]
        users, ttl = _users(user_keys), self._abandoned_ttl
        if not self.cluster:
            args = [table_id, data_json, ttl, self._prefix, chat_key, users, new_rev(), self._seen_ttl]
            return bool(await self._create(keys=keys, args=args))
        if not await self._create_table(keys=keys, args=[data_json, users, new_rev(), ttl, self._seen_ttl]):
            return False
        if not await self._r.set(self._chat_key(chat_key), table_id, nx=True, ex=ttl):
            await self._r.delete(*keys)  # a crash before this leaves a table nobody can reach: it expires
            return False
        await self._index(table_id, users.split(), "", ttl, True)
        return True

    async def load(self, table_id: str) -> tuple[int, str] | None:
        """The table's version and record, or None if there is no such table (or it expired)."""
        record = await self.fetch(table_id)
        return None if record is None else (record.version, record.data)

    async def fetch(self, table_id: str) -> Record | None:
        """The table's version, record and revision, or None if there is no such table (or it expired)."""
        version, data, rev = await self._r.hmget(self._key(table_id, "rec"), ["version", "data", "rev"])
        return None if version is None else Record(int(version), data, rev or "")

    async def save(self, table_id: str, expected_version: int, data_json: str, *, log: Sequence[str] = (),
                   status: Literal["open", "finished"] = "open", user_keys: Sequence[str],
                   chat_key: str, timer: tuple[str, float] | None = None, rev: str | None = None,
                   update: str = "") -> Saved:
        """Replace the record if it is still at ``expected_version`` (and ``rev``); all or nothing, in one script.

        On success the version becomes ``expected_version + 1`` with a new revision, ``log`` is
        appended to the move log, and the lifetimes and indexes follow ``status``: an open table
        keeps (or takes, if it is free) the chat's index and is in the sets of ``user_keys`` (users
        seated before but not any more leave it), all refreshed to ``abandoned_ttl``; its timers
        of older versions are dropped (a claimed timer is consumed here). A finished one leaves the
        chat and user indexes, loses its timers and its keys expire after ``finished_ttl``.

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
            rev: the revision the caller loaded; ``None`` compares the version only (for callers
                that loaded the record in this very step).
            update: the platform update this save carries out: refused as a duplicate if it was
                applied to this table already, else marked in the same script.

        Returns:
            A :class:`Saved` that is false, writing nothing, if the stored version or revision
            differs (it then holds the stored record), the update was applied already, or the table
            is gone.
        """
        if status not in ("open", "finished"):
            raise ValueError(f"bad status {status!r}")
        if len(log) > MAX_LOG_PER_SAVE:
            raise ValueError(f"at most {MAX_LOG_PER_SAVE} log entries per save")
        is_open = status == "open"
        member, due_ts = ("", 0.0) if timer is None else (self._member(table_id, expected_version + 1, timer[0]),
                                                          float(timer[1]))
        table_keys = [self._key(table_id, part) for part in ("rec", "log", "msg")]
        seen = [self._seen_key(table_id, update)] if update else []
        fresh, users = new_rev(), _users(user_keys)
        ttl = self._abandoned_ttl if is_open else self._finished_ttl
        if self.cluster:
            return await self._save_in_parts(table_id, expected_version, [*table_keys, *seen],
                                             [int(expected_version), rev or "", fresh, data_json, users, ttl,
                                              self._seen_ttl, *log], chat_key, is_open, member, due_ts)
        args = [int(expected_version), rev or "", fresh, data_json, int(is_open), ttl,
                table_id, self._prefix, chat_key, users, member, due_ts, self._seen_ttl, *log]
        return _saved(await self._save(keys=[*table_keys, self._due, self._due_tables, *seen], args=args), fresh)

    async def _save_in_parts(self, table_id: str, version: int, keys: list[str], args: list, chat_key: str,
                             is_open: bool, member: str, due_ts: float) -> Saved:
        """Redis Cluster: a guard timer, the table's script (one slot), then the indexes and timers."""
        await self.schedule(table_id, version, "sync", time.time() + self._lease_s)
        result = await self._save_table(keys=keys, args=args)
        if not (isinstance(result, list) and len(result) == 2):
            return _saved(result, "")
        await self._after_save(table_id, version + 1, args[4].split(), chat_key, is_open, member, due_ts, result[1])
        return Saved(True, rev=args[2])

    async def reindex(self, table_id: str, version: int, status: Literal["open", "finished"],
                      user_keys: Sequence[str], chat_key: str, timer: tuple[str, float] | None = None) -> None:
        """Bring the chat and user indexes and the timers in line with the table stored as ``version``.

        Idempotent. On Redis Cluster every save ends with this step; after a crash before it, the
        save's guard timer (kind ``sync``) comes due and the service calls this with the stored
        table's status, users, chat and timer (as :meth:`save` takes them).
        """
        member, due_ts = ("", 0.0) if timer is None else (self._member(table_id, version, timer[0]), float(timer[1]))
        await self._after_save(table_id, version, _users(user_keys).split(), chat_key, status == "open", member,
                               due_ts, "")

    async def _after_save(self, table_id: str, version: int, seated: list[str], chat_key: str, is_open: bool,
                          member: str, due_ts: float, before: str) -> None:
        ttl = self._abandoned_ttl if is_open else self._finished_ttl
        await asyncio.gather(self._chat_after(keys=[self._chat_key(chat_key)], args=[table_id, ttl, int(is_open)]),
                             self._index(table_id, seated, before, ttl, is_open),
                             self._timers_after(keys=[self._due, self._due_tables],
                                                args=[table_id, int(version), int(is_open), member, float(due_ts)]))

    async def _index(self, table_id: str, seated: list[str], before: str, ttl: int, is_open: bool) -> None:
        """The user sets: the seated follow ``is_open``, those in ``before`` who are not seated leave."""
        left = [u for u in before.split() if u not in seated]
        await asyncio.gather(*(self._user_after(keys=[f"{self._prefix}:user:{u}"], args=[table_id, ttl, int(open_)])
                               for u, open_ in [*((u, is_open) for u in seated), *((u, False) for u in left)]))


    async def applied(self, table_id: str, update: str) -> bool:
        """Whether a save or create of ``table_id`` carried out the platform update ``update``."""
        return bool(await self._r.exists(self._seen_key(table_id, update)))

    async def log(self, table_id: str) -> list[str]:
        """The table's move log, oldest first."""
        return await self._r.lrange(self._key(table_id, "log"), 0, -1)

    async def memory_usage(self, table_id: str) -> int:
        """Bytes Redis uses for the table's record key (0 if there is none)."""
        return await self._r.memory_usage(self._key(table_id, "rec"), samples=0) or 0

    # -- indexes ---------------------------------------------------------------------------

    async def table_for_chat(self, chat_key: str) -> str | None:
        """The chat's open table, if any."""
        return await self._r.get(self._chat_key(chat_key))

    async def release_chat(self, chat_key: str, table_id: str) -> bool:
        """Free the chat's index if it still names ``table_id``; True if it did."""
        return bool(await self._release(keys=[self._chat_key(chat_key)], args=[table_id]))

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

    async def seen(self, update: str) -> str | None:
        """How the platform update ``update`` (``platform:bot:update id``) was answered: ``"1"`` with a
        save, ``"0"`` without one (a refusal, a view); ``None`` if it was not answered yet."""
        value = await self._r.get(f"{self._prefix}:seen:{_update(update)}")
        return value.decode() if isinstance(value, bytes) else value

    async def mark_seen(self, update: str, saved: bool = True) -> None:
        """Remember for ``seen_ttl`` that ``update`` was answered, and whether with a save (after it
        was: a crash before this leaves it to be handled again, and a save it made refuses to be made
        twice)."""
        await self._r.set(f"{self._prefix}:seen:{_update(update)}", "1" if saved else "0", ex=self._seen_ttl)

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
        """Remember a chat's setting; the chat's settings expire ``settings_ttl`` after the last one set."""
        await self._set_setting(keys=[f"{self._prefix}:chatcfg:{chat_key}"], args=[name, value, self._settings_ttl])

    # -- timers ----------------------------------------------------------------------------

    def _member(self, table_id: str, version: int, kind: str) -> str:
        _table_id(table_id)
        if not _KIND.fullmatch(kind) or version < 0:
            raise ValueError(f"bad timer {kind!r} at version {version}")
        return f"{table_id}:{int(version)}:{kind}"

    async def schedule(self, table_id: str, version: int, kind: str, due_ts: float, replaces: str = "") -> bool:
        """Set the table's ``kind`` timer for ``version`` to fire at ``due_ts`` (epoch seconds).

        Timers of older versions of the table are dropped; timers of the same version stay (a
        reminder and an automatic move may both wait) unless named by ``replaces`` (the kind of a
        timer this one follows, dropped in the same step), and setting one again moves it.

        Returns:
            False, changing nothing, if the table already has a timer for a newer version.
        """
        member = self._member(table_id, version, kind)
        also = self._member(table_id, version, replaces) if replaces else ""
        args = [table_id, int(version), member, float(due_ts), also]
        return bool(await self._schedule(keys=[self._due, self._due_tables], args=args))

    async def due(self, now: float, limit: int = 100) -> list[tuple[str, int, str]]:
        """Timers due at ``now`` (epoch seconds), earliest first: ``(table_id, version, kind)``."""
        members = await self._r.zrangebyscore(self._due, "-inf", now, start=0, num=limit)
        return [(t, int(v), k) for t, v, k in (m.split(":") for m in members)]

    async def count_due(self, now: float) -> int:
        """How many timers are due at ``now`` (epoch seconds) and not leased."""
        return await self._r.zcount(self._due, "-inf", now)

    async def claim(self, table_id: str, version: int, kind: str, now: float | None = None) -> bool:
        """Lease a due timer to act on it: True for exactly one caller, however many race for it.

        The timer stays stored, due again ``lease_s`` after ``now`` (default: the clock), until the
        save that carries it out (a save of a newer version) or :meth:`done` drops it.
        """
        now = time.time() if now is None else now
        member = self._member(table_id, version, kind)
        return bool(await self._claim(keys=[self._due], args=[member, float(now), float(now) + self._lease_s]))

    async def done(self, table_id: str, version: int, kind: str) -> bool:
        """Drop a timer that had nothing (more) to do; True if it was there."""
        member = self._member(table_id, version, kind)
        return bool(await self._drop(keys=[self._due, self._due_tables], args=[table_id, member]))

    async def cancel(self, table_id: str) -> int:
        """Drop all of the table's timers; returns how many there were."""
        return await self._drop(keys=[self._due, self._due_tables], args=[_table_id(table_id), ""])
