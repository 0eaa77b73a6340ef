"""What the store keeps of a table and what a save takes and returns: a record, a journal, a save's outcome.

Compare-and-set: every save writes a fresh random revision and is refused unless the caller names
the stored one (and its version); see :mod:`bot.store.tables`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["Record", "Journal", "Saved", "table_id"]

_TABLE_ID = re.compile(r"[0-9A-Za-z]{1,16}")


class Record(NamedTuple):
    """A stored table: its version, record and revision (``""`` for a record saved before revisions)."""

    version: int
    data: str
    rev: str


class Journal(NamedTuple):
    """Entries a save appends to the list ``key`` exactly once, with the save (see :mod:`bot.store.tables`).

    Attributes:
        key: the list (on Cluster in a slot of its own, shared with ``ids``).
        ids: Cluster: the zset of the ids of the entries delivered to ``key`` lately.
        entries: ``(id, text)`` pairs; the id is unique among the list's entries.
        ttl: seconds ``key`` (and ``ids``) live after the append.
    """

    key: str
    ids: str
    entries: Sequence[tuple[str, str]]
    ttl: int


@dataclass(frozen=True)
class Saved:
    """What :meth:`~bot.store.tables.Store.save` did; true if it saved.

    Attributes:
        ok: whether the record was replaced.
        current: when it was not, the stored record (``None``: there is no such table, or the
            update was applied already), so that the caller can try again without loading.
        rev: when it was, the new revision.
        duplicate: the save was refused because its update was applied already.
    """

    ok: bool
    current: Record | None = None
    rev: str = ""
    duplicate: bool = False

    def __bool__(self) -> bool:
        return self.ok


def table_id(table_id: str) -> str:
    """``table_id`` if it is one (1 to 16 base62 characters); ``ValueError`` if not."""
    if not _TABLE_ID.fullmatch(table_id):
        raise ValueError(f"bad table id {table_id!r}")
    return table_id
