"""Answers to button presses that ride on the webhook's HTTP reply instead of an API call.

Telegram lets a webhook answer an update with one Bot API method in the HTTP response (a JSON
body with ``method`` and its parameters; its result is never known). The webhook server holds the
response to a button press for a moment (:meth:`Replies.hold`); if the adapter decides the
answer meanwhile (:meth:`Replies.give`), the answer goes out with the response and costs no call.
Otherwise the response goes out empty and the adapter answers by an API call, as in polling mode.
Both run on one event loop and whichever comes first closes the press's slot, so a press is
answered once either way. A slot lives only while its response is held: the memory is bounded by
the requests in flight.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Replies", "Slot", "answer_method"]


def answer_method(query_id: str, text: str | None = None, url: str | None = None) -> dict:
    """The ``answerCallbackQuery`` method as a webhook reply: the empty answer, a toast or a deep link."""
    method = {"method": "answerCallbackQuery", "callback_query_id": query_id}
    if text:
        method["text"] = text
    if url:
        method["url"] = url
    return method


class Slot:
    """The held response to one press: it waits for the answer the adapter gives."""

    def __init__(self, replies: "Replies", query_id: str, future: asyncio.Future | None):
        self._replies, self._query_id, self._future = replies, query_id, future

    async def wait(self, hold_s: float) -> dict | None:
        """The answer method given within ``hold_s`` seconds, else ``None`` (the slot is closed then)."""
        if self._future is None:
            return None
        await asyncio.wait({self._future}, timeout=hold_s)
        self._replies.close(self._query_id, self._future)  # from now on an answer goes by API call
        return self._future.result() if self._future.done() else None


class Replies:
    """The presses whose webhook response is held, by callback query id."""

    def __init__(self) -> None:
        self._waiting: dict[str, asyncio.Future] = {}

    @contextmanager
    def hold(self, query_id: str) -> Iterator[Slot]:
        """Hold the response to the press ``query_id`` while the block runs.

        A press already held (its update delivered twice at once) gets a slot that waits for
        nothing: its answer goes by API call.
        """
        future = None
        if query_id not in self._waiting:
            future = asyncio.get_running_loop().create_future()
            self._waiting[query_id] = future
        try:
            yield Slot(self, query_id, future)
        finally:
            if future is not None:
                self.close(query_id, future)

    def give(self, method: dict) -> bool:
        """Send the answer ``method`` with its press's held response; false if none is held any more."""
        future = self._waiting.pop(method["callback_query_id"], None)
        if future is None or future.done():
            return False
        future.set_result(method)
        return True

    def close(self, query_id: str, future: asyncio.Future) -> None:
        """Stop waiting for the answer to ``query_id`` (its response goes out now)."""
        if self._waiting.get(query_id) is future:
            del self._waiting[query_id]
