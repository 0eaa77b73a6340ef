"""The Redis store: versioned table records, move logs, indexes, message refs and turn timers.

What a record and a save are: :mod:`bot.store.records`; the turn timers' part of :class:`Store`:
:mod:`bot.store.timers`.

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
``st:inchat:<platform:chat>``   set     tables opened in a chat, all its topics (``abandoned_ttl``)
``st:chatcfg:<chat key>``       hash    chat settings (language), ``settings_ttl`` after the last change
``st:seen:<update key>``        string  a platform update already answered (``seen_ttl``)
``st:{deadlines}:due``          zset    timers, member ``<id>:<version>:<kind>``, score the due time
``st:{deadlines}:tables``       hash    table id -> its members in ``due`` (space separated)
``st:rl:<key>``                 zset    a sliding window of :attr:`Store.limiter` (expires with it)
``st:unreach:<user key>``       string  a refused private message's reason (:attr:`Store.reach`, 10 minutes)
``st:review:…``                 string  reviews of finished deals under way and made (:attr:`Store.reviews`)
``st:{t:<id>}:out``             list    Cluster: a save's journal entries not yet delivered
``st:{t:<id>}:notes:<version>`` string  the notices of that version's save, for its show guard (an hour)
``st:{deadlines}:people``       zset    a person's timers, member ``<kind>:<user key>`` (:mod:`bot.store.personal`)
``st:{u:<user key>}:vac``       hash    his vacation, a week past its end (:mod:`bot.store.vacations`)
``st:{u:<user key>}:vacdays:*`` string  the days of vacation he took in a year (400 days)
==============================  ======  ===============================================================

Show guards: a save for an outbox's chat arms a ``show`` timer for its new version (Cluster: in step 1) and keeps
its notices (``notes``); only the outbox write disarms it, else it fires and shows it (:mod:`bot.service.shown`).

A save may carry a :class:`~bot.store.records.Journal`: entries appended to a list elsewhere (a chat's memory inbox,
:mod:`bot.memory`) exactly once with the save. On one Redis they are appended in the save's script. On
Cluster the table's script puts them in the table's ``out`` list, and the step after it (3, below)
delivers them to their list, whose slot keeps the ids of the last entries delivered so that a second
delivery (after a crash, by the guard timer) appends nothing, and then deletes ``out``.

Lifetimes: an open table's keys, its chat index and its users' sets expire ``abandoned_ttl``
after the last change; a finished table's keys expire ``finished_ttl`` after it ends, and it
leaves the chat and user indexes and loses its timers at once. Chat settings expire
``settings_ttl`` after their last change, update markers ``seen_ttl`` after they were written. The
two deadline keys are shared by all tables and have no expiry; a member leaves them when a save of
a newer version of its table (or its end) drops it, when it is done, or when it fires and finds its
table gone, so none outlives its table by more than its due time.

Compare-and-set: every save writes a fresh random ``rev`` and is refused unless the caller names
the stored ``rev`` (and version). A version number alone is not enough once Redis has lost
acknowledged writes (a crash before the fsync, a failover to a replica): two processes can then
hold different records under one version, and only the revision tells them apart.

Redis Cluster (``redis+cluster://`` URLs, see :func:`bot.store.connection.client_for`): every key of a
table carries the hash tag ``{t:<id>}`` and so lives in one slot; the deadline keys share the tag
``{deadlines}``; every other key (chat and user indexes, settings, markers, limiter windows) is
touched by single-key commands or scripts only. On one Redis a create or save is one script
(table, indexes and timer together). On Cluster a save runs in three steps: (1) a guard timer
(kind ``sync``, the expected version, due ``lease_s`` from now) and the show guard, if any, are set in
the deadlines (one script); (2) the table's script, in its slot, compares and writes record, log and update
marker; (3) the chat index, the user sets and the timers follow (:meth:`Store.reindex`), dropping ``sync``.
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
import json
import re
import secrets
import string
import time
from collections.abc import Callable, Sequence
from typing import Literal

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from bot.store import scripts
from bot.store.feed import Feed, publish
from bot.store.ratelimit import Limiter
from bot.store.personal import PersonalTimers
from bot.store.reach import Reach
from bot.store.reviews import Reviews
from bot.store.records import Journal, Record, Saved
from bot.store.records import table_id as _table_id
from bot.store.timers import SHOW, Timers
from bot.store.vacations import Vacations

__all__ = ["Store", "MAX_LOG_PER_SAVE", "new_rev", "SHOW", "NOTES_TTL"]

MAX_LOG_PER_SAVE = 1000
"""At most this many log entries per save (a Lua ``unpack`` limit, far above any real move)."""
NOTES_TTL = 3600
"""Seconds a save keeps its notices for its show guard (it fires within seconds, a minute if its claimer died)."""

_BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
_USER_KEY = re.compile(r"\S+")
_PREFIX = re.compile(r"[^{}\s]+")
_UPDATE = re.compile(r"[^{}\s]{1,200}")


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


class Store(Timers):
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
        self._init_timers(redis, prefix, lease_s)
        self._create = redis.register_script(scripts.CREATE)
        self._save = redis.register_script(scripts.SAVE)
        self._release = redis.register_script(scripts.RELEASE)
        self._set_ref = redis.register_script(scripts.SET_REF)
        self._set_setting = redis.register_script(scripts.SET_SETTING)
        self.cluster = isinstance(redis, RedisCluster)
        """Whether the store runs on Redis Cluster (see the module's docstring)."""
        self._create_table = redis.register_script(scripts.CREATE_TABLE)
        self._save_table = redis.register_script(scripts.SAVE_TABLE)
        self._chat_after = redis.register_script(scripts.CHAT_AFTER)
        self._user_after = redis.register_script(scripts.USER_AFTER)
        self._timers_after = redis.register_script(scripts.TIMERS_AFTER)
        self._deliver = redis.register_script(scripts.DELIVER)
        self._records = redis.register_script(scripts.RECORDS)
        self._guards = redis.register_script(scripts.GUARDS)
        self.limiter = Limiter(redis, prefix)
        """Rate limits on the same Redis and prefix (the answers per person: :mod:`bot.service.budget`)."""
        self.reach = Reach(redis, prefix)
        """Who the bot cannot write to privately, lately (:mod:`bot.store.reach`)."""
        self.personal = PersonalTimers(redis, prefix, lease_s)
        """A person's own timers: his daily digest, his vacation's end (:mod:`bot.store.personal`)."""
        self.vacations = Vacations(redis, prefix)
        """People's vacations and their yearly budget (:mod:`bot.store.vacations`)."""
        self.reviews = Reviews(redis, prefix, finished_ttl)
        """Reviews of finished deals under way and made, kept as long as a finished table (:mod:`bot.store.reviews`)."""

    @property
    def redis(self) -> Redis | RedisCluster:
        """The client the store uses (for rooms that keep their own keys beside the tables', :mod:`bot.memory`)."""
        return self._r

    @property
    def prefix(self) -> str:
        """The first part of every key."""
        return self._prefix

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
        """The table's version, record and revision, or None if there is no such table (or it expired).

        A record of another kind under the same key layout (a tournament's, :mod:`bot.store.tourneys`) is none.
        """
        version, data, rev, kind = await self._r.hmget(self._key(table_id, "rec"), ["version", "data", "rev", "kind"])
        return None if version is None or kind is not None else Record(int(version), data, rev or "")

    async def save(self, table_id: str, expected_version: int, data_json: str, *, log: Sequence[str] = (),
                   status: Literal["open", "finished"] = "open", user_keys: Sequence[str], chat_key: str,
                   timer: tuple[str, float] | None = None, rev: str | None = None, update: str = "",
                   journal: Journal | None = None, guard_at: float | None = None, notes: bytes = b"") -> Saved:
        """Replace the record if it is still at ``expected_version`` (and ``rev``); all or nothing, in one script.

        On success the version becomes ``expected_version + 1`` with a new revision, and the new version is
        published on the store's feed (:mod:`bot.store.feed`); ``log`` is
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
            journal: entries to append to another list exactly once with this save.
            guard_at: arm the new version's show guard due then (the outbox write of its effects disarms it).
            notes: the change's notices, packed, kept :data:`NOTES_TTL` seconds for the guard (:meth:`notes`).

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
        entries = list(journal.entries) if journal else []
        if len(entries) > MAX_LOG_PER_SAVE:
            raise ValueError(f"at most {MAX_LOG_PER_SAVE} journal entries per save")
        guard = ("", 0.0) if guard_at is None else (self._member(table_id, expected_version + 1, SHOW), float(guard_at))
        kept = [self._key(table_id, f"notes:{int(expected_version) + 1}"), notes, NOTES_TTL]
        if self.cluster:
            pending = [json.dumps([journal.key, journal.ids, journal.ttl, i, text]) for i, text in entries]
            saved = await self._save_in_parts(table_id, expected_version, [*table_keys, *seen],
                                              [int(expected_version), rev or "", fresh, data_json, users, ttl,
                                               self._seen_ttl, self._key(table_id, "out"), *kept, len(pending),
                                               *pending, *log], chat_key, is_open, member, due_ts, guard)
        else:
            args = [int(expected_version), rev or "", fresh, data_json, int(is_open), ttl,
                    table_id, self._prefix, chat_key, users, member, due_ts, self._seen_ttl,
                    journal.key if journal else "", journal.ttl if journal else 0, *guard, *kept, len(entries),
                    *(text for _, text in entries), *log]
            saved = _saved(await self._save(keys=[*table_keys, self._due, self._due_tables, *seen], args=args), fresh)
        if saved:
            await publish(self._r, self._prefix, table_id, expected_version + 1)
        return saved

    def feed(self, on_move: Callable[[str, int], None], on_gap: Callable[[], None]) -> Feed:
        """A :class:`~bot.store.feed.Feed` of this store's saves (every :meth:`save` is told on it once it landed)."""
        return Feed(self._r, self._prefix, on_move, on_gap)

    async def _save_in_parts(self, table_id: str, version: int, keys: list[str], args: list, chat_key: str,
                             is_open: bool, member: str, due_ts: float, guard: tuple[str, float]) -> Saved:
        """Redis Cluster: the guard timers, the table's script (one slot), then the indexes and timers."""
        sync = [self._member(table_id, version, "sync"), time.time() + self._lease_s]
        await self._guards(keys=[self._due, self._due_tables], args=[table_id, int(version), *sync, *guard])
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
        table's status, users, chat and timer (as :meth:`save` takes them). The journal entries the
        save left in the table's ``out`` list are delivered too.
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
                                                args=[table_id, int(version), int(is_open), member, float(due_ts)]),
                             self._deliver_journal(table_id))

    async def _deliver_journal(self, table_id: str) -> None:
        """Cluster: deliver the journal entries a save left in the table's ``out`` list, then drop the list."""
        out = self._key(table_id, "out")
        pending = await self._r.lrange(out, 0, -1)
        if not pending:
            return
        lists: dict[tuple[str, str], tuple[int, list[str]]] = {}
        for item in pending:
            key, ids, ttl, entry_id, text = json.loads(item)
            lists.setdefault((key, ids), (ttl, []))[1].extend((entry_id, text))
        now = time.time()
        for (key, ids), (ttl, pairs) in lists.items():
            await self._deliver(keys=[key, ids], args=[ttl, now, *pairs])
        async with self._r.pipeline(transaction=False) as pipe:  # exactly these: a later save's entries stay
            for item in pending:
                pipe.lrem(out, 1, item)
            await pipe.execute()

    async def _index(self, table_id: str, seated: list[str], before: str, ttl: int, is_open: bool) -> None:
        """The user sets: the seated follow ``is_open``, those in ``before`` who are not seated leave."""
        left = [u for u in before.split() if u not in seated]
        await asyncio.gather(*(self._user_after(keys=[f"{self._prefix}:user:{u}"], args=[table_id, ttl, int(open_)])
                               for u, open_ in [*((u, is_open) for u in seated), *((u, False) for u in left)]))


    async def notes(self, table_id: str, version: int) -> str:
        """The notices the save of ``version`` kept for its show guard, packed (empty: none, or expired)."""
        return await self._r.get(self._key(table_id, f"notes:{int(version)}")) or ""

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
        return await self._alive(f"{self._prefix}:user:{user_key}")

    async def records_for_user(self, user_key: str) -> list[tuple[str, Record]]:
        """The user's open tables with their records (no revision), in two round trips: his index, then only his
        records (one script; on Cluster a pipeline). Tables that expired meanwhile leave the index."""
        key = f"{self._prefix}:user:{user_key}"
        ids = sorted(await self._r.smembers(key))
        if not ids:
            return []
        keys = [self._key(table_id, "rec") for table_id in ids]
        if self.cluster:
            async with self._r.pipeline(transaction=False) as pipe:
                for rec in keys:
                    pipe.hmget(rec, ["version", "data", "kind"])
                found = await pipe.execute()
        else:
            found = await self._records(keys=keys)
        gone = [table_id for table_id, (version, *_) in zip(ids, found) if version is None]
        if gone:
            await self._r.srem(key, *gone)
        return [(table_id, Record(int(version), data, "")) for table_id, (version, data, kind)
                in zip(ids, found) if version is not None and kind is None]

    async def tables_in_chat(self, chat: str) -> list[str]:
        """The tables noted by :meth:`note_in_chat` for ``chat`` that still exist, sorted."""
        return await self._alive(f"{self._prefix}:inchat:{chat}")

    async def note_in_chat(self, chat: str, table_id: str) -> None:
        """Note a table opened in ``chat`` (``platform:chat id``: all its topics together); the note
        expires with an untouched table."""
        key = f"{self._prefix}:inchat:{chat}"
        async with self._r.pipeline(transaction=False) as pipe:
            pipe.sadd(key, table_id)
            pipe.expire(key, self._abandoned_ttl)
            await pipe.execute()

    async def forget_in_chat(self, chat: str, table_ids: Sequence[str]) -> None:
        """Drop tables from ``chat``'s notes (they are no longer what was counted)."""
        if table_ids:
            await self._r.srem(f"{self._prefix}:inchat:{chat}", *table_ids)

    async def _alive(self, key: str) -> list[str]:
        """The table ids in the set ``key`` whose tables still exist, sorted; the others leave the set."""
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

