"""A bot worker process for the tests: ``python -m tests.fakes.telegram.worker``.

It serves Telegram like ``stammtisch run`` does, with the real store, service and adapter,
but keeps its keys under the test's prefix (``STAMMTISCH_TEST_PREFIX``) so tests can share a
Redis server. Everything else comes from the environment (``TELEGRAM_*``, ``REDIS_URL``).
"""

from __future__ import annotations

import asyncio
import logging
import os

from adapters.telegram import Tuning, serve
from bot.ops.settings import load_settings
from bot.service import Service
from bot.store.connection import connect
from bot.store.ratelimit import Limiter
from bot.store.tables import Store


async def main() -> None:
    """Serve until SIGTERM."""
    settings = load_settings()
    prefix = os.environ["STAMMTISCH_TEST_PREFIX"]
    redis = await connect(settings)
    store = Store(redis, prefix=prefix)
    try:
        await serve(settings, Service(store, settings), store, Limiter(redis, prefix=prefix), Tuning())
    finally:
        await redis.aclose()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(main())
