"""The Redis-backed limiter: never more than the limit in any window, across tasks and processes.

Times are taken around each call: an allowed send happened somewhere inside its bracket, so
``limit + 1`` sends whose brackets all fit in less than a window prove a breach, whatever the
machine's speed (no timing tolerance, no flakiness).
"""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio as aioredis

from adapters.common.gate import Gate
from bot.store.ratelimit import Limiter

Bracket = tuple[float, float]


def breaches(brackets: list[Bracket], limit: int, window: float) -> list[list[Bracket]]:
    """Groups of ``limit + 1`` sends that certainly fell within less than ``window``."""
    found = []
    ordered = sorted(brackets)
    for i, (start, end) in enumerate(ordered):
        later = sorted(ordered[i + 1:], key=lambda b: b[1])[:limit]
        if len(later) == limit and max(end, later[-1][1]) - start < window:
            found.append([(start, end), *later])
    return found


def test_the_breach_check_catches_a_breach():
    ok = [(i * 1.0, i * 1.0 + 0.01) for i in range(6)]
    assert breaches(ok, 2, 2.0) == []
    bad = ok + [(2.5, 2.52)]
    assert breaches(bad, 2, 2.0)


@pytest.fixture
def limiter(redis, key_prefix) -> Limiter:
    return Limiter(redis, prefix=key_prefix)


async def test_allows_up_to_the_limit_then_says_how_long_to_wait(limiter):
    for _ in range(3):
        assert await limiter.wait_time("group:1", 3, 60) == 0
    wait = await limiter.wait_time("group:1", 3, 60)
    assert 59 < wait <= 60
    assert await limiter.wait_time("group:2", 3, 60) == 0, "keys are independent"
    assert await limiter.wait_time("group:1", 4, 60) == 0, "the limit is the caller's"


async def test_a_refusal_records_nothing(limiter):
    before = time.monotonic()
    assert await limiter.wait_time("chat:1", 1, 0.4) == 0
    await asyncio.sleep(0.2)
    waits = [await limiter.wait_time("chat:1", 1, 0.4) for _ in range(5)]
    assert all(0 < w <= 0.4 for w in waits)
    await asyncio.sleep(waits[-1])
    assert await limiter.wait_time("chat:1", 1, 0.4) == 0
    assert time.monotonic() - before >= 0.4


async def test_acquire_waits_until_allowed(limiter):
    brackets = []
    for _ in range(5):
        start = time.monotonic()
        await limiter.acquire("chat:2", 2, 0.3)
        brackets.append((start, time.monotonic()))
    assert breaches(brackets, 2, 0.3) == []
    assert brackets[4][1] - brackets[0][0] >= 0.6


async def test_bad_arguments(limiter):
    for limit, window in ((0, 1), (1, 0), (1, -1)):
        with pytest.raises(ValueError):
            await limiter.wait_time("x", limit, window)


def _send_worker(barrier, url: str, prefix: str, tasks: int, sends: int, limit: int,
                 window: float) -> list[Bracket]:
    return asyncio.run(_send_all(barrier, url, prefix, tasks, sends, limit, window))


async def _send_all(barrier, url, prefix, tasks, sends, limit, window) -> list[Bracket]:
    client = aioredis.Redis.from_url(url, decode_responses=True)
    limiter = Limiter(client, prefix=prefix)
    await client.ping()
    barrier.wait()

    async def sender() -> list[Bracket]:
        sent = []
        while len(sent) < sends:
            start = time.monotonic()
            wait = await limiter.wait_time("group:-100", limit, window)
            if wait == 0:
                sent.append((start, time.monotonic()))
            else:
                await asyncio.sleep(wait)
        return sent

    done = await asyncio.gather(*(sender() for _ in range(tasks)))
    await client.aclose()
    return [bracket for part in done for bracket in part]


async def test_never_more_than_the_limit_in_any_window_across_processes(redis, redis_url, key_prefix,
                                                                      in_processes):
    limit, window = 4, 0.25
    args = (redis_url, key_prefix, 3, 4, limit, window)
    first, second = await asyncio.to_thread(in_processes, _send_worker, args, args)
    assert len(first) == len(second) == 12
    assert breaches(first + second, limit, window) == []


async def test_the_gate_serves_waiting_chats_in_turn(redis, key_prefix):
    gate = Gate(1, 0.02, Limiter(redis, prefix=key_prefix), "tg:global:1")
    order: list[str] = []

    async def chat(name: str) -> None:
        for _ in range(3):
            ticket = await gate.acquire()
            order.append(name)
            await gate.done(ticket)

    await asyncio.gather(chat("a"), chat("b"), chat("c"))
    assert order == ["a", "b", "c"] * 3, "each waiting chat gets a send before any chat gets its next"


@pytest.mark.parametrize("shared", [False, True])
async def test_the_gate_counts_calls_in_flight_and_from_their_end(redis, key_prefix, shared):
    gate = Gate(2, 0.05, Limiter(redis, prefix=key_prefix) if shared else None, "tg:global:2")
    first = await gate.acquire()
    await gate.acquire()
    third = asyncio.ensure_future(gate.acquire())
    await asyncio.sleep(0.1)
    assert not third.done(), "two calls still in flight fill the window"
    ended = time.monotonic()
    await gate.done(first)
    await asyncio.wait_for(third, 5)
    assert time.monotonic() - ended >= 0.05


async def test_the_gate_is_busy_near_its_limit_here_or_in_another_process(redis, key_prefix):
    limiter = Limiter(redis, prefix=key_prefix)
    here, there = Gate(5, 60.0, limiter, "tg:global:3"), Gate(5, 60.0, limiter, "tg:global:3")
    for _ in range(3):
        await here.done(await here.acquire())
    assert not here.busy() and not there.busy()
    await here.done(await here.acquire())
    assert here.busy() and not there.busy(), "four fifths of the limit used here"
    await here.done(await here.acquire())
    waiting = asyncio.ensure_future(there.acquire())
    try:
        for _ in range(500):  # until the shared window has made the other process's sender wait
            if there.busy():
                break
            await asyncio.sleep(0.01)
        assert there.busy() and not waiting.done(), "a sender waits for room: the limit is close"
    finally:
        waiting.cancel()
