"""Who the bot cannot write to privately: noted with why, expiring, forgotten when he writes."""

from __future__ import annotations

import pytest

from bot.store.reach import TTL_S


async def test_a_refusal_is_noted_for_a_while_and_forgotten_when_he_writes(store, redis, key_prefix):
    reach = store.reach
    assert await reach.refused("telegram:7") is None
    await reach.note("telegram:7", "blocked")
    assert await reach.refused("telegram:7") == "blocked" and await reach.refused("telegram:8") is None
    assert 0 < await redis.ttl(f"{key_prefix}:unreach:telegram:7") <= TTL_S
    await reach.reached("telegram:7")
    assert await reach.refused("telegram:7") is None
    with pytest.raises(ValueError):
        await reach.note("telegram:7", "gone fishing")
