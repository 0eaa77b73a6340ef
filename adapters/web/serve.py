"""The web table beside the chat adapters in ``stammtisch run``, on ``STAMMTISCH_WEB_LISTEN``."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

from adapters.common.running import Ticker
from bot.ops.settings import Settings
from bot.protocol.outgoing import Outgoing, Toast

from .server import WebServer
from .tuning import Tuning

__all__ = ["serve", "through_outbox"]


def through_outbox(service) -> Callable[[list[Outgoing]], Awaitable[None]]:
    """What shows a tap's effects in the chats: they go through the outbox in Redis (:meth:`~bot.service.Service.show`)
    to whichever process runs each chat's adapter, this one too, as a press's effects do. The tap's own answer
    (a refusal) was shown on the page."""
    async def after(outs: list[Outgoing]) -> None:
        await service.show([o for o in outs if not isinstance(o, Toast)])
    return after


async def serve(settings: Settings, service, tuning: Tuning | None = None, stop: asyncio.Event | None = None,
                ticks: bool = False) -> None:
    """Serve the web table until ``stop`` is set (nothing to do without ``STAMMTISCH_WEB_LISTEN``).

    With ``ticks`` (no chat adapter runs in this process, whose turn-timer loop would), it fires the
    due turn timers itself every ``tick_interval_s``: computer seats and timers move without a chat.

    Telegram's init data is checked with ``TELEGRAM_TOKEN``; links are signed with
    ``STAMMTISCH_WEB_SECRET`` (without it, with a key of this run: no process hands out links then).

    Args:
        settings: ``web_listen``, ``web_secret``, ``telegram_token`` and the default language.
        service: the bot layer's service.
        tuning: the limits (default: from ``STAMMTISCH_WEB_*`` variables).
        stop: set it to stop serving.
        ticks: whether to run the turn-timer loop here.
    """
    if settings.web_listen is None:
        return
    tuning = tuning or Tuning()
    secret = settings.web_secret.get_secret_value().encode() if settings.web_secret else secrets.token_bytes(32)
    bot_token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    server = WebServer(service, settings.web_listen, secret, bot_token, tuning, settings.lang,
                       through_outbox(service))
    await server.start()
    ticker = Ticker(service, lambda outs: None, tuning.tick_interval_s) if ticks else None
    if ticker is not None:
        ticker.start()
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        if ticker is not None:
            await ticker.stop()
        await server.stop()
