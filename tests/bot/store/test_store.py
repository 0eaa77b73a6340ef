"""The store against a real Redis: compare-and-set, logs, lifetimes, indexes, refs, timers."""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest
import redis.asyncio as aioredis

from bot.store.tables import MAX_LOG_PER_SAVE, Store

CHAT = "telegram:-100123:"
OTHER_CHAT = "telegram:-100456:"
ANNA, BEN, CLEO = "telegram:1", "telegram:2", "telegram:3"
DAY = 86400


def rec(data: dict) -> str:
    return json.dumps(data)


async def new_table(store: Store, chat: str = CHAT, users=(ANNA,)) -> str:
    table_id = store.new_id()
    assert await store.create(table_id, chat, rec({"n": 0}), list(users))
    return table_id


def keys_of(prefix: str, table_id: str) -> dict[str, str]:
    return {part: f"{prefix}:{{t:{table_id}}}:{part}" for part in ("rec", "log", "msg")}


async def ttl_about(redis: aioredis.Redis, key: str, seconds: int) -> bool:
    left = await redis.ttl(key)
    return seconds - 5 <= left <= seconds


# -- ids and records ---------------------------------------------------------------------------

def test_new_id_is_short_base62_and_random():
    ids = {Store.new_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(re.fullmatch(r"[0-9A-Za-z]{8}", i) for i in ids)


def test_needs_a_decoding_client(redis_url):
    with pytest.raises(ValueError, match="decode_responses"):
        Store(aioredis.Redis.from_url(redis_url))


async def test_create_and_load(store):
    table_id = await new_table(store)
    assert await store.load(table_id) == (1, rec({"n": 0}))
    assert await store.load(Store.new_id()) is None
    assert await store.log(table_id) == []


async def test_one_open_table_per_chat(store, redis, key_prefix):
    first = await new_table(store)
    second = store.new_id()
    assert not await store.create(second, CHAT, rec({"n": 9}), [BEN])
    assert await store.load(second) is None
    assert await store.table_for_chat(CHAT) == first
    assert await store.tables_for_user(BEN) == []
    assert await redis.exists(*keys_of(key_prefix, second).values()) == 0
    assert await new_table(store, OTHER_CHAT, [ANNA])


async def test_create_refuses_a_taken_id(store):
    table_id = await new_table(store)
    assert not await store.create(table_id, OTHER_CHAT, rec({"n": 9}), [BEN])
    assert await store.load(table_id) == (1, rec({"n": 0}))
    assert await store.table_for_chat(OTHER_CHAT) is None


async def test_concurrent_creates_in_one_chat_one_wins(store):
    ids = [store.new_id() for _ in range(20)]
    won = await asyncio.gather(*(store.create(i, CHAT, rec({}), [ANNA]) for i in ids))
    assert sum(won) == 1
    assert await store.table_for_chat(CHAT) == ids[won.index(True)]


async def test_bad_ids_and_keys_are_refused(store):
    for bad in ("", "a:b", "a}b", "x" * 17):
        with pytest.raises(ValueError):
            await store.load(bad)
    with pytest.raises(ValueError):
        await store.create(store.new_id(), CHAT, rec({}), ["with space"])
    with pytest.raises(ValueError):
        await store.schedule(store.new_id(), 1, "Bad-Kind", 0)


# -- compare-and-set and the log ---------------------------------------------------------------

async def save(store: Store, table_id: str, version: int, n: int, **kw) -> bool:
    kw.setdefault("user_keys", [ANNA])
    kw.setdefault("chat_key", CHAT)
    return await store.save(table_id, version, rec({"n": n}), **kw)


async def test_save_bumps_the_version_and_appends_the_log(store):
    table_id = await new_table(store)
    assert await save(store, table_id, 1, 1, log=['{"m":1}'])
    assert await save(store, table_id, 2, 2, log=['{"m":2}', '{"m":3}'])
    assert await save(store, table_id, 3, 3)
    assert await store.load(table_id) == (4, rec({"n": 3}))
    assert await store.log(table_id) == ['{"m":1}', '{"m":2}', '{"m":3}']


async def test_stale_version_is_refused_and_writes_nothing(store, redis, key_prefix):
    table_id = await new_table(store)
    assert await save(store, table_id, 1, 1, log=['{"m":1}'])
    ttls = {k: await redis.pttl(k) for k in keys_of(key_prefix, table_id).values()}
    for stale in (0, 1, 3, 99):
        assert not await save(store, table_id, stale, 42, log=['{"m":"stale"}'], status="finished",
                              user_keys=[BEN], chat_key=OTHER_CHAT)
    assert await store.load(table_id) == (2, rec({"n": 1}))
    assert await store.log(table_id) == ['{"m":1}']
    assert await store.table_for_chat(CHAT) == table_id
    assert await store.table_for_chat(OTHER_CHAT) is None
    assert await store.tables_for_user(ANNA) == [table_id]
    assert await store.tables_for_user(BEN) == []
    for key, before in ttls.items():
        assert await redis.pttl(key) <= before


async def test_a_refused_save_returns_the_stored_record(store):
    table_id = await new_table(store)
    saved = await save(store, table_id, 1, 1)
    assert saved.ok and saved.current is None
    refused = await save(store, table_id, 1, 9)
    assert not refused and refused.current == (2, rec({"n": 1}), saved.rev)
    gone = await save(store, store.new_id(), 1, 1)
    assert not gone and gone.current is None


async def test_save_of_unknown_table_is_refused(store):
    missing = store.new_id()
    assert not await save(store, missing, 1, 1, log=["x"])
    assert await store.load(missing) is None and await store.log(missing) == []
    assert await store.table_for_chat(CHAT) is None


async def test_racing_saves_apply_once_per_version(store):
    """Many tasks press at once on every version: each version is taken by exactly one."""
    table_id = await new_table(store)

    async def press(who: int) -> int:
        applied = 0
        while True:
            version, data = await store.load(table_id)
            n = json.loads(data)["n"]
            if n >= 50:
                return applied
            if await save(store, table_id, version, n + 1, log=[json.dumps({"by": who, "v": version})]):
                applied += 1

    applied = await asyncio.gather(*(press(i) for i in range(8)))
    assert sum(applied) == 50
    assert await store.load(table_id) == (51, rec({"n": 50}))
    log = [json.loads(e) for e in await store.log(table_id)]
    assert [e["v"] for e in log] == list(range(1, 51))


async def test_log_limit(store):
    table_id = await new_table(store)
    with pytest.raises(ValueError):
        await save(store, table_id, 1, 1, log=["x"] * (MAX_LOG_PER_SAVE + 1))
    assert await save(store, table_id, 1, 1, log=["x"] * MAX_LOG_PER_SAVE)
    assert len(await store.log(table_id)) == MAX_LOG_PER_SAVE


async def test_bad_status_is_refused(store):
    table_id = await new_table(store)
    with pytest.raises(ValueError):
        await save(store, table_id, 1, 1, status="closed")
    assert await store.load(table_id) == (1, rec({"n": 0}))


# -- lifetimes -----------------------------------------------------------------------------------

async def test_open_tables_live_14_days_refreshed_on_every_save(store, redis, key_prefix):
    table_id = await new_table(store)
    keys = keys_of(key_prefix, table_id)
    assert await ttl_about(redis, keys["rec"], 14 * DAY)
    await redis.expire(keys["rec"], 100)
    assert await save(store, table_id, 1, 1, log=["m"])
    await store.set_ref(table_id, "table", "555")
    for key in (*keys.values(), f"{key_prefix}:chat:{CHAT}", f"{key_prefix}:user:{ANNA}"):
        assert await ttl_about(redis, key, 14 * DAY), key


async def test_finished_tables_live_one_day_and_leave_the_indexes(store, redis, key_prefix):
    table_id = await new_table(store, users=[ANNA, BEN])
    await store.set_ref(table_id, "table", "555")
    assert await save(store, table_id, 1, 1, log=["last"], status="finished", user_keys=[ANNA, BEN])
    for key in keys_of(key_prefix, table_id).values():
        assert await ttl_about(redis, key, DAY), key
    assert await store.load(table_id) == (2, rec({"n": 1}))
    assert await store.log(table_id) == ["last"]
    assert await store.table_for_chat(CHAT) is None
    assert await store.tables_for_user(ANNA) == [] and await store.tables_for_user(BEN) == []
    assert await new_table(store)


async def test_ttls_are_configurable(redis, key_prefix):
    store = Store(redis, prefix=key_prefix, finished_ttl=600, abandoned_ttl=3 * DAY)
    table_id = await new_table(store)
    rec_key = keys_of(key_prefix, table_id)["rec"]
    assert await ttl_about(redis, rec_key, 3 * DAY)
    assert await save(store, table_id, 1, 1, status="finished")
    assert await ttl_about(redis, rec_key, 600)


# -- indexes -------------------------------------------------------------------------------------

async def test_user_index_follows_the_seats(store):
    first = await new_table(store, CHAT, [ANNA, BEN])
    second = await new_table(store, OTHER_CHAT, [ANNA])
    assert await store.tables_for_user(ANNA) == sorted([first, second])
    assert await store.tables_for_user(BEN) == [first]
    assert await save(store, first, 1, 1, user_keys=[ANNA, CLEO])
    assert await store.tables_for_user(BEN) == []
    assert await store.tables_for_user(CLEO) == [first]
    assert await save(store, first, 2, 2, status="finished", user_keys=[ANNA, CLEO])
    assert await store.tables_for_user(ANNA) == [second]
    assert await store.tables_for_user(CLEO) == []


async def test_expired_tables_leave_the_user_index(store, redis, key_prefix):
    first = await new_table(store, CHAT, [ANNA])
    second = await new_table(store, OTHER_CHAT, [ANNA])
    await redis.delete(keys_of(key_prefix, first)["rec"])
    assert await store.tables_for_user(ANNA) == [second]
    assert await redis.smembers(f"{key_prefix}:user:{ANNA}") == {second}


async def test_release_chat_only_if_it_still_names_the_table(store):
    table_id = await new_table(store)
    assert not await store.release_chat(CHAT, store.new_id())
    assert await store.table_for_chat(CHAT) == table_id
    assert await store.release_chat(CHAT, table_id)
    assert await store.table_for_chat(CHAT) is None
    assert not await store.release_chat(CHAT, table_id)


async def test_a_table_moves_to_a_new_chat(store):
    """A group upgraded to a supergroup: save under the new chat key, release the old one."""
    table_id = await new_table(store)
    assert await save(store, table_id, 1, 1, chat_key=OTHER_CHAT)
    assert await store.release_chat(CHAT, table_id)
    assert await store.table_for_chat(OTHER_CHAT) == table_id
    assert await store.table_for_chat(CHAT) is None


async def test_a_save_never_takes_another_tables_chat(store):
    mine = await new_table(store, CHAT)
    theirs = await new_table(store, OTHER_CHAT)
    assert await save(store, mine, 1, 1, chat_key=OTHER_CHAT)
    assert await store.table_for_chat(OTHER_CHAT) == theirs
    assert await save(store, mine, 2, 2, chat_key=OTHER_CHAT, status="finished")
    assert await store.table_for_chat(OTHER_CHAT) == theirs


# -- updates, refs, chat settings ----------------------------------------------------------------

async def test_seen_updates_expire(store, redis, key_prefix):
    assert not await store.seen("telegram:bot1:1")
    await store.mark_seen("telegram:bot1:1")
    assert await store.seen("telegram:bot1:1") == "1"
    assert not await store.seen("telegram:bot2:1"), "another bot's update 1 is another update"
    await store.mark_seen("telegram:bot2:1", saved=False)
    assert await store.seen("telegram:bot2:1") == "0", "answered without a save (a refusal)"
    assert await ttl_about(redis, f"{key_prefix}:seen:telegram:bot1:1", DAY)


async def test_a_save_carries_out_an_update_once(store, redis, key_prefix):
    table_id = await new_table(store)
    assert not await store.applied(table_id, "telegram:b:5")
    saved = await save(store, table_id, 1, 1, update="telegram:b:5")
    assert saved and await store.applied(table_id, "telegram:b:5")
    again = await save(store, table_id, 2, 2, update="telegram:b:5")
    assert not again and again.duplicate
    assert await store.load(table_id) == (2, rec({"n": 1}))
    assert await ttl_about(redis, f"{key_prefix}:{{t:{table_id}}}:seen:telegram:b:5", DAY)
    assert await save(store, table_id, 2, 2, update="telegram:other-bot:5")


async def test_a_create_marks_its_update(store):
    table_id = store.new_id()
    assert await store.create(table_id, CHAT, rec({"n": 0}), [ANNA], update="telegram:b:9")
    assert await store.applied(table_id, "telegram:b:9")


async def test_the_revision_decides_not_the_version(store, redis, key_prefix):
    """Redis lost an acknowledged save: two records have had version 2; the older one's revision
    no longer matches, so a process that cached it cannot overwrite the other's move."""
    table_id = await new_table(store)
    first = await store.fetch(table_id)
    mine = await save(store, table_id, 1, 1, rev=first.rev)
    await redis.hset(keys_of(key_prefix, table_id)["rec"], mapping={"version": 1, "rev": first.rev,
                                                                     "data": first.data})  # the loss
    theirs = await save(store, table_id, 1, 2, rev=first.rev)
    assert theirs and theirs.rev != mine.rev
    refused = await save(store, table_id, 2, 3, rev=mine.rev)
    assert not refused and refused.current == (2, rec({"n": 2}), theirs.rev)
    assert await save(store, table_id, 2, 3, rev=theirs.rev)


async def test_message_refs(store, redis, key_prefix):
    table_id = await new_table(store)
    assert await store.get_ref(table_id, "table") is None
    assert await store.set_ref(table_id, "table", "telegram:-100123:77")
    assert await store.set_ref(table_id, f"hand:{ANNA}", "telegram:1:78")
    assert await store.get_ref(table_id, "table") == "telegram:-100123:77"
    assert await store.get_ref(table_id, f"hand:{ANNA}") == "telegram:1:78"
    assert await ttl_about(redis, keys_of(key_prefix, table_id)["msg"], 14 * DAY)
    missing = store.new_id()
    assert not await store.set_ref(missing, "table", "1")
    assert await store.get_ref(missing, "table") is None


async def test_chat_settings(store, redis, key_prefix):
    assert await store.get_chat_setting(CHAT, "lang") is None
    await store.set_chat_setting(CHAT, "lang", "en")
    assert await store.get_chat_setting(CHAT, "lang") == "en"
    assert await store.get_chat_setting(OTHER_CHAT, "lang") is None
    assert await ttl_about(redis, f"{key_prefix}:chatcfg:{CHAT}", 365 * DAY)


async def test_memory_usage(store):
    table_id = await new_table(store)
    assert await store.memory_usage(table_id) > len(rec({"n": 0}))
    assert await store.memory_usage(store.new_id()) == 0


# -- timers --------------------------------------------------------------------------------------

async def test_timers_fire_in_order_when_due(store):
    a, b = store.new_id(), store.new_id()
    assert await store.schedule(a, 3, "remind", 100)
    assert await store.schedule(b, 5, "autoplay", 50)
    assert await store.schedule(a, 3, "autoplay", 200)
    assert await store.due(now=40) == []
    assert await store.due(now=150) == [(b, 5, "autoplay"), (a, 3, "remind")]
    assert await store.due(now=1000, limit=1) == [(b, 5, "autoplay")]
    assert await store.due(now=1000) == [(b, 5, "autoplay"), (a, 3, "remind"), (a, 3, "autoplay")]


async def test_a_new_version_replaces_the_tables_timers(store):
    a, b = store.new_id(), store.new_id()
    await store.schedule(a, 3, "remind", 100)
    await store.schedule(a, 3, "autoplay", 200)
    await store.schedule(b, 1, "remind", 100)
    assert await store.schedule(a, 4, "remind", 300)
    assert await store.due(now=1000) == [(b, 1, "remind"), (a, 4, "remind")]
    assert not await store.schedule(a, 3, "autoplay", 50)
    assert await store.due(now=1000) == [(b, 1, "remind"), (a, 4, "remind")]
    assert await store.schedule(a, 4, "remind", 20)
    assert await store.due(now=1000) == [(a, 4, "remind"), (b, 1, "remind")]


async def test_save_sets_the_timer_of_the_new_version(store):
    table_id, other = await new_table(store), store.new_id()
    await store.schedule(other, 1, "remind", 50)
    assert await save(store, table_id, 1, 1, timer=("remind", 100))
    assert await store.due(now=1000) == [(other, 1, "remind"), (table_id, 2, "remind")]
    await store.schedule(table_id, 2, "autoplay", 150)
    assert await save(store, table_id, 2, 2, timer=("autoplay", 20))
    assert await store.due(now=1000) == [(table_id, 3, "autoplay"), (other, 1, "remind")]


async def test_a_refused_save_sets_no_timer(store):
    table_id = await new_table(store)
    await store.schedule(table_id, 1, "remind", 100)
    for stale in (0, 2, 7):
        assert not await save(store, table_id, stale, 9, timer=("autoplay", 10))
    assert not await save(store, store.new_id(), 1, 1, timer=("autoplay", 10))
    assert await store.due(now=1000) == [(table_id, 1, "remind")]


async def test_a_finished_save_drops_the_timers(store, redis, key_prefix):
    table_id, other = await new_table(store), store.new_id()
    await store.schedule(table_id, 1, "remind", 100)
    await store.schedule(table_id, 1, "autoplay", 200)
    await store.schedule(other, 4, "remind", 100)
    assert await save(store, table_id, 1, 1, status="finished", timer=("remind", 300))
    assert await store.due(now=1000) == [(other, 4, "remind")]
    assert await redis.hkeys(f"{key_prefix}:{{deadlines}}:tables") == [other]


async def test_a_bad_timer_kind_writes_nothing(store):
    table_id = await new_table(store)
    with pytest.raises(ValueError):
        await save(store, table_id, 1, 1, timer=("Bad-Kind", 10))
    assert await store.load(table_id) == (1, rec({"n": 0}))
    assert await store.due(now=1000) == []


async def test_claim_once_and_cancel(store):
    a, b = store.new_id(), store.new_id()
    await store.schedule(a, 2, "remind", 10)
    await store.schedule(a, 2, "autoplay", 20)
    await store.schedule(b, 7, "remind", 10)
    assert not await store.claim(a, 2, "remind", now=5), "not due yet"
    assert await store.claim(a, 2, "remind", now=100)
    assert not await store.claim(a, 2, "remind", now=100)
    assert not await store.claim(a, 1, "autoplay", now=100)
    assert await store.due(now=100) == [(b, 7, "remind"), (a, 2, "autoplay")]
    assert await store.done(a, 2, "remind") and not await store.done(a, 2, "remind")
    assert await store.cancel(a) == 1
    assert await store.cancel(a) == 0
    assert not await store.claim(a, 2, "autoplay")
    assert await store.due(now=100) == [(b, 7, "remind")]
    assert await store.schedule(a, 1, "remind", 10), "a cancelled table may start over"


async def test_a_claimed_timer_is_a_lease(store):
    """A process that dies after claiming loses nothing: the timer comes due again after the lease,
    until the save that consumes it (a newer version) drops it in the same script."""
    table_id = await new_table(store)
    await store.schedule(table_id, 1, "autoplay", 10)
    assert await store.claim(table_id, 1, "autoplay", now=100)
    assert await store.due(now=159) == []
    assert await store.due(now=161) == [(table_id, 1, "autoplay")], "the lease ran out: due again"
    assert await store.claim(table_id, 1, "autoplay", now=161)
    assert await save(store, table_id, 1, 1)
    assert await store.due(now=10_000) == []


async def test_a_save_without_a_timer_drops_older_ones(store):
    table_id = await new_table(store)
    await store.schedule(table_id, 1, "remind", 10)
    await store.schedule(table_id, 2, "remind", 10)
    await store.schedule(table_id, 2, "autoplay", 10)
    assert await store.schedule(table_id, 2, "autoplay", 20, replaces="remind")
    assert await store.due(now=100) == [(table_id, 2, "autoplay")]
    assert await save(store, table_id, 1, 1)
    assert await store.due(now=100) == [(table_id, 2, "autoplay")], "a timer of the new version stays"
    assert await save(store, table_id, 2, 2)
    assert await store.due(now=100) == []


async def test_timer_bookkeeping_is_cleaned_up(store, redis, key_prefix):
    a = store.new_id()
    await store.schedule(a, 1, "remind", 10)
    await store.schedule(a, 1, "autoplay", 10)
    assert await store.claim(a, 1, "remind") and await store.claim(a, 1, "autoplay")
    assert await store.done(a, 1, "remind") and await store.done(a, 1, "autoplay")
    assert await redis.hlen(f"{key_prefix}:{{deadlines}}:tables") == 0
    assert await redis.zcard(f"{key_prefix}:{{deadlines}}:due") == 0


def _claim_worker(barrier, url: str, prefix: str, tasks: int) -> list[str]:
    return asyncio.run(_claim_all(barrier, url, prefix, tasks))


async def _claim_all(barrier, url: str, prefix: str, tasks: int) -> list[str]:
    client = aioredis.Redis.from_url(url, decode_responses=True)
    store = Store(client, prefix=prefix)
    await client.ping()
    barrier.wait()

    async def work() -> list[str]:
        mine = []
        while batch := await store.due(now=time.time(), limit=25):
            for table_id, version, kind in batch:
                if await store.claim(table_id, version, kind):
                    mine.append(f"{table_id}:{version}:{kind}")
        return mine

    claimed = await asyncio.gather(*(work() for _ in range(tasks)))
    await client.aclose()
    return [member for part in claimed for member in part]


async def test_two_processes_claim_every_timer_exactly_once(store, redis_url, key_prefix, in_processes):
    expected = set()
    for i in range(200):
        table_id = store.new_id()
        for kind in ("remind", "autoplay"):
            assert await store.schedule(table_id, i, kind, time.time() - 1)
            expected.add(f"{table_id}:{i}:{kind}")
    first, second = await asyncio.to_thread(in_processes, _claim_worker, (redis_url, key_prefix, 4),
                                            (redis_url, key_prefix, 4))
    assert len(first) + len(second) == len(expected)
    assert set(first) | set(second) == expected
    assert not set(first) & set(second)
    assert await store.due(now=time.time()) == []
