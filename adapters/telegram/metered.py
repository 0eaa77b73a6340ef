"""Bot API calls counted for the metrics: by method and outcome (ok, 429, other errors)."""

from __future__ import annotations

from telegram.request import HTTPXRequest

from bot.ops import metrics

from .translate import PLATFORM

__all__ = ["MeteredRequest"]


class MeteredRequest(HTTPXRequest):
    """PTB's HTTP transport, counting every Bot API call in :data:`bot.ops.metrics.PLATFORM_CALLS`."""

    async def do_request(self, url: str, method: str, *args, **kwargs) -> tuple[int, bytes]:
        """Make the call and count its outcome (a network error counts as ``network_error``)."""
        api_method = url.rpartition("/")[2]
        try:
            status, payload = await super().do_request(url, method, *args, **kwargs)
        except Exception:
            metrics.api_call(PLATFORM, api_method, None)
            raise
        metrics.api_call(PLATFORM, api_method, status)
        return status, payload
