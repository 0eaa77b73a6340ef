"""What a save records: the outcomes a change finished, as the journal the store appends with the save.

The service calls :func:`journal` with the table after a change and the change's news; the store
(:class:`bot.store.tables.Store`, argument ``journal``) appends the entries to the chat's inbox in the
same script as the save that finishes the deal or match, so a refused or repeated save records nothing
and a landed one records it once (on Cluster: delivered once by the save's last step, see the store).
:func:`bot.memory.absorb.absorb` counts the inbox into the chat's statistics later.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from bot.memory.book import Book
from bot.memory.outcome import Outcome, outcomes
from bot.store.records import Journal
from bot.table.record import Table

__all__ = ["journal", "encode", "decode", "INBOX", "INBOX_IDS"]

INBOX = "in"
"""The inbox's part of the chat's keys."""
INBOX_IDS = "ids"
"""The part of the Cluster dedupe zset of the inbox."""

_OUTCOME: TypeAdapter[Outcome] = TypeAdapter(Outcome)


def journal(book: Book, table: Table, news: list[dict[str, Any]], at: float) -> Journal | None:
    """The journal of a change of ``table`` that told ``news``: its finished deals and match, or ``None``."""
    found = outcomes(table, news, at)
    if not found:
        return None
    group = table.chat.group
    return Journal(book.key(group, INBOX), book.key(group, INBOX_IDS),
                   [(o.id, encode(o)) for o in found], book.ttl)


def encode(outcome: Outcome) -> str:
    """An outcome as its inbox entry: compact JSON (defaults left out; ``kind`` has none)."""
    return outcome.model_dump_json(exclude_defaults=True)


def decode(text: str) -> Outcome:
    """An inbox entry as the outcome it records."""
    return _OUTCOME.validate_json(text)
