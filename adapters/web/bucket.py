"""Token buckets: a rate with a burst, for one connection's taps and for each person's view requests."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["Bucket", "Buckets"]


class Bucket:
    """``rate`` a second, ``2 * rate`` (at least one) in a burst.

    Args:
        rate: what is allowed per second in the long run.
        clock: seconds (a clock that steps back refills nothing).
    """

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = rate
        self._most = max(1.0, 2 * rate)
        self._allowance = self._most
        self._clock = clock
        self._checked = clock()

    def allowed(self) -> bool:
        """Whether one more fits now (and if so, it is counted)."""
        now = self._clock()
        self._allowance = min(self._most, self._allowance + max(0.0, now - self._checked) * self._rate)
        self._checked = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True


class Buckets:
    """A :class:`Bucket` per key, for the ``most`` keys used last (a key left out starts afresh).

    Args:
        rate: what each key is allowed per second.
        most: how many keys are kept at most.
        clock: seconds.
    """

    def __init__(self, rate: float, most: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = rate
        self._most = most
        self._clock = clock
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def allowed(self, key: str) -> bool:
        """Whether one more of ``key`` fits now (and if so, it is counted)."""
        bucket = self._buckets.pop(key, None) or Bucket(self._rate, self._clock)
        self._buckets[key] = bucket
        if len(self._buckets) > self._most:
            self._buckets.popitem(last=False)
        return bucket.allowed()
