"""Running an adapter until it is stopped, and its turn-timer loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from typing import Protocol

from bot.ops import metrics
from bot.protocol.outgoing import Outgoing

__all__ = ["Runnable", "run_until_stopped", "Ticker"]

log = logging.getLogger(__name__)


class Runnable(Protocol):
    """An adapter's bot: started once, stopped once."""

    async def start(self) -> None:
        """Connect and start serving."""

    async def stop(self) -> None:
        """Finish what is queued and disconnect."""


async def run_until_stopped(bot: Runnable, stop: asyncio.Event | None, describe: Callable[[], str]) -> None:
    """Start ``bot``, serve until ``stop`` is set (default: until SIGINT or SIGTERM), stop it.

    ``describe()`` names what is served, for the log, once the bot has started.
    """
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
    await bot.start()
    log.info("serving %s", describe())
    try:
        await stop.wait()
    finally:
        await bot.stop()


class Ticker:
    """Fires the due turn timers (``service.tick()``) every ``interval_s`` and carries out their effects.

    Args:
        service: the bot layer's service.
        carry_out: the adapter's delivery of outgoing effects.
        interval_s: seconds between two checks.
    """

    def __init__(self, service, carry_out: Callable[[list[Outgoing]], None], interval_s: float) -> None:
        self.service = service
        self.carry_out = carry_out
        self.interval_s = interval_s
        self._task: asyncio.Task | None = None
        self._stopping = asyncio.Event()

    def start(self) -> None:
        """Start checking."""
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Stop checking; a check under way is finished first (its moves are saved and delivered)."""
        self._stopping.set()
        if self._task:
            await self._task

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.interval_s)
                return
            try:
                self.carry_out(await self.service.tick())
            except Exception as exc:
                metrics.failed("timers", exc)
                log.exception("the turn timers failed; trying again")
