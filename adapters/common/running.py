"""Running an adapter until it is stopped, and its turn-timer loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from bot.ops import metrics
from bot.protocol.outgoing import Outgoing
from bot.protocol.rejected import TokenRejected

__all__ = ["Runnable", "run_until_stopped", "delivering", "FIRST_RETRY_S", "MAX_RETRY_S", "Ticker"]

log = logging.getLogger(__name__)


class Runnable(Protocol):
    """An adapter's bot: started once, stopped once."""

    async def start(self) -> None:
        """Connect and start serving."""

    async def stop(self) -> None:
        """Finish what is queued and disconnect (also after a failed start)."""

    def carry_out(self, outs: list[Outgoing]) -> None:
        """Show a batch of effects the platform's outbox reader took."""


B = TypeVar("B", bound=Runnable)


def delivering(make: Callable[[], B], deliveries: dict[str, Callable[[list[Outgoing]], None]] | None,
               platform: str) -> Callable[[], B]:
    """``make``, each of whose bots, once started, also puts its ``carry_out`` into ``deliveries`` under
    ``platform`` (and takes it out when it stops): the effects the platform's outbox reader takes from Redis
    show in the chats through it only while it can send."""
    if deliveries is None:
        return make

    def made() -> B:
        return _Registered(make(), deliveries, platform)  # type: ignore[return-value]
    return made


class _Registered:
    """A bot whose ``carry_out`` is in ``deliveries`` while it runs; everything else is the bot's."""

    def __init__(self, bot: Runnable, deliveries: dict[str, Callable[[list[Outgoing]], None]], platform: str):
        self._bot, self._deliveries, self._platform = bot, deliveries, platform

    async def start(self) -> None:
        await self._bot.start()
        self._deliveries[self._platform] = self._bot.carry_out

    async def stop(self) -> None:
        if self._deliveries.get(self._platform) == self._bot.carry_out:
            del self._deliveries[self._platform]
        await self._bot.stop()

    def carry_out(self, outs: list[Outgoing]) -> None:
        self._bot.carry_out(outs)

    def __getattr__(self, name: str):
        return getattr(self._bot, name)


FIRST_RETRY_S = 1.0
"""How long a start that could not reach the platform waits before the second try."""
MAX_RETRY_S = 60.0
"""The longest wait between two tries: each wait doubles up to this."""


async def run_until_stopped(make: Callable[[], B], stop: asyncio.Event | None, describe: Callable[[B], str],
                            unreachable: Callable[[BaseException], bool], rejected: Callable[[BaseException], bool],
                            platform: str) -> None:
    """Start a bot, serve until ``stop`` is set (default: until SIGINT or SIGTERM), stop it.

    A start that cannot reach the platform (``unreachable(exc)``: a network error, the platform's
    own trouble) is logged in one line and tried again with a fresh bot from ``make()``, the wait
    doubling from :data:`FIRST_RETRY_S` up to :data:`MAX_RETRY_S`; ``stop`` ends the waiting (and
    a start under way) at once. A token the platform refuses (``rejected(exc)``) raises
    :class:`~bot.protocol.rejected.TokenRejected`; any other error of a start is raised as it is.

    Args:
        make: a new bot, not started.
        stop: set it to stop; ``None``: SIGINT and SIGTERM set one.
        describe: names what the started bot serves, for the log.
        unreachable: whether a start's exception means the platform could not be reached.
        rejected: whether a start's exception means the platform refused the token.
        platform: the platform's name, for the log.
    """
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
    wait = FIRST_RETRY_S
    while True:
        bot = make()
        try:
            started = await _until(stop, bot.start())
        except Exception as exc:
            if not (unreachable(exc) or rejected(exc)):
                raise
            with contextlib.suppress(Exception):  # what the failed start left open; it may be half built
                await bot.stop()
            if rejected(exc):
                raise TokenRejected(platform) from None  # its message may hold the token
            log.warning("cannot reach %s (%s); trying again in %g s", platform, _reason(exc), wait)
            if await _until(stop, asyncio.sleep(wait)) is None:
                return
            wait = min(2 * wait, MAX_RETRY_S)
            continue
        if started is None:  # stopped while starting
            await bot.stop()
            return
        break
    log.info("serving %s", describe(bot))
    try:
        await stop.wait()
    finally:
        await bot.stop()


async def _until(stop: asyncio.Event, work: Awaitable[None]) -> bool | None:
    """Await ``work`` unless ``stop`` is set first: ``True`` when done, ``None`` if stopped (it is cancelled)."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if task.done():
        task.result()
        return True
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    return None


def _reason(exc: BaseException) -> str:
    """One line for the log: the exception's type and message (no traceback)."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return " ".join(text.split())[:300]


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
