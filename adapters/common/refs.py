"""Where an adapter keeps the ids of the messages it edits in place: the store's refs of a table.

Each ref also says what its message shows (the table version and a fingerprint of its text and
buttons), so any process can tell that an edit would change nothing and skip it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import NamedTuple, Protocol

from bot.protocol.outgoing import Button

__all__ = ["Refs", "MessageRef", "fingerprint"]


class Refs(Protocol):
    """Where message ids are kept per table (the store's refs)."""

    async def get_ref(self, table_id: str, key: str) -> str | None:
        """The value kept under ``key`` for the table, if any."""

    async def set_ref(self, table_id: str, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` for the table."""


def fingerprint(text: str, rows: Iterable[Iterable[Button]] = ()) -> str:
    """A short hash of a message's text and buttons: equal for messages that look and act the same."""
    shown = [text, [[(b.label, b.token, b.url) for b in row] for row in rows]]
    return hashlib.blake2b(json.dumps(shown).encode(), digest_size=8).hexdigest()


class MessageRef(NamedTuple):
    """Where a message is (chat or channel id, message id), which table version it shows and the
    :func:`fingerprint` of its content ("" if not known)."""

    chat_id: int
    message_id: int
    version: int
    shows: str = ""

    def __str__(self) -> str:
        return f"{self.chat_id}:{self.message_id}:{self.version}" + (f":{self.shows}" if self.shows else "")

    @classmethod
    def parse(cls, text: str | None) -> "MessageRef | None":
        """The ref stored as ``text``, ``None`` if there is none (or it is not one)."""
        try:
            chat, message, version, *shows = (text or "").split(":")
            if len(shows) > 1:
                return None
            return cls(int(chat), int(message), int(version), *shows)
        except ValueError:
            return None
