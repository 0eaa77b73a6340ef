"""A dict that forgets its least recently written entries, for per-chat memory in a long-running bot."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

__all__ = ["Bounded"]

K = TypeVar("K")
V = TypeVar("V")


class Bounded(OrderedDict[K, V]):
    """An ordered dict of at most ``size`` entries: writing one beyond that drops the oldest write."""

    def __init__(self, size: int = 10_000) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
