"""Reviews in Redis: one under way per person, the made ones kept, every key expiring."""

from __future__ import annotations

from bot.store.reviews import BUSY_S


async def test_one_review_at_a_time_per_person_and_the_made_ones_kept(store, redis):
    reviews = store.reviews
    assert await reviews.claim("test:a") and not await reviews.claim("test:a") and await reviews.claim("test:b")
    await reviews.release("test:a")
    assert await reviews.claim("test:a"), "free again once his review is done"
    assert await reviews.get("T1", 1, 0) is None
    await reviews.put("T1", 1, 0, [{"index": 3, "mark": True}])
    assert await reviews.get("T1", 1, 0) == [{"index": 3, "mark": True}] and await reviews.get("T1", 1, 2) is None
    keys = [key async for key in redis.scan_iter(match=f"{store.prefix}:*review*")]
    ttls = [await redis.ttl(key) for key in keys]
    assert len(keys) == 3 and all(0 < ttl <= max(BUSY_S, reviews.ttl) for ttl in ttls), "every key expires"
