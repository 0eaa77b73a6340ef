"""The web table beside the chat adapters in ``stammtisch run``, on ``STAMMTISCH_WEB_LISTEN``."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable

from bot.ops.settings import Settings
from bot.protocol.outgoing import Outgoing

from .server import WebServer
from .tuning import Tuning

__all__ = ["serve"]


async def serve(settings: Settings, service, after: Callable[[list[Outgoing]], Awaitable[None]] | None = None,
                tuning: Tuning | None = None, stop: asyncio.Event | None = None) -> None:
    """Serve the web table until ``stop`` is set (nothing to do without ``STAMMTISCH_WEB_LISTEN``).

    Telegram's init data is checked with ``TELEGRAM_TOKEN``; links are signed with
    ``STAMMTISCH_WEB_SECRET`` (without it, with a key of this run: no process hands out links then).

    Args:
        settings: ``web_listen``, ``web_secret``, ``telegram_token`` and the default language.
        service: the bot layer's service.
        after: called with the effects of every tap, for the chats to show them.
        tuning: the limits (default: from ``STAMMTISCH_WEB_*`` variables).
        stop: set it to stop serving.
    """
    if settings.web_listen is None:
        return
    secret = settings.web_secret.get_secret_value().encode() if settings.web_secret else secrets.token_bytes(32)
    bot_token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    server = WebServer(service, settings.web_listen, secret, bot_token, tuning, settings.lang, after)
    await server.start()
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await server.stop()
