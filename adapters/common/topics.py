"""A tournament table waiting for the forum topic (Discord: the thread) opened for it.

A tournament's match asks for a topic of its own (:class:`~bot.protocol.outgoing.OpenTopic`) in the same
effects that deal its first cards. Until the topic exists, what the table would show in the group's
General topic (its table message, the notice naming its players, a deal's result) is held back: once
the topic is open the notices go there, and the table message follows when the table has moved; where
the chat has no topics they are shown in the chat as they were. Effects of the table still addressed to
the chat once it moved go to its topic. Bounded: at most :data:`KEPT` tables are remembered each way.
"""

from __future__ import annotations

from dataclasses import replace

from adapters.common.bounded import Bounded
from bot.protocol.outgoing import Notice, OpenTopic, Outgoing, TableMessage

__all__ = ["TopicWait", "KEPT"]

KEPT = 1_000
"""Tables remembered while they wait for their topic, and after they moved into it."""
_HELD_MOST = 50
"""Effects held per waiting table (the newest kept)."""


class TopicWait:
    """The tables waiting for their topic, what they would have shown meanwhile, and where they moved."""

    def __init__(self) -> None:
        self._held: Bounded[str, list[Outgoing]] = Bounded(KEPT)
        self._moved: Bounded[str, str] = Bounded(KEPT)

    def expect(self, asked: list[OpenTopic]) -> None:
        """Note the tables that asked for a topic the adapter is going to open."""
        for out in asked:
            if not out.chat.thread and out.table_id not in self._moved and out.table_id not in self._held:
                self._held[out.table_id] = []

    def route(self, out: Outgoing) -> Outgoing | None:
        """``out`` as it is to be shown now: ``None`` while its table waits for its topic (held), in the topic
        once the table moved there, else as it is."""
        if not isinstance(out, TableMessage | Notice) or not out.table_id or out.chat.thread:
            return out
        if out.table_id in self._held:
            self._held[out.table_id] = [*self._held[out.table_id], out][-_HELD_MOST:]
            return None
        thread = self._moved.get(out.table_id)
        return out if thread is None else replace(out, chat=replace(out.chat, thread=thread))

    def opened(self, table_id: str, thread: str) -> list[Outgoing]:
        """The table's topic is open: the notices held for it, now addressed to the topic (its table message is
        shown there anew by the move)."""
        held = self._held.pop(table_id, [])
        self._moved[table_id] = thread
        return [replace(out, chat=replace(out.chat, thread=thread)) for out in held if isinstance(out, Notice)]

    def failed(self, table_id: str) -> list[Outgoing]:
        """No topic could be opened: what was held, to be shown in the chat as it was."""
        return self._held.pop(table_id, [])
