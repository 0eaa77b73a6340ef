"""Discord REST calls counted for the metrics: by method and outcome (ok, 429, other errors).

discord.py takes an aiohttp trace config for its HTTP session; every call (interaction answers
included, they share the session) is named after its route, never after ids in its path.
"""

from __future__ import annotations

import re

import aiohttp

from bot.ops import metrics

from .translate import PLATFORM

__all__ = ["method_of", "trace_config"]

_ROUTES = [(re.compile(pattern), name) for pattern, name in (
    (r"POST /channels/\d+/messages", "create_message"),
    (r"PATCH /channels/\d+/messages/\d+", "edit_message"),
    (r"DELETE /channels/\d+/messages/\d+", "delete_message"),
    (r"POST /interactions/\d+/[^/]+/callback", "interaction_callback"),
    (r"PATCH /webhooks/\d+/[^/]+/messages/@original", "edit_original_response"),
    (r"POST /webhooks/\d+/[^/]+", "followup_message"),
    (r"POST /users/@me/channels", "create_dm"),
    (r"PUT /applications/\d+(/guilds/\d+)?/commands", "sync_commands"),
    (r"GET /gateway/bot", "get_gateway"),
)]
_API = re.compile(r"^.*?/api/v\d+")


def method_of(http_method: str, path: str) -> str:
    """The name of a REST call (``edit_message``), ``other`` for a route not listed."""
    call = f"{http_method} {_API.sub('', path)}"
    return next((name for pattern, name in _ROUTES if pattern.fullmatch(call)), "other")


def trace_config() -> aiohttp.TraceConfig:
    """An aiohttp trace config that counts every call in :data:`bot.ops.metrics.PLATFORM_CALLS`."""
    config = aiohttp.TraceConfig()

    async def ended(session, context, params: aiohttp.TraceRequestEndParams) -> None:
        metrics.api_call(PLATFORM, method_of(params.method, params.url.path), params.response.status)

    async def failed(session, context, params: aiohttp.TraceRequestExceptionParams) -> None:
        metrics.api_call(PLATFORM, method_of(params.method, params.url.path), None)

    config.on_request_end.append(ended)
    config.on_request_exception.append(failed)
    return config
