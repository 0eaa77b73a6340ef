"""Metrics: the service and the Telegram adapter count what they do; /metrics and /healthz answer."""

from __future__ import annotations

import random
import time

import aiohttp
import pytest
import redis.asyncio as aioredis
from prometheus_client import REGISTRY
from telegram import Bot
from telegram.error import RetryAfter

from adapters.telegram.metered import MeteredRequest
from bot.ops import metrics
from bot.ops.metrics import MetricsServer
from bot.ops.settings import HostPort, load_settings
from bot.service import Service
from bot.store.counts import TableCounts
from tests.fakes.telegram import FakeTelegram
from tests.servicekit import GROUP, button, press, say, table_msg, user


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def total(name: str, **labels) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels``."""
    return sum(s.value for m in REGISTRY.collect() for s in m.samples
               if s.name == name and labels.items() <= s.labels.items())


async def test_moves_refusals_and_tables_by_state_are_counted(store, redis, key_prefix):
    counts = TableCounts(redis, prefix=key_prefix)
    svc = Service(store, load_settings(), rng=random.Random(1), counts=counts)
    moves = value("stammtisch_moves_total", game="bauerchen", platform="test")
    latency = value("stammtisch_move_seconds_count", game="bauerchen")
    refused = total("stammtisch_refusals_total", game="bauerchen", platform="test")
    refused_early = total("stammtisch_refusals_total", game="-", platform="test")
    out = await svc.handle(say(GROUP, user(0), "/neu bauerchen"))
    assert (await counts.counts(time.time()))["lobby"] == 1
    join = button(table_msg(out), "join").token
    for i in (1, 2, 3):
        await svc.handle(press(GROUP, user(i), join))
    start = button(table_msg(await svc.handle(say(GROUP, user(0), "/tisch"))), "start").token
    await svc.handle(press(GROUP, user(0), start))
    assert await counts.counts(time.time()) == {"lobby": 0, "playing": 1, "finished": 0, "aborted": 0}
    assert value("stammtisch_moves_total", game="bauerchen", platform="test") - moves == 4
    assert value("stammtisch_move_seconds_count", game="bauerchen") - latency == 4
    await svc.handle(press(GROUP, user(1), start))  # pressed again: the game runs
    assert total("stammtisch_refusals_total", game="bauerchen", platform="test") - refused == 1
    await svc.handle(say(GROUP, user(0), "/neu bauer"))  # the chat has a table
    assert total("stammtisch_refusals_total", game="-", platform="test") - refused_early == 1
    # Nothing is left once the tables are gone: the sets expire with them.
    assert await counts.counts(time.time() + 15 * 86400) == {"lobby": 0, "playing": 0, "finished": 0, "aborted": 0}
    keys = [k async for k in redis.scan_iter(match=f"{key_prefix}:{{stats}}:*")]
    ttls = [await redis.ttl(k) for k in keys]
    assert ttls and all(0 < ttl <= 14 * 86400 for ttl in ttls)


async def test_api_calls_and_429s_are_counted_by_method_and_outcome():
    async with FakeTelegram(chat_limit=(1, 60.0)) as tg:
        tg.user(5, "Anna", started=True)
        bot = Bot(tg.token, base_url=tg.base_url, request=MeteredRequest())
        ok = value("stammtisch_platform_api_calls_total", platform="telegram", method="sendMessage", outcome="ok")
        limited = value("stammtisch_platform_rate_limited_total", platform="telegram", method="sendMessage")
        async with bot:
            await bot.send_message(5, "eins")
            with pytest.raises(RetryAfter):
                await bot.send_message(5, "zwei")
        assert value("stammtisch_platform_api_calls_total", platform="telegram", method="sendMessage",
                     outcome="ok") - ok == 1
        assert value("stammtisch_platform_rate_limited_total", platform="telegram", method="sendMessage") - limited == 1
        assert value("stammtisch_platform_api_calls_total", platform="telegram", method="sendMessage",
                     outcome="rate_limited") >= 1


async def test_metrics_and_healthz_over_http(redis, store, key_prefix):
    counts = TableCounts(redis, prefix=key_prefix)
    await counts.note("T1", "playing", time.time())
    await store.schedule("T1", 3, "remind", time.time() - 1)

    async def sample(now):
        return await counts.counts(now), await store.count_due(now)
    server = MetricsServer(HostPort("127.0.0.1", 0), redis.ping, sample)
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{server.port}/metrics") as resp:
                text = await resp.text()
                assert resp.status == 200
            assert 'stammtisch_tables{state="playing"} 1.0' in text
            assert "stammtisch_timers_due 1.0" in text
            assert "# TYPE stammtisch_moves_total counter" in text
            async with http.get(f"http://127.0.0.1:{server.port}/healthz") as resp:
                assert resp.status == 200 and await resp.text() == "ok\n"
    finally:
        await server.stop()


async def test_healthz_fails_without_redis_and_with_a_late_loop(redis):
    dead = aioredis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=1)
    errors = value("stammtisch_redis_errors_total", where="healthz")

    async def sample(now):
        return {}, 0
    server = MetricsServer(HostPort("127.0.0.1", 0), dead.ping, sample, beat_s=0.05, max_lag_s=0.1)
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{server.port}/healthz") as resp:
                assert resp.status == 503 and "redis unreachable" in await resp.text()
        assert value("stammtisch_redis_errors_total", where="healthz") - errors == 1
        time.sleep(0.3)  # the loop is blocked: the heartbeat is overdue
        assert server.lag() > 0.1
    finally:
        await server.stop()
        await dead.aclose()


def test_label_values_stay_bounded():
    metrics.api_call("telegram", "x" * 500, 200)
    metrics.api_call("telegram", "send message\n", 200)
    assert value("stammtisch_platform_api_calls_total", platform="telegram", method="other", outcome="ok") >= 2
