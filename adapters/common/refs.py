"""Where an adapter keeps the ids of the messages it edits in place: the store's refs of a table."""

from __future__ import annotations

from typing import NamedTuple, Protocol

__all__ = ["Refs", "MessageRef"]


class Refs(Protocol):
    """Where message ids are kept per table (the store's refs)."""

    async def get_ref(self, table_id: str, key: str) -> str | None:
        """The value kept under ``key`` for the table, if any."""

    async def set_ref(self, table_id: str, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` for the table."""


class MessageRef(NamedTuple):
    """Where a message is (chat or channel id, message id) and which table version it shows."""

    chat_id: int
    message_id: int
    version: int

    def __str__(self) -> str:
        return f"{self.chat_id}:{self.message_id}:{self.version}"

    @classmethod
    def parse(cls, text: str | None) -> "MessageRef | None":
        """The ref stored as ``text``, ``None`` if there is none (or it is not one)."""
        try:
            chat, message, version = (text or "").split(":")
            return cls(int(chat), int(message), int(version))
        except ValueError:
            return None
