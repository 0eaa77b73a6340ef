"""The store on a real 3-master Redis Cluster: tables played from two processes, and a process that
dies between a table's save and its index and timer updates (which span slots), or between the save and its
outbox write, loses nothing."""

from __future__ import annotations

import time

import pytest

from bot.protocol.outgoing import ChatRef
from bot.ops.settings import load_settings
from bot.service import Service
from bot.service.change import SHOW_GUARD_S
from bot.store.connection import client_for
from bot.store.tables import SHOW, Store
from bot.table.record import Table
from tests.bot.service.test_service_concurrency import GAMES, applied_in_log, open_tables
from tests.bot.service.test_show_guard import CHAT, a_deal_ends_unwritten, outbox_of, same, written
from tests.bot.store.test_records_for_user import check_records_for_user
from tests.bot.store.test_redis_conn import cancels_end
from tests.redis_servers import Cluster, skip_unless_installed
from tests.service_worker import play_together
from tests.servicekit import audit, button, press, say, service, table_msg, user


@pytest.fixture(scope="module")
def cluster():
    """A running 3-master cluster for this module."""
    skip_unless_installed("redis-server", "redis-cli")
    with Cluster(3) as running:
        yield running


@pytest.fixture
async def cluster_store(cluster, key_prefix):
    client = client_for(f"redis+cluster://127.0.0.1:{cluster.servers[0].port}")
    yield Store(client, prefix=key_prefix)
    await client.aclose()


async def test_the_keys_of_a_table_share_a_slot_and_tables_spread(cluster_store, key_prefix):
    assert cluster_store.cluster
    chat_of = await open_tables(cluster_store, GAMES)
    client = cluster_store._r
    slots = {tid: {client.keyslot(f"{key_prefix}:{{t:{tid}}}:{part}") for part in ("rec", "log", "msg")}
             for tid in chat_of}
    assert all(len(s) == 1 for s in slots.values())
    for tid, chat in chat_of.items():
        assert await cluster_store.table_for_chat(chat.key) == tid


async def test_his_records_through_his_index_on_the_cluster(cluster_store):
    await check_records_for_user(cluster_store)


async def test_two_processes_play_through_the_cluster(cluster, cluster_store, key_prefix):
    chat_of = await open_tables(cluster_store, GAMES[:2])
    url = f"redis+cluster://127.0.0.1:{cluster.servers[0].port}"
    results = play_together(url, key_prefix, (10, 20), [f"{t}:{c.chat_id}" for t, c in chat_of.items()])
    assert all(r["applied"] > 0 for r in results), results
    applied = sum(r["applied"] for r in results)
    logged = 0
    for table_id, chat in chat_of.items():
        counts = await audit(cluster_store, table_id)
        assert counts["table"].status == "finished"
        assert await cluster_store.table_for_chat(chat.key) is None
        assert table_id not in await cluster_store.tables_for_user(user(0).key)
        logged += await applied_in_log(cluster_store, table_id)
    assert applied == logged


class Died(BaseException):
    """The process died here (a BaseException: nothing in the service may catch it)."""


class DiesAfterTheTablesScript(Store):
    """A store whose process dies right after a save's table script, before the indexes and timers."""

    async def _after_save(self, *args, **kwargs) -> None:
        raise Died


async def test_a_death_between_the_tables_script_and_its_indexes_loses_no_timer(cluster_store, key_prefix):
    chat = ChatRef("test", "gx")
    svc = service(cluster_store, seed=1)
    table = table_msg(await svc.handle(say(chat, user(0), "neu bauer")))
    table = table_msg(await svc.handle(press(chat, user(1), button(table, "join").token)))
    dying = service(DiesAfterTheTablesScript(cluster_store._r, prefix=key_prefix), seed=1)
    with pytest.raises(Died):
        await dying.handle(press(chat, user(0), button(table, "start").token))
    version, _ = await cluster_store.load(table.table_id)
    assert [d for d in await cluster_store.due(time.time() + 10**7) if d[0] == table.table_id] == [
        (table.table_id, version - 1, "sync")], "the start's timer was not set: only the guard is there"
    await service(cluster_store, seed=2).tick(time.time() + 61)
    due = [d for d in await cluster_store.due(time.time() + 10**7) if d[0] == table.table_id]
    first = "declare" if Table.load((await cluster_store.load(table.table_id))[1]).declare else "remind"
    assert due == [(table.table_id, version, first)]


class DiesBeforeTheDisarm(Store):
    """A store whose process dies after an outbox write, before it drops the show guards (another slot)."""

    async def done(self, table_id: str, version: int, kind: str) -> bool:
        if kind == SHOW:
            raise Died
        return await super().done(table_id, version, kind)


async def test_the_show_guards_on_the_cluster(cluster_store, key_prefix):
    """A death between save and outbox write is shown by the guard, once; one between the write and the
    guard's drop leaves the guard nothing to show (the write's mark is in the shard's slot)."""
    outbox = outbox_of(cluster_store)
    _, players, lost = await a_deal_ends_unwritten(cluster_store, outbox)
    before = len(await written(outbox))
    healer = Service(cluster_store, load_settings(), outbox=outbox)
    await healer.tick(time.time() + SHOW_GUARD_S + 1)
    batches = await written(outbox)
    assert len(batches) == before + 1
    same(batches[-1], lost)
    dies = Service(DiesBeforeTheDisarm(cluster_store.redis, prefix=key_prefix), load_settings(), outbox=outbox)
    u, b = await players.to_act()
    outs = await dies.handle(press(CHAT, u, b.token))
    with pytest.raises(Died):
        await dies.show(outs)
    assert len(await written(outbox)) == before + 2
    await healer.tick(time.time() + SHOW_GUARD_S + 1)
    assert len(await written(outbox)) == before + 2
    assert [d for d in await cluster_store.due(time.time() + 10**7) if d[2] == SHOW] == []


async def test_a_task_cancelled_during_its_cluster_commands_ends(cluster, key_prefix):
    """As on one server (``test_redis_conn``): the cluster's nodes, those it starts from and those it
    finds, pass a cancellation on while they write a command."""
    client = client_for(f"redis+cluster://127.0.0.1:{cluster.servers[0].port}", timeout=0.8)
    try:
        await cancels_end(client, f"{key_prefix}:none")
    finally:
        await client.aclose()
