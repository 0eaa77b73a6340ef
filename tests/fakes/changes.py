"""What a fake platform's waiters wait on: a signal raised on every change of the fake's world."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

RECHECK_S = 0.1
"""How often a wait also looks without a change of the fake: for what the fake does not see (a bot
process that died, the store read by another task)."""


class Changes:
    """A signal of a fake's changes: :meth:`touch` on every change wakes everyone in :meth:`until`."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()

    def touch(self) -> None:
        """Wake everyone waiting in :meth:`until`."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Wait until ``predicate()`` is truthy (checked again on every change); its value.

        Raises:
            AssertionError: it is not within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            changed = self._changed
            if value := predicate():
                return value
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what}")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), min(left, RECHECK_S))
