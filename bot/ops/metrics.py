"""Prometheus metrics of every process, and the small HTTP server that serves them with a health check.

The counters are process-wide (prometheus-client's default registry); the bot layer and every
adapter record into them through the functions here, so a metric's name and labels are defined
once. Label values come from bounded sets only (game ids, platform names, API method names,
refusal keys), never from user input.

:class:`MetricsServer` serves ``/metrics`` (Prometheus text format) and ``/healthz`` (200 when
Redis answers a PING and the event loop is responsive, else 503) on
``STAMMTISCH_METRICS_LISTEN``. Before each scrape it refreshes the gauges that live in Redis
(tables by state, due timers) with a bounded number of commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram, generate_latest
from redis.exceptions import RedisError

from bot.ops.settings import HostPort

if TYPE_CHECKING:  # aiohttp's server is imported when the endpoint starts: a process without one never pays for it
    from aiohttp import web

__all__ = ["MetricsServer", "moved", "refused", "api_call", "redis_error", "failed", "serving", "PLATFORM_CALLS",
           "MOVES", "REFUSALS", "MOVE_SECONDS", "RATE_LIMITED", "REDIS_ERRORS", "TABLES", "TIMERS_DUE", "LOOP_LAG",
           "WEB_CONNECTIONS"]

log = logging.getLogger(__name__)

MOVES = Counter("stammtisch_moves", "Saved changes of a table (moves, joins, starts, timer moves)",
                ["game", "platform"])
REFUSALS = Counter("stammtisch_refusals", "Commands and presses refused with a message", ["game", "platform", "reason"])
MOVE_SECONDS = Histogram("stammtisch_move_seconds", "From loading a table to its saved change and rendered answer",
                         ["game"], buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
PLATFORM_CALLS = Counter("stammtisch_platform_api_calls", "Chat platform API calls by method and outcome",
                         ["platform", "method", "outcome"])
RATE_LIMITED = Counter("stammtisch_platform_rate_limited", "Chat platform API calls answered 429 (flood control)",
                       ["platform", "method"])
REDIS_ERRORS = Counter("stammtisch_redis_errors", "Redis commands that failed (connection, timeout, server error)",
                       ["where"])
TABLES = Gauge("stammtisch_tables", "Tables kept in Redis, by state (all processes, read from Redis)", ["state"])
TIMERS_DUE = Gauge("stammtisch_timers_due", "Turn timers due now and not yet fired (all processes)")
LOOP_LAG = Gauge("stammtisch_event_loop_lag_seconds", "How late this process's event loop woke a periodic task")
WEB_CONNECTIONS = Gauge("stammtisch_web_connections", "Open live connections of the web table in this process")

_METHOD = re.compile(r"[A-Za-z_]{1,40}")
_NO_GAME = "-"


def moved(game: str, platform: str, seconds: float) -> None:
    """A table change was saved ``seconds`` after its command started."""
    MOVES.labels(game or _NO_GAME, platform).inc()
    MOVE_SECONDS.labels(game or _NO_GAME).observe(seconds)


def refused(game: str | None, platform: str, reason: str) -> None:
    """A command was refused with the message ``reason`` (an i18n key); ``game`` is ``None`` without a table."""
    REFUSALS.labels(game or _NO_GAME, platform, reason).inc()


def api_call(platform: str, method: str, status: int | None) -> None:
    """A platform API call ended with HTTP ``status`` (``None``: no answer, a network error)."""
    method = method if _METHOD.fullmatch(method) else "other"
    if status is None:
        outcome = "network_error"
    elif status == 429:
        outcome = "rate_limited"
        RATE_LIMITED.labels(platform, method).inc()
    else:
        outcome = {2: "ok", 4: "client_error", 5: "server_error"}.get(status // 100, "other")
    PLATFORM_CALLS.labels(platform, method, outcome).inc()


def redis_error(where: str) -> None:
    """A Redis command failed in ``where`` (a fixed name such as ``timers`` or ``command``)."""
    REDIS_ERRORS.labels(where).inc()


def failed(where: str, exc: BaseException | None) -> None:
    """Something failed in ``where``: counted as a Redis error if ``exc`` is one."""
    if isinstance(exc, RedisError):
        redis_error(where)


Sampler = Callable[[float], Awaitable[tuple[dict[str, int], int]]]
"""``sample(now)`` -> (tables by state, due timers), read from Redis."""


class MetricsServer:
    """``/metrics`` and ``/healthz`` on one small HTTP port, inside the running event loop.

    Args:
        listen: where to listen (``STAMMTISCH_METRICS_LISTEN``).
        ping: checks Redis (raises when it does not answer).
        sample: reads the Redis-wide gauges, see :data:`Sampler`.
        beat_s: how often the loop heartbeat runs.
        max_lag_s: a loop later than this is unhealthy.
        timeout_s: the longest a health check waits for Redis.
    """

    def __init__(self, listen: HostPort, ping: Callable[[], Awaitable[object]], sample: Sampler,
                 beat_s: float = 0.5, max_lag_s: float = 5.0, timeout_s: float = 2.0) -> None:
        self.listen = listen
        self._ping = ping
        self._sample = sample
        self._beat_s = beat_s
        self._max_lag_s = max_lag_s
        self._timeout_s = timeout_s
        self._last_beat = time.monotonic()
        self._runner: web.AppRunner | None = None
        self._beater: asyncio.Task | None = None
        self.port = 0

    async def start(self) -> None:
        """Listen, and start the loop heartbeat."""
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen.host, self.listen.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        self._last_beat = time.monotonic()
        self._beater = asyncio.get_running_loop().create_task(self._beat())
        log.info("metrics and health check on %s", HostPort(self.listen.host, self.port))

    async def stop(self) -> None:
        """Stop listening and the heartbeat."""
        if self._beater:
            self._beater.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beater
        if self._runner:
            await self._runner.cleanup()

    def lag(self) -> float:
        """Seconds the heartbeat is overdue now (0 when the loop keeps time)."""
        return max(0.0, time.monotonic() - self._last_beat - self._beat_s)

    async def _beat(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(self._beat_s)
            self._last_beat = time.monotonic()
            LOOP_LAG.set(max(0.0, self._last_beat - before - self._beat_s))

    async def _metrics(self, request: web.Request) -> web.Response:
        try:
            tables, due = await asyncio.wait_for(self._sample(time.time()), self._timeout_s)
        except Exception:  # noqa: BLE001  (the process's own metrics are served even without Redis)
            redis_error("metrics")
            log.warning("metrics: the Redis-wide gauges could not be read")
        else:
            for state, count in tables.items():
                TABLES.labels(state).set(count)
            TIMERS_DUE.set(due)
        return _response(body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        problems = []
        if self.lag() > self._max_lag_s:
            problems.append(f"event loop {self.lag():.1f}s late")
        try:
            await asyncio.wait_for(self._ping(), self._timeout_s)
        except Exception:  # noqa: BLE001  (any failure means: not healthy)
            redis_error("healthz")
            problems.append("redis unreachable")
        if problems:
            return _response(status=503, text="; ".join(problems) + "\n")
        return _response(text="ok\n")


def _response(**kwargs: object) -> web.Response:
    """An aiohttp response (aiohttp's server is imported only by a process that serves the endpoint)."""
    from aiohttp import web

    return web.Response(**kwargs)


@contextlib.asynccontextmanager
async def serving(listen: HostPort | None, ping: Callable[[], Awaitable[object]],
                  sample: Sampler) -> AsyncIterator[MetricsServer | None]:
    """A running :class:`MetricsServer` while the block runs (nothing when ``listen`` is ``None``)."""
    if listen is None:
        yield None
        return
    server = MetricsServer(listen, ping, sample)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
