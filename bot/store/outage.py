"""Redis outages as the service sees them: logged once when they begin and once when they end."""

from __future__ import annotations

import logging
import time

from bot.ops import metrics

__all__ = ["Outage"]


class Outage:
    """Whether Redis is failing, so that an outage is logged once and not on every command or tick.

    Args:
        logger: where the two lines go.
    """

    def __init__(self, logger: logging.Logger) -> None:
        self._log = logger
        self.down = False
        self._since = 0.0

    def failed(self, exc: BaseException) -> None:
        """A call to Redis failed: log it if it is the first failure since Redis last worked."""
        metrics.redis_error("service")
        if not self.down:
            self.down = True
            self._since = time.monotonic()
            self._log.error("Redis is unavailable (%s: %s); logged once until it is back",
                            type(exc).__name__, exc)

    def worked(self) -> None:
        """Calls to Redis work: log the end of an outage."""
        if self.down:
            self.down = False
            self._log.warning("Redis is available again")

    def lasted(self) -> float:
        """Seconds since the outage began (0 when Redis works)."""
        return time.monotonic() - self._since if self.down else 0.0
