"""The memory's Lua scripts on their own: the commit's guard and operations, season numbers."""

from __future__ import annotations

import pytest
from redis.exceptions import ResponseError

from bot.memory import scripts


async def test_the_commit_applies_its_operations_only_to_the_inbox_it_was_planned_from(redis, key_prefix):
    base = f"{key_prefix}:{{m:test:g}}:"
    await redis.rpush(base + "in", "a", "b", "c")
    ops = ["I", "x", "n", 2, "S", "x", "s", "v", "R", "l", "1", "R", "l", "2", "R", "l", "3", "T", "l", 2]
    assert not await redis.eval(scripts.COMMIT, 1, base + "in", "b", 2, 60, base, *ops)
    assert await redis.eval(scripts.COMMIT, 1, base + "in", "a", 2, 60, base, *ops)
    assert await redis.lrange(base + "in", 0, -1) == ["c"]
    assert await redis.hgetall(base + "x") == {"n": "2", "s": "v"}
    assert await redis.lrange(base + "l", 0, -1) == ["2", "3"]
    assert 0 < await redis.ttl(base + "x") <= 60
    with pytest.raises(ResponseError):
        await redis.eval(scripts.COMMIT, 1, base + "in", "c", 1, 60, base, "Q", "x")


async def test_seasons_count_from_one(redis, key_prefix):
    meta = f"{key_prefix}:{{m:test:g}}:meta"
    assert [await redis.eval(scripts.NEW_SEASON, 1, meta, "1.5", 60) for _ in range(2)] == [2, 3]
    assert (await redis.hgetall(meta))["s3"] == "1.5"
