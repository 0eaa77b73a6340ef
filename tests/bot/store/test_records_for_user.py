"""A person's tables with their records, read through his index only (»Meine Tische«): the ones that are gone
leave the index."""

from __future__ import annotations

from bot.store.tables import Store

ANNA = "test:anna"


async def check_records_for_user(store: Store) -> None:
    """Three tables seat Anna, one of them expires: two records come back, and the index forgets the third."""
    ids = [store.new_id() for _ in range(3)]
    for i, table_id in enumerate(ids):
        assert await store.create(table_id, f"test:chat{i}:", f'{{"n": {i}}}', [ANNA, f"test:other{i}"])
    await store.redis.delete(f"{store.prefix}:{{t:{ids[1]}}}:rec")
    found = await store.records_for_user(ANNA)
    assert sorted((table_id, record.version, record.data) for table_id, record in found) == sorted(
        (table_id, 1, f'{{"n": {i}}}') for i, table_id in enumerate(ids) if i != 1)
    assert await store.tables_for_user(ANNA) == sorted(ids[0:1] + ids[2:])
    assert await store.records_for_user("test:nobody") == []


async def test_his_records_through_his_index_on_one_redis(store):
    assert not store.cluster
    await check_records_for_user(store)
